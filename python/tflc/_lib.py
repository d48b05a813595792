"""Loads the shared library (tflc/_libtflc.so) and declares its functions."""

import ctypes
import os
import tempfile
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))


class TflcError(RuntimeError):
    """An error reported by tflc (the model, the interpreter, a tool)."""

    def __init__(self, message, status=None):
        RuntimeError.__init__(self, message)
        self.status = status


def _load():
    path = os.environ.get("TFLC_LIBRARY") or os.path.join(_HERE, "_libtflc.so")
    if not os.path.exists(path):
        raise ImportError(
            "tflc: the shared library %s is missing; install the package "
            "with `pip install ./python` (it compiles it)" % path)
    lib = ctypes.CDLL(path)
    c = ctypes
    P = c.c_void_p
    sigs = {
        "tflcpy_cli": (c.c_int, [c.c_int, c.POINTER(c.c_char_p), c.c_char_p,
                                 c.c_char_p]),
        "tflcpy_create": (P, [c.c_char_p, c.c_size_t, c.c_char_p, c.c_size_t,
                              c.POINTER(c.c_int)]),
        "tflcpy_destroy": (None, [P]),
        "tflcpy_allocate": (c.c_int, [P, c.c_size_t]),
        "tflcpy_error": (c.c_char_p, [P]),
        "tflcpy_arena_used": (c.c_size_t, [P]),
        "tflcpy_io": (c.c_int32, [P, c.c_int, c.c_int32]),
        "tflcpy_tensor": (c.c_int, [P, c.c_int32, c.POINTER(c.c_int32),
                                    c.POINTER(c.c_int32),
                                    c.POINTER(c.c_int32),
                                    c.POINTER(c.c_uint32),
                                    c.POINTER(c.c_void_p),
                                    c.POINTER(c.c_uint32),
                                    c.POINTER(c.c_int32),
                                    c.POINTER(c.c_int32)]),
        "tflcpy_tensor_quant": (c.c_int, [P, c.c_int32, c.c_int32,
                                          c.POINTER(c.c_float),
                                          c.POINTER(c.c_int64)]),
        "tflcpy_tensor_data": (P, [P, c.c_int32, c.POINTER(c.c_uint32)]),
        "tflcpy_invoke": (c.c_int, [P]),
        "tflcpy_timing": (c.c_int32, [P, c.c_int32, c.POINTER(c.c_double)]),
        "tflcpy_opcode_name": (c.c_char_p, [c.c_int32]),
        "tflcpy_version": (c.c_char_p, []),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


lib = _load()
_cli_lock = threading.Lock()


def cli(args):
    """Runs the tflc command-line tool in this process: (status, stdout,
    stderr). The tool is compiled into the shared library, so its reports
    are the CLI's own."""
    args = [os.fsencode(a) if not isinstance(a, bytes) else a for a in args]
    argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
    with _cli_lock, tempfile.TemporaryDirectory(prefix="tflc") as tmp:
        out = os.path.join(tmp, "out")
        err = os.path.join(tmp, "err")
        rc = lib.tflcpy_cli(len(args), argv, os.fsencode(out),
                            os.fsencode(err))
        with open(out, "rb") as f:
            o = f.read().decode("utf-8", "replace")
        with open(err, "rb") as f:
            e = f.read().decode("utf-8", "replace")
    return rc, o, e
