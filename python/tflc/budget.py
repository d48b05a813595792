"""tflc.compress_to_budget: tflc_compress_to_budget (tflc_write.h) called
through ctypes. The report has the keys and values of
`tflc bin --budget ... --json` (numbers at the CLI's 9 significant
digits)."""

import ctypes
import os

import numpy as np

from ._lib import TflcError, lib

c = ctypes


class _Budget(c.Structure):
    _fields_ = [("top1", c.c_double), ("mean_abs", c.c_double),
                ("max_abs", c.c_double), ("acc_drop", c.c_double)]


class _Ref(c.Structure):
    _fields_ = [("subgraph", c.c_int32), ("tensor", c.c_int32),
                ("bits", c.c_int32)]


class _Options(c.Structure):
    _fields_ = [("budget", _Budget), ("samples", c.c_void_p),
                ("sample_bytes", c.c_size_t), ("nsamples", c.c_int32),
                ("labels", c.POINTER(c.c_int32)), ("min_bits", c.c_int),
                ("max_bits", c.c_int), ("prune", c.c_int),
                ("exclude", c.POINTER(_Ref)), ("nexclude", c.c_int32),
                ("format", c.c_int), ("methods", c.c_int),
                ("tflm_compatible", c.c_int)]


class _Metrics(c.Structure):
    _fields_ = [("top1", c.c_double), ("mean_abs", c.c_double),
                ("max_abs", c.c_double), ("accuracy", c.c_double),
                ("score", c.c_double)]


class _Step(c.Structure):
    _fields_ = [("entry", c.c_int32), ("bits", c.c_int),
                ("prune", c.c_double), ("bytes_saved", c.c_size_t),
                ("after", _Metrics), ("cost", c.c_double)]


class _Tensor(c.Structure):
    _fields_ = [("subgraph", c.c_int32), ("tensor", c.c_int32),
                ("name", c.c_char * 96), ("type", c.c_int),
                ("bits", c.c_int), ("prune", c.c_double),
                ("bytes_before", c.c_size_t), ("bytes_after", c.c_size_t),
                ("method", c.c_int), ("cost", c.c_double),
                ("levels_tried", c.c_int32)]


class _Report(c.Structure):
    _fields_ = [("tensors", c.POINTER(_Tensor)), ("ntensors", c.c_int32),
                ("steps", c.POINTER(_Step)), ("nsteps", c.c_int32),
                ("baseline", _Metrics), ("final", _Metrics),
                ("nsamples", c.c_int32), ("evaluations", c.c_int32),
                ("seconds", c.c_double), ("in_size", c.c_size_t),
                ("out_size", c.c_size_t), ("error", c.c_char * 256)]


def _declare():
    sigs = {
        "tflc_budget_parse": (c.c_int, [c.c_char_p, c.POINTER(_Budget),
                                        c.c_char_p, c.c_size_t]),
        "tflc_compress_to_budget": (c.c_int, [
            c.c_char_p, c.c_size_t, c.POINTER(_Options),
            c.POINTER(c.c_void_p), c.POINTER(c.c_size_t),
            c.POINTER(_Report)]),
        "tflc_budget_report_free": (None, [c.POINTER(_Report)]),
        "tflc_type_name": (c.c_char_p, [c.c_int32]),
        "tflc_status_str": (c.c_char_p, [c.c_int]),
        "tflcpy_random_fill": (None, [c.c_void_p, c.c_uint32, c.c_int32,
                                      c.c_uint32]),
        "free": (None, [c.c_void_p]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args


_declare()

_METHODS = {1: "lut", 2: "huffman", 4: "prune", 8: "int4"}


def _g(v):
    """A number as the CLI prints it (%.9g), read back."""
    v = float("%.9g" % v)
    return int(v) if v == int(v) and abs(v) < 2 ** 53 else v


def _metrics(m):
    return {"top1": _g(m.top1), "mean_abs": _g(m.mean_abs),
            "max_abs": _g(m.max_abs),
            "accuracy": _g(m.accuracy) if m.accuracy >= 0 else None}


def parse_budget(spec):
    """"top1=99%,mean=0.01,max=0.1,drop=1%" -> the C struct (TflcError
    with the parser's message)."""
    b = _Budget()
    err = c.create_string_buffer(256)
    if lib.tflc_budget_parse(spec.encode(), c.byref(b), err, len(err)) != 0:
        raise TflcError("budget: " + err.value.decode("utf-8", "replace"))
    return b


def _budget_spec(budget):
    if isinstance(budget, str):
        return budget
    keys = {"top1": "top1", "agree": "top1", "mean": "mean",
            "mean_abs": "mean", "max": "max", "max_abs": "max",
            "drop": "drop", "acc_drop": "drop"}
    parts = []
    for k, v in budget.items():
        if k not in keys:
            raise ValueError("budget: unknown key %r (top1, mean, max, "
                             "drop)" % k)
        parts.append("%s=%r" % (keys[k], float(v)))
    if not parts:
        raise ValueError("budget: empty")
    return ",".join(parts)


def _samples(content, inputs, random_inputs):
    """The samples as one bytes block: (block, sample bytes, count)."""
    from .interpreter import Interpreter
    det = Interpreter(model_content=content)._input_records()
    sb = sum(n for _, n in det)
    samples = []
    if isinstance(inputs, (str, os.PathLike)):
        d = os.fspath(inputs)
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".bin") and not fn.startswith("."):
                with open(os.path.join(d, fn), "rb") as f:
                    samples.append(f.read())
        if not samples:
            raise TflcError("inputs %s: no .bin files" % d)
    elif isinstance(inputs, np.ndarray):
        samples = [np.ascontiguousarray(x).tobytes() for x in inputs]
    elif inputs is not None and len(inputs):
        if isinstance(inputs[0], (bytes, bytearray, memoryview)):
            samples = [bytes(x) for x in inputs]
        elif len(det) == 1:
            samples = [np.ascontiguousarray(x).tobytes() for x in inputs]
        else:
            arrs = [np.asarray(a) for a in inputs]
            if len(arrs) != len(det) or len({len(a) for a in arrs}) != 1:
                raise ValueError("inputs: the model has %d inputs: give one "
                                 "array per input, first axis the sample "
                                 "(all the same length)" % len(det))
            samples = [b"".join(np.ascontiguousarray(a[i]).tobytes()
                                for a in arrs) for i in range(len(arrs[0]))]
    for j in range(int(random_inputs or 0)):
        parts = []
        for k, (typ, n) in enumerate(det):
            buf = c.create_string_buffer(n)
            lib.tflcpy_random_fill(buf, n, typ, (j + 1 + k) & 0xFFFFFFFF)
            parts.append(buf.raw)
        samples.append(b"".join(parts))
    if not samples:
        raise TflcError("compress_to_budget needs samples: inputs and/or "
                        "random_inputs")
    for k, s in enumerate(samples):
        if len(s) != sb:
            raise TflcError("sample %d has %d bytes; the model's inputs take "
                            "%d" % (k, len(s), sb))
    return b"".join(samples), sb, len(samples)


def compress_to_budget(model, output=None, budget="top1=99%", inputs=None,
                       labels=None, random_inputs=None, prune=False,
                       min_bits=None, exclude=None, format=None,
                       tflm_compatible=None):
    """Per weight tensor, the bit width (with prune=True also a pruning
    fraction) that makes the model smallest while its outputs on the
    samples stay within the budget, measured against the uncompressed
    model; the model written is binned and LUT-compressed (TFLM_DECODE).
    `tflc bin MODEL -o OUT --budget SPEC --json`, in process.

    model: a path or the model's bytes. output: a path, or None for the
      bytes in the report's "model_content".
    budget: "top1=99%,mean=0.01,max=0.1,drop=1%" or a dict with those keys
      (fractions: 0.99 or "99%"); top1 = least agreement of output 0's
      argmax, mean / max = output error in real units, drop = most
      labelled accuracy drop (needs labels).
    inputs: samples: an array whose first axis is the sample (each sample
      the model input's shape and dtype), a list of samples (arrays or
      bytes), or, for a model with several inputs, a list of such arrays,
      one per model input; or a folder of .bin files (each the inputs'
      bytes one after another, in name order).
    labels: one class index per sample (inputs first, then random ones).
    random_inputs: N more samples from the conformance generator (sample j
      as `tflc run --random-inputs j+1`).
    exclude: tensors never changed, [(subgraph, tensor), ...].
    format: "decode" (default) or "metadata", the compression format
      written; tflm_compatible: True restricts it to what TFLM runs, False
      to what tflc runs (None: tflc_compress's default for the format).
    Returns the report dict: per tensor bits, prune, bytes before / after,
    cost; steps in order with the metrics after each; baseline and final
    metrics; evaluations and search_seconds."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        content, in_name = bytes(model), "(bytes)"
    else:
        in_name = os.fspath(model)
        with open(in_name, "rb") as f:
            content = f.read()
    spec = _budget_spec(budget)
    o = _Options()
    o.budget = parse_budget(spec)
    block, sb, n = _samples(content, inputs, random_inputs)
    sbuf = c.create_string_buffer(block, len(block) or 1)
    o.samples = c.cast(sbuf, c.c_void_p)
    o.sample_bytes = sb
    o.nsamples = n
    lab = None
    if labels is not None:
        lab = np.ascontiguousarray(np.asarray(labels, dtype=np.int32))
        if lab.size != n:
            raise TflcError("%d labels for %d samples" % (lab.size, n))
        o.labels = lab.ctypes.data_as(c.POINTER(c.c_int32))
    o.prune = 1 if prune else 0
    if min_bits is not None:
        if not 1 <= int(min_bits) <= 7:
            raise ValueError("min_bits must be 1..7")
        o.min_bits = int(min_bits)
    refs = None
    if exclude:
        refs = (_Ref * len(exclude))(*[_Ref(int(r[0]), int(r[1]), 0)
                                       for r in exclude])
        o.exclude = refs
        o.nexclude = len(exclude)
    if format is not None:
        if format not in ("decode", "metadata"):
            raise ValueError("format: 'decode' or 'metadata'")
        o.format = 2 if format == "decode" else 1
    if tflm_compatible is not None:
        o.tflm_compatible = 1 if tflm_compatible else -1
    out, out_size, rep = c.c_void_p(), c.c_size_t(), _Report()
    st = lib.tflc_compress_to_budget(content, len(content), c.byref(o),
                                     c.byref(out), c.byref(out_size),
                                     c.byref(rep))
    try:
        if st != 0:
            raise TflcError("compress_to_budget: " + (
                rep.error.decode("utf-8", "replace") or
                lib.tflc_status_str(st).decode()), st)
        data = c.string_at(out.value, out_size.value)
        tensors = []
        for k in range(rep.ntensors):
            t = rep.tensors[k]
            tensors.append({
                "subgraph": t.subgraph, "tensor": t.tensor,
                "name": t.name.decode("utf-8", "replace"),
                "type": lib.tflc_type_name(t.type).decode(),
                "bits": t.bits, "prune": _g(t.prune),
                "bytes_before": t.bytes_before,
                "bytes_after": t.bytes_after,
                "method": _METHODS.get(t.method, "none"),
                "cost": _g(t.cost), "levels_tried": t.levels_tried})
        steps = []
        for k in range(rep.nsteps):
            s = rep.steps[k]
            t = rep.tensors[s.entry]
            steps.append({"subgraph": t.subgraph, "tensor": t.tensor,
                          "bits": s.bits, "prune": _g(s.prune),
                          "bytes_saved": s.bytes_saved, "cost": _g(s.cost),
                          "after": _metrics(s.after)})
        b = o.budget
        result = {
            "command": "bin", "input": in_name,
            "output": os.fspath(output) if output is not None else None,
            "budget": {"top1": _g(b.top1), "mean_abs": _g(b.mean_abs),
                       "max_abs": _g(b.max_abs), "acc_drop": _g(b.acc_drop)},
            "samples": n, "labels": labels is not None,
            "input_bytes": rep.in_size, "output_bytes": rep.out_size,
            "search_seconds": round(rep.seconds, 3),
            "evaluations": rep.evaluations,
            "baseline": _metrics(rep.baseline), "final": _metrics(rep.final),
            "tensors": tensors, "steps": steps}
    finally:
        if out.value:
            lib.free(out)
        lib.tflc_budget_report_free(c.byref(rep))
    if output is None:
        result["model_content"] = data
    else:
        with open(os.fspath(output), "wb") as f:
            f.write(data)
    return result
