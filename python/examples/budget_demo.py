#!/usr/bin/env python3
"""Compression to an accuracy budget, shown on real data
(docs/compress_budget.md is this script's output).

    python3 python/examples/budget_demo.py [--shared ../shared] [--out DIR]

1. digits: scikit-learn's 8x8 digits (the data ships with python3-sklearn),
   a 64-128-64-10 perceptron trained here with numpy (fixed seed),
   quantized to int8 by the TFLite int8 spec (per-tensor symmetric int8
   weights, int32 biases at input scale x weight scale, int8 activations
   from the training set's ranges) and written as a .tflite by the model
   writer (tflc.Writer). Splits: 1000 train, 397 validation (the budget
   search measures there), 400 test (never seen by the search).
   Rows: the int8 model; uniform 4-bit and 2-bit binning (tflc.bin, then
   tflc.compress); `--methods auto` (lossless); the budget search at 1%,
   2%, 5% accuracy drop.
2. person_detect (../shared/models): the person and no-person images plus
   16 random inputs; uniform binning and pruning beside budgets on top-1
   agreement and output error.
3. micro_speech: features of the four 1 s recordings of
   ../shared/models/micro_speech_audio (the audio preprocessor model run by
   tflc.Interpreter, 30 ms windows every 20 ms, as TFLM's test) plus 16
   random inputs.
Everything is deterministic except the search times.
"""

import argparse
import os
import sys
import tempfile
import time
import wave

import numpy as np

import tflc

FC, FC_OPTIONS, RELU = 9, 8, 1


# ---- 1. digits ---------------------------------------------------------
def train_mlp(x, y, sizes, epochs=60, seed=0):
    """A ReLU perceptron trained with Adam on softmax cross-entropy."""
    rng = np.random.RandomState(seed)
    ws, bs = [], []
    for a, b in zip(sizes[:-1], sizes[1:]):
        ws.append(rng.randn(a, b) * np.sqrt(2.0 / a))
        bs.append(np.zeros(b))
    params = ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, step = 2e-3, 0.9, 0.999, 0
    onehot = np.eye(sizes[-1])[y]
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x), 32):
            idx = order[i:i + 32]
            acts = [x[idx]]
            for k, (w, b) in enumerate(zip(ws, bs)):
                z = acts[-1] @ w + b
                acts.append(np.maximum(z, 0) if k < len(ws) - 1 else z)
            z = acts[-1] - acts[-1].max(1, keepdims=True)
            p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
            g = (p - onehot[idx]) / len(idx)
            gw, gb = [None] * len(ws), [None] * len(ws)
            for k in range(len(ws) - 1, -1, -1):
                gw[k] = acts[k].T @ g
                gb[k] = g.sum(0)
                if k:
                    g = (g @ ws[k].T) * (acts[k] > 0)
            step += 1
            for j, (p_, g_) in enumerate(zip(params, gw + gb)):
                m[j] = b1 * m[j] + (1 - b1) * g_
                v[j] = b2 * v[j] + (1 - b2) * g_ * g_
                mh = m[j] / (1 - b1 ** step)
                vh = v[j] / (1 - b2 ** step)
                p_ -= lr * mh / (np.sqrt(vh) + 1e-8)
    return ws, bs


def forward(x, ws, bs):
    acts = [x]
    for k, (w, b) in enumerate(zip(ws, bs)):
        z = acts[-1] @ w + b
        acts.append(np.maximum(z, 0) if k < len(ws) - 1 else z)
    return acts


def act_qparams(lo, hi):
    """int8 scale and zero point covering [lo, hi] (0 included)."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = (hi - lo) / 255.0 or 1.0
    zp = int(np.clip(np.round(-128 - lo / scale), -128, 127))
    return float(np.float32(scale)), zp


def write_int8_mlp(ws, bs, x_train):
    """The perceptron as an int8 .tflite (FULLY_CONNECTED layers)."""
    acts = forward(x_train, ws, bs)
    w = tflc.Writer()
    s_in, z_in = 1.0 / 255.0, -128  # inputs in [0, 1]
    s_in = float(np.float32(s_in))
    x = w.tensor("int8", [1, ws[0].shape[0]], name="pixels", scale=s_in,
                 zero_point=z_in)
    first = x
    for k, (wk, bk) in enumerate(zip(ws, bs)):
        last = k == len(ws) - 1
        s_w = float(np.float32(np.abs(wk).max() / 127.0))
        qw = np.clip(np.round(wk.T / s_w), -127, 127).astype(np.int8)
        s_b = s_in * s_w
        qb = np.round(bk / s_b).astype(np.int32)
        s_out, z_out = act_qparams(acts[k + 1].min(), acts[k + 1].max())
        kt = w.tensor("int8", qw.shape, data=qw, name="dense_%d/weights" % k,
                      scale=s_w, zero_point=0)
        bt = w.tensor("int32", [qw.shape[0]], data=qb,
                      name="dense_%d/bias" % k, scale=s_b, zero_point=0)
        y = w.tensor("int8", [1, qw.shape[0]],
                     name="logits" if last else "dense_%d/relu" % k,
                     scale=s_out, zero_point=z_out)
        w.op(FC, [x, kt, bt], [y], options_type=FC_OPTIONS,
             options=[(0, "u8", 0 if last else RELU)])
        x, s_in = y, s_out
    w.inputs([first])
    w.outputs([x])
    return w.finish()


def quantize_inputs(x):
    return (np.clip(np.round(x * 255.0), 0, 255) - 128).astype(np.int8)


def accuracy(model, xq, y):
    it = tflc.Interpreter(model_content=model)
    it.allocate_tensors()
    i = it.get_input_details()[0]["index"]
    o = it.get_output_details()[0]["index"]
    right = 0
    for a, b in zip(xq, y):
        it.set_tensor(i, a.reshape(1, -1))
        it.invoke()
        right += int(np.argmax(it.get_tensor(o)[0]) == b)
    return right / float(len(y))


def binned_then_compressed(model, bits=None, prune=None):
    b = tflc.bin(model, bits=bits, prune=prune)["model_content"]
    methods = "lut,prune" if prune else None
    return tflc.compress(b, format="decode", methods=methods)["model_content"]


def widths(rep):
    parts = []
    for t in rep["tensors"]:
        w = "%d" % t["bits"] if t["bits"] else "8 (kept)"
        if t["prune"]:
            w += " prune %d%%" % round(100 * t["prune"])
        parts.append(w)
    return ", ".join(parts)


def digits(out):
    from sklearn.datasets import load_digits
    d = load_digits()
    x = d.data.astype(np.float64) / 16.0
    y = d.target.astype(np.int64)
    order = np.random.RandomState(42).permutation(len(x))
    x, y = x[order], y[order]
    tr, va, te = slice(0, 1000), slice(1000, 1397), slice(1397, None)
    ws, bs = train_mlp(x[tr], y[tr], [64, 128, 64, 10])
    f_acc = np.mean(np.argmax(forward(x[te], ws, bs)[-1], 1) == y[te])
    model = write_int8_mlp(ws, bs, x[tr])
    with open(os.path.join(out, "digits_int8.tflite"), "wb") as f:
        f.write(model)
    xq = quantize_inputs(x)
    # the validation split for the CLI: OUT/val/NNNN.bin, OUT/val_labels.txt
    os.makedirs(os.path.join(out, "val"), exist_ok=True)
    for k, s in enumerate(xq[va]):
        with open(os.path.join(out, "val", "%04d.bin" % k), "wb") as f:
            f.write(s.tobytes())
    with open(os.path.join(out, "val_labels.txt"), "w") as f:
        f.write("\n".join(str(int(v)) for v in y[va]) + "\n")
    base_va = accuracy(model, xq[va], y[va])
    base_te = accuracy(model, xq[te], y[te])
    rows = [("int8 model (float %.2f%% on test)" % (100 * f_acc),
             len(model), base_va, base_te, "8, 8, 8", "")]
    for label, m in (("uniform 4-bit (bin --bits 4, compress)",
                      binned_then_compressed(model, bits=4)),
                     ("uniform 2-bit (bin --bits 2, compress)",
                      binned_then_compressed(model, bits=2)),
                     ("`compress --methods auto` (lossless)",
                      tflc.compress(model, methods="auto")["model_content"])):
        rows.append((label, len(m), accuracy(m, xq[va], y[va]),
                     accuracy(m, xq[te], y[te]), "", ""))
    rows[1] = rows[1][:4] + ("4, 4, 4", "")
    rows[2] = rows[2][:4] + ("2, 2, 2", "")
    for drop in (1, 2, 5):
        rep = tflc.compress_to_budget(model, budget="drop=%d%%" % drop,
                                      inputs=xq[va].reshape(-1, 1, 64),
                                      labels=y[va])
        m = rep["model_content"]
        rows.append(("budget drop=%d%%" % drop, len(m),
                     accuracy(m, xq[va], y[va]), accuracy(m, xq[te], y[te]),
                     widths(rep), "%.2f s" % rep["search_seconds"]))
    lines = ["| model | bytes | validation accuracy | test accuracy | "
             "widths (dense_0, dense_1, dense_2) | search |",
             "| --- | ---: | ---: | ---: | --- | ---: |"]
    for label, size, a, b, wd, t in rows:
        lines.append("| %s | %d | %.2f%% | %.2f%% | %s | %s |" %
                     (label, size, 100 * a, 100 * b, wd, t))
    return "\n".join(lines)


# ---- 2. person_detect --------------------------------------------------
def scores(model, samples):
    it = tflc.Interpreter(model_content=model)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    o = it.get_output_details()[0]
    res = []
    for s in samples:
        it.set_tensor(d["index"], np.frombuffer(s, d["dtype"])
                      .reshape(d["shape"]))
        it.invoke()
        res.append(it.get_tensor(o["index"]).ravel())
    return res


def random_sample(model, seed):
    """`tflc run --random-inputs seed` input (one int8 input)."""
    it = tflc.Interpreter(model_content=model)
    n = int(np.prod(it.get_input_details()[0]["shape"]))
    x, out = (seed or 0x9E3779B9) & 0xFFFFFFFF, bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)


def model_rows(model, named, nrandom, budgets, describe, what):
    samples = [s for _, s in named]
    rnd = [random_sample(model, j + 1) for j in range(nrandom)]
    base = scores(model, samples + rnd)
    base_top = [int(np.argmax(s)) for s in base]
    it = tflc.Interpreter(model_content=model)
    scale = it.get_output_details()[0]["quantization"][0] or 1.0

    def row(label, m, extra=""):
        got = scores(m, samples + rnd)
        agree = np.mean([int(np.argmax(g)) == t for g, t in
                         zip(got, base_top)])
        err = scale * np.concatenate([np.abs(g.astype(float) -
                                             b.astype(float))
                                      for g, b in zip(got, base)])
        return "| %s | %d | %s | %.0f%% | %.4f / %.4f | %s |" % (
            label, len(m), describe(got[:len(samples)]), 100 * agree,
            err.mean(), err.max(), extra)

    lines = [row("original", model)]
    lines.append(row("uniform 4-bit", binned_then_compressed(model, bits=4)))
    lines.append(row("uniform 2-bit", binned_then_compressed(model, bits=2)))
    lines.append(row("prune 50%", binned_then_compressed(model, prune=0.5)))
    lines.append(row("`compress --methods auto` (lossless)",
                     tflc.compress(model, methods="auto")["model_content"]))
    for spec, prune, with_random in budgets:
        rep = tflc.compress_to_budget(
            model, budget=spec, inputs=samples,
            random_inputs=nrandom if with_random else None, prune=prune)
        changed = sum(1 for t in rep["tensors"] if t["bits"] or t["prune"])
        lines.append(row("budget `%s`%s, on %s" % (
            spec, " + prune search" if prune else "",
            "all %d inputs" % (len(samples) + nrandom) if with_random else
            "the %d %s only" % (len(samples), what)),
            rep["model_content"],
            "%d of %d tensors lowered, %.1f s" % (
                changed, len(rep["tensors"]), rep["search_seconds"])))
    return lines


def person_detect(shared):
    mdir = os.path.join(shared, "models")
    with open(os.path.join(mdir, "person_detect.tflite"), "rb") as f:
        model = f.read()
    named = []
    for n in ("person", "no_person"):
        with open(os.path.join(mdir, n + "_96x96_gray.bin"), "rb") as f:
            named.append((n, f.read()))

    def describe(got):
        return "%d / %d" % (got[0][1], got[1][1])

    head = ["| model | bytes | person score: person / no-person image | "
            "top-1 agreement (18 inputs) | output error mean / max "
            "(real units) | search |",
            "| --- | ---: | --- | ---: | --- | --- |"]
    return "\n".join(head + model_rows(
        model, named, 16,
        [("top1=100%", False, True), ("top1=100%,max=0.04", False, True),
         ("top1=100%,max=0.04", True, True),
         ("top1=100%,max=0.02", False, False)], describe, "images"))


# ---- 3. micro_speech ---------------------------------------------------
def micro_speech_features(pre_model, wav_path):
    with wave.open(wav_path, "rb") as w:
        assert w.getframerate() == 16000 and w.getsampwidth() == 2
        pcm = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    it = tflc.Interpreter(model_content=pre_model)
    it.allocate_tensors()
    i = it.get_input_details()[0]["index"]
    o = it.get_output_details()[0]["index"]
    feats = np.zeros((49, 40), np.int8)
    at = win = 0
    while len(pcm) - at >= 480 and win < 49:
        it.set_tensor(i, pcm[at:at + 480].astype(np.int16).reshape(
            it.get_input_details()[0]["shape"]))
        it.invoke()
        feats[win] = it.get_tensor(o).ravel()
        at += 320
        win += 1
    return feats.tobytes()


def micro_speech(shared):
    with open(os.path.join(shared, "models",
                           "micro_speech_quantized.tflite"), "rb") as f:
        model = f.read()
    with open(os.path.join(shared, "conformance", "external", "tflm_tests",
                           "models", "audio_preprocessor_int8", "seed1",
                           "model.tflite"), "rb") as f:
        pre = f.read()
    audio = os.path.join(shared, "models", "micro_speech_audio")
    names = ("yes", "no", "silence", "noise")
    named = [(n, micro_speech_features(
        pre, os.path.join(audio, n + "_1000ms.wav"))) for n in names]
    labels = ("silence", "unknown", "yes", "no")

    def describe(got):
        return ", ".join("%s: %s %d" % (n, labels[int(np.argmax(g))],
                                        int(g.max()))
                         for n, g in zip(names, got))

    head = ["| model | bytes | label and top score per recording | "
            "top-1 agreement (20 inputs) | output error mean / max "
            "(real units) | search |",
            "| --- | ---: | --- | ---: | --- | --- |"]
    return "\n".join(head + model_rows(
        model, named, 16,
        [("top1=100%", False, False), ("top1=100%,max=0.04", False, False),
         ("top1=95%", False, True), ("top1=95%,max=0.1", False, True),
         ("top1=90%,mean=0.02", True, True)], describe, "recordings"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
        "shared"))
    ap.add_argument("--out", default=None,
                    help="folder for digits_int8.tflite and the validation "
                    "split (val/*.bin, val_labels.txt; default: a temp)")
    a = ap.parse_args()
    out = a.out or tempfile.mkdtemp(prefix="tflc_budget")
    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    print("## Digits (scikit-learn 8x8, numpy-trained int8 perceptron)\n")
    print(digits(out))
    if os.path.isdir(os.path.join(a.shared, "models")):
        print("\n## person_detect\n")
        print(person_detect(a.shared))
        print("\n## micro_speech\n")
        print(micro_speech(a.shared))
    else:
        print("\n(%s/models not found: person_detect and micro_speech "
              "skipped)" % a.shared)
    sys.stderr.write("budget_demo: %.0f s\n" % (time.time() - t0))


if __name__ == "__main__":
    main()
