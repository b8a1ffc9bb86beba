"""iron tensors: numpy-backed host tensors (IRON python/iron/hostruntime/tensor*). `device=` is
accepted and ignored: a simulated run reads and writes the numpy array."""
import numpy as np

from .._types import host_dtype


class Tensor:
    def __init__(self, data, dtype=None, device="npu"):
        dtype = host_dtype(dtype)  # v8bfp16ebs8: its 9-byte host dtype (npusim.bfp)
        if isinstance(data, tuple) and all(isinstance(d, (int, np.integer)) for d in data):
            # IRON's tensor((rows, cols), dtype=...): a new tensor of that shape (zeros here)
            data = np.zeros(data, dtype=dtype if dtype is not None else np.uint32)
        self._data = np.array(data, dtype=dtype, copy=True) if not isinstance(data, np.ndarray) or dtype is not None \
            else np.array(data, copy=True)
        self.device = device

    # numpy-like surface
    @property
    def shape(self):
        return self._data.shape

    @property
    def dtype(self):
        return self._data.dtype

    def numel(self):
        return int(self._data.size)

    def numpy(self):
        return self._data

    def __array__(self, dtype=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def __len__(self):
        return len(self._data)

    def __getitem__(self, i):
        return self._data[i]

    def __setitem__(self, i, v):
        self._data[i] = v

    def to(self, device):
        self.device = device
        return self

    def fill_(self, value):
        self._data.fill(value)
        return self

    def zero_(self):
        return self.fill_(0)

    def __repr__(self):
        return f"iron.tensor({self._data!r}, device={self.device!r})"


def _shape(size):
    return tuple(size) if isinstance(size, (tuple, list)) else (int(size),)


def tensor(data, dtype=None, device="npu"):
    return Tensor(data, dtype=dtype, device=device)


def zeros(*size, dtype=np.float32, device="npu", **_):
    return Tensor(np.zeros(_shape(size[0] if len(size) == 1 else size), dtype=host_dtype(dtype)), device=device)


def ones(*size, dtype=np.float32, device="npu", **_):
    return Tensor(np.ones(_shape(size[0] if len(size) == 1 else size), dtype=dtype), device=device)


def full(size, value, dtype=np.float32, device="npu", **_):
    return Tensor(np.full(_shape(size), value, dtype=dtype), device=device)


def arange(*args, dtype=None, device="npu", shape=None, **_):
    """IRON's arange(start=0, end, step=1, shape=None): the range, reshaped to `shape` if given."""
    data = np.arange(*args, dtype=dtype)
    return Tensor(data if shape is None else data.reshape(shape), device=device)


def randint(low, high, size, dtype=np.int32, device="npu", **_):
    return Tensor(np.random.randint(low, high, size=_shape(size)).astype(dtype), device=device)


def rand(*size, dtype=np.float32, device="npu", **_):
    return Tensor(np.random.rand(*_shape(size[0] if len(size) == 1 else size)).astype(dtype), device=device)


def zeros_like(t, dtype=None, device=None, **_):
    a = np.asarray(t)
    return Tensor(np.zeros_like(a, dtype=host_dtype(dtype)), device=device or getattr(t, "device", "npu"))


def ones_like(t, dtype=None, device=None, **_):
    a = np.asarray(t)
    return Tensor(np.ones_like(a, dtype=dtype), device=device or getattr(t, "device", "npu"))
