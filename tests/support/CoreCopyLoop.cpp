#include "support/CoreCopyLoop.hpp"

#include <algorithm>

namespace npusim::test {

using namespace npusim::iron;

CoreCopyLoop core_copy_loop(Tile core, const TensorType& buffer) {
    Buffer in_buf(buffer, "in_buf", {}, core), out_buf(buffer, "out_buf", {}, core);
    Lock ie(core, 0, 1, "in_empty"), iff(core, 1, 0, "in_full"), oe(core, 2, 1, "out_empty"), of(core, 3, 0, "out_full");
    Worker w(
        [](Buffer i, Buffer o, Lock in_e, Lock in_f, Lock out_e, Lock out_f) {
            in_f.acquire();
            out_e.acquire();
            const auto s = i.as<std::int32_t>();
            std::copy(s.begin(), s.end(), o.as<std::int32_t>().begin());
            in_e.release();
            out_f.release();
        },
        fn_args(in_buf, out_buf, ie, iff, oe, of), {.tile = core, .name = "copy"});
    TileDma dma(core,
                {DmaChannel{DMAChannelDir::S2MM, 0, {Bd{.buffer = in_buf, .acquires = {{ie}}, .releases = {{iff}}}}},
                 DmaChannel{DMAChannelDir::MM2S, 0, {Bd{.buffer = out_buf, .acquires = {{of}}, .releases = {{oe}}}}}},
                "core_dma");
    return {ie, iff, oe, of, w, dma};
}

} // namespace npusim::test
