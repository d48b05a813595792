/* fuzz/stack_report.c - worst-case stack depth of a call chain, from the
 * call graph gcc writes with -fstack-usage -fcallgraph-info=su (.ci files,
 * VCG format: one node per function with its frame size, one edge per
 * call site).
 *
 *   stack_report ROOT [--depth FUNC=N]... FILE.ci...
 *   e.g. stack_report tflc_invoke --depth tflc__run_graph=2 build/x.ci
 *
 * Prints the deepest path from ROOT (frames summed, each function once),
 * and reports cycles (recursion), frames gcc marks dynamic, and indirect
 * calls (not followed: their targets are the caller's). A recursive
 * FUNC whose nesting the code bounds to N (--depth) adds (N - 1) times
 * its deepest subtree to the bound. Exit status 1 when ROOT is missing
 * or a cycle goes through a function without a --depth bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 8192
#define MAX_EDGES 65536

typedef struct node {
  char title[160];
  char name[96];
  long size;
  int dynamic; /* 1 dynamic, 2 dynamic,bounded */
  int state;   /* 0 new, 1 on stack, 2 done */
  long best;   /* deepest stack below and including this frame */
  int next;    /* callee on the deepest path, -1 none */
  int first;   /* first edge */
} node;

static node nodes[MAX_NODES];
static int nnodes;
static int edge_from[MAX_EDGES], edge_to[MAX_EDGES], edge_next[MAX_EDGES];
static char edge_src[MAX_EDGES][160], edge_dst[MAX_EDGES][160];
static int nedges, cycles, indirect;
static char bounded[16][96];
static int bound_depth[16], nbounded, unbounded_cycles;

static int find(const char *title) {
  int i;
  for (i = 0; i < nnodes; i++)
    if (strcmp(nodes[i].title, title) == 0)
      return i;
  return -1;
}
static int intern(const char *title) {
  int i = find(title);
  if (i >= 0)
    return i;
  if (nnodes == MAX_NODES) {
    fprintf(stderr, "stack_report: too many nodes\n");
    exit(2);
  }
  i = nnodes++;
  memset(&nodes[i], 0, sizeof nodes[i]);
  snprintf(nodes[i].title, sizeof nodes[i].title, "%s", title);
  snprintf(nodes[i].name, sizeof nodes[i].name, "%s", title);
  nodes[i].first = -1;
  nodes[i].next = -1;
  return i;
}

/* copies the quoted value following `key` in line into out */
static int quoted(const char *line, const char *key, char *out, size_t cap) {
  const char *p = strstr(line, key), *e;
  size_t n;
  if (!p)
    return 0;
  p += strlen(key);
  while (*p == ' ' || *p == ':')
    p++;
  if (*p != '"')
    return 0;
  p++;
  e = strchr(p, '"');
  if (!e)
    return 0;
  n = (size_t)(e - p);
  if (n >= cap)
    n = cap - 1;
  memcpy(out, p, n);
  out[n] = 0;
  return 1;
}

static void load(const char *path) {
  FILE *f = fopen(path, "r");
  char line[4096];
  if (!f) {
    fprintf(stderr, "stack_report: cannot open %s\n", path);
    exit(2);
  }
  while (fgets(line, sizeof line, f)) {
    char title[160], label[1024];
    if (strncmp(line, "node:", 5) == 0 &&
        quoted(line, "title", title, sizeof title)) {
      int i = intern(title);
      if (quoted(line, "label", label, sizeof label)) {
        char *nl = strstr(label, "\\n"), *b;
        if (nl) {
          size_t n = (size_t)(nl - label);
          if (n >= sizeof nodes[i].name)
            n = sizeof nodes[i].name - 1;
          memcpy(nodes[i].name, label, n);
          nodes[i].name[n] = 0;
        }
        b = strstr(label, " bytes (");
        if (b) {
          char *s = b;
          while (s > label && s[-1] >= '0' && s[-1] <= '9')
            s--;
          nodes[i].size = strtol(s, NULL, 10);
          if (strncmp(b + 8, "dynamic,bounded", 15) == 0)
            nodes[i].dynamic = 2;
          else if (strncmp(b + 8, "dynamic", 7) == 0)
            nodes[i].dynamic = 1;
        }
      }
    } else if (strncmp(line, "edge:", 5) == 0) {
      if (nedges == MAX_EDGES) {
        fprintf(stderr, "stack_report: too many edges\n");
        exit(2);
      }
      if (quoted(line, "sourcename", edge_src[nedges], 160) &&
          quoted(line, "targetname", edge_dst[nedges], 160))
        nedges++;
    }
  }
  fclose(f);
}

static void link_edges(void) {
  int e;
  for (e = 0; e < nedges; e++) {
    edge_from[e] = intern(edge_src[e]);
    edge_to[e] = intern(edge_dst[e]);
    edge_next[e] = nodes[edge_from[e]].first;
    nodes[edge_from[e]].first = e;
  }
}

static long walk(int i) {
  int e;
  node *n = &nodes[i];
  if (n->state == 2)
    return n->best;
  if (n->state == 1) {
    int b, ok = 0;
    for (b = 0; b < nbounded; b++)
      if (strcmp(bounded[b], n->name) == 0)
        ok = 1;
    printf("  recursion: %s calls itself (through the chain below it)%s\n",
           n->name, ok ? ", nesting bounded by the code" : ", UNBOUNDED");
    cycles++;
    if (!ok)
      unbounded_cycles++;
    return 0;
  }
  n->state = 1;
  n->best = n->size;
  for (e = n->first; e >= 0; e = edge_next[e]) {
    long b;
    if (strcmp(nodes[edge_to[e]].title, "__indirect_call") == 0) {
      indirect++;
      continue;
    }
    b = n->size + walk(edge_to[e]);
    if (b > n->best) {
      n->best = b;
      n->next = edge_to[e];
    }
  }
  n->state = 2;
  return n->best;
}

int main(int argc, char **argv) {
  int a, root, i, b, dyn = 0;
  long bound;
  if (argc < 3) {
    fprintf(stderr,
            "usage: stack_report ROOT [--depth FUNC=N]... FILE.ci...\n");
    return 2;
  }
  for (a = 2; a < argc; a++) {
    if (strcmp(argv[a], "--depth") == 0 && a + 1 < argc && nbounded < 16) {
      const char *eq = strchr(argv[++a], '=');
      size_t l = eq ? (size_t)(eq - argv[a]) : 0;
      if (!eq || l >= sizeof bounded[0]) {
        fprintf(stderr, "stack_report: --depth FUNC=N\n");
        return 2;
      }
      memcpy(bounded[nbounded], argv[a], l);
      bounded[nbounded][l] = 0;
      bound_depth[nbounded++] = atoi(eq + 1);
      continue;
    }
    load(argv[a]);
  }
  link_edges();
  root = find(argv[1]);
  if (root < 0) {
    for (i = 0; i < nnodes; i++) {
      const char *c = strrchr(nodes[i].title, ':');
      if (c && strcmp(c + 1, argv[1]) == 0)
        root = i;
    }
  }
  if (root < 0) {
    fprintf(stderr, "stack_report: %s not in the call graph\n", argv[1]);
    return 1;
  }
  walk(root);
  printf("deepest call chain from %s: %ld bytes of stack\n", argv[1],
         nodes[root].best);
  for (i = root; i >= 0; i = nodes[i].next) {
    printf("  %6ld  %s%s\n", nodes[i].size, nodes[i].name,
           nodes[i].dynamic == 1   ? "  (dynamic)"
           : nodes[i].dynamic == 2 ? "  (dynamic, bounded)"
                                   : "");
    if (nodes[i].dynamic)
      dyn++;
  }
  for (i = 0; i < nnodes; i++)
    if (nodes[i].state == 2 && nodes[i].dynamic == 1) {
      printf("  unbounded dynamic frame reachable: %s\n", nodes[i].name);
      dyn++;
    }
  bound = nodes[root].best;
  for (b = 0; b < nbounded; b++)
    for (i = 0; i < nnodes; i++)
      if (nodes[i].state == 2 && strcmp(nodes[i].name, bounded[b]) == 0 &&
          bound_depth[b] > 1)
        bound += (long)(bound_depth[b] - 1) * nodes[i].best;
  printf("recursion: %s; indirect calls not followed: %d (the profile "
         "callback); dynamic frames on the path or reachable: %d\n",
         cycles ? (unbounded_cycles ? "UNBOUNDED" : "bounded") : "none",
         indirect, dyn);
  printf("stack bound from %s: %ld bytes (deepest chain%s)\n", argv[1], bound,
         bound != nodes[root].best ? " plus the bounded nesting" : "");
  return unbounded_cycles ? 1 : 0;
}
