/* tflc compress / tflc bin: the compression stage of the tflc tool.
 * Included by examples/tflc.c (which defines die(), read_file(),
 * write_file()). */
static int cmd_compress(int argc, char **argv) {
  (void)argc;
  (void)argv;
  die("compress: not implemented yet");
  return 1;
}
static int cmd_bin(int argc, char **argv) {
  (void)argc;
  (void)argv;
  die("bin: not implemented yet");
  return 1;
}
