"""aie.utils under npusim: the tensor factories and device helpers, the host-runtime names examples'
drivers import (DefaultNPURuntime, NPUKernel, cleanup_npu_runtime, aie.utils.test.create_npu_kernel),
aie.utils.config.cxx_header_path and aie.utils.compile.resolve_target_arch."""
import argparse
import os

import pytest

from conftest import run_cli


def test_tensor_factories_devices_and_header_path():
    import aie.iron as iron
    import aie.utils as utils
    from aie.iron.device import NPU1Col1, NPU2
    from aie.utils.compile import resolve_target_arch
    from aie.utils.config import cxx_header_path
    assert utils.zeros is iron.zeros and utils.arange is iron.arange and utils.ceildiv(7, 2) == 4
    assert resolve_target_arch(NPU2()) == "aie2p" and resolve_target_arch(NPU1Col1()) == "aie2"
    assert resolve_target_arch() == "aie2"
    assert os.path.isfile(os.path.join(cxx_header_path(), "aie_api", "aie.hpp"))
    assert utils.has_xrt is False
    with pytest.raises(NotImplementedError, match="aie.utils.config.peano_install_dir is not supported by npusim"):
        import aie.utils.config as config
        config.peano_install_dir()


def test_a_compiled_xclbin_is_refused_by_name():
    from aie.utils import DefaultNPURuntime, NPUKernel, cleanup_npu_runtime
    from aie.utils.hostruntime.argparse import add_runtime_args
    from aie.utils.test import create_npu_kernel
    p = argparse.ArgumentParser()
    add_runtime_args(p)
    opts = create_npu_kernel(p.parse_args(["--xclbin", "build/final.xclbin", "--instr", "build/insts.bin"]))
    assert isinstance(opts.npu_kernel, NPUKernel) and opts.npu_kernel.xclbin_path == "build/final.xclbin"
    assert DefaultNPURuntime.npu_str == "npu2"  # the simulated device, npu2 unless --device says otherwise
    with pytest.raises(NotImplementedError, match=r"test_utils.py:\d+: aie.utils.DefaultNPURuntime.run_test of the "
                                                  r"compiled xclbin 'build/final.xclbin' is not supported by npusim"):
        DefaultNPURuntime.run_test(opts.npu_kernel, [], {})
    cleanup_npu_runtime()  # releases nothing, raises nothing


def test_drivers_see_the_device_of_npusim_python(tmp_path):
    f = tmp_path / "driver.py"
    f.write_text("from aie.utils import DefaultNPURuntime, _get_default_npu_runtime\n"
                 "print(DefaultNPURuntime.npu_str, _get_default_npu_runtime() is DefaultNPURuntime)\n")
    r = run_cli("python", "--device", "npu1_1col", str(f))
    assert r.returncode == 0 and r.stdout.split() == ["npu1", "True"], r.stderr
