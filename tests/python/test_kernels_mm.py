"""aie.iron.kernels.mm's IRON flags beyond the layout: emulate_bf16_mmul_with_bfp16 (mlir-aie
python/iron/kernels/linalg.py at 3ca0193). The numerics are tested in C++ (tests/kernels_ref)."""
import numpy as np
import pytest

import npusim
from npusim.iron import kernels
from npusim.iron.device import device_for


@pytest.fixture(autouse=True)
def _keep_current_device_mm():
    """Tests here pick devices; each leaves the current device as it found it."""
    dev = npusim.iron.get_current_device()
    yield
    npusim.iron.set_current_device(dev)


def test_mm_emulate_bf16_mmul_with_bfp16_as_iron_applies_it():
    # linalg.py l.181-189: AIE2P and bf16 inputs only, mac dims (8, 8, 8); ignored on AIE2 and for
    # other inputs. The numerics (bfp16 blocks, conv_even) are tested in C++ (MatmulViaBfp16_test,
    # AieMatmulViaBfp16_test).
    from ml_dtypes import bfloat16
    npusim.iron.set_current_device(device_for("npu2"))
    for out in (bfloat16, np.float32):
        k = kernels.mm(input_dtype=bfloat16, output_dtype=out, emulate_bf16_mmul_with_bfp16=True)
        assert k.mac_dims == (8, 8, 8)
        assert k.name == ("matmul_bf16_bf16" if out is bfloat16 else "matmul_bf16_f32")
    assert kernels.mm(input_dtype=np.int8, output_dtype=np.int8, emulate_bf16_mmul_with_bfp16=True).mac_dims == (8, 8, 8)
    assert kernels.mm(input_dtype=np.int16, output_dtype=np.int32, emulate_bf16_mmul_with_bfp16=True).mac_dims == (4, 4, 8)
    with pytest.raises(npusim.DesignError, match=r"dim_m=64, dim_k=64, dim_n=8 must be multiples of 16, 8 and 16 "
                                                 r"\(2 x 8x8x8 mmul blocks"):
        kernels.mm(dim_n=8, input_dtype=bfloat16, output_dtype=bfloat16, emulate_bf16_mmul_with_bfp16=True)
    npusim.iron.set_current_device(device_for("npu1_1col"))
    assert kernels.mm(input_dtype=bfloat16, output_dtype=bfloat16, emulate_bf16_mmul_with_bfp16=True).mac_dims == (4, 8, 4)
