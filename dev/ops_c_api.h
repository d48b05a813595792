/* Extension fragment c: kernel declarations (API part of tflc_kernels.h). */
