"""tflc.info / check / bin / compress: the CLI's --json reports as Python
objects. The command-line tool is compiled into the package's shared
library and runs in this process (no subprocess, no PATH lookup), so the
facts are exactly `tflc info --json` etc."""

import json
import os
import tempfile

from ._lib import TflcError, cli


def _model_arg(model, tmp, name):
    """A path for `model`: a path as given, or bytes written to tmp."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(bytes(model))
        return p
    return os.fspath(model)


def _refs(arg, opt):
    """[(sg, t) or (sg, t, bits), ...] or "SG:T,..." -> the CLI's text."""
    if isinstance(arg, str):
        return arg
    parts = []
    for r in arg:
        if isinstance(r, int):
            r = (0, r)
        parts.append(":".join(str(int(x)) for x in r))
    if not parts:
        raise ValueError("%s: empty list" % opt)
    return ",".join(parts)


def _run(args, ok=(0,)):
    rc, out, err = cli(args)
    if rc not in ok:
        msg = err.strip().splitlines()
        msg = [m for m in msg if not m.startswith("tflc: warning:")] or msg
        raise TflcError(msg[-1] if msg else "tflc %s failed (status %d)" %
                        (args[0], rc), rc)
    try:
        return json.loads(out), rc, err
    except ValueError:
        raise TflcError("tflc %s: unreadable report: %r" % (args[0], out[:200]))


def info(model, target=None):
    """`tflc info MODEL --json` as a dict: size, description, arena
    (arena_used_bytes and its parts; runs false and error when tflc cannot
    run it), inputs, outputs, subgraphs with operators and tensors
    (type, shape, quantization, compression). target=32: the arena on a
    32-bit microcontroller. model: a path or the model's bytes."""
    with tempfile.TemporaryDirectory(prefix="tflc") as tmp:
        args = ["info", _model_arg(model, tmp, "model.tflite"), "--json"]
        if target is not None:
            args += ["--target", str(int(target))]
        return _run(args)[0]


def check(model):
    """`tflc check MODEL --json` as a dict: what tflc cannot run and the
    model's departures from the int8 quantization spec."""
    with tempfile.TemporaryDirectory(prefix="tflc") as tmp:
        rep, rc, _ = _run(["check", _model_arg(model, tmp, "model.tflite"),
                           "--json"], ok=(0, 2))
        return rep


def _stage(cmd, model, output, extra):
    with tempfile.TemporaryDirectory(prefix="tflc") as tmp:
        inp = _model_arg(model, tmp, "in.tflite")
        outp = os.fspath(output) if output is not None else \
            os.path.join(tmp, "out.tflite")
        rep, _, err = _run([cmd, inp, "-o", outp, "--json"] + extra)
        if output is None:
            with open(outp, "rb") as f:
                rep["model_content"] = f.read()
        return rep


def bin(model, output=None, bits=None, prune=None, tensors=None,
        exclude=None):
    """`tflc bin` (as `--json`): clusters each weight tensor to at most
    2**bits values per channel and/or prunes that fraction of its smallest
    values. model: a path or bytes; output: a path, or None to get the
    model's bytes in the report's "model_content". tensors / exclude:
    [(subgraph, tensor), ...] or "SG:T,...". Returns the report dict
    (per tensor: unique values before and after, mean / max change in
    real units)."""
    extra = []
    if bits is not None:
        extra += ["--bits", str(int(bits))]
    if prune is not None:
        extra += ["--prune", repr(float(prune))]
    if tensors is not None:
        extra += ["--tensors", _refs(tensors, "tensors")]
    if exclude is not None:
        extra += ["--exclude", _refs(exclude, "exclude")]
    return _stage("bin", model, output, extra)


def compress(model, output=None, spec=None, format=None, tensors=None,
             exclude=None, tflm_compatible=None, methods=None,
             to_int4=False, allow_growth=False):
    """`tflc compress` (as `--json`): LUT (or Huffman / Prune) compression
    of the constants. format "metadata" or "decode"; spec: a TFLM spec
    YAML path; tensors: [(sg, t[, bits]), ...]; methods: "auto" or a list
    of "lut", "huffman", "prune". Returns the report dict (per tensor:
    method, bits, bytes before / after); output None puts the bytes in
    "model_content"."""
    extra = []
    if spec is not None:
        extra += ["--spec", os.fspath(spec)]
    if format is not None:
        extra += ["--format", format]
    if tensors is not None:
        extra += ["--tensors", _refs(tensors, "tensors")]
    if exclude is not None:
        extra += ["--exclude", _refs(exclude, "exclude")]
    if tflm_compatible is True:
        extra += ["--tflm-compatible"]
    elif tflm_compatible is False:
        extra += ["--no-tflm-compatible"]
    if methods is not None:
        extra += ["--methods", methods if isinstance(methods, str)
                  else ",".join(methods)]
    if to_int4:
        extra += ["--to-int4"]
    if allow_growth:
        extra += ["--allow-growth"]
    return _stage("compress", model, output, extra)

