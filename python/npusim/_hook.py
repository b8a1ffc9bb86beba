"""The import hook of `npusim python`: a sys.meta_path finder serving IRON's module names from
npusim, installed in one process only (never a global `aie` package that would shadow a real
mlir-aie install). An `aie.*` module npusim does not provide fails to import with its name."""
import importlib
import importlib.abc
import importlib.machinery
import sys
import types

# IRON module -> npusim module. Parents not listed become empty packages.
MODULES = {
    "aie.iron": "npusim.iron",
    "aie.iron.controlflow": "npusim.iron.controlflow",
    "aie.iron.device": "npusim.iron.device",
    "aie.iron.placers": "npusim.iron.placers",
    "aie.iron.kernel": "npusim.iron.kernel",
    "aie.iron.kernels": "npusim.iron.kernels",
    "aie.iron.dataflow": "npusim.iron.dataflow",
    # IRON's dataflow package's modules (python/iron/dataflow/*.py): their names all live in npusim's
    # one dataflow module (ml/mobilenet imports ObjectFifoEndpoint and CascadeFlow from them)
    "aie.iron.dataflow.endpoint": "npusim.iron.dataflow",
    "aie.iron.dataflow.cascadeflow": "npusim.iron.dataflow",
    "aie.iron.dataflow.objectfifo": "npusim.iron.dataflow",
    "aie.iron.dataflow.flow": "npusim.iron.dataflow",
    "aie.iron.dataflow.tile_dma": "npusim.iron.dataflow",
    "aie.iron.worker": "npusim.iron.worker",
    "aie.iron.buffer": "npusim.iron.buffer",
    "aie.iron.runtime": "npusim.iron.runtime",
    "aie.iron.program": "npusim.iron.program",
    "aie.iron.jit": "npusim.iron.jit",
    "aie.iron.algorithms": "npusim.iron.algorithms",
    "aie.iron.dtype": "npusim.iron.dtype",
    "aie.iron.resolvable": "npusim.iron.resolvable",
    "aie.helpers.taplib": "npusim.helpers.taplib",
    "aie.helpers.taplib.tap": "npusim.helpers.taplib.tap",
    "aie.helpers.taplib.tas": "npusim.helpers.taplib.tas",
    "aie.helpers.taplib.tensortiler2d": "npusim.helpers.taplib.tensortiler2d",
    "aie.helpers.util": "npusim.helpers.util",
    "aie.helpers.dialects": "npusim.helpers.dialects",
    "aie.helpers.dialects.scf": "npusim.helpers.dialects.scf",
    "aie.helpers.dialects.func": "npusim.helpers.dialects.func",
    "aie.extras.dialects.arith": "npusim.helpers.arith",
    "aie.extras.dialects.memref": "npusim.helpers.memref",
    "aie.extras.types": "npusim.helpers.types",
    "aie.dialects._aie_enum_gen": "npusim.iron.enums",
    "aie.dialects.aiex": "npusim.iron.aiex",
    "aie.dialects.aie": "npusim.iron.aie_dialect",
    "aie.utils": "npusim.utils",
    "aie.utils.test": "npusim.utils.test",
    "aie.utils.config": "npusim.utils.config",
    "aie.utils.compile": "npusim.utils.compile",
    "aie.utils.npukernel": "npusim.utils.npukernel",
    "aie.utils.verify": "npusim.utils.verify",
    "aie.utils.benchmark": "npusim.utils.benchmark",
    "aie.utils.hostruntime": "npusim.utils.hostruntime",
    "aie.utils.hostruntime.cli": "npusim.utils.hostruntime.cli",
    "aie.utils.hostruntime.argparse": "npusim.utils.hostruntime.argparse",
    "aie.utils.trace": "npusim.utils.trace",
    "aie.utils.trace.utils": "npusim.utils.trace.utils",
    "aie.utils.trace.events": "npusim.utils.trace.events",
}
PACKAGES = {"aie", "aie.iron", "aie.iron.dataflow", "aie.helpers", "aie.helpers.dialects", "aie.extras", "aie.extras.dialects", "aie.dialects",
            "aie.utils", "aie.utils.compile", "aie.helpers.taplib", "aie.utils.trace", "aie.utils.hostruntime"}


class _Alias(importlib.abc.Loader):
    """Serves an IRON module name with the npusim module itself (so aie.iron.Worker is
    npusim.iron.Worker), or with an empty package for a parent name."""

    def __init__(self, target):
        self.target = target
        self._spec = None

    def create_module(self, spec):
        if self.target is None:
            m = types.ModuleType(spec.name, f"npusim's stand-in for the package {spec.name}")
            m.__path__ = []
            return m
        m = importlib.import_module(self.target)
        self._spec = m.__spec__
        return m

    def exec_module(self, module):
        # importlib gave the npusim module the alias's spec; it keeps its own.
        if self._spec is not None:
            module.__spec__ = self._spec


# Module trees npusim does not model but whose names designs import at the top: the MLIR dialect
# bindings (aie.dialects.*: designs written close to the metal, and the block-float types they
# export) and the MLIR helpers (aie.extras). They import, so that a design
# gets as far as the first name it uses, and every name raises NotImplementedError naming it.
REFUSED = ("aie.dialects", "aie.extras")


class _Refusing(importlib.abc.Loader):
    def create_module(self, spec):
        name = spec.name
        m = types.ModuleType(name, f"npusim's stand-in for {name}: every name raises NotImplementedError")
        m.__path__ = []

        def refuse(attr):
            if attr.startswith("__"):
                raise AttributeError(attr)
            raise NotImplementedError(f"{name}.{attr} is not supported by npusim (it serves IRON's design API, "
                                      "not the MLIR dialect bindings)")

        m.__getattr__ = refuse
        return m

    def exec_module(self, module):
        pass


def _refused(fullname):
    return any(fullname == p or fullname.startswith(p + ".") for p in REFUSED)


class AieFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "ml_dtypes":
            # npusim's bfloat16 serves `from ml_dtypes import bfloat16` where ml_dtypes is not
            # installed; an installed ml_dtypes is imported as always.
            from ._bfloat16 import ml_dtypes_installed
            if ml_dtypes_installed():
                return None
            return importlib.machinery.ModuleSpec(fullname, _Alias("npusim._ml_dtypes"))
        if fullname != "aie" and not fullname.startswith("aie."):
            return None
        if fullname in MODULES:
            return importlib.machinery.ModuleSpec(fullname, _Alias(MODULES[fullname]),
                                                  is_package=fullname in PACKAGES)
        if fullname in PACKAGES:
            return importlib.machinery.ModuleSpec(fullname, _Alias(None), is_package=True)
        if _refused(fullname):
            return importlib.machinery.ModuleSpec(fullname, _Refusing(), is_package=True)
        raise ModuleNotFoundError(f"npusim does not provide the IRON module '{fullname}' (npusim serves: "
                                  f"{', '.join(sorted(MODULES))})", name=fullname)


_finder = None


def install():
    global _finder
    if _finder is None:
        _finder = AieFinder()
        sys.meta_path.insert(0, _finder)
