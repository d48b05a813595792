#!/usr/bin/env python3
"""Estimated Cortex-M4 cycles of one measured window, from the executed
instruction mix.

usage: m4_cycles.py prog.elf prof.txt [--top N] [--refill P] [--json]

prof.txt is the per-translation-block profile of the insnwin QEMU plugin
(../shared/tools/cortex-m4-qemu/plugin/insnwin.c, `prof=FILE,profwin=K`):
one line "tb_vaddr n_insns executions" per block executed in the window.
Each block is disassembled (arm-none-eabi-objdump -d) and every executed
instruction is charged the cost below, in the order the block runs it, so
that the load pipelining and address-dependency rules see the neighbours.

Cost table (Cortex-M4 Technical Reference Manual, "Processor instruction
set summary" and "Load/store timings"; zero wait-state memory):

  data processing, shifts, MOV/MOVW/MOVT, compare/test  1
  MUL, MLA, MLS, SMULL, UMULL, SMLAL, UMLAL, SMLAxy,
    SMLAD, SMUAD, SMLSD, SMMUL, SMMLA, ... (all multiplies)  1
  SDIV, UDIV                                             7 (TRM: 2-12 by
                                                           operand size; the
                                                           middle is taken)
  SXTB16, SXTAB16, SADD16, QADD, SSAT, USAT, PKHBT, ...  1 (DSP SIMD)
  LDR, LDRB, LDRH, LDRSB, LDRSH, VLDR (single loads)     2, but 1 when the
    previous instruction is a single load whose
    destination is not this load's address register
    (pipelined back-to-back loads)
  STR, STRB, STRH, VSTR (single stores)                  1 with an immediate
                                                           offset, 2 with a
                                                           register offset (1
                                                           after a load)
  any load or store whose address register the previous
    instruction wrote                                    +1 (no forwarding)
  LDRD, STRD                                             3
  LDM, STM, PUSH, POP, VLDM, VSTM, VPUSH, VPOP           1 + N (N words)
  B, BL, BX, BLX, CBZ, CBNZ taken; POP/LDM/LDR/MOV/ADD
    with PC as destination                               + P (pipeline
                                                           refill; TRM: 1-3;
                                                           P = 2 here,
                                                           --refill)
  conditional branch not taken                           1
  TBB, TBH                                               2 + P
  IT                                                     0 after a 16-bit
                                                           instruction (folded),
                                                           else 1
  VADD, VSUB, VMUL, VNMUL, VABS, VNEG, VCMP, VCVT, VMOV  1 (VMOV of two core
                                                           registers 2)
  VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS     3
  VDIV, VSQRT                                            14
  DMB, DSB, ISB                                          1 + P

Not modelled: wait states, unaligned-access penalties, bus contention, the
extra cycle of a literal-pool load, the register-bank stall of a load result
used at once (the M4 forwards it).

Branch outcomes: the plugin counts block executions, not edges. A block is
entered either by the branch that ends some block (taken: its target;
not taken: the next address) or by falling out of a block ended for another
reason, or indirectly (returns, calls through a register, TBB/TBH).
For every block start the executions equal the sum of what enters it; these
equations are solved for the taken count of each conditional branch where
one unknown remains (blocks that a return, an indirect call or a jump table
may enter are left out). Branches left unresolved are charged the mean of
taken and not taken; the report gives their share and the bounds (all taken /
none taken), so the estimate's own uncertainty is on the page.
"""
import argparse
import bisect
import collections
import json
import re
import subprocess
import sys

CONDS = ('eq', 'ne', 'cs', 'hs', 'cc', 'lo', 'mi', 'pl', 'vs', 'vc', 'hi',
         'ls', 'ge', 'lt', 'gt', 'le', 'al')
LOAD1 = {'ldr', 'ldrb', 'ldrh', 'ldrsb', 'ldrsh', 'ldrex', 'ldrexb',
         'ldrexh', 'ldrt', 'ldrbt', 'ldrht', 'ldrsbt', 'ldrsht', 'vldr'}
STORE1 = {'str', 'strb', 'strh', 'strex', 'strexb', 'strexh', 'strt',
          'strbt', 'strht', 'vstr'}
DOUBLE = {'ldrd', 'strd'}
MULTI = {'ldm', 'ldmia', 'ldmfd', 'ldmdb', 'stm', 'stmia', 'stmea', 'stmdb',
         'stmfd', 'push', 'pop', 'vldm', 'vldmia', 'vldmdb', 'vstm',
         'vstmia', 'vstmdb', 'vpush', 'vpop'}
DIV = {'sdiv', 'udiv'}
FMAC = {'vmla', 'vmls', 'vnmla', 'vnmls', 'vfma', 'vfms', 'vfnma', 'vfnms'}
FSLOW = {'vdiv', 'vsqrt'}
BARRIER = {'dmb', 'dsb', 'isb'}
BRANCH = {'b', 'bl', 'blx', 'bx', 'cbz', 'cbnz', 'tbb', 'tbh'}
# every other known mnemonic costs 1; these let a condition suffix be told
# from the mnemonic (e.g. "movne", "ldrbne", "bls")
ONE = set('''adc adcs add adds addw adr and ands asr asrs bfc bfi bic bics
clz cmn cmp eor eors lsl lsls lsr lsrs mla mls mov movs movw movt mul muls
mvn mvns neg negs nop orn orns orr orrs rbit rev rev16 revsh ror rors rrx
rsb rsbs sbc sbcs sbfx sel smlabb smlabt smlatb smlatt smlad smladx smlal
smlalbb smlald smlaldx smlawb smlawt smlsd smlsdx smlsld smmla smmlar smmls
smmul smmulr smuad smuadx smulbb smulbt smultb smultt smull smulwb smulwt
smusd ssat ssat16 sub subs subw sxtab sxtab16 sxtah sxtb sxtb16 sxth teq tst
uadd16 uadd8 ubfx umaal umlal umull usat usat16 uxtab uxtab16 uxtah uxtb
uxtb16 uxth qadd qadd16 qadd8 qsub qsub16 qsub8 qdadd qdsub sadd16 sadd8
ssub16 ssub8 shadd16 shadd8 uhadd16 uhadd8 usub16 usub8 pkhbt pkhtb sasx ssax
qasx qsax uqadd16 uqadd8 uqsub16 uqsub8 usad8 usada8 it ite itt itee itet
itte ittt iteee iteet itete itett ittee ittet ittte itttt vadd vsub vmul
vnmul vabs vneg vcmp vcmpe vcvt vcvtr vcvtb vcvtt vmov vmrs vmsr vsel
vmaxnm vminnm mrs msr cpsid cpsie wfi wfe sev bkpt svc udf yield'''.split())
KNOWN = ONE | LOAD1 | STORE1 | DOUBLE | MULTI | DIV | FMAC | FSLOW | \
    BARRIER | BRANCH
REG = {('r%d' % i): i for i in range(13)}
REG.update({'sb': 9, 'sl': 10, 'fp': 11, 'ip': 12, 'sp': 13, 'lr': 14,
            'pc': 15})


def split_mnemonic(m):
    """(base, conditional) of an objdump mnemonic: 'ldrbne.w' -> ('ldrb', True)"""
    m = m.split('.')[0]
    if m in KNOWN:
        return m, False
    if len(m) > 2 and m[-2:] in CONDS and m[:-2] in KNOWN:
        return m[:-2], m[-2:] != 'al'
    return m, False


def regs_in(s):
    return [REG[t] for t in re.findall(r'\b(r\d+|sb|sl|fp|ip|sp|lr|pc)\b', s)
            if t in REG]


def reglist_words(ops):
    m = re.search(r'\{([^}]*)\}', ops)
    if not m:
        return 1
    n = 0
    for part in m.group(1).split(','):
        part = part.strip()
        r = re.match(r'([rsd])(\d+)-[rsd](\d+)', part)
        if r:
            k = int(r.group(3)) - int(r.group(2)) + 1
            n += 2 * k if r.group(1) == 'd' else k
        elif part:
            n += 2 if part.startswith('d') else 1
    return n


class Insn:
    __slots__ = ('addr', 'size', 'base', 'cond', 'ops', 'kind', 'target',
                 'dst', 'addr_regs', 'writes_pc', 'words', 'regoff')


def disassemble(elf):
    out = subprocess.run(['arm-none-eabi-objdump', '-d', elf],
                         capture_output=True, text=True, check=True).stdout
    insns = {}
    funcs = []
    line_re = re.compile(r'^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4}\s?){1,2})\s+(\S+)\s*(.*)$')
    for line in out.splitlines():
        f = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
        if f:
            funcs.append((int(f.group(1), 16), f.group(2)))
            continue
        m = line_re.match(line)
        if not m:
            continue
        raw = m.group(2).split()
        if len(raw[0]) != 4:
            continue
        mnem = m.group(3)
        if mnem.startswith('.'):
            continue
        ins = Insn()
        ins.addr = int(m.group(1), 16)
        ins.size = 2 * len(raw)
        ins.base, ins.cond = split_mnemonic(mnem)
        ins.ops = m.group(4).split(';')[0].split('@')[0].strip()
        ins.target = None
        ins.regoff = False
        ins.words = 1
        b = ins.base
        ops = ins.ops
        dst_part, _, rest = ops.partition(',')
        ins.dst = regs_in(dst_part)
        ins.addr_regs = []
        ins.writes_pc = False
        if b in BRANCH:
            ins.kind = 'branch'
            t = re.search(r'\b([0-9a-f]+) <', ops)
            if t and b not in ('bx', 'blx', 'tbb', 'tbh'):
                ins.target = int(t.group(1), 16)
            elif t and b == 'blx' and not regs_in(ops.split('<')[0]):
                ins.target = int(t.group(1), 16)
            ins.writes_pc = True
        elif b in LOAD1 or b in STORE1 or b in DOUBLE:
            ins.kind = 'load' if b in LOAD1 else 'store' if b in STORE1 else 'double'
            mem = re.search(r'\[([^\]]*)\]', ops)
            ins.addr_regs = regs_in(mem.group(1)) if mem else []
            ins.regoff = len(ins.addr_regs) > 1
            if b in LOAD1 and 15 in ins.dst:
                ins.writes_pc = True
        elif b in MULTI:
            ins.kind = 'multi'
            ins.words = reglist_words(ops)
            br = re.match(r'\s*(\w+)', ops)
            ins.addr_regs = [REG[br.group(1)]] if br and br.group(1) in REG else [13]
            if (b.startswith('ldm') or b == 'pop') and re.search(r'\bpc\b', ops):
                ins.writes_pc = True
        elif b in DIV:
            ins.kind = 'div'
        elif b in FMAC:
            ins.kind = 'fmac'
        elif b in FSLOW:
            ins.kind = 'fslow'
        elif b in BARRIER:
            ins.kind = 'barrier'
        elif b.startswith('it'):
            ins.kind = 'it'
        else:
            ins.kind = 'alu'
            if b == 'vmov' and len(regs_in(ops)) == 2 and re.search(r'\bd\d+', ops):
                ins.kind = 'vmov2'
            if 15 in ins.dst and b in ('mov', 'add'):
                ins.writes_pc = True
        if ins.kind in ('store', 'double', 'multi') or b in (
                'cmp', 'cmn', 'tst', 'teq', 'vcmp', 'vcmpe', 'it'):
            if ins.kind != 'double' or b == 'strd':
                ins.dst = []
        insns[ins.addr] = ins
    funcs.sort()
    return insns, funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('elf')
    ap.add_argument('prof')
    ap.add_argument('--top', type=int, default=0,
                    help='also print the N functions with the most cycles')
    ap.add_argument('--refill', type=float, default=2.0,
                    help='pipeline refill cycles P of a taken branch (1-3)')
    ap.add_argument('--json', action='store_true')
    a = ap.parse_args()
    P = a.refill
    insns, funcs = disassemble(a.elf)
    faddr = [f[0] for f in funcs]

    def func_of(addr):
        k = bisect.bisect_right(faddr, addr) - 1
        return funcs[k][1] if k >= 0 else '?'

    # blocks: (vaddr, n) -> executions
    blocks = collections.Counter()
    for line in open(a.prof):
        p = line.split()
        if len(p) == 3:
            blocks[(int(p[0], 16), int(p[1]))] += int(p[2])

    # indirect entry points: return sites, function starts, jump-table users
    indirect_ok = set()
    jt_funcs = set()
    for ins in insns.values():
        if ins.base in ('bl', 'blx'):
            indirect_ok.add(ins.addr + ins.size)
        if ins.base in ('tbb', 'tbh') or (ins.writes_pc and ins.kind in ('alu', 'load')):
            jt_funcs.add(func_of(ins.addr))
    indirect_ok.update(f[0] for f in funcs)

    # walk each block: sequence cost without the final branch outcome
    entry = collections.Counter()     # executions per block start address
    ends = collections.Counter()      # executions per last-instruction address
    seq_cost = {}
    total_insns = 0
    kinds = collections.Counter()
    missing = 0
    for (va, n), e in blocks.items():
        entry[va] += e
        addr, prev, cyc = va, None, 0.0
        for _ in range(n):
            ins = insns.get(addr)
            if ins is None:
                missing += e
                break
            c = 1.0
            k = ins.kind
            if k == 'load':
                c = 2.0
                if prev is not None and prev.kind == 'load' and \
                        not set(prev.dst) & set(ins.addr_regs):
                    c = 1.0
            elif k == 'store':
                c = 1.0 if not ins.regoff or (prev is not None and prev.kind == 'load') else 2.0
            elif k == 'double':
                c = 3.0
            elif k == 'multi':
                c = 1.0 + ins.words
            elif k == 'div':
                c = 7.0
            elif k == 'fmac':
                c = 3.0
            elif k == 'fslow':
                c = 14.0
            elif k == 'barrier':
                c = 1.0 + P
            elif k == 'it':
                c = 0.0 if prev is not None and prev.size == 2 else 1.0
            elif k == 'vmov2':
                c = 2.0
            if k in ('load', 'store', 'double', 'multi') and prev is not None and \
                    prev.kind in ('alu', 'div') and set(prev.dst) & set(ins.addr_regs):
                c += 1.0
            if ins.base in ('tbb', 'tbh'):
                c = 2.0
            kinds[k if k != 'vmov2' else 'alu'] += e
            cyc += c
            prev = ins
            last = addr
            addr += ins.size
        total_insns += n * e
        seq_cost[(va, n)] = (cyc, last)
        ends[last] += e

    # branch outcomes: unknown taken count per conditional branch
    cond_br = {}   # last-insn addr -> (target or None, fallthrough)
    inflow_known = collections.Counter()
    for last, e in ends.items():
        ins = insns[last]
        fall = last + ins.size
        if ins.writes_pc and (ins.cond or ins.base in ('cbz', 'cbnz') or
                              (ins.base == 'b' and ins.cond)):
            cond_br[last] = (ins.target, fall)
        elif ins.writes_pc:
            if ins.target is not None:
                inflow_known[ins.target] += e
        else:
            inflow_known[fall] += e
    unknown_at = collections.defaultdict(list)   # node -> [(branch, sign)]
    for b, (t, f) in cond_br.items():
        if t is not None:
            unknown_at[t].append((b, +1))
        unknown_at[f].append((b, -1))   # not taken = ends[b] - taken
    taken = {}
    changed = True
    while changed:
        changed = False
        for node, lst in unknown_at.items():
            if node in indirect_ok or func_of(node) in jt_funcs:
                continue
            open_ = [(b, s) for b, s in lst if b not in taken]
            if len(open_) != 1:
                continue
            known = inflow_known[node]
            for b, s in lst:
                if b in taken:
                    known += taken[b] if s > 0 else ends[b] - taken[b]
            b, s = open_[0]
            rest = entry[node] - known
            val = rest if s > 0 else ends[b] - rest
            taken[b] = min(max(val, 0), ends[b])
            changed = True

    # cycles
    per_func = collections.Counter()
    base_cycles = 0.0
    for (va, n), e in blocks.items():
        cyc, last = seq_cost[(va, n)]
        base_cycles += cyc * e
        per_func[func_of(va)] += cyc * e
    br_cycles = 0.0
    lo = hi = 0.0
    unresolved = resolved = 0
    for last, e in ends.items():
        ins = insns[last]
        f = func_of(last)
        if not ins.writes_pc:
            continue
        extra_taken = P + (1.0 if ins.kind == 'multi' else 0.0) * 0
        if last in cond_br:
            if last in taken:
                c = taken[last] * P
                resolved += e
                lo += c
                hi += c
            else:
                c = e * P / 2
                unresolved += e
                hi += e * P
            br_cycles += c
            per_func[f] += c
        else:
            c = e * extra_taken
            br_cycles += c
            lo += c
            hi += c
            per_func[f] += c
    total = base_cycles + br_cycles
    res = {
        'instructions': total_insns,
        'cycles': round(total),
        'cycles_low': round(base_cycles + lo),
        'cycles_high': round(base_cycles + hi),
        'cycles_per_instruction': round(total / total_insns, 3) if total_insns else 0,
        'conditional_branches_resolved': resolved,
        'conditional_branches_unresolved': unresolved,
        'conditional_branches_taken': sum(taken.values()),
        'refill': P,
        'mix': dict(kinds.most_common()),
    }
    if missing:
        res['instructions_not_disassembled'] = missing
    if a.json:
        if a.top:
            res['functions'] = [[f, round(c)] for f, c in per_func.most_common(a.top)]
        print(json.dumps(res))
        return
    print('instructions %d, estimated cycles %d (%.3f per instruction; '
          'bounds %d-%d)' % (total_insns, total, res['cycles_per_instruction'],
                             res['cycles_low'], res['cycles_high']))
    print('conditional branch executions resolved: %d (%d taken), '
          'unresolved: %d' % (resolved, res['conditional_branches_taken'],
                              unresolved))
    print('mix: ' + ', '.join('%s %d' % kv for kv in kinds.most_common()))
    for f, c in per_func.most_common(a.top):
        print('%14d %6.2f%%  %s' % (c, 100.0 * c / total, f[:100]))


if __name__ == '__main__':
    sys.exit(main())
