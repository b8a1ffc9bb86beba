"""npusim.helpers: stand-ins for aie.helpers (taplib, util)."""
