/* fuzz/replay.c - reruns fuzz inputs without libFuzzer (any C compiler):
 *
 *   cc -O1 -g -fsanitize=address,undefined fuzz/fuzz_model.c fuzz/replay.c
 *   ./a.out crash-1234 corpus_dir/ ...
 *
 * Each argument is a file or a directory of files; every file is passed
 * to LLVMFuzzerTestOneInput once. Prints "replayed N inputs" at the end. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long replayed;

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long n;
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 1;
  }
  buf = (uint8_t *)malloc((size_t)n + 1);
  if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
    fclose(f);
    free(buf);
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 1;
  }
  fclose(f);
  fprintf(stderr, "replay: %s (%ld bytes)\n", path, n);
  LLVMFuzzerTestOneInput(buf, (size_t)n);
  free(buf);
  replayed++;
  return 0;
}

static int replay_path(const char *path) {
  struct stat st;
  DIR *d;
  struct dirent *e;
  int bad = 0;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: no such file %s\n", path);
    return 1;
  }
  if (!S_ISDIR(st.st_mode))
    return replay_file(path);
  d = opendir(path);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory %s\n", path);
    return 1;
  }
  while ((e = readdir(d)) != NULL) {
    char full[4096];
    if (e->d_name[0] == '.')
      continue;
    snprintf(full, sizeof full, "%s/%s", path, e->d_name);
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
      bad |= replay_file(full);
  }
  closedir(d);
  return bad;
}

int main(int argc, char **argv) {
  int i, bad = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++)
    bad |= replay_path(argv[i]);
  printf("replayed %ld inputs\n", replayed);
  return bad;
}
