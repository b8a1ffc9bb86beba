"""npusim.utils: stand-ins for aie.utils (verify)."""
