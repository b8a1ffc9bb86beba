"""npusim's bfloat16: ml_dtypes' type when ml_dtypes is installed, else npusim's own numpy dtype
(python/src/BFloat16Dtype.cpp: round-to-nearest-even conversion, casts, arithmetic ufuncs). Inside
`npusim python` runs without ml_dtypes, `from ml_dtypes import bfloat16` gives npusim's (npusim/_hook.py);
outside them, no ml_dtypes module appears."""
import importlib
import importlib.machinery

from . import _npusim


def ml_dtypes_installed():
    """True when a real ml_dtypes is importable (looked up on sys.path, past npusim's import hook)."""
    return importlib.machinery.PathFinder.find_spec("ml_dtypes") is not None


if ml_dtypes_installed():
    bfloat16 = importlib.import_module("ml_dtypes").bfloat16
else:
    bfloat16 = _npusim.bfloat16
