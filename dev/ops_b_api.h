/* Extension fragment b: kernel declarations (API part of tflc_kernels.h). */
