#!/usr/bin/env python3
"""examples/vta/measure.py - the VTA reference delegate against TFLM.

    python3 examples/vta/measure.py [--tflc build/tflc] [--shared ../shared]

Runs conformance cases (TFLM's own outputs beside their inputs) through
`tflc run --delegate vta` (the specification's arithmetic) and `--delegate vta:round`
(its final shifts rounding half up), and prints Markdown tables: per model
the share of output bytes equal to TFLM's, the largest difference (in the
output's units), top-1 agreement (argmax of output 0, per case), the work
the accelerator model counted per invoke (GEMM blocks, ALU vector ops,
SRAM entries loaded, estimated cycles), and the operators the delegate did
not take, with why. Needs build/tflc (make)."""
import argparse
import collections
import fnmatch
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

ROWS = [
    # (label, case directories relative to shared/conformance; the last
    # component a shell pattern)
    ("person_detect", ["models/person_detect/*"]),
    ("micro_speech", ["models/micro_speech/*"]),
    ("mobilenet_v2 (224)", ["models/mobilenet_v2/*"]),
    ("simple_add", ["models/simple_add/*"]),
    ("ops CONV_2D int8", ["ops/CONV_2D/i8_*"]),
    ("ops COMPRESSED_CONV_2D int8", ["ops/COMPRESSED_CONV_2D/i8_*"]),
    ("ops ADD int8, same shapes", ["ops/ADD/i8_*same*"]),
    ("ops ADD int8, broadcasting", ["ops/ADD/i8_*bcast*"]),
    ("MLPerf Tiny ad01_int8", ["external/mlperf_tiny/ad01_int8/*"]),
    ("MLPerf Tiny kws_ref_model", ["external/mlperf_tiny/kws_ref_model/*"]),
    ("MLPerf Tiny ToyCar_quant_fullint",
     ["external/mlperf_tiny/model_ToyCar_quant_fullint/*"]),
    ("MLPerf Tiny resnet_quant", ["external/mlperf_tiny/pretrainedResnet_quant/*"]),
    ("MLPerf Tiny resnet_large_int8",
     ["external/mlperf_tiny/pretrainedResnet_large_int8/*"]),
    ("MLPerf Tiny str_ww_ref_model", ["external/mlperf_tiny/str_ww_ref_model/*"]),
    ("MLPerf Tiny vww_96_int8", ["external/mlperf_tiny/vww_96_int8/*"]),
]

FMT = {"INT8": "b", "UINT8": "B", "INT16": "h", "INT32": "i", "FLOAT32": "f"}


def cases(root, pattern):
    base, _, glob = pattern.rpartition("/")
    d = os.path.join(root, base)
    if not os.path.isdir(d):
        return []
    out = []
    for name in sorted(os.listdir(d)):
        c = os.path.join(d, name)
        if fnmatch.fnmatch(name, glob) and os.path.isfile(os.path.join(c, "model.tflite")):
            out.append(c)
    return out


def run(tflc, case, spec, work):
    args = [tflc, "run", os.path.join(case, "model.tflite")]
    k = 0
    while os.path.exists(os.path.join(case, "input_%d.bin" % k)):
        args += ["--input", os.path.join(case, "input_%d.bin" % k)]
        k += 1
    out = os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        os.remove(os.path.join(out, f))
    args += ["--out-dir", out, "--json", "--delegate", spec]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip()
    return json.loads(r.stdout), out


def values(path, typ):
    data = open(path, "rb").read()
    f = FMT.get(typ, "B")
    n = len(data) // struct.calcsize(f)
    return data, list(struct.unpack("<%d%s" % (n, f), data[: n * struct.calcsize(f)]))


def argmax(v):
    return max(range(len(v)), key=lambda i: v[i]) if v else -1


def fmt_diff(x):
    return ("%.3g" % x) if isinstance(x, float) and not x.is_integer() else "%d" % x


def measure(tflc, root, label, patterns, work):
    found = [c for p in patterns for c in cases(root, p)]
    if not found:
        return None
    row = {"label": label, "cases": len(found), "work": [], "models": set()}
    for spec in ("vta", "vta:round"):
        equal = total = top1 = top1_n = 0
        worst = 0
        for case in found:
            j, out = run(tflc, case, spec, work)
            if j is None:
                row["error"] = out
                return row
            digest = hashlib.sha1(
                open(os.path.join(case, "model.tflite"), "rb").read()).hexdigest()
            if spec == "vta" and digest not in row["models"]:
                row["models"].add(digest)  # work and claims: once per model
                row["work"].append(j["delegate"])
            k = 0
            while os.path.exists(os.path.join(case, "output_%d.bin" % k)):
                typ = j["outputs"][k]["type"] if k < len(j["outputs"]) else "UINT8"
                a, va = values(os.path.join(case, "output_%d.bin" % k), typ)
                b, vb = values(os.path.join(out, "output_%d.bin" % k), typ)
                total += len(a)
                equal += sum(1 for x, y in zip(a, b) if x == y) if len(a) == len(b) else 0
                for x, y in zip(va, vb):
                    worst = max(worst, abs(y - x))
                if k == 0 and len(va) > 1:
                    top1_n += 1
                    top1 += argmax(va) == argmax(vb)
                k += 1
        row[spec] = (equal, total, worst, top1, top1_n)
    return row


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--tflc", default=os.path.join(repo, "build", "tflc"))
    ap.add_argument("--shared", default=os.environ.get(
        "SHARED", os.path.join(repo, "..", "shared")))
    a = ap.parse_args()
    root = os.path.join(a.shared, "conformance")
    if not os.access(a.tflc, os.X_OK):
        sys.exit("measure.py: %s not built (make)" % a.tflc)
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for label, patterns in ROWS:
            r = measure(a.tflc, root, label, patterns, work)
            if r:
                rows.append(r)
    print("VTA reference delegate (examples/vta) against TFLM's outputs; "
          "default SRAMs (INP 2048, WGT 1024, ACC 2048 entries), two threads.")
    print()
    print("| model | cases | ops taken | partitions | equal bytes, spec | largest diff, spec "
          "| top-1, spec | equal bytes, round | largest diff, round | top-1, round |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "error" in r:
            print("| %s | %d | error: %s |" % (r["label"], r["cases"], r["error"]))
            continue
        taken = sum(len(w["taken"]) for w in r["work"])
        declined = sum(len(w["declined"]) for w in r["work"])
        parts = sum(len(w["partitions"]) for w in r["work"])
        cells = []
        for spec in ("vta", "vta:round"):
            e, t, worst, t1, t1n = r[spec]
            cells += ["%.1f%%" % (100.0 * e / t) if t else "-", fmt_diff(worst),
                      "%d/%d" % (t1, t1n) if t1n else "-"]
        print("| %s | %d | %d/%d | %d | %s |" % (
            r["label"], r["cases"], taken, taken + declined, parts,
            " | ".join(cells)))
    print()
    print("Work per invoke (the specification's arithmetic; a row of several models "
          "adds them up): "
          "GEMM 16x16 blocks, ALU vector operations, SRAM entries loaded "
          "(INP 16 B, WGT 256 B, ACC 64 B or 16 B from int8), DRAM bytes, "
          "estimated cycles (cost model of vta.h) and the CPU's layout "
          "conversions at partition edges.")
    print()
    print("| model | GEMM | ALU | INP loads | WGT loads | ACC loads | DRAM bytes in / out "
          "| cycles | NHWC<->VTA bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "error" in r:
            continue
        p = collections.Counter()
        for w in r["work"]:
            p.update(w["per_invoke"])
        print("| %s | %d | %d | %d | %d | %d | %d / %d | %d | %d |" % (
            r["label"], p["gemm"], p["alu"], p["load_inp"], p["load_wgt"],
            p["load_acc"], p["load_bytes"], p["store_bytes"], p["cycles"],
            p["nhwc_to_accel_bytes"] + p["accel_to_nhwc_bytes"]))
    print()
    print("Operators not taken, and why (every model of the row):")
    print()
    for r in rows:
        if "error" in r:
            continue
        why = collections.Counter((d["opcode"], d["why"])
                                  for w in r["work"] for d in w["declined"])
        if not why:
            print("- %s: none" % r["label"])
            continue
        print("- %s: %s" % (r["label"], "; ".join(
            "%s x%d (%s)" % (op, n, reason) for (op, reason), n in sorted(why.items()))))


if __name__ == "__main__":
    main()
