"""tflc.Interpreter against TFLM's recorded outputs, its errors, and its
memory."""

import os

import numpy as np
import pytest

import tflc
from conftest import conformance, shared_dir

MODELS = conformance("models")
# every other suite: single operators, TFLM's own test models, compressed
# weights (Huffman, Prune, LUT), extra models
OPS = [(suite + "/" + c[0],) + c[1:] for suite in
       ("ops", "ops2", "external", "weights", "models_ext")
       for c in conformance(suite)]


def run_case(path, ins, outs):
    it = tflc.Interpreter(model_path=os.path.join(path, "model.tflite"))
    it.allocate_tensors()
    idet = it.get_input_details()
    odet = it.get_output_details()
    assert len(idet) == len(ins) or not ins
    for d, f in zip(idet, ins):
        x = np.fromfile(os.path.join(path, f), dtype=d["dtype"])
        it.set_tensor(d["index"], x.reshape(d["shape"]))
    it.invoke()
    assert len(odet) == len(outs)
    for d, f in zip(odet, outs):
        y = it.get_tensor(d["index"])
        assert y.dtype == np.dtype(d["dtype"])
        assert tuple(y.shape) == tuple(d["shape"])
        with open(os.path.join(path, f), "rb") as fh:
            want = fh.read()
        assert y.tobytes() == want, "%s: %s differs from TFLM" % (path, f)
    return it


@pytest.mark.parametrize("case", MODELS, ids=[c[0] for c in MODELS])
def test_models_equal_tflm(case):
    name, path, ins, outs = case
    it = run_case(path, ins, outs)
    assert it.arena_used_bytes > 0
    timings = it.get_op_timings()
    assert timings and all(t["us"] is None or t["us"] >= 0 for t in timings)


@pytest.mark.parametrize("case", OPS, ids=[c[0] for c in OPS])
def test_suites_equal_tflm(case):
    name, path, ins, outs = case
    run_case(path, ins, outs)


def test_have_conformance_cases():
    if not os.path.isdir(os.path.join(shared_dir(), "conformance")):
        pytest.skip("no ../shared/conformance")
    assert MODELS


def test_details_match_tflm_json(shared):
    import json
    d = os.path.join(shared, "conformance", "models", "person_detect",
                     "person")
    with open(os.path.join(d, "tflm.json")) as f:
        ref = json.load(f)
    it = tflc.Interpreter(model_path=os.path.join(d, "model.tflite"))
    for mine, theirs in ((it.get_input_details(), ref["inputs"]),
                         (it.get_output_details(), ref["outputs"])):
        for a, b in zip(mine, theirs):
            assert a["index"] == b["tensor"]
            assert a["name"] == b["name"]
            assert list(a["shape"]) == b["shape"]
            assert np.dtype(a["dtype"]).name == b["type"].lower()
            assert abs(a["quantization"][0] - b["scale"]) < 1e-9
            assert a["quantization"][1] == b["zero_point"]
            qp = a["quantization_parameters"]
            assert qp["scales"].dtype == np.float32
            assert qp["zero_points"].dtype == np.int32
    it.allocate_tensors()
    assert it.arena_used_bytes <= ref["arena_used_bytes"]


def test_model_content_and_inputs_kept(shared):
    d = os.path.join(shared, "conformance", "models", "person_detect",
                     "person")
    with open(os.path.join(d, "model.tflite"), "rb") as f:
        content = f.read()
    it = tflc.Interpreter(model_content=content)
    it.allocate_tensors()
    i = it.get_input_details()[0]
    o = it.get_output_details()[0]
    x = np.fromfile(os.path.join(d, "input_0.bin"), np.int8)
    it.set_tensor(i["index"], x.reshape(i["shape"]))
    it.invoke()
    first = it.get_tensor(o["index"])
    it.invoke()  # tflite_runtime keeps inputs set: the same answer
    assert (it.get_tensor(o["index"]) == first).all()
    assert (it.get_tensor(i["index"]).ravel() == x).all()
    assert list(first.ravel()) == [-113, 113]


def test_arena_size(shared):
    p = os.path.join(shared, "conformance", "models", "hello_world_int8",
                     "seed1", "model.tflite")
    it = tflc.Interpreter(model_path=p)
    it.allocate_tensors()
    need = it.arena_used_bytes
    it2 = tflc.Interpreter(model_path=p, arena_size=need)
    it2.allocate_tensors()
    it3 = tflc.Interpreter(model_path=p, arena_size=need - 1)
    with pytest.raises(RuntimeError, match="arena"):
        it3.allocate_tensors()


# ---- errors -------------------------------------------------------------

def hello(shared):
    return os.path.join(shared, "conformance", "models", "hello_world_int8",
                        "seed1", "model.tflite")


def test_errors_raise(shared):
    p = hello(shared)
    with pytest.raises(ValueError):
        tflc.Interpreter()
    with pytest.raises(ValueError):
        tflc.Interpreter(model_path=p, model_content=b"x")
    with pytest.raises(ValueError, match="cannot read the model"):
        tflc.Interpreter(model_content=b"not a model at all, not at all")
    with pytest.raises((IOError, OSError)):
        tflc.Interpreter(model_path=p + ".missing")
    with pytest.raises(ValueError):
        tflc.Interpreter(model_path=p, arena_size=-5)
    it = tflc.Interpreter(model_path=p)
    i = it.get_input_details()[0]
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        it.invoke()
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        it.set_tensor(i["index"], np.zeros(i["shape"], np.int8))
    it.allocate_tensors()
    with pytest.raises(ValueError, match="type"):
        it.set_tensor(i["index"], np.zeros(i["shape"], np.float32))
    with pytest.raises(ValueError, match="Dimension mismatch"):
        it.set_tensor(i["index"], np.zeros((1, 2), np.int8))
    with pytest.raises(ValueError, match="Dimension mismatch"):
        it.set_tensor(i["index"], np.zeros((1,), np.int8))
    with pytest.raises(ValueError, match="not an input"):
        it.set_tensor(10000, np.zeros(i["shape"], np.int8))
    with pytest.raises(ValueError, match="out of range"):
        it.get_tensor(10000)
    with pytest.raises(ValueError, match="out of range"):
        it.get_tensor("0")
    with pytest.raises(ValueError):
        it.resize_tensor_input(i["index"], [4, 1])
    it.resize_tensor_input(i["index"], list(i["shape"]))
    it.close()
    with pytest.raises(ValueError, match="closed"):
        it.get_input_details()


def test_mutated_models_never_crash(shared):
    """Hostile bytes: flipped bytes raise or run, never crash."""
    with open(hello(shared), "rb") as f:
        good = bytearray(f.read())
    rng = np.random.RandomState(1)
    for k in range(300):
        b = bytearray(good)
        for _ in range(1 + k % 4):
            b[rng.randint(len(b))] = rng.randint(256)
        if k % 7 == 0:
            b = b[:rng.randint(len(b))]
        try:
            it = tflc.Interpreter(model_content=bytes(b))
            it.get_input_details()
            it.get_signature_list()
            it.allocate_tensors()
            it.invoke()
            for d in it.get_output_details():
                it.get_tensor(d["index"])
        except (ValueError, RuntimeError):
            pass


def rss_kib():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def test_memory_freed(shared):
    """10,000 create / allocate / invoke / delete do not grow the process."""
    p = hello(shared)
    with open(p, "rb") as f:
        content = f.read()
    x = np.array([[5]], dtype=np.int8)

    def once():
        it = tflc.Interpreter(model_content=content)
        it.allocate_tensors()
        d = it.get_input_details()[0]
        it.set_tensor(d["index"], x.reshape(d["shape"]))
        it.invoke()
        it.get_tensor(it.get_output_details()[0]["index"])
        it.get_op_timings()
        del it

    for _ in range(500):
        once()
    before = rss_kib()
    for _ in range(10000):
        once()
    grown = rss_kib() - before
    assert grown < 2048, "RSS grew by %d KiB over 10,000 interpreters" % grown


def test_docs_example(shared, tmp_path, capsys):
    """docs/python.md's script runs and prints TFLM's person score."""
    import re
    import shutil
    doc = os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                       "python.md")
    if not os.path.exists(doc):
        pytest.skip("docs/python.md not here")
    with open(doc) as f:
        code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    for n in ("person_detect.tflite", "person_96x96_gray.bin"):
        p = os.path.join(shared, "models", n)
        if not os.path.exists(p):
            pytest.skip("no " + p)
        shutil.copy(p, str(tmp_path / n))
    cwd = os.getcwd()
    os.chdir(str(tmp_path))
    try:
        exec(compile(code, "docs/python.md", "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "person 113 " in out and "arena " in out


def test_tflite_runtime_arguments(shared):
    it = tflc.Interpreter(model_path=hello(shared), num_threads=4,
                          experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    with pytest.raises(TypeError):
        tflc.Interpreter(model_path=hello(shared), no_such_argument=1)


def test_signature_runner(shared):
    d = os.path.join(shared, "conformance", "models", "simple_add", "seed1")
    it = tflc.Interpreter(model_path=os.path.join(d, "model.tflite"))
    sigs = it.get_signature_list()
    if not sigs:
        pytest.skip("simple_add has no signature here")
    (key, io), = sigs.items()
    runner = it.get_signature_runner()
    assert it.get_signature_runner(key) is not None
    ins = runner.get_input_details()
    assert sorted(ins) == sorted(io["inputs"])
    feeds = {}
    for k, (name, det) in enumerate(sorted(ins.items(),
                                           key=lambda x: x[1]["index"])):
        feeds[name] = np.full(det["shape"], k + 3, dtype=det["dtype"])
    out = runner(**feeds)
    assert sorted(out) == sorted(io["outputs"])
    # the same as set_tensor / invoke / get_tensor
    it2 = tflc.Interpreter(model_path=os.path.join(d, "model.tflite"))
    it2.allocate_tensors()
    for name, det in ins.items():
        it2.set_tensor(det["index"], feeds[name])
    it2.invoke()
    for name, det in runner.get_output_details().items():
        assert (it2.get_tensor(det["index"]) == out[name]).all()
    with pytest.raises(ValueError, match="signature_key"):
        it.get_signature_runner("nope")
    with pytest.raises(ValueError, match="inputs"):
        runner(**{list(ins)[0]: feeds[list(ins)[0]]}) if len(ins) > 1 \
            else runner()
    p = os.path.join(shared, "conformance", "models", "person_detect",
                     "person", "model.tflite")
    assert tflc.Interpreter(model_path=p).get_signature_list() == {}
    with pytest.raises(ValueError):
        tflc.Interpreter(model_path=p).get_signature_runner()
