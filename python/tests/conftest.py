import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def shared_dir():
    return os.path.abspath(os.environ.get("SHARED") or
                           os.path.join(ROOT, "..", "shared"))


def conformance(suite):
    """(case dir, model, [inputs], [outputs]) of every case in a suite."""
    base = os.path.join(shared_dir(), "conformance", suite)
    cases = []
    if not os.path.isdir(base):
        return cases
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        if "model.tflite" not in filenames or "layers" == \
                os.path.basename(dirpath):
            continue
        ins = sorted(f for f in filenames if f.startswith("input_") and
                     f.endswith(".bin"))
        outs = sorted(f for f in filenames if f.startswith("output_") and
                      f.endswith(".bin"))
        if not outs:
            continue
        key = lambda f: int(f.split("_")[1].split(".")[0])
        cases.append((os.path.relpath(dirpath, base), dirpath,
                      sorted(ins, key=key), sorted(outs, key=key)))
    return cases


@pytest.fixture
def shared():
    d = shared_dir()
    if not os.path.isdir(os.path.join(d, "conformance")):
        pytest.skip("no ../shared/conformance")
    return d
