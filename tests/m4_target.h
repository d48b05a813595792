/* m4_target.h - the cases tests/m4_test.sh compiles into tests/m4_target.c
 * (a bare-metal Cortex-M4F program for the QEMU harness of
 * ../shared/tools/cortex-m4-qemu). */
#ifndef M4_TARGET_H
#define M4_TARGET_H
typedef struct m4_case {
  const char *name;
  const unsigned char *model; /* possibly at an odd address */
  unsigned int model_len;
  const unsigned char *input[2]; /* input 1 NULL when the model has one */
  unsigned int input_len[2];
  const unsigned char *expect; /* TFLM's output 0 */
  unsigned int expect_len;
  unsigned int arena; /* exact arena to check (N works, N - 1 fails); 0: none */
  unsigned int arena_small; /* the same for the smallest plan (0: none) */
} m4_case;
extern const m4_case m4_cases[];
extern const int m4_num_cases;
#endif
