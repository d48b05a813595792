"""tflc.compress_to_budget and tflc.Writer."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tflc

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("TFLC")


def small_mlp(seed=0):
    """int8 [1,64] -> FC RELU [1,48] -> FC [1,5], written by tflc.Writer."""
    rng = np.random.RandomState(seed)
    w = tflc.Writer()
    x = w.tensor("int8", [1, 64], name="x", scale=1 / 255.0, zero_point=-128)
    k1 = w.tensor("int8", [48, 64], data=rng.randint(-127, 128, (48, 64)),
                  scale=0.002, name="w1")
    b1 = w.tensor("int32", [48], data=rng.randint(-300, 300, 48),
                  scale=0.002 / 255.0, name="b1")
    h = w.tensor("int8", [1, 48], name="h", scale=0.02, zero_point=-128)
    k2 = w.tensor("int8", [5, 48], data=rng.randint(-127, 128, (5, 48)),
                  scale=0.004, name="w2")
    b2 = w.tensor("int32", [5], data=rng.randint(-300, 300, 5),
                  scale=0.00008, name="b2")
    y = w.tensor("int8", [1, 5], name="y", scale=0.01, zero_point=0)
    w.op(9, [x, k1, b1], [h], options_type=8, options=[(0, "u8", 1)])
    w.op(9, [h, k2, b2], [y], options_type=8, options=[(0, "u8", 0)])
    w.inputs([x])
    w.outputs([y])
    return w.finish()


def run(model, xs):
    it = tflc.Interpreter(model_content=model)
    it.allocate_tensors()
    i = it.get_input_details()[0]["index"]
    o = it.get_output_details()[0]["index"]
    out = []
    for x in xs:
        it.set_tensor(i, x.reshape(1, -1))
        it.invoke()
        out.append(it.get_tensor(o)[0].copy())
    return np.array(out)


def test_writer_model_runs():
    m = small_mlp()
    assert m[4:8] == b"TFL3"
    r = tflc.info(m)
    assert [o["opcode"] for o in r["subgraphs"][0]["operators"]] == [
        "FULLY_CONNECTED", "FULLY_CONNECTED"]
    assert r["inputs"][0]["shape"] == [1, 64]
    y = run(m, np.zeros((2, 64), np.int8))
    assert y.shape == (2, 5) and y.dtype == np.int8
    w = tflc.Writer()
    with pytest.raises(tflc.TflcError, match="operator"):
        w.op(9, [0], [0], options_type=0, options=[(0, "u8", 1)])
    with pytest.raises(ValueError, match="not supported"):
        w.tensor("complex64", [2])


def test_budget_within_and_deterministic(tmp_path):
    m = small_mlp()
    rng = np.random.RandomState(5)
    xs = rng.randint(-128, 128, (40, 64)).astype(np.int8)
    y0 = run(m, xs)
    labels = y0.argmax(1)
    rep = tflc.compress_to_budget(m, budget={"top1": 0.9, "max": 0.05},
                                  inputs=xs.reshape(40, 1, 64))
    out = rep["model_content"]
    assert rep["output_bytes"] == len(out) < len(m)
    assert rep["final"]["top1"] >= 0.9 and rep["final"]["max_abs"] <= 0.05
    y1 = run(out, xs)
    assert (y1.argmax(1) == y0.argmax(1)).mean() >= 0.9
    assert np.abs(y1.astype(float) - y0).max() * 0.01 <= 0.05 + 1e-9
    assert rep["steps"] and all("after" in s for s in rep["steps"])
    assert rep["search_seconds"] >= 0 and rep["evaluations"] > 0
    t = {(e["subgraph"], e["tensor"]): e for e in rep["tensors"]}
    assert len(t) == 2
    # same bytes again; labels as a list of arrays; drop budget
    rep2 = tflc.compress_to_budget(m, budget="top1=90%,max=0.05",
                                   inputs=[x.reshape(1, 64) for x in xs])
    assert rep2["model_content"] == out
    rep3 = tflc.compress_to_budget(m, budget="drop=0%", inputs=[
        x.tobytes() for x in xs], labels=labels, prune=True)
    assert rep3["baseline"]["accuracy"] == 1.0
    assert rep3["final"]["accuracy"] == 1.0
    # the CLI gives the same report
    if TOOL and os.path.exists(TOOL):
        p = tmp_path / "m.tflite"
        p.write_bytes(m)
        d = tmp_path / "in"
        d.mkdir()
        for k, x in enumerate(xs):
            (d / ("%03d.bin" % k)).write_bytes(x.tobytes())
        r = subprocess.run([TOOL, "bin", str(p), "-o", str(tmp_path / "o"),
                            "--budget", "top1=90%,max=0.05", "--inputs",
                            str(d), "--json"], stdout=subprocess.PIPE)
        cli = json.loads(r.stdout.decode())
        for k in ("tensors", "steps", "budget", "baseline", "final",
                  "samples", "labels", "evaluations", "input_bytes",
                  "output_bytes"):
            assert cli[k] == rep[k], k
        assert (tmp_path / "o").read_bytes() == out


def test_budget_errors():
    m = small_mlp()
    xs = np.zeros((3, 1, 64), np.int8)
    with pytest.raises(tflc.TflcError, match="budget"):
        tflc.compress_to_budget(m, budget="top1=200%", inputs=xs)
    with pytest.raises(ValueError):
        tflc.compress_to_budget(m, budget={"accuracy": 1}, inputs=xs)
    with pytest.raises(tflc.TflcError, match="labels"):
        tflc.compress_to_budget(m, budget="drop=1%", inputs=xs)
    with pytest.raises(tflc.TflcError, match="bytes"):
        tflc.compress_to_budget(m, budget="top1=90%",
                                inputs=np.zeros((3, 1, 63), np.int8))
    with pytest.raises(tflc.TflcError, match="samples"):
        tflc.compress_to_budget(m, budget="top1=90%")
    with pytest.raises(tflc.TflcError, match="labels for"):
        tflc.compress_to_budget(m, budget="drop=1%", inputs=xs, labels=[1])
    with pytest.raises(ValueError, match="min_bits"):
        tflc.compress_to_budget(m, inputs=xs, min_bits=0)
    # random inputs equal the tool's generator (tflc run --random-inputs)
    r1 = tflc.compress_to_budget(m, budget="top1=90%", random_inputs=3,
                                 exclude=[(0, 1)])
    assert r1["samples"] == 3
    r2 = tflc.compress_to_budget(m, budget="top1=90%", random_inputs=3,
                                 format="metadata", tflm_compatible=True)
    assert tflc.info(r2["model_content"])["compressed_tensors"] >= 0
    with pytest.raises(ValueError, match="format"):
        tflc.compress_to_budget(m, random_inputs=3, format="zip")
    assert all(t["bits"] == 0 for t in r1["tensors"] if t["tensor"] == 1)


def test_digits_demo():
    """The docs' digits table: the budget holds on the validation split."""
    pytest.importorskip("sklearn")
    sys.path.insert(0, os.path.join(HERE, "..", "examples"))
    import budget_demo
    from sklearn.datasets import load_digits
    ws, bs = budget_demo.train_mlp(np.random.RandomState(1).rand(50, 64),
                                   np.arange(50) % 10, [64, 16, 10],
                                   epochs=2)
    model = budget_demo.write_int8_mlp(ws, bs,
                                       np.random.RandomState(2).rand(50, 64))
    assert tflc.check(model)["runs"] is True
    d = load_digits()
    xq = budget_demo.quantize_inputs(d.data[:200] / 16.0)
    y = d.target[:200]
    base = budget_demo.accuracy(model, xq, y)
    rep = tflc.compress_to_budget(model, budget="drop=5%",
                                  inputs=xq.reshape(-1, 1, 64), labels=y)
    assert base - budget_demo.accuracy(rep["model_content"], xq, y) <= 0.05
