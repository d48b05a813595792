"""tflc.Interpreter: tflite_runtime's Interpreter API over tflc."""

import ctypes
import os

import numpy as np

from ._lib import TflcError, lib

# TFLite TensorType -> numpy dtype (tflc reads and writes these bytes)
_DTYPES = {
    0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8, 4: np.int64,
    6: np.bool_, 7: np.int16, 8: np.complex64, 9: np.int8, 10: np.float64,
    11: np.complex128, 12: np.uint64, 15: np.uint32, 16: np.uint16,
}
_TYPE_NAMES = {
    0: "FLOAT32", 1: "FLOAT16", 2: "INT32", 3: "UINT8", 4: "INT64",
    5: "STRING", 6: "BOOL", 7: "INT16", 8: "COMPLEX64", 9: "INT8",
    10: "FLOAT64", 11: "COMPLEX128", 12: "UINT64", 13: "RESOURCE",
    14: "VARIANT", 15: "UINT32", 16: "UINT16", 17: "INT4",
}
_MAX_DIMS = 8


def _np_type_name(dtype):
    for code, t in _DTYPES.items():
        if np.dtype(t) == dtype:
            return _TYPE_NAMES[code]
    return str(dtype).upper()


class Interpreter:
    """Runs a .tflite model with tflc, byte-identical to TFLM.

    The method names, arguments and return shapes are tflite_runtime's
    (``tflite_runtime.interpreter.Interpreter``), so a script written for it
    runs by changing its import::

        import tflc
        interpreter = tflc.Interpreter(model_path="model.tflite")
        interpreter.allocate_tensors()
        inp = interpreter.get_input_details()[0]
        interpreter.set_tensor(inp["index"], x)
        interpreter.invoke()
        y = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])

    arena_size: the arena in bytes (as on the device); None: exactly what
    the model needs (``arena_used_bytes`` says how much). Extra
    tflite_runtime arguments are accepted: num_threads is ignored (one
    thread); experimental_delegates must be empty.
    """

    def __init__(self, model_path=None, model_content=None,
                 experimental_delegates=None, num_threads=None,
                 experimental_op_resolver_type=None,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False,
                 arena_size=None):
        # tflite_runtime's experimental_* arguments are accepted: tflc has
        # one operator set, no delegates to cluster, and does not keep
        # intermediate tensors (get_tensor reads them while they are live)
        self._h = None
        if (model_path is None) == (model_content is None):
            raise ValueError("give exactly one of model_path and "
                             "model_content")
        if experimental_delegates:
            raise ValueError("tflc: experimental_delegates are not "
                             "supported (tflc runs every operator itself)")
        if arena_size is not None and (not isinstance(arena_size, int) or
                                       arena_size <= 0):
            raise ValueError("arena_size must be a positive int or None")
        if model_path is not None:
            with open(os.fspath(model_path), "rb") as f:
                content = f.read()
        else:
            content = bytes(model_content)
        if not content:
            raise ValueError("empty model")
        self._content = content
        self._arena_size = arena_size
        err = ctypes.create_string_buffer(512)
        st = ctypes.c_int(0)
        h = lib.tflcpy_create(content, len(content), err, len(err),
                              ctypes.byref(st))
        if not h:
            raise ValueError("tflc: cannot read the model: " +
                             err.value.decode("utf-8", "replace"))
        self._h = h
        self._allocated = False
        self._inputs = [lib.tflcpy_io(h, 0, k)
                        for k in range(lib.tflcpy_io(h, 0, -1))]
        self._outputs = [lib.tflcpy_io(h, 1, k)
                         for k in range(lib.tflcpy_io(h, 1, -1))]
        self._host = {}  # input tensor index -> numpy array set by the user

    # ---- lifetime -------------------------------------------------------
    def close(self):
        """Frees the model copy and the arena (also done when collected)."""
        h, self._h = self._h, None
        if h:
            lib.tflcpy_destroy(h)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if not self._h:
            raise ValueError("tflc: the interpreter was closed")
        return self._h

    # ---- tensors --------------------------------------------------------
    def _tensor(self, t):
        h = self._handle()
        c = ctypes
        typ, rank, nbytes = c.c_int32(), c.c_int32(), c.c_uint32()
        dims = (c.c_int32 * _MAX_DIMS)()
        name, nl = c.c_void_p(), c.c_uint32()
        ns, axis = c.c_int32(), c.c_int32()
        if not isinstance(t, (int, np.integer)) or lib.tflcpy_tensor(
                h, int(t), c.byref(typ), c.byref(rank), dims, c.byref(nbytes),
                c.byref(name), c.byref(nl), c.byref(ns), c.byref(axis)) != 0:
            raise ValueError("Tensor index %r is out of range" % (t,))
        nm = c.string_at(name.value, nl.value).decode("utf-8", "replace") \
            if name.value else ""
        scales, zps = [], []
        s, z = c.c_float(), c.c_int64()
        for k in range(ns.value):
            lib.tflcpy_tensor_quant(h, int(t), k, c.byref(s), c.byref(z))
            scales.append(s.value)
            zps.append(z.value)
        code = typ.value
        return {
            "name": nm,
            "index": int(t),
            "shape": np.array(dims[:rank.value], dtype=np.int32),
            "shape_signature": np.array(dims[:rank.value], dtype=np.int32),
            "dtype": _DTYPES.get(code, np.uint8),
            "quantization": (scales[0], zps[0]) if scales else (0.0, 0),
            "quantization_parameters": {
                "scales": np.array(scales, dtype=np.float32),
                "zero_points": np.array(zps, dtype=np.int32),
                "quantized_dimension": axis.value if scales else 0,
            },
            "sparsity_parameters": {},
            "_type": code,
            "_bytes": nbytes.value,
        }

    def _input_records(self):
        """(type code, bytes) of each input of subgraph 0."""
        return [(d["_type"], d["_bytes"]) for d in
                (self._tensor(t) for t in self._inputs)]

    @staticmethod
    def _public(d):
        return {k: v for k, v in d.items() if not k.startswith("_")}

    def get_input_details(self):
        """Subgraph 0's inputs: a list of dicts (name, index, shape,
        shape_signature, dtype, quantization, quantization_parameters,
        sparsity_parameters), as tflite_runtime returns them."""
        return [self._public(self._tensor(t)) for t in self._inputs]

    def get_output_details(self):
        """Subgraph 0's outputs, as get_input_details."""
        return [self._public(self._tensor(t)) for t in self._outputs]

    def get_tensor_details(self):
        """Every tensor of subgraph 0 (name, index, shape, dtype,
        quantization, quantization_parameters)."""
        out, t = [], 0
        while True:
            try:
                out.append(self._public(self._tensor(t)))
            except ValueError:
                return out
            t += 1

    def get_signature_list(self):
        """The model's signatures: {key: {"inputs": [names], "outputs":
        [names]}}, as tflite_runtime gives them."""
        from ._signatures import signatures
        return {s["key"]: {"inputs": list(s["inputs"]),
                           "outputs": list(s["outputs"])}
                for s in signatures(self._content)}

    def get_signature_runner(self, signature_key=None):
        """A SignatureRunner for the signature `signature_key` (None: the
        only one): runner(**inputs) -> {output name: array}. Signatures of
        subgraph 0 only (the one tflc's interpreter runs)."""
        from ._signatures import signatures
        sigs = signatures(self._content)
        if signature_key is None:
            if len(sigs) != 1:
                raise ValueError("SignatureDef signature_key is None and "
                                 "the model has %d signatures" % len(sigs))
            sig = sigs[0]
        else:
            found = [s for s in sigs if s["key"] == signature_key]
            if not found:
                raise ValueError("Invalid signature_key provided: %r" %
                                 (signature_key,))
            sig = found[0]
        if sig["subgraph"] != 0:
            raise ValueError("tflc: signature %r runs subgraph %d; tflc runs "
                             "subgraph 0" % (sig["key"], sig["subgraph"]))
        return SignatureRunner(self, sig)

    def allocate_tensors(self):
        """Plans the arena (exactly the size needed, or arena_size) and
        prepares every operator. Raises RuntimeError when tflc cannot run
        the model or the arena is too small."""
        h = self._handle()
        st = lib.tflcpy_allocate(h, self._arena_size or 0)
        if st != 0:
            self._allocated = False
            raise RuntimeError("tflc: allocate_tensors: " +
                               lib.tflcpy_error(h).decode("utf-8", "replace"))
        self._allocated = True
        self._host = {}
        for t in self._inputs:
            d = self._tensor(t)
            if d["_type"] not in _DTYPES:
                continue
            self._host[t] = np.zeros(tuple(d["shape"]), dtype=d["dtype"])

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        """Shapes are fixed in tflc (as in TFLM): only the model's own shape
        is accepted."""
        d = self._tensor(input_index)
        if tuple(int(x) for x in tensor_size) != tuple(d["shape"]):
            raise ValueError("tflc: cannot resize input %d from %s to %s "
                             "(shapes are fixed, as in TFLM)" %
                             (input_index, list(d["shape"]),
                              list(tensor_size)))

    def _check_allocated(self):
        self._handle()
        if not self._allocated:
            raise RuntimeError("tflc: call allocate_tensors() first")

    def set_tensor(self, tensor_index, value):
        """Copies `value` into input tensor `tensor_index`; its dtype and
        shape must be the tensor's (ValueError otherwise)."""
        self._check_allocated()
        if tensor_index not in self._inputs:
            raise ValueError("tflc: tensor %r is not an input of the model "
                             "(inputs: %s)" % (tensor_index, self._inputs))
        d = self._tensor(tensor_index)
        k = self._inputs.index(tensor_index)
        if d["_type"] not in _DTYPES:
            raise ValueError("tflc: input %d has type %s, which numpy "
                             "cannot hold" % (k, _TYPE_NAMES.get(
                                 d["_type"], d["_type"])))
        v = np.asarray(value)
        want = np.dtype(d["dtype"])
        if v.dtype != want:
            raise ValueError(
                "Cannot set tensor: Got value of type %s but expected type %s "
                "for input %d, name: %s " % (_np_type_name(v.dtype),
                                             _TYPE_NAMES[d["_type"]], k,
                                             d["name"]))
        shape = tuple(int(x) for x in d["shape"])
        if v.shape != shape:
            if v.ndim != len(shape):
                raise ValueError(
                    "Cannot set tensor: Dimension mismatch. Got %d but "
                    "expected %d for input %d." % (v.ndim, len(shape), k))
            for i, (a, b) in enumerate(zip(v.shape, shape)):
                if a != b:
                    raise ValueError(
                        "Cannot set tensor: Dimension mismatch. Got %d but "
                        "expected %d for dimension %d of input %d." %
                        (a, b, i, k))
        self._host[tensor_index] = np.array(v, dtype=want, order="C",
                                            copy=True)

    def _data(self, t):
        n = ctypes.c_uint32()
        p = lib.tflcpy_tensor_data(self._handle(), int(t), ctypes.byref(n))
        return p, n.value

    def invoke(self):
        """Runs the model once on the inputs set (inputs never set hold
        zeros). Raises RuntimeError when an operator fails."""
        self._check_allocated()
        h = self._h
        for t, v in self._host.items():
            p, n = self._data(t)
            if not p or n != v.nbytes:
                raise RuntimeError("tflc: input tensor %d has no buffer" % t)
            ctypes.memmove(p, v.ctypes.data, n)
        st = lib.tflcpy_invoke(h)
        if st != 0:
            raise RuntimeError("tflc: invoke: " +
                               lib.tflcpy_error(h).decode("utf-8", "replace"))

    def get_tensor(self, tensor_index):
        """A copy of tensor `tensor_index` (numpy, its dtype and shape):
        an input as set, an output after invoke; other tensors while their
        arena bytes are still live (as tflite_runtime without
        experimental_preserve_all_tensors)."""
        self._check_allocated()
        d = self._tensor(tensor_index)
        if tensor_index in self._host:
            return self._host[tensor_index].copy()
        if d["_type"] not in _DTYPES:
            raise ValueError("tflc: tensor %d has type %s, which numpy "
                             "cannot hold" % (tensor_index, _TYPE_NAMES.get(
                                 d["_type"], d["_type"])))
        p, n = self._data(tensor_index)
        if not p:
            raise ValueError("tflc: tensor %d (%s) has no readable data (a "
                             "compressed constant, or not kept)" %
                             (tensor_index, d["name"]))
        shape = tuple(int(x) for x in d["shape"])
        dt = np.dtype(d["dtype"])
        count = int(np.prod(shape)) if shape else 1
        if n != count * dt.itemsize:
            raise ValueError("tflc: tensor %d holds %d bytes, not %d" %
                             (tensor_index, n, count * dt.itemsize))
        buf = ctypes.string_at(p, n)
        return np.frombuffer(buf, dtype=dt).reshape(shape).copy()

    def tensor(self, tensor_index):
        """tflite_runtime's tensor(): a function returning the tensor's
        current value (a copy here, not a view: tflc owns the arena)."""
        return lambda: self.get_tensor(tensor_index)

    def reset_all_variables(self):
        """Re-plans the interpreter: variables back at their start."""
        self.allocate_tensors()

    # ---- tflc extras ----------------------------------------------------
    @property
    def arena_used_bytes(self):
        """The arena this model needs with tflc, in bytes (after
        allocate_tensors): what to give the interpreter on the device."""
        self._check_allocated()
        return int(lib.tflcpy_arena_used(self._h))

    def get_op_timings(self):
        """Per operator of the last invoke: a list of dicts (index, opcode,
        us), in model order; us is None for operators that did not run."""
        self._check_allocated()
        h = self._h
        us = ctypes.c_double()
        out = []
        for op in range(lib.tflcpy_timing(h, -1, None)):
            code = lib.tflcpy_timing(h, op, ctypes.byref(us))
            out.append({"index": op, "opcode": lib.tflcpy_opcode_name(
                code).decode(), "us": us.value if us.value >= 0 else None})
        return out


class SignatureRunner:
    """tflite_runtime's SignatureRunner over a tflc.Interpreter:
    runner(**inputs) sets the named inputs, invokes and returns the
    outputs by name."""

    def __init__(self, interpreter, sig):
        self._it = interpreter
        self._sig = sig

    def get_input_details(self):
        return {n: self._it._public(self._it._tensor(t))
                for n, t in self._sig["inputs"].items()}

    def get_output_details(self):
        return {n: self._it._public(self._it._tensor(t))
                for n, t in self._sig["outputs"].items()}

    def allocate_tensors(self):
        self._it.allocate_tensors()

    def __call__(self, **kwargs):
        it = self._it
        if not it._allocated:
            it.allocate_tensors()
        names = self._sig["inputs"]
        if set(kwargs) != set(names):
            raise ValueError("Invalid number of inputs provided for running "
                             "a SignatureDef, expected %s vs provided %s" %
                             (sorted(names), sorted(kwargs)))
        for n, v in kwargs.items():
            it.set_tensor(names[n], v)
        it.invoke()
        return {n: it.get_tensor(t) for n, t in self._sig["outputs"].items()}
