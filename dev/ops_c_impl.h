/* Extension fragment c: kernel implementations (tflc_kernels.h). */
