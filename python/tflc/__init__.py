"""tflc from Python: TensorFlow Lite models run byte-identical to TFLM.

    import tflc
    it = tflc.Interpreter(model_path="model.tflite")   # tflite_runtime's API
    tflc.info("model.tflite")                          # `tflc info --json`

Pure Python over the C library (tflc.h, tflc_write.h) through ctypes.
"""

from ._lib import TflcError, lib as _lib
from .interpreter import Interpreter, SignatureRunner
from .writer import Writer
from .budget import compress_to_budget
from .tools import bin, check, compress, info

__version__ = _lib.tflcpy_version().decode()

__all__ = ["Interpreter", "TflcError", "info", "check", "bin", "compress",
           "compress_to_budget", "Writer", "SignatureRunner",
           "__version__"]
