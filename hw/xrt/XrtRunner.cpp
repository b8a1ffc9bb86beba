#include "npusim/hw/XrtRunner.hpp"

#include "npusim/hw/HardwareError.hpp"
#include "npusim/model/BoundedFile.hpp"
#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <optional>

#if NPUSIM_HAVE_XRT
#include <chrono>
#include <experimental/xrt_xclbin.h>
#include <version.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>
#if XRT_VERSION_CODE >= XRT_VERSION(2, 15)
#include <xrt/xrt_hw_context.h>
#define NPUSIM_XRT_HW_CONTEXT 1
#endif
#endif

namespace npusim::hw {

namespace {

// The xclbin is handed to XRT by path, and XRT reads it whole: refuse what it cannot read, an
// empty file, anything but a regular file (a pipe or /dev/zero would be read without end) and a
// file over the limit, before XRT is touched.
void require_xclbin(const std::string& path) {
    std::optional<model::BoundedFile> f;
    try {
        f.emplace(path);
    } catch (const model::BoundedFileError&) {
        throw DesignError(fmt::format("xclbin '{}' cannot be read", path));
    }
    if (!f->regular())
        throw DesignError(fmt::format("xclbin '{}' is not a regular file (XRT reads an xclbin whole, from a file)",
                                      path));
    if (f->size() == 0) throw DesignError(fmt::format("xclbin '{}' is empty", path));
    if (f->size() > XrtRequest::kMaxXclbinBytes)
        throw DesignError(fmt::format("xclbin '{}' is too large: it has {} bytes, more than the limit of {}", path,
                                      f->size(), model::byte_size_text(XrtRequest::kMaxXclbinBytes)));
}

} // namespace

std::string XrtRunner::xrt_version() {
#if NPUSIM_HAVE_XRT
    return xrt_build_version;
#else
    return {};
#endif
}

XrtResult XrtRunner::run(const XrtRequest& req, const InstructionStream& insts, const BufferPlan& plan,
                         const std::vector<std::vector<std::uint8_t>>& inputs) {
    require_xclbin(req.xclbin);
    if (req.iters == 0) throw DesignError("XrtRequest: iters must be at least 1 (timed runs)");
#if !NPUSIM_HAVE_XRT
    (void)insts;
    (void)plan;
    (void)inputs;
    throw HardwareError(HardwareError::Kind::Unavailable,
                        "this npusim was built without XRT (CMake found no xrt/xrt_device.h and libxrt_coreutil, "
                        "or a project built against an installed npusim did not ask for it with "
                        "find_package(npusim COMPONENTS xrt)): install libxrt-dev (tools/install-deps.sh) and "
                        "rebuild to run designs on an NPU");
#else
    // 1. The device. Without an NPU (or its amdxdna driver) XRT throws here.
    std::optional<xrt::device> device;
    try {
        device.emplace(req.device_index);
    } catch (const std::exception& e) {
        throw HardwareError(HardwareError::Kind::NoDevice,
                            fmt::format("XRT {} cannot open device {} ({}); a run on hardware needs an "
                                        "NPU and its driver (amdxdna), see docs/hardware.md",
                                        xrt_version(), req.device_index, e.what()));
    }
    XrtResult result;
    try {
        result.device_name = device->get_info<xrt::info::device::name>();
        // 2. The xclbin and its kernel (the first whose name starts with kernel_name, as the test
        //    programs pick it).
        xrt::xclbin xclbin(req.xclbin);
        std::string kernel_name;
        for (const auto& k : xclbin.get_kernels())
            if (k.get_name().rfind(req.kernel_name, 0) == 0) {
                kernel_name = k.get_name();
                break;
            }
        if (kernel_name.empty())
            throw HardwareError(HardwareError::Kind::Failed,
                                fmt::format("xclbin '{}' has no kernel named {}*", req.xclbin, req.kernel_name));
#if NPUSIM_XRT_HW_CONTEXT
        device->register_xclbin(xclbin);
        xrt::hw_context context(*device, xclbin.get_uuid());
        xrt::kernel kernel(context, kernel_name);
#else
        const auto uuid = device->load_xclbin(xclbin);
        xrt::kernel kernel(*device, uuid, kernel_name);
#endif
        // 3. Buffer objects as planned; inputs written and synced.
        std::vector<xrt::bo> bos;
        for (const auto& b : plan.bos()) {
            const auto flags = b.cacheable ? XCL_BO_FLAGS_CACHEABLE : XRT_BO_FLAGS_HOST_ONLY;
            bos.emplace_back(*device, b.bytes, flags, kernel.group_id(b.group_id));
            if (b.arg < 0)
                bos.back().write(insts.words().data());
            else if (b.to_device && static_cast<std::size_t>(b.arg) < inputs.size() &&
                     inputs[static_cast<std::size_t>(b.arg)].size() == b.bytes)
                bos.back().write(inputs[static_cast<std::size_t>(b.arg)].data());
            if (b.to_device) bos.back().sync(XCL_BO_SYNC_BO_TO_DEVICE);
        }
        // 4. Warm-up runs, then timed runs: kernel(3, bo_instr, words, bo_0, ...).
        for (std::uint32_t i = 0; i < req.warmup + req.iters; ++i) {
            const auto t0 = std::chrono::high_resolution_clock::now();
            xrt::run run(kernel);
            run.set_arg(0, BufferPlan::kOpcode);
            run.set_arg(1, bos[0]);
            run.set_arg(2, static_cast<std::uint32_t>(insts.size()));
            for (std::size_t k = 1; k < bos.size(); ++k) run.set_arg(static_cast<int>(2 + k), bos[k]);
            run.start();
            const auto state = run.wait();
            const auto t1 = std::chrono::high_resolution_clock::now();
            if (state != ERT_CMD_STATE_COMPLETED)
                throw HardwareError(HardwareError::Kind::Failed,
                                    fmt::format("run {} of kernel {} ended in state {}", i, kernel_name,
                                                static_cast<int>(state)));
            if (i >= req.warmup) result.times_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
        // 5. Outputs back.
        result.outputs.resize(inputs.size());
        for (std::size_t k = 1; k < bos.size(); ++k) {
            const auto& b = plan.bos()[k];
            if (!b.from_device) continue;
            bos[k].sync(XCL_BO_SYNC_BO_FROM_DEVICE);
            auto& out = result.outputs[static_cast<std::size_t>(b.arg)];
            out.resize(b.bytes);
            bos[k].read(out.data());
        }
    } catch (const HardwareError&) {
        throw;
    } catch (const std::exception& e) {
        throw HardwareError(HardwareError::Kind::Failed, fmt::format("XRT failed: {}", e.what()));
    }
    return result;
#endif
}

} // namespace npusim::hw
