"""The stand-in for `ml_dtypes` inside `npusim python` runs on a machine without ml_dtypes (Debian
12 does not package it): its bfloat16, npusim's own numpy type. Other ml_dtypes names raise
NotImplementedError naming them."""
from ._bfloat16 import bfloat16

__all__ = ["bfloat16"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise NotImplementedError(f"ml_dtypes.{name} is not supported by npusim (it provides ml_dtypes.bfloat16 only; "
                              "install ml_dtypes for the others)")
