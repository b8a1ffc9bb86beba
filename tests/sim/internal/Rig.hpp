#pragma once
// A fresh SystemC context with the services of a run, for driving engine parts directly.
#include "RunServices.hpp"
#include "ScContextGuard.hpp"
#include "SimProcess.hpp"
#include "StreamLink.hpp"

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::test {

struct Rig {
    sim::ScContextGuard ctx; // first: created first, destroyed last
    model::TimingParams timing = model::TimingParams::for_arch(model::Arch::AIE2);
    sim::RunControl run;
    sim::TraceTracks tracks{nullptr};
    sim::RunServices services{run, tracks, timing};
};

/// A releaser's name that outlives every lock of the test (SemaphoreLock::release_at keeps it by
/// reference, as the engine's processes own theirs for the run).
inline const std::string& who(std::string_view name) {
    static std::deque<std::string> names;
    return names.emplace_back(name);
}

/// A process whose body is a test lambda; exposes its clock.
class TestProcess final : public sim::SimProcess {
public:
    TestProcess(const sim::RunServices& s, std::string name, std::function<void(TestProcess&)> f)
        : SimProcess(s, std::move(name)), f_(std::move(f)) {}
    sim::ProcessClock& clock() { return clk_; }
    void start() { spawn("test", 64 * 1024); }
    sim::ProcessView view() const override { return base_view(sim::ProcessView::Kind::Worker); }

private:
    void body() override { f_(*this); }
    std::function<void(TestProcess&)> f_;
};

/// A stream receiver that keeps every byte it is handed.
struct Collect final : sim::StreamReceiver {
    std::vector<std::uint8_t> got;
    void accept(const std::uint8_t* d, std::uint64_t n) override { got.insert(got.end(), d, d + n); }
    std::string label() const override { return "rx"; }
};

} // namespace npusim::test
