/* Extension fragment b: kernel implementations (tflc_kernels.h). */
