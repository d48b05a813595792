/* Extension fragment a: kernel implementations (tflc_kernels.h). */
