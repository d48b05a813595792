"""PEP 517 build backend for the tflc Python package (no dependencies).

`pip install ./python` calls build_wheel here: it compiles csrc/tflc_py.c
(the runtime, the host tools and the command-line tool in one translation
unit) into tflc/_libtflc.so and zips the package into a wheel. Nothing is
downloaded, so the install works offline and needs no setuptools.

Environment: CC (default cc), TFLC_CFLAGS (extra compiler flags).
"""

import base64
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "tflc"
FLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-O2", "-ffp-contract=off",
         "-fPIC", "-shared"]


def _version():
    with open(os.path.join(HERE, "..", "tflc.h"), encoding="utf-8") as f:
        m = re.search(r'#define TFLC_VERSION "([^"]+)"', f.read())
    return m.group(1) if m else "0.0.0"


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def build_library(out_path):
    """Compiles the shared library to out_path (used by the tests too)."""
    src = os.path.join(HERE, "csrc", "tflc_py.c")
    if not os.path.exists(os.path.join(HERE, "..", "tflc_write.h")):
        raise RuntimeError("tflc: build from the repository's python/ folder "
                           "(the C headers are one level up)")
    cc = shlex.split(os.environ.get("CC", "cc"))
    extra = shlex.split(os.environ.get("TFLC_CFLAGS", ""))
    cmd = cc + FLAGS + extra + ["-o", out_path, src, "-lm"]
    sys.stderr.write("tflc: " + " ".join(cmd) + "\n")
    subprocess.check_call(cmd)


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
            "Summary: TensorFlow Lite models run byte-identical to TFLM "
            "(tflc), from Python\nLicense: MIT\nRequires-Python: >=3.7\n"
            "Requires-Dist: numpy\n" % (NAME, _version()))


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    di = "%s-%s.dist-info" % (NAME, _version())
    os.makedirs(os.path.join(metadata_directory, di), exist_ok=True)
    with open(os.path.join(metadata_directory, di, "METADATA"), "w") as f:
        f.write(_metadata())
    return di


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (arc, digest.rstrip(b"=").decode(), len(data))


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    tag = _tag()
    wheel_name = "%s-%s-%s.whl" % (NAME, version, tag)
    di = "%s-%s.dist-info" % (NAME, version)
    files = []
    pkg = os.path.join(HERE, NAME)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py"):
            with open(os.path.join(pkg, fn), "rb") as f:
                files.append((NAME + "/" + fn, f.read()))
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "_libtflc.so")
        build_library(lib)
        with open(lib, "rb") as f:
            files.append((NAME + "/_libtflc.so", f.read()))
    files.append((di + "/METADATA", _metadata().encode()))
    files.append((di + "/WHEEL", (
        "Wheel-Version: 1.0\nGenerator: tflc_build\nRoot-Is-Purelib: false\n"
        "Tag: %s\n" % tag).encode()))
    record = [_record_line(a, d) for a, d in files]
    record.append(di + "/RECORD,,")
    files.append((di + "/RECORD", ("\n".join(record) + "\n").encode()))
    path = os.path.join(wheel_directory, wheel_name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in files:
            info = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if arc.endswith(".so") else 0o644) << 16
            z.writestr(info, data)
    return wheel_name
