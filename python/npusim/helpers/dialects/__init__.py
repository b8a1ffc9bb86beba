"""npusim.helpers.dialects: aie.helpers.dialects.scf's if_/else_ for recorded worker bodies."""
