"""Shared pieces of the aie.iron.kernels tests (test_kernels*.py): a kernel's name and argument
types, the YCXC8 / OIYXI8O8 layouts, a one-worker design, and the fixture that leaves the current
device as a test found it."""
import numpy as np
import pytest

import npusim


def _sig(k):
    n = k._native
    return k.name, [n.arg_type(i) for i in range(n.arg_count)]


@pytest.fixture(autouse=True)
def keep_current_device():
    """Tests pick devices; each leaves the current device as it found it (autouse in every test
    module that imports it)."""
    dev = npusim.iron.get_current_device()
    yield
    npusim.iron.set_current_device(dev)


def _ycxc8(m):
    """[x][c] -> the YCXC8 layout [c/8][x][8] (conv2d.hpp)."""
    return np.ascontiguousarray(m.reshape(m.shape[0], -1, 8).transpose(1, 0, 2).ravel())


def _oiyxi8o8(m):
    """Weights [o][i] -> the OIYXI8O8 layout [o/8][i/8][i%8][o%8] of a 1x1 kernel."""
    return np.ascontiguousarray(m.reshape(m.shape[0] // 8, 8, m.shape[1] // 8, 8).transpose(0, 2, 3, 1).ravel())


def _one_core(worker, host_types, fills, drain):
    """A design of one worker ((body, its arguments)): the runtime fills the input fifos `fills` from
    the host and drains the output fifo `drain`."""
    from npusim.iron import Program, Runtime, Worker
    w = Worker(worker[0], worker[1])

    def seq(*a):
        n = len(host_types)
        hosts, handles = a[:n], a[n:]
        for h, of in zip(hosts[:-1], handles[:-1]):
            of.fill(h)
        handles[-1].drain(hosts[-1], wait=True)

    return Program(npusim.iron.get_current_device(), Runtime(seq, host_types + fills + [drain]),
                   workers=[w]).resolve_program()
