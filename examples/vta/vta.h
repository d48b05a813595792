/* examples/vta/vta.h - a functional model of the VTA accelerator.
 *
 * VTA (the open deep-learning accelerator of Apache TVM, the target of
 * seeds/vta_delegate_ops.rst) as a program sees it:
 *   - three on-chip SRAMs of configurable depth: INP (entries of 16 int8,
 *     one input vector), WGT (16x16 int8, one weight block, row o holds the
 *     16 inputs of output o), ACC (16 int32, one accumulator vector; its
 *     low 8 bits are the OUT vector a STORE writes);
 *   - GEMM: acc[d] += inp[s] x wgt[w]^T (16x16 int8 into int32), or reset
 *     acc[d] to 0; ALU on ACC vectors lane by lane: ADD, MUL (by a 16-bit
 *     number: the low 16 bits of the operand), SHR (arithmetic; a negative
 *     amount shifts left), MIN, MAX, the operand an ACC vector or a 16-bit
 *     immediate. Both run micro-op lists under two nested loops whose
 *     factors advance the dst / src / wgt indices (VTA's uop loops);
 *   - LOAD (2-D, strided, zero padding around) from DRAM into INP / WGT
 *     (the load module) or into ACC, from int32 or from sign-extended int8
 *     (the compute module), STORE (2-D, strided) of ACC's low 8 bits;
 *   - three modules, LOAD, COMPUTE and STORE, each running its own
 *     instructions in order, synchronised only by the dependency tokens
 *     the instructions push and pop (LOAD<->COMPUTE, COMPUTE<->STORE):
 *     the "two threads" of the seed are two halves of the SRAMs that LOAD
 *     fills while COMPUTE works on the other one.
 * The model runs each module as far ahead as its tokens allow (LOAD
 * first, then COMPUTE, then STORE), so a missing token shows up as wrong
 * results, and counts what a program costs: GEMM and ALU operations,
 * entries and bytes loaded and stored, and cycles under a simple cost
 * model (one GEMM block or ALU vector per cycle, 8 bytes per cycle to and
 * from DRAM, a few cycles per instruction; not the FPGA's timing), with the
 * three modules overlapping as their tokens allow.
 *
 * Use: vta_device_bytes(&cfg) bytes of memory, vta_device_init; queue
 * instructions with vta_load / vta_gemm / vta_alu / vta_store (micro-ops
 * with vta_uops), order modules with vta_dep_push / vta_dep_pop as TVM's
 * VTA runtime does, then vta_sync runs them (vta_reserve runs what is
 * queued when the buffers are short of room). Header only, static
 * functions; DRAM is plain memory given with its size, every access is
 * bounds-checked and an error stops the program with a message. */
#ifndef TFLC_EXAMPLES_VTA_H
#define TFLC_EXAMPLES_VTA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* every function is static; unused ones draw no warning */
#if defined(__GNUC__) || defined(__clang__)
#define VTA_FN static __attribute__((unused))
#else
#define VTA_FN static
#endif

#define VTA_BLOCK 16 /* BLOCK_IN = BLOCK_OUT; BATCH is 1 */

enum { VTA_MEM_INP, VTA_MEM_WGT, VTA_MEM_ACC, VTA_MEM_ACC8 };
enum { VTA_ALU_ADD, VTA_ALU_MUL, VTA_ALU_SHR, VTA_ALU_MIN, VTA_ALU_MAX };
enum { VTA_LOAD_Q, VTA_COMPUTE_Q, VTA_STORE_Q };
enum { VTA_INSN_LOAD, VTA_INSN_GEMM, VTA_INSN_ALU, VTA_INSN_STORE };
/* dependency flags of an instruction: pop before, push after */
enum {
  VTA_POP_PREV = 1,
  VTA_POP_NEXT = 2,
  VTA_PUSH_PREV = 4,
  VTA_PUSH_NEXT = 8
};
#define VTA_TOKENS 256 /* depth of each dependency queue */

typedef struct vta_config {
  uint32_t inp_depth, wgt_depth, acc_depth; /* SRAM entries */
  uint32_t insn_capacity, uop_capacity;     /* queued before a sync */
} vta_config;

/* The seed's configuration (vta_params.hpp): INP 32 KiB, WGT 256 KiB, ACC
 * 128 KiB; 8192 micro-ops (32 KiB) and 1024 queued instructions. */
VTA_FN vta_config vta_default_config(void) {
  vta_config c;
  c.inp_depth = 2048;
  c.wgt_depth = 1024;
  c.acc_depth = 2048;
  c.insn_capacity = 1024;
  c.uop_capacity = 8192;
  return c;
}

typedef struct vta_uop {
  uint32_t dst, src, wgt;
} vta_uop;

typedef struct vta_insn {
  uint8_t op;    /* VTA_INSN_* */
  uint8_t queue; /* module: VTA_*_Q */
  uint8_t deps;  /* VTA_POP_* | VTA_PUSH_* */
  uint8_t mem;   /* LOAD: VTA_MEM_* */
  uint8_t reset; /* GEMM: reset instead of accumulate */
  uint8_t alu;   /* ALU: VTA_ALU_* */
  uint8_t use_imm;
  int16_t imm;
  /* LOAD / STORE: DRAM of `dram_elems` elements, 2-D window */
  void *dram;
  uint32_t dram_elems, dram_off, sram;
  uint32_t x_size, y_size, x_stride;
  uint32_t x_pad0, x_pad1, y_pad0, y_pad1;
  /* GEMM / ALU: micro-ops [uop_begin, uop_end) under two loops */
  uint32_t uop_begin, uop_end, iter_out, iter_in;
  uint32_t dst_out, dst_in, src_out, src_in, wgt_out, wgt_in;
} vta_insn;

typedef struct vta_counters {
  uint64_t gemm;                    /* 16x16 block products (256 MACs each) */
  uint64_t gemm_reset;              /* accumulator vectors reset */
  uint64_t alu;                     /* ALU vector operations (16 lanes each) */
  uint64_t load_entries[4];         /* SRAM entries loaded, per VTA_MEM_* */
  uint64_t load_bytes, store_bytes; /* DRAM traffic */
  uint64_t insns[4];                /* per VTA_INSN_* */
  uint64_t syncs;
  uint64_t cycles;  /* end of the last instruction, cost model */
  uint64_t busy[3]; /* per module, cost model */
} vta_counters;

typedef struct vta_device {
  vta_config cfg;
  int8_t *inp;  /* inp_depth * 16 */
  int8_t *wgt;  /* wgt_depth * 256 */
  int32_t *acc; /* acc_depth * 16 */
  vta_insn *insns;
  vta_uop *uops;
  uint32_t num_insns, num_uops;
  int32_t last[3];    /* last queued instruction of each module, -1 */
  uint8_t pending[3]; /* pop flags for each module's next instruction */
  /* dependency queues: LOAD->COMPUTE, COMPUTE->LOAD, COMPUTE->STORE,
   * STORE->COMPUTE; each token carries the cycle it was pushed at */
  uint64_t token[4][VTA_TOKENS];
  uint32_t head[4], count[4];
  uint64_t clock[3];
  vta_counters n;
  int failed;
  char error[160];
} vta_device;

/* Bytes of memory vta_device_init needs for `cfg` (0 if absurd). */
VTA_FN size_t vta_device_bytes(const vta_config *cfg) {
  uint64_t b = (uint64_t)cfg->inp_depth * 16 + (uint64_t)cfg->wgt_depth * 256 +
               (uint64_t)cfg->acc_depth * 64 +
               (uint64_t)cfg->insn_capacity * sizeof(vta_insn) +
               (uint64_t)cfg->uop_capacity * sizeof(vta_uop) + 64;
  if (cfg->inp_depth == 0 || cfg->wgt_depth == 0 || cfg->acc_depth == 0 ||
      cfg->insn_capacity == 0 || cfg->uop_capacity == 0 || b > (1u << 30))
    return 0;
  return (size_t)b;
}

VTA_FN void *vta__carve(uint8_t **p, size_t bytes) {
  uintptr_t a = ((uintptr_t)*p + 15) & ~(uintptr_t)15;
  *p = (uint8_t *)a + bytes;
  return (void *)a;
}

/* Sets the device up in `mem` (vta_device_bytes(cfg) bytes). 0 on success. */
VTA_FN int vta_device_init(vta_device *d, const vta_config *cfg, void *mem,
                           size_t bytes) {
  uint8_t *p = (uint8_t *)mem;
  size_t need = vta_device_bytes(cfg);
  memset(d, 0, sizeof *d);
  if (!need || !mem || bytes < need)
    return -1;
  d->cfg = *cfg;
  d->inp = (int8_t *)vta__carve(&p, (size_t)cfg->inp_depth * 16);
  d->wgt = (int8_t *)vta__carve(&p, (size_t)cfg->wgt_depth * 256);
  d->acc = (int32_t *)vta__carve(&p, (size_t)cfg->acc_depth * 64);
  d->insns = (vta_insn *)vta__carve(&p, cfg->insn_capacity * sizeof(vta_insn));
  d->uops = (vta_uop *)vta__carve(&p, cfg->uop_capacity * sizeof(vta_uop));
  d->last[0] = d->last[1] = d->last[2] = -1;
  return 0;
}

VTA_FN int vta__fail(vta_device *d, const char *what, uint32_t a, uint32_t b) {
  if (!d->failed) {
    const char *digits = "0123456789";
    char num[2][12];
    uint32_t v[2];
    int k, i, n;
    size_t len;
    v[0] = a;
    v[1] = b;
    for (k = 0; k < 2; k++) { /* no printf in this file */
      char tmp[12];
      n = 0;
      do {
        tmp[n++] = digits[v[k] % 10u];
        v[k] /= 10u;
      } while (v[k] && n < 11);
      for (i = 0; i < n; i++)
        num[k][i] = tmp[n - 1 - i];
      num[k][n] = 0;
    }
    len = strlen(what);
    if (len > 100)
      len = 100;
    memcpy(d->error, what, len);
    d->error[len] = 0;
    strcat(d->error, " (");
    strcat(d->error, num[0]);
    strcat(d->error, ", ");
    strcat(d->error, num[1]);
    strcat(d->error, ")");
  }
  d->failed = 1;
  return -1;
}

/* ---- lane arithmetic (wrapping, as 32-bit hardware) ---------------------- */
VTA_FN int32_t vta__i32(uint32_t u) {
  return u <= 0x7FFFFFFFu ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}
VTA_FN int32_t vta__lane(int alu, int32_t x, int32_t y) {
  int32_t n;
  switch (alu) {
  case VTA_ALU_ADD:
    return vta__i32((uint32_t)x + (uint32_t)y);
  case VTA_ALU_MUL: {
    int32_t y16 = (int32_t)((uint32_t)y & 0xFFFFu);
    if (y16 >= 0x8000)
      y16 -= 0x10000; /* the multiplier is 16 bits wide */
    return vta__i32((uint32_t)((int64_t)x * y16));
  }
  case VTA_ALU_SHR:
    n = y > 31 ? 31 : y < -31 ? -31 : y;
    if (n >= 0)
      return x >= 0 ? x >> n : ~((~x) >> n); /* floor */
    return vta__i32((uint32_t)x << -n);
  case VTA_ALU_MIN:
    return x < y ? x : y;
  default:
    return x > y ? x : y;
  }
}

/* ---- building a program -------------------------------------------------- */
VTA_FN int vta_sync(vta_device *d);

/* Room for `insns` more instructions and `uops` more micro-ops: runs what
 * is queued first when they do not fit (call it where a program may be
 * cut: not between an instruction and its vta_dep_push, nor between
 * micro-ops and the instruction using them). 0, or -1. */
VTA_FN int vta_reserve(vta_device *d, uint32_t insns, uint32_t uops) {
  if (d->failed)
    return -1;
  if (insns > d->cfg.insn_capacity || uops > d->cfg.uop_capacity)
    return vta__fail(d, "program step larger than the buffers", insns, uops);
  if (d->num_insns + insns > d->cfg.insn_capacity ||
      d->num_uops + uops > d->cfg.uop_capacity)
    return vta_sync(d);
  return 0;
}

VTA_FN vta_insn *vta__queue(vta_device *d, uint8_t op, uint8_t queue) {
  vta_insn *i;
  if (d->failed)
    return NULL;
  if (d->num_insns == d->cfg.insn_capacity) {
    (void)vta__fail(d, "instruction buffer full (vta_reserve too little)",
                    d->num_insns, 0);
    return NULL;
  }
  i = &d->insns[d->num_insns];
  memset(i, 0, sizeof *i);
  i->op = op;
  i->queue = queue;
  i->deps = d->pending[queue];
  d->pending[queue] = 0;
  d->last[queue] = (int32_t)d->num_insns++;
  d->n.insns[op]++;
  return i;
}

/* `n` micro-ops to fill: returns the first index, or -1. */
VTA_FN int32_t vta_uops(vta_device *d, uint32_t n) {
  uint32_t b;
  if (d->failed)
    return -1;
  if (n == 0 || d->num_uops + n > d->cfg.uop_capacity)
    return vta__fail(d, "micro-op buffer full (vta_reserve too little)", n,
                     d->cfg.uop_capacity);
  b = d->num_uops;
  d->num_uops += n;
  return (int32_t)b;
}

/* LOAD: y_pad0 zero rows, then y_size rows of (x_pad0 zeros, x_size
 * elements from DRAM element off + y * x_stride, x_pad1 zeros), then y_pad1
 * zero rows, into consecutive entries from `sram`. DRAM elements: INP 16
 * int8, WGT 256 int8, ACC 16 int32, ACC8 16 int8 (sign-extended). INP and
 * WGT loads run on the LOAD module, ACC loads on COMPUTE. */
VTA_FN int vta_load(vta_device *d, int mem, const void *dram,
                    uint32_t dram_elems, uint32_t off, uint32_t x_size,
                    uint32_t y_size, uint32_t x_stride, uint32_t x_pad0,
                    uint32_t x_pad1, uint32_t y_pad0, uint32_t y_pad1,
                    uint32_t sram) {
  vta_insn *i = vta__queue(d, VTA_INSN_LOAD,
                           (uint8_t)(mem == VTA_MEM_INP || mem == VTA_MEM_WGT
                                         ? VTA_LOAD_Q
                                         : VTA_COMPUTE_Q));
  if (!i)
    return -1;
  i->mem = (uint8_t)mem;
  i->dram = (void *)(uintptr_t)dram;
  i->dram_elems = dram_elems;
  i->dram_off = off;
  i->x_size = x_size;
  i->y_size = y_size;
  i->x_stride = x_stride;
  i->x_pad0 = x_pad0;
  i->x_pad1 = x_pad1;
  i->y_pad0 = y_pad0;
  i->y_pad1 = y_pad1;
  i->sram = sram;
  return 0;
}

/* STORE: y_size rows of x_size ACC entries from `sram` (low 8 bits of each
 * lane) to DRAM elements (16 int8) off + y * x_stride + x. */
VTA_FN int vta_store(vta_device *d, void *dram, uint32_t dram_elems,
                     uint32_t off, uint32_t sram, uint32_t x_size,
                     uint32_t y_size, uint32_t x_stride) {
  vta_insn *i = vta__queue(d, VTA_INSN_STORE, VTA_STORE_Q);
  if (!i)
    return -1;
  i->dram = dram;
  i->dram_elems = dram_elems;
  i->dram_off = off;
  i->sram = sram;
  i->x_size = x_size;
  i->y_size = y_size;
  i->x_stride = x_stride;
  return 0;
}

/* GEMM over micro-ops [begin, begin + n): for y < iter_out, x < iter_in,
 * each uop: acc[dst + y dst_out + x dst_in] += inp[src + ...] x wgt[wgt +
 * ...] (or = 0 with reset). */
VTA_FN int vta_gemm(vta_device *d, int reset, int32_t begin, uint32_t n,
                    uint32_t iter_out, uint32_t dst_out, uint32_t src_out,
                    uint32_t wgt_out, uint32_t iter_in, uint32_t dst_in,
                    uint32_t src_in, uint32_t wgt_in) {
  vta_insn *i;
  if (begin < 0)
    return -1;
  i = vta__queue(d, VTA_INSN_GEMM, VTA_COMPUTE_Q);
  if (!i)
    return -1;
  i->reset = (uint8_t)(reset != 0);
  i->uop_begin = (uint32_t)begin;
  i->uop_end = (uint32_t)begin + n;
  i->iter_out = iter_out;
  i->dst_out = dst_out;
  i->src_out = src_out;
  i->wgt_out = wgt_out;
  i->iter_in = iter_in;
  i->dst_in = dst_in;
  i->src_in = src_in;
  i->wgt_in = wgt_in;
  return 0;
}

/* ALU over micro-ops: acc[dst'] = op(acc[dst'], use_imm ? imm : acc[src']),
 * with dst' / src' advanced by the loops as for GEMM. */
VTA_FN int vta_alu(vta_device *d, int alu, int use_imm, int32_t imm,
                   int32_t begin, uint32_t n, uint32_t iter_out,
                   uint32_t dst_out, uint32_t src_out, uint32_t iter_in,
                   uint32_t dst_in, uint32_t src_in) {
  vta_insn *i;
  if (begin < 0)
    return -1;
  if (use_imm && (imm < -32768 || imm > 32767))
    return vta__fail(d, "ALU immediate wider than 16 bits", (uint32_t)imm, 0);
  i = vta__queue(d, VTA_INSN_ALU, VTA_COMPUTE_Q);
  if (!i)
    return -1;
  i->alu = (uint8_t)alu;
  i->use_imm = (uint8_t)(use_imm != 0);
  i->imm = (int16_t)imm;
  i->uop_begin = (uint32_t)begin;
  i->uop_end = (uint32_t)begin + n;
  i->iter_out = iter_out;
  i->dst_out = dst_out;
  i->src_out = src_out;
  i->iter_in = iter_in;
  i->dst_in = dst_in;
  i->src_in = src_in;
  return 0;
}

/* The dependency queue between two modules (adjacent ones only). */
VTA_FN int vta__qid(int from, int to) {
  if (from == VTA_LOAD_Q && to == VTA_COMPUTE_Q)
    return 0;
  if (from == VTA_COMPUTE_Q && to == VTA_LOAD_Q)
    return 1;
  if (from == VTA_COMPUTE_Q && to == VTA_STORE_Q)
    return 2;
  if (from == VTA_STORE_Q && to == VTA_COMPUTE_Q)
    return 3;
  return -1;
}
/* The last instruction queued on module `from` pushes a token to `to`. */
VTA_FN int vta_dep_push(vta_device *d, int from, int to) {
  if (d->failed)
    return -1;
  if (vta__qid(from, to) < 0 || d->last[from] < 0)
    return vta__fail(d, "dep_push without an instruction", (uint32_t)from,
                     (uint32_t)to);
  d->insns[d->last[from]].deps |=
      (uint8_t)(to > from ? VTA_PUSH_NEXT : VTA_PUSH_PREV);
  return 0;
}
/* The next instruction queued on module `to` pops a token from `from`. */
VTA_FN int vta_dep_pop(vta_device *d, int from, int to) {
  if (d->failed)
    return -1;
  if (vta__qid(from, to) < 0)
    return vta__fail(d, "dep_pop between these modules", (uint32_t)from,
                     (uint32_t)to);
  d->pending[to] |= (uint8_t)(from < to ? VTA_POP_PREV : VTA_POP_NEXT);
  return 0;
}

/* ---- running a program --------------------------------------------------- */
VTA_FN uint32_t vta__elem_bytes(int mem) {
  return mem == VTA_MEM_WGT ? 256u : mem == VTA_MEM_ACC ? 64u : 16u;
}
VTA_FN uint32_t vta__depth(const vta_device *d, int mem) {
  return mem == VTA_MEM_INP   ? d->cfg.inp_depth
         : mem == VTA_MEM_WGT ? d->cfg.wgt_depth
                              : d->cfg.acc_depth;
}

VTA_FN uint64_t vta__run_load(vta_device *d, const vta_insn *i) {
  const uint32_t row = i->x_pad0 + i->x_size + i->x_pad1;
  const uint32_t rows = i->y_pad0 + i->y_size + i->y_pad1;
  const uint32_t eb = vta__elem_bytes(i->mem);
  uint64_t total = (uint64_t)row * rows, last;
  uint32_t y, x, e = i->sram;
  if (total > vta__depth(d, i->mem) || i->sram > vta__depth(d, i->mem) - total)
    return (uint64_t)vta__fail(d, "LOAD past the end of the SRAM", i->sram,
                               (uint32_t)total);
  last = i->y_size ? (uint64_t)i->dram_off +
                         (uint64_t)(i->y_size - 1) * i->x_stride + i->x_size
                   : 0;
  if (i->x_size && i->y_size && (last > i->dram_elems || !i->dram))
    return (uint64_t)vta__fail(d, "LOAD outside its DRAM buffer", i->dram_off,
                               i->dram_elems);
  for (y = 0; y < rows; y++)
    for (x = 0; x < row; x++, e++) {
      const int inside = y >= i->y_pad0 && y < i->y_pad0 + i->y_size &&
                         x >= i->x_pad0 && x < i->x_pad0 + i->x_size;
      const uint64_t src =
          inside ? i->dram_off + (uint64_t)(y - i->y_pad0) * i->x_stride +
                       (x - i->x_pad0)
                 : 0;
      const uint8_t *from = inside ? (const uint8_t *)i->dram + src * eb : NULL;
      int k;
      switch (i->mem) {
      case VTA_MEM_INP:
        if (from)
          memcpy(d->inp + (size_t)e * 16, from, 16);
        else
          memset(d->inp + (size_t)e * 16, 0, 16);
        break;
      case VTA_MEM_WGT:
        if (from)
          memcpy(d->wgt + (size_t)e * 256, from, 256);
        else
          memset(d->wgt + (size_t)e * 256, 0, 256);
        break;
      case VTA_MEM_ACC:
        if (from)
          memcpy(d->acc + (size_t)e * 16, from, 64);
        else
          memset(d->acc + (size_t)e * 16, 0, 64);
        break;
      default: /* ACC8 */
        for (k = 0; k < 16; k++)
          d->acc[(size_t)e * 16 + (size_t)k] = from ? (int8_t)from[k] : 0;
      }
    }
  d->n.load_entries[i->mem] += total;
  d->n.load_bytes += (uint64_t)i->x_size * i->y_size * eb;
  /* cost: the DRAM bytes at 8 a cycle, one cycle per padding entry */
  return 8 + (uint64_t)i->x_size * i->y_size * eb / 8 +
         (total - (uint64_t)i->x_size * i->y_size);
}

VTA_FN uint64_t vta__run_store(vta_device *d, const vta_insn *i) {
  uint64_t total = (uint64_t)i->x_size * i->y_size, last;
  uint32_t y, x, e = i->sram;
  int k;
  if (total > d->cfg.acc_depth || i->sram > d->cfg.acc_depth - total)
    return (uint64_t)vta__fail(d, "STORE past the end of the SRAM", i->sram,
                               (uint32_t)total);
  last = i->y_size ? (uint64_t)i->dram_off +
                         (uint64_t)(i->y_size - 1) * i->x_stride + i->x_size
                   : 0;
  if (total && (last > i->dram_elems || !i->dram))
    return (uint64_t)vta__fail(d, "STORE outside its DRAM buffer", i->dram_off,
                               i->dram_elems);
  for (y = 0; y < i->y_size; y++)
    for (x = 0; x < i->x_size; x++, e++) {
      uint8_t *to = (uint8_t *)i->dram +
                    (i->dram_off + (uint64_t)y * i->x_stride + x) * 16;
      for (k = 0; k < 16; k++)
        to[k] = (uint8_t)((uint32_t)d->acc[(size_t)e * 16 + (size_t)k] & 0xFFu);
    }
  d->n.store_bytes += total * 16;
  return 8 + total * 2;
}

VTA_FN uint64_t vta__run_compute(vta_device *d, const vta_insn *i) {
  uint32_t y, x, u, j, k;
  uint64_t iters =
      (uint64_t)i->iter_out * i->iter_in * (i->uop_end - i->uop_begin);
  if (i->uop_end > d->num_uops || i->uop_begin > i->uop_end)
    return (uint64_t)vta__fail(d, "micro-ops outside the buffer", i->uop_begin,
                               i->uop_end);
  for (y = 0; y < i->iter_out; y++)
    for (x = 0; x < i->iter_in; x++)
      for (u = i->uop_begin; u < i->uop_end; u++) {
        const vta_uop *op = &d->uops[u];
        const uint64_t dst = (uint64_t)op->dst + (uint64_t)y * i->dst_out +
                             (uint64_t)x * i->dst_in;
        const uint64_t src = (uint64_t)op->src + (uint64_t)y * i->src_out +
                             (uint64_t)x * i->src_in;
        const uint64_t wgt = (uint64_t)op->wgt + (uint64_t)y * i->wgt_out +
                             (uint64_t)x * i->wgt_in;
        int32_t *acc;
        if (dst >= d->cfg.acc_depth)
          return (uint64_t)vta__fail(d, "ACC index out of range", (uint32_t)dst,
                                     d->cfg.acc_depth);
        acc = d->acc + dst * 16;
        if (i->op == VTA_INSN_GEMM && i->reset) {
          memset(acc, 0, 64);
        } else if (i->op == VTA_INSN_GEMM) {
          const int8_t *in, *w;
          if (src >= d->cfg.inp_depth || wgt >= d->cfg.wgt_depth)
            return (uint64_t)vta__fail(d, "INP or WGT index out of range",
                                       (uint32_t)src, (uint32_t)wgt);
          in = d->inp + src * 16;
          w = d->wgt + wgt * 256;
          for (j = 0; j < 16; j++) {
            int32_t sum = 0;
            for (k = 0; k < 16; k++)
              sum += (int32_t)in[k] * (int32_t)w[j * 16 + k];
            acc[j] = vta__i32((uint32_t)acc[j] + (uint32_t)sum);
          }
        } else {
          const int32_t *s = NULL;
          if (!i->use_imm) {
            if (src >= d->cfg.acc_depth)
              return (uint64_t)vta__fail(d, "ACC index out of range",
                                         (uint32_t)src, d->cfg.acc_depth);
            s = d->acc + src * 16;
          }
          for (j = 0; j < 16; j++)
            acc[j] = vta__lane(i->alu, acc[j], s ? s[j] : (int32_t)i->imm);
        }
      }
  if (i->op == VTA_INSN_GEMM && i->reset)
    d->n.gemm_reset += iters;
  else if (i->op == VTA_INSN_GEMM)
    d->n.gemm += iters;
  else
    d->n.alu += iters;
  return 4 + iters;
}

/* Runs every queued instruction, each module in its order as far as its
 * tokens allow. 0, or -1 with d->error (a deadlock, an access out of
 * range). The token counts carry over to the next program. */
VTA_FN int vta_sync(vta_device *d) {
  uint32_t next[3] = {0, 0, 0}, done = 0;
  int q;
  if (d->failed)
    return -1;
  /* one instruction at a time from the first module that can go: LOAD
   * runs as far ahead as its tokens allow, STORE only when nothing else
   * can (so that a missing token shows) */
  for (q = 0; q < 3 && !d->failed;) {
    const vta_insn *i;
    int pops[2], np = 0, k;
    uint64_t start, cost;
    while (next[q] < d->num_insns && d->insns[next[q]].queue != q)
      next[q]++;
    if (next[q] >= d->num_insns) {
      q++;
      continue;
    }
    i = &d->insns[next[q]];
    if (i->deps & VTA_POP_PREV)
      pops[np++] = vta__qid(q - 1, q);
    if (i->deps & VTA_POP_NEXT)
      pops[np++] = vta__qid(q + 1, q);
    for (k = 0; k < np; k++)
      if (pops[k] < 0 || d->count[pops[k]] == 0)
        break;
    if (k < np) {
      if (pops[k] < 0)
        return vta__fail(d, "pop from no module", next[q], (uint32_t)q);
      q++; /* waits for a token: the next module */
      continue;
    }
    start = d->clock[q];
    for (k = 0; k < np; k++) {
      const int id = pops[k];
      const uint64_t t = d->token[id][d->head[id]];
      if (t > start)
        start = t;
      d->head[id] = (d->head[id] + 1) % VTA_TOKENS;
      d->count[id]--;
    }
    cost = i->op == VTA_INSN_LOAD    ? vta__run_load(d, i)
           : i->op == VTA_INSN_STORE ? vta__run_store(d, i)
                                     : vta__run_compute(d, i);
    if (d->failed)
      return -1;
    d->clock[q] = start + cost;
    d->n.busy[q] += cost;
    if (d->clock[q] > d->n.cycles)
      d->n.cycles = d->clock[q];
    for (k = 0; k < 2; k++) {
      const int flag = k ? VTA_PUSH_NEXT : VTA_PUSH_PREV;
      const int id = k ? vta__qid(q, q + 1) : vta__qid(q, q - 1);
      if (!(i->deps & flag))
        continue;
      if (id < 0 || d->count[id] == VTA_TOKENS)
        return vta__fail(d, "token queue overflow", next[q], (uint32_t)q);
      d->token[id][(d->head[id] + d->count[id]) % VTA_TOKENS] = d->clock[q];
      d->count[id]++;
    }
    next[q]++;
    done++;
    q = 0; /* back to LOAD */
  }
  if (d->failed)
    return -1;
  if (done != d->num_insns)
    return vta__fail(d, "deadlock: instructions wait for tokens never pushed",
                     d->num_insns - done, d->num_insns);
  d->num_insns = 0;
  d->num_uops = 0;
  d->last[0] = d->last[1] = d->last[2] = -1;
  d->n.syncs++;
  return 0;
}

/* Forgets everything queued and every token (after an error). */
VTA_FN void vta_abort(vta_device *d) {
  int k;
  d->failed = 0;
  d->num_insns = d->num_uops = 0;
  for (k = 0; k < 4; k++)
    d->head[k] = d->count[k] = 0;
  d->last[0] = d->last[1] = d->last[2] = -1;
  d->pending[0] = d->pending[1] = d->pending[2] = 0;
}

/* After a whole program: drops tokens nobody will pop (a program that
 * ends with its last buffers released leaves them) and puts the modules'
 * clocks together, so the next program starts from a clean state. */
VTA_FN int vta_finish(vta_device *d) {
  int k;
  if (vta_sync(d) != 0)
    return -1;
  for (k = 0; k < 4; k++)
    d->head[k] = d->count[k] = 0;
  for (k = 0; k < 3; k++)
    d->clock[k] = d->n.cycles;
  d->pending[0] = d->pending[1] = d->pending[2] = 0;
  return 0;
}

#endif /* TFLC_EXAMPLES_VTA_H */
