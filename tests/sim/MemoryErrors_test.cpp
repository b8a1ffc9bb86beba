// Writes of native code outside the memory it was given: a kernel writing past its
// output view (a word into the neighbouring buffer, or kilobytes), a worker body writing past an
// object it holds or into one it has released. Each is a SimulationError (Kernel, exit code 2)
// naming the worker, the kernel, the tile, the offset, the buffer hit and the view it overran,
// never a crash or silently corrupted data. SimOptions::check_memory turns the check off.
#include "npusim/iron.hpp"
#include "npusim/sim/Simulator.hpp"
#include "support/Passthrough.hpp"

#include <catch2/catch.hpp>
#include <regex>

using namespace npusim;
using namespace npusim::iron;

namespace {
std::vector<std::vector<std::uint8_t>> ones(const model::Netlist& n) {
    std::vector<std::vector<std::uint8_t>> h;
    for (const auto& t : n.host_tensors) h.emplace_back(t.bytes, 1);
    return h;
}
std::string kernel_error(const model::Netlist& n, sim::SimOptions o = {}) {
    try {
        sim::simulate(n, ones(n), o);
    } catch (const SimulationError& e) {
        CHECK(e.kind() == SimulationError::Kind::Kernel);
        return e.what();
    }
    FAIL("no error");
    return {};
}
// in -> worker 'w' (kernel or body) -> out, objects of 16 i32; `step` is what the worker does with
// the two objects it holds.
template <class Step>
model::Netlist design(Step step, int objects = 2) {
    return test::passthrough(
               {.type = tensor<std::int32_t>({16}), .body = step, .host_elements = 16 * objects, .program = "overrun"})
        .resolve();
}
// A kernel copying 16 words and writing `extra` more past the end of its output.
Kernel overrun_kernel(int extra) {
    return Kernel(
        "copy_over",
        [extra](std::span<const KernelArg> a) {
            const auto* x = reinterpret_cast<const std::int32_t*>(a[0].data);
            auto* y = reinterpret_cast<std::int32_t*>(a[1].data);
            for (int i = 0; i < 16 + extra; ++i) y[i] = x[i % 16] + 1000; // non-zero: a visible write
        },
        {tensor<std::int32_t>({16}), tensor<std::int32_t>({16})}, cost::fixed(10));
}
template <class K>
auto with_kernel(K k) {
    return [k](ObjectFifoHandle i, ObjectFifoHandle o) {
        auto e = i.acquire(1);
        auto f = o.acquire(1);
        k(e, f);
        i.release(1);
        o.release(1);
    };
}
// The cycles a body's report names: after the first, when its writes were last found clean, and by
// the second, when the write was found ({-1, -1} if the report names none).
std::pair<long, long> body_write_window(const std::string& msg) {
    std::smatch m;
    static const std::regex re("between cycle ([0-9]+), its last fifo or kernel call checked, and cycle ([0-9]+), "
                               "this one\\)");
    if (!std::regex_search(msg, m, re)) return {-1, -1};
    return {std::stol(m[1]), std::stol(m[2])};
}
// A body's report: its first line, when, how many bytes changed where, and what it names there.
void check_body_report(const std::string& msg, const std::string& changed, const std::string& names) {
    CHECK_THAT(msg, Catch::StartsWith("worker 'w': its body wrote outside the objects it holds and its Buffers"));
    const auto [after, by] = body_write_window(msg);
    CHECK(after >= 0);
    CHECK(after <= by);
    CHECK_THAT(msg, Catch::Contains(changed));
    CHECK_THAT(msg, Catch::Contains(names));
}
} // namespace

TEST_CASE("a kernel writing one word past its output view is caught, naming what it overwrote",
          "[sim][memory][kernel]") {
    const auto msg = kernel_error(design(with_kernel(overrun_kernel(1))));
    CHECK_THAT(msg, Catch::StartsWith("worker 'w': kernel 'copy_over' wrote outside the views it was given (call at "
                                      "cycle "));
    CHECK_THAT(msg, Catch::Contains("4 byte(s) changed from tile (0,2) offset 0x"));
    CHECK_THAT(msg, Catch::Contains("that is right after the end of view 'out' (64 B)"));
}

TEST_CASE("a kernel writing kilobytes past its output view is caught before it corrupts the simulator",
          "[sim][memory][kernel]") {
    // 2 KiB past the view: through the tile's other buffers and into the guard zone.
    const auto msg = kernel_error(design(with_kernel(overrun_kernel(512))));
    CHECK_THAT(msg, Catch::Contains("kernel 'copy_over' wrote outside the views it was given"));
    CHECK_THAT(msg, Catch::Contains("right after the end of view 'out' (64 B)"));
}

TEST_CASE("a worker body writing past an object it holds, or into one it released, is caught", "[sim][memory][body]") {
    SECTION("past the end of the element it holds") {
        const auto msg = kernel_error(design([](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto e = i.acquire(1);
            auto f = o.acquire(1);
            auto* y = f.as<std::int32_t>().data();
            y[16] = -1; // one past the object: 4 bytes change
            (void)e;
            i.release(1);
            o.release(1);
        }));
        check_body_report(msg, "4 byte(s) changed from tile (0,2)",
                          "right after the end of fifo 'out' producer element 0 (64 B)");
    }
    SECTION("into an object after releasing it") {
        const auto msg = kernel_error(design([](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto e = i.acquire(1);
            auto f = o.acquire(1);
            auto y = f.as<std::int32_t>();
            o.release(1);
            y[0] = 42; // the DMA may already be sending it; one byte changes (42 over 0)
            (void)e;
            i.release(1);
        }));
        check_body_report(msg, "1 byte(s) changed from tile (0,2) offset 0x",
                          "inside buffer 'out_buff_0' ('out' producer, element 0) at byte 0 of its 64");
        CHECK_THAT(msg, !Catch::Contains("that is")); // no held object near the write to blame
    }
}

TEST_CASE("with check_memory off the same overrun passes silently (what the NPU would do)", "[sim][memory][kernel]") {
    sim::SimOptions o;
    o.check_memory = false;
    const auto n = design(with_kernel(overrun_kernel(1)));
    CHECK_NOTHROW(sim::simulate(n, ones(n), o));
}

// An acquire that does not wait checks only the objects it takes and leaves the rest of memory to
// the next full check, before the core waits or calls a kernel (CoreProcess::acquire_check). Neither
// kind of write may get lost or be blamed on the kernel.
TEST_CASE("a body write just before an acquire that does not wait is still caught and blamed on the body",
          "[sim][memory][body]") {
    SECTION("into the very object the acquire then takes") {
        // 'out' has two objects: every other acquire takes the same one. Writing it before the
        // acquire is outside what the body holds, even though the acquire makes it writable. (The
        // first pointer is the body's resolve-time trace, in other memory.)
        auto taken = std::make_shared<std::vector<std::int32_t*>>();
        const auto msg = kernel_error(design(
            [taken](ObjectFifoHandle i, ObjectFifoHandle o) {
                auto e = i.acquire(1);
                if (taken->size() == 3) (*taken)[1][3] = 77; // the object this acquire takes
                auto f = o.acquire(1);
                taken->push_back(f.as<std::int32_t>().data());
                (void)e;
                i.release(1);
                o.release(1);
            },
            4));
        CHECK(taken->size() == 3); // the run stopped at that acquire
        check_body_report(msg, "1 byte(s) changed from tile (0,2) offset 0x",
                          "inside buffer 'out_buff_0' ('out' producer, element 0) at byte 12 of its 64");
    }
    SECTION("elsewhere, before the kernel call that follows") {
        const auto msg = kernel_error(design([](ObjectFifoHandle i, ObjectFifoHandle o) {
            auto e = i.acquire(1);
            e.as<std::int32_t>().data()[16] = -1; // one past the object it holds, before taking 'out'
            auto f = o.acquire(1);
            overrun_kernel(0)(e, f); // writes only its views: the body is to blame
            i.release(1);
            o.release(1);
        }));
        check_body_report(msg, "4 byte(s) changed from tile (0,2)",
                          "right after the end of fifo 'in' consumer 0 element 0 (64 B)");
    }
}

TEST_CASE("a body write's report names the cycles between which it was made", "[sim][memory][body]") {
    // The kernel call (10 cycles of work plus the call overhead) ends with every byte outside its
    // views as it was; the body's write after it is found at its next fifo call, the release.
    const auto msg = kernel_error(design([](ObjectFifoHandle i, ObjectFifoHandle o) {
        auto e = i.acquire(1);
        auto f = o.acquire(1);
        overrun_kernel(0)(e, f);
        f.as<std::int32_t>().data()[16] = -1; // one past the object it holds
        i.release(1);
        o.release(1);
    }));
    check_body_report(msg, "4 byte(s) changed from tile (0,2)",
                      "right after the end of fifo 'out' producer element 0 (64 B)");
    const auto [after, by] = body_write_window(msg);
    // Not before the kernel call ended: at least its 10 cycles of work after the first acquire's data.
    CHECK(after >= 10);
    CHECK(by >= after);
}
