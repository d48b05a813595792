"""The SignatureDefs of a .tflite model (Model.signature_defs), read from
its bytes: [{"key", "subgraph", "inputs": {name: tensor}, "outputs":
{name: tensor}}]. A model without them, or with ones that cannot be read,
gives []."""

import struct


def _u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def _field(b, t, slot):
    vt = t - struct.unpack_from("<i", b, t)[0]
    vlen = struct.unpack_from("<H", b, vt)[0]
    if 4 + 2 * slot + 2 > vlen:
        return None
    fo = struct.unpack_from("<H", b, vt + 4 + 2 * slot)[0]
    return t + fo if fo else None


def _ref(b, p):
    return p + _u32(b, p)


def _string(b, p):
    s = _ref(b, p)
    n = _u32(b, s)
    if s + 4 + n > len(b):
        raise ValueError("string out of range")
    return b[s + 4:s + 4 + n].decode("utf-8")


def _tables(b, p):
    v = _ref(b, p)
    n = _u32(b, v)
    if v + 4 + 4 * n > len(b):
        raise ValueError("vector out of range")
    return [_ref(b, v + 4 + 4 * k) for k in range(n)]


def _maps(b, p):
    out = {}
    if p is None:
        return out
    for t in _tables(b, p):
        np_, ip = _field(b, t, 0), _field(b, t, 1)
        out[_string(b, np_) if np_ else ""] = _u32(b, ip) if ip else 0
    return out


def signatures(model):
    b = bytes(model)
    try:
        p = _field(b, _u32(b, 0), 7)
        if p is None:
            return []
        res = []
        for sd in _tables(b, p):
            kp, sp = _field(b, sd, 2), _field(b, sd, 4)
            res.append({"key": _string(b, kp) if kp else "",
                        "subgraph": _u32(b, sp) if sp else 0,
                        "inputs": _maps(b, _field(b, sd, 0)),
                        "outputs": _maps(b, _field(b, sd, 1))})
        return res
    except (struct.error, ValueError, UnicodeDecodeError, IndexError):
        return []
