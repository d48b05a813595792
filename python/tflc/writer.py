"""tflc.Writer: tflc_write.h's model writer from Python (ctypes).

    w = tflc.Writer()
    x = w.tensor("int8", [1, 64], name="x", scale=0.06, zero_point=-128)
    k = w.tensor("int8", [32, 64], data=weights, scale=0.01)
    b = w.tensor("int32", [32], data=bias, scale=0.0006)
    y = w.tensor("int8", [1, 32], name="y", scale=0.1, zero_point=-128)
    w.op(9, [x, k, b], [y], options_type=8, options=[(0, "u8", 1)])  # FC, RELU
    w.inputs([x]); w.outputs([y])
    tflite_bytes = w.finish()

Operators are the schema's BuiltinOperator numbers, options the fields of
its BuiltinOptions table as (slot, kind, value) with kind "u8", "i32",
"f32" (see tflc_write.h)."""

import ctypes

import numpy as np

from ._lib import TflcError, lib

_TYPES = {"float32": 0, "float16": 1, "int32": 2, "uint8": 3, "int64": 4,
          "bool": 6, "int16": 7, "int8": 9, "float64": 10}
_KINDS = {"u8": 1, "i32": 2, "f32": 3}


class _Quant(ctypes.Structure):
    _fields_ = [("scale", ctypes.POINTER(ctypes.c_float)),
                ("zero_point", ctypes.POINTER(ctypes.c_int64)),
                ("count", ctypes.c_int32), ("axis", ctypes.c_int32)]


class _Option(ctypes.Structure):
    _fields_ = [("slot", ctypes.c_uint8), ("kind", ctypes.c_uint8),
                ("i", ctypes.c_int32), ("f", ctypes.c_float),
                ("vec", ctypes.POINTER(ctypes.c_int32)),
                ("vec_len", ctypes.c_int32), ("str", ctypes.c_char_p),
                ("u", ctypes.c_uint64), ("size", ctypes.c_uint8),
                ("align", ctypes.c_uint8), ("bytes", ctypes.c_void_p),
                ("count", ctypes.c_int32)]


def _declare():
    c = ctypes
    P = c.c_void_p
    sigs = {
        "tflc_writer_create": (P, []),
        "tflc_writer_destroy": (None, [P]),
        "tflc_writer_status": (c.c_int, [P]),
        "tflc_writer_tensor": (c.c_int32, [P, c.c_int32, c.c_int, c.c_int32,
                                           c.POINTER(c.c_int32), c.c_void_p,
                                           c.c_size_t, c.c_char_p,
                                           c.POINTER(_Quant)]),
        "tflc_writer_op": (c.c_int32, [P, c.c_int32, c.c_int32, c.c_char_p,
                                       c.c_int32, c.POINTER(c.c_int32),
                                       c.c_int32, c.POINTER(c.c_int32),
                                       c.c_uint8, c.c_int32,
                                       c.POINTER(_Option)]),
        "tflc_writer_inputs": (None, [P, c.c_int32, c.c_int32,
                                      c.POINTER(c.c_int32)]),
        "tflc_writer_outputs": (None, [P, c.c_int32, c.c_int32,
                                       c.POINTER(c.c_int32)]),
        "tflc_writer_finish": (c.c_int, [P, c.POINTER(c.c_void_p),
                                         c.POINTER(c.c_size_t)]),
        "tflc_status_str": (c.c_char_p, [c.c_int]),
        "free": (None, [P]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args


_declare()


def _i32s(v):
    v = [int(x) for x in v]
    return (ctypes.c_int32 * max(len(v), 1))(*v), len(v)


class Writer:
    """A .tflite model built by calls (one subgraph)."""

    def __init__(self):
        self._w = lib.tflc_writer_create()
        if not self._w:
            raise MemoryError("tflc_writer_create")

    def __del__(self):
        w, self._w = getattr(self, "_w", None), None
        if w:
            lib.tflc_writer_destroy(w)

    def _check(self, r, what):
        if r < 0:
            st = lib.tflc_writer_status(self._w)
            raise TflcError("tflc writer: %s failed (%s)" % (
                what, lib.tflc_status_str(st).decode()), st)
        return r

    def tensor(self, dtype, shape, data=None, name=None, scale=None,
               zero_point=None, axis=0):
        """Adds a tensor; returns its index. data (constant): an array of
        the shape, converted to dtype. scale / zero_point: a number or a
        list (per channel along `axis`)."""
        name_ = np.dtype(dtype).name
        if name_ not in _TYPES:
            raise ValueError("tflc writer: dtype %s not supported (%s)" %
                             (name_, ", ".join(sorted(_TYPES))))
        typ = _TYPES[name_]
        dims, rank = _i32s(shape)
        raw = None
        if data is not None:
            raw = np.ascontiguousarray(np.asarray(data, dtype=dtype)
                                       .reshape(shape)).tobytes()
        q = None
        if scale is not None:
            sc = np.atleast_1d(np.asarray(scale, np.float32))
            zp = np.atleast_1d(np.asarray(
                zero_point if zero_point is not None else 0, np.int64))
            if zp.size == 1 and sc.size > 1:
                zp = np.repeat(zp, sc.size)
            self._keep = (sc, zp)
            q = _Quant(sc.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                       zp.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)),
                       int(sc.size), int(axis))
        r = lib.tflc_writer_tensor(
            self._w, 0, typ, rank, dims, raw, len(raw) if raw else 0,
            name.encode() if name else None,
            ctypes.byref(q) if q is not None else None)
        return self._check(r, "tensor %r" % (name,))

    def op(self, code, inputs, outputs, options_type=0, options=()):
        """Adds operator `code` (BuiltinOperator) reading `inputs` (-1 for
        an absent optional one) and writing `outputs`; options: (slot,
        kind, value) fields of its options table."""
        ins, ni = _i32s(inputs)
        outs, no = _i32s(outputs)
        opts = (_Option * max(len(options), 1))()
        for j, (slot, kind, value) in enumerate(options):
            opts[j].slot = slot
            opts[j].kind = _KINDS[kind]
            if kind == "f32":
                opts[j].f = float(value)
            else:
                opts[j].i = int(value)
        r = lib.tflc_writer_op(self._w, 0, int(code), None, ni, ins, no, outs,
                               int(options_type), len(options), opts)
        return self._check(r, "operator %d" % code)

    def inputs(self, tensors):
        v, n = _i32s(tensors)
        lib.tflc_writer_inputs(self._w, 0, n, v)

    def outputs(self, tensors):
        v, n = _i32s(tensors)
        lib.tflc_writer_outputs(self._w, 0, n, v)

    def finish(self):
        """The .tflite bytes."""
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        st = lib.tflc_writer_finish(self._w, ctypes.byref(p), ctypes.byref(n))
        if st != 0:
            raise TflcError("tflc writer: finish: %s" %
                            lib.tflc_status_str(st).decode(), st)
        try:
            return ctypes.string_at(p.value, n.value)
        finally:
            lib.free(p)
