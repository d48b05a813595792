/* Extension fragment a: kernel declarations (API part of tflc_kernels.h). */
