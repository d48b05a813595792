"""tflc.info / check / bin / compress give the CLI's --json facts."""

import json
import os
import subprocess

import numpy as np
import pytest

import tflc

TOOL = os.environ.get("TFLC")


def pd(shared):
    return os.path.join(shared, "conformance", "models", "person_detect",
                        "person", "model.tflite")


def cli_json(args):
    if not TOOL or not os.path.exists(TOOL):
        pytest.skip("TFLC (the tflc tool) not given")
    r = subprocess.run([TOOL] + args, stdout=subprocess.PIPE)
    return json.loads(r.stdout.decode())


def test_info(shared):
    r = tflc.info(pd(shared))
    assert r["arena_used_bytes"] > 0
    assert r["inputs"][0]["shape"] == [1, 96, 96, 1]
    assert r["subgraphs"][0]["operators"][0]["opcode"] == "DEPTHWISE_CONV_2D"
    with open(pd(shared), "rb") as f:
        r2 = tflc.info(f.read())  # bytes work too
    assert r2["arena_used_bytes"] == r["arena_used_bytes"]
    assert tflc.info(pd(shared), target=32)["arena_target"] == "32-bit"
    assert r == cli_json(["info", pd(shared), "--json"])


def test_check(shared):
    r = tflc.check(pd(shared))
    assert r["runs"] is True
    assert r == cli_json(["check", pd(shared), "--json"])


def test_bin_and_compress(shared, tmp_path):
    b = str(tmp_path / "b.tflite")
    c = str(tmp_path / "c.tflite")
    r = tflc.bin(pd(shared), b, bits=4)
    assert r["bits"] == 4 and os.path.exists(b)
    assert any(t["binned"] for t in r["tensors"])
    r2 = tflc.compress(b, c, format="decode")
    assert r2["output_bytes"] < r2["input_bytes"]
    assert any(t["compressed"] for t in r2["tensors"])
    # the compressed model runs and equals the binned one
    x = np.fromfile(os.path.join(os.path.dirname(pd(shared)), "input_0.bin"),
                    np.int8).reshape(1, 96, 96, 1)
    ys = []
    for p in (b, c):
        it = tflc.Interpreter(model_path=p)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        ys.append(it.get_tensor(it.get_output_details()[0]["index"]))
    assert (ys[0] == ys[1]).all()
    b2 = str(tmp_path / "b2.tflite")
    c2 = str(tmp_path / "c2.tflite")
    assert cli_json(["bin", pd(shared), "-o", b2, "--bits", "4",
                     "--json"])["tensors"] == r["tensors"]
    assert cli_json(["compress", b, "-o", c2, "--format", "decode",
                     "--json"])["tensors"] == r2["tensors"]
    with open(b, "rb") as f1, open(b2, "rb") as f2:
        assert f1.read() == f2.read()
    # bytes in, bytes out; tensor lists
    r3 = tflc.bin(pd(shared), bits=2, tensors=[(0, 1)])
    assert r3["model_content"][4:8] == b"TFL3"
    r4 = tflc.compress(b, methods="auto", exclude=[(0, 1)])
    assert r4["model_content"]


def test_tool_errors_raise(shared, tmp_path):
    with pytest.raises(tflc.TflcError, match="cannot open"):
        tflc.info(str(tmp_path / "missing.tflite"))
    with pytest.raises(tflc.TflcError):
        tflc.info(b"garbage, not a model")
    with pytest.raises(tflc.TflcError, match="bits"):
        tflc.bin(pd(shared), bits=9)
    with pytest.raises(tflc.TflcError, match="nothing compressed"):
        tflc.compress(pd(shared))  # unbinned weights: nothing qualifies
    # the tool still works after a failure
    assert tflc.check(pd(shared))["runs"] is True


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_failed_tool_calls_release_what_they_held(shared):
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc (Linux only)")
    fds = len(os.listdir("/proc/self/fd"))
    for _ in range(3):  # warm up the allocator and the files it reuses
        with pytest.raises(tflc.TflcError):
            tflc.compress(pd(shared))
    rss = _rss_kb()
    # each failed call reads the 300 kB model and holds it when it fails:
    # 100 calls leaking it would grow the process by 30 MB
    for _ in range(100):
        with pytest.raises(tflc.TflcError, match="nothing compressed"):
            tflc.compress(pd(shared))
    assert len(os.listdir("/proc/self/fd")) == fds
    assert _rss_kb() - rss < 8 * 1024
