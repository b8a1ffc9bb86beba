"""Program (IRON python/iron/program.py): device + runtime + workers. resolve_program() resolves the
design (every structural error is a DesignError naming the call's file and line) and returns a
ResolvedProgram, which prints as npusim's MLIR export and is what npusim.simulate() runs."""
from .. import _npusim
from .._errors import _Located, design_error, where
from .device import Device, device_for


class ResolvedProgram:
    def __init__(self, program, native, netlist=None):
        self.program = program
        self._native = native
        # the design resolved once, its runtime sequence run once (IRON traces the sequence exactly
        # once, so a sequence may keep Python state across its calls, as matmul single_core's drain
        # counter does); None with runtime scalars, whose values each simulate() gives
        self._netlist = netlist

    @property
    def tensor_types(self):
        return self.program.rt.tensor_types

    def __str__(self):
        return self.export_mlir()

    def export_mlir(self, generic=False):
        """npusim's MLIR export, as str() prints it; generic=True prints every op in MLIR's generic
        form, as `npusim export --generic` does (what mlir-opt --allow-unregistered-dialect reads)."""
        loc = where()
        if self.program.rt.scalar_types:
            raise NotImplementedError(f"{loc[0]}:{loc[1]}: npusim's MLIR export of a runtime sequence with scalar "
                                      "arguments is not supported (npusim runs the sequence with the values each "
                                      "npusim.simulate call gives)")
        with _Located(loc):
            return self._native.export_mlir(generic)

    def __repr__(self):
        return f"<npusim resolved program '{self._native.name}' on {self._native.device}>"

    def operation(self):  # mlir Module-like access used by some scripts
        return self


class Program:
    """IRON Program(device, rt, workers=None)."""

    def __init__(self, device, rt, workers=None, name=None):
        self._loc = where()
        self.device = device if isinstance(device, Device) else device_for(str(device))
        self.rt = rt
        self.workers = list(workers or [])
        self.name = name
        self._trace = None
        self._resolved = None
        self._switchboxes = None

    def enable_trace(self, trace_size=None, workers=None, **_):
        self._trace = (int(trace_size or 0), workers)

    def _register_switchboxes(self):
        """What the Resolvables among the workers' fn_args wrote when each Worker resolved them
        (tiles() + resolve(): upstream manual_switchbox's switchboxes, custom_dma's hand-made DMA),
        registered with the runtime once per Program."""
        if self._switchboxes is not None:
            return
        from .lowlevel import Flow, Lock, TileDma
        self._switchboxes = [b for w in self.workers for b in w._resolved[0]]
        for box in self._switchboxes:
            with _Located(box.loc):
                _npusim.runtime_add_switchbox(self.rt._native, box.tile._native, box.shim_mux, box.connects)
        for w in self.workers:
            for obj in w._resolved[1]:
                if isinstance(obj, Flow):
                    self.rt.add_flow(obj)
                elif isinstance(obj, Lock):
                    self.rt.add_lock(obj)
                elif isinstance(obj, TileDma):
                    self.rt.add_tile_dma(obj)

    def _native_program(self, name):
        loc = where()
        self._register_switchboxes()
        with _Located(loc):
            p = _npusim.Program(self.device.name, self.rt._native, [w._native for w in self.workers],
                                name=self.name or name or "design")
            if self._trace and self._trace[0] > 0:
                ws = self._trace[1]
                p.enable_trace(self._trace[0], [w._native for w in ws] if ws is not None else None)
        return p

    def resolve_program(self, placer=None, device_name="main", name=None):
        loc = where()
        native = self._native_program(name)
        netlist = None
        if not self.rt.scalar_types:  # with runtime scalars, each simulate() resolves with their values
            with _Located(loc):
                netlist = native.resolve_once()
        self._resolved = ResolvedProgram(self, native, netlist)
        return self._resolved
