/* fuzz/stack_report.c - worst-case stack depth of a call chain, from the
 * call graph gcc writes with -fstack-usage -fcallgraph-info=su (.ci files,
 * VCG format: one node per function with its frame size, one edge per
 * call site).
 *
 *   stack_report ROOT [--depth FUNC=N]... [--indirect PART] FILE.ci...
 *   e.g. stack_report tflc_invoke --depth tflc__run_graph=2
 *          --indirect _invoke build/x.ci
 *
 * Prints the deepest path from ROOT (frames summed, each function once),
 * and reports cycles (recursion), frames gcc marks dynamic, and indirect
 * calls. An indirect call is followed into every internal function
 * (tflc__*) whose name contains PART (--indirect: the operator table's
 * invoke functions, which tflc_invoke reaches only through pointers);
 * without --indirect it is not followed (its targets are the caller's).
 * A recursive FUNC whose nesting the code bounds to N (--depth) adds
 * (N - 1) times its costliest cycle (the frames from FUNC down to its
 * next call of itself) to the bound. Exit status 1 when ROOT
 * is missing or a cycle goes through a function without a --depth
 * bound. */
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
static const char *indirect_part; /* --indirect PART, or NULL */
static int indirect_targets;      /* functions an indirect call may reach */
static long memo[MAX_NODES];      /* cycle_to: -2 unknown, -1 unreachable */
static char visiting[MAX_NODES];

static int follows_indirect(int j) {
  return indirect_part && strncmp(nodes[j].name, "tflc__", 6) == 0 &&
         strstr(nodes[j].name, indirect_part) != NULL;
}

/* Largest frame sum from i (its frame included) down to a call of
 * target (its frame not included), -1 when i never reaches it. */
static long cycle_to(int i, int target) {
  int e, j;
  long best = -1, c;
  if (i == target)
    return 0;
  if (memo[i] != -2)
    return memo[i];
  if (visiting[i])
    return -1; /* another cycle: walk() reports it */
  visiting[i] = 1;
  for (e = nodes[i].first; e >= 0; e = edge_next[e]) {
    if (strcmp(nodes[edge_to[e]].title, "__indirect_call") != 0) {
      c = cycle_to(edge_to[e], target);
      if (c >= 0 && nodes[i].size + c > best)
        best = nodes[i].size + c;
      continue;
    }
    for (j = 0; j < nnodes; j++)
      if (follows_indirect(j)) {
        c = cycle_to(j, target);
        if (c >= 0 && nodes[i].size + c > best)
          best = nodes[i].size + c;
      }
  }
  visiting[i] = 0;
  memo[i] = best;
  return best;
}

/* The costliest cycle through node x: its frame plus the largest frame
 * sum from a callee back to x (0 when x is not recursive). */
static long cycle_cost(int x) {
  int e, j;
  long best = 0, c;
  for (j = 0; j < nnodes; j++) {
    memo[j] = -2;
    visiting[j] = 0;
  }
  for (e = nodes[x].first; e >= 0; e = edge_next[e]) {
    if (strcmp(nodes[edge_to[e]].title, "__indirect_call") != 0) {
      c = cycle_to(edge_to[e], x);
      if (c >= 0 && nodes[x].size + c > best)
        best = nodes[x].size + c;
      continue;
    }
    for (j = 0; j < nnodes; j++)
      if (follows_indirect(j)) {
        c = cycle_to(j, x);
        if (c >= 0 && nodes[x].size + c > best)
          best = nodes[x].size + c;
      }
  }
  return best;
}

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
      int j;
      indirect++;
      for (j = 0; j < nnodes; j++) {
        if (!follows_indirect(j))
          continue;
        b = n->size + walk(j);
        if (b > n->best) {
          n->best = b;
          n->next = j;
        }
      }
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
    if (strcmp(argv[a], "--indirect") == 0 && a + 1 < argc) {
      indirect_part = argv[++a];
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
  for (i = 0; i < nnodes; i++)
    if (follows_indirect(i))
      indirect_targets++;
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
          bound_depth[b] > 1) {
        long c = cycle_cost(i);
        if (c > 0)
          printf("  %s: %ld bytes per nesting level, %d levels\n",
                 nodes[i].name, c, bound_depth[b]);
        bound += (long)(bound_depth[b] - 1) * c;
      }
  if (indirect_part)
    printf("recursion: %s; indirect calls: %d, each followed into the %d "
           "tflc__*%s* functions (user callbacks not counted); dynamic "
           "frames on the path or reachable: %d\n",
           cycles ? (unbounded_cycles ? "UNBOUNDED" : "bounded") : "none",
           indirect, indirect_targets, indirect_part, dyn);
  else
    printf("recursion: %s; indirect calls not followed: %d; dynamic frames "
           "on the path or reachable: %d\n",
           cycles ? (unbounded_cycles ? "UNBOUNDED" : "bounded") : "none",
           indirect, dyn);
  printf("stack bound from %s: %ld bytes (deepest chain%s)\n", argv[1], bound,
         bound != nodes[root].best ? " plus the bounded nesting" : "");
  return unbounded_cycles ? 1 : 0;
}
