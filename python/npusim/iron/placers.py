"""aie.iron.placers: npusim places tiles itself when the program is resolved, as IRON's
SequentialPlacer does (first free tile in column order); the placer objects are accepted."""


class SequentialPlacer:
    def __init__(self, cores_per_col=None):
        self.cores_per_col = cores_per_col


class Placer(SequentialPlacer):
    pass
