#include "npusim/harness/DepthAnalysis.hpp"

#include "npusim/harness/ForkPool.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <tuple>

namespace npusim::harness {

DepthAnalysis::DepthAnalysis(const DesignSpec& spec, std::string device, DepthOptions opts)
    : spec_(spec), device_(std::move(device)), opts_(std::move(opts)) {
    const auto& dev = model::device_by_name(device_);
    device_ = dev.name;
    if (!spec_.supports(dev.name))
        throw DesignError(fmt::format("design '{}' does not run on {}", spec_.name, dev.name));
    if (opts_.max_depth < 0 || opts_.max_depth > 63)
        throw DesignError(fmt::format("depth analysis: max depth {} must be within 1..63", opts_.max_depth));
    if (opts_.search_limit < 1) opts_.search_limit = 1;
    if (!opts_.timing) opts_.timing = model::TimingParams::for_arch(dev.arch);
    opts_.params = spec_.resolve_params(opts_.params);
    RunOptions ro;
    ro.seed = opts_.seed;
    ro.kernels = opts_.kernels;
    auto inst = spec_.build(dev, opts_.params, BuildOptions(opts_.seed, opts_.kernels));
    const model::Netlist net = inst.program.resolve(resolve_options(spec_, ro));
    ends_ = net.fifo_ends;
    for (const auto& b : net.buffers) tile_bytes_[b.tile] += b.bytes;
    for (const auto& c : net.cores) tile_bytes_[c.tile] += c.stack_bytes;
}

DepthAnalysis::Config DepthAnalysis::canonical(Config c) const {
    std::erase_if(c, [&](const iron::DepthOverride& o) {
        return std::any_of(ends_.begin(), ends_.end(), [&](const model::FifoEndpointInfo& e) {
            return e.owns_buffers() && e.fifo == o.fifo && e.consumer == o.consumer && e.depth == o.depth;
        });
    });
    std::sort(c.begin(), c.end(), [](const iron::DepthOverride& a, const iron::DepthOverride& b) {
        return std::tie(a.fifo, a.consumer, a.depth) < std::tie(b.fifo, b.consumer, b.depth);
    });
    return c;
}

std::string DepthAnalysis::key(const Config& c) {
    std::string k;
    for (const auto& o : c) k += fmt::format("{}\x1f{}\x1f{}\x1e", o.fifo, o.consumer, o.depth);
    return k;
}

DepthOutcome DepthAnalysis::run_one(const Config& c) const {
    RunOptions ro;
    ro.seed = opts_.seed;
    ro.kernels = opts_.kernels;
    ro.sim.timing = *opts_.timing;
    ro.sim.max_cycles = opts_.max_cycles;
    ro.depth_overrides = c;
    return outcome_of(spec_, device_, opts_.params, ro);
}

void DepthAnalysis::report_progress() const {
    if (!opts_.progress) return;
    DepthProgress p;
    p.done = cache_.size();
    p.total = std::max(planned_.size(), cache_.size());
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    opts_.progress(p);
}

// One worker process per configuration (ForkPool): crash- and hang-proof.
void DepthAnalysis::run_forked(const std::vector<Config>& todo, std::vector<DepthOutcome>& out) {
    ForkPool(opts_.jobs, opts_.timeout_seconds)
        .run(
            todo.size(), [&](std::size_t i) { return run_one(todo[i]); },
            [&](std::size_t i, const DepthOutcome& o, double) {
                out[i] = o;
                cache_[key(todo[i])] = o;
                if (o.status != DepthOutcome::Status::Refused) ++simulations_;
                report_progress();
            });
}

std::vector<DepthOutcome> DepthAnalysis::evaluate_all(const std::vector<Config>& configs) {
    if (started_ == std::chrono::steady_clock::time_point{}) started_ = std::chrono::steady_clock::now();
    std::vector<Config> canon;
    std::vector<Config> todo;
    std::set<std::string> todo_keys;
    for (const auto& c : configs) {
        canon.push_back(canonical(c));
        const std::string k = key(canon.back());
        planned_.insert(k);
        if (cache_.count(k) || todo_keys.count(k)) {
            ++reused_;
            continue;
        }
        todo_keys.insert(k);
        todo.push_back(canon.back());
    }
    if (!todo.empty()) {
        std::vector<DepthOutcome> out(todo.size());
        if (opts_.fork_workers) {
            run_forked(todo, out);
        } else {
            for (std::size_t i = 0; i < todo.size(); ++i) {
                out[i] = run_one(todo[i]);
                cache_[key(todo[i])] = out[i];
                if (out[i].status != DepthOutcome::Status::Refused) ++simulations_;
                report_progress();
            }
        }
    }
    std::vector<DepthOutcome> result;
    for (const auto& c : canon) result.push_back(cache_.at(key(c)));
    return result;
}

DepthOutcome DepthAnalysis::evaluate(const std::vector<iron::DepthOverride>& config) {
    return evaluate_all({config}).front();
}

DepthReport DepthAnalysis::run() {
    started_ = std::chrono::steady_clock::now();
    DepthReport rep;
    rep.design = spec_.name;
    rep.device = device_;
    rep.params = opts_.params;
    rep.jobs = opts_.fork_workers ? ForkPool(opts_.jobs).jobs() : 1;
    const auto& dev = model::device_by_name(device_);

    // The endpoints and the plan: the baseline and every endpoint's depths 1..k.
    std::vector<std::size_t> varied; // indices into rep.endpoints of endpoints holding buffers
    for (const auto& info : ends_) {
        EndpointDepths ed;
        ed.info = info;
        const auto t = tile_bytes_.find(info.tile);
        ed.tile_bytes_used = t == tile_bytes_.end() ? 0 : t->second;
        ed.tile_capacity = dev.kind_at(info.tile) == model::TileKind::Shim ? 0 : dev.resources(info.tile).memory_bytes;
        if (info.owns_buffers()) {
            ed.table_depth = opts_.max_depth > 0 ? opts_.max_depth : std::max(info.declared, 4);
            varied.push_back(rep.endpoints.size());
        }
        rep.endpoints.push_back(std::move(ed));
    }
    auto config_of = [&](const EndpointDepths& ed, int depth) {
        return Config{iron::DepthOverride{ed.info.fifo, ed.info.consumer, depth}};
    };
    planned_.insert(key(canonical({})));
    for (auto i : varied)
        for (int d = 1; d <= rep.endpoints[i].table_depth; ++d)
            planned_.insert(key(canonical(config_of(rep.endpoints[i], d))));
    std::map<std::size_t, std::set<int>> tried;

    rep.baseline = evaluate_all({Config{}}).front();

    // The search, all endpoints in lock step: from the resolved depth (upward, doubling, when it
    // fails) and then bisecting down to the smallest depth that runs and matches.
    struct Search {
        std::size_t e = 0;
        int lo = 0; ///< largest depth known to fail below hi
        std::optional<int> hi; ///< smallest depth known to work
        std::optional<int> up; ///< the next depth to try upward (searching up)
        bool active = true;
    };
    std::vector<Search> searches;
    for (auto i : varied) {
        Search s;
        s.e = i;
        const int r = rep.endpoints[i].info.depth;
        tried[i].insert(r);
        if (rep.baseline.ok())
            s.hi = r;
        else if (r < opts_.search_limit) {
            s.lo = r;
            s.up = std::min(opts_.search_limit, std::max(r + 1, 2 * r));
        } else
            s.active = false;
        searches.push_back(s);
    }
    for (;;) {
        std::vector<Config> round;
        std::vector<std::pair<std::size_t, int>> asked; // search index, depth
        for (std::size_t si = 0; si < searches.size(); ++si) {
            auto& s = searches[si];
            if (!s.active) continue;
            int d = 0;
            if (s.up)
                d = *s.up;
            else if (s.hi && *s.hi - s.lo > 1)
                d = (s.lo + *s.hi) / 2;
            else {
                s.active = false;
                continue;
            }
            round.push_back(config_of(rep.endpoints[s.e], d));
            asked.emplace_back(si, d);
        }
        if (round.empty()) break;
        const auto results = evaluate_all(round);
        for (std::size_t j = 0; j < asked.size(); ++j) {
            auto& s = searches[asked[j].first];
            const int d = asked[j].second;
            tried[s.e].insert(d);
            const auto& o = results[j];
            if (s.up) {
                if (o.ok()) {
                    s.hi = d;
                    s.up.reset();
                } else if (o.status == DepthOutcome::Status::Refused || d >= opts_.search_limit) {
                    s.active = false; // more depth does not fit (or the limit): no working depth
                } else {
                    s.lo = d;
                    s.up = std::min(opts_.search_limit, 2 * d);
                }
            } else if (o.ok())
                s.hi = d;
            else
                s.lo = d;
        }
    }
    for (const auto& s : searches) rep.endpoints[s.e].search_min = s.hi;

    // The table: every depth 1..k not known yet, in one parallel round.
    std::vector<Config> table;
    for (auto i : varied)
        for (int d = 1; d <= rep.endpoints[i].table_depth; ++d) {
            table.push_back(config_of(rep.endpoints[i], d));
            tried[i].insert(d);
        }
    evaluate_all(table);

    for (auto i : varied) {
        auto& ed = rep.endpoints[i];
        for (int d : tried[i]) ed.by_depth[d] = cache_.at(key(canonical(config_of(ed, d))));
        for (const auto& [d, o] : ed.by_depth)
            if (o.ok() && !ed.min_depth) ed.min_depth = d;
        if (ed.min_depth) {
            if (ed.search_min && *ed.min_depth < *ed.search_min)
                ed.notes.push_back(
                    fmt::format("not monotonic: depth {} runs, but the bisection from the resolved depth "
                                "{} stopped at {}",
                                *ed.min_depth, ed.info.depth, *ed.search_min));
            for (const auto& [d, o] : ed.by_depth)
                if (d > *ed.min_depth && !o.ok() && o.status != DepthOutcome::Status::Refused)
                    ed.notes.push_back(fmt::format("not monotonic: depth {} gives {} although depth {} runs", d,
                                                   o.describe(), *ed.min_depth));
            std::uint64_t best = UINT64_MAX;
            for (const auto& [d, o] : ed.by_depth)
                if (o.ok()) best = std::min(best, o.cycles);
            for (const auto& [d, o] : ed.by_depth)
                if (o.ok() && static_cast<double>(o.cycles) <= static_cast<double>(best) * 1.01) {
                    ed.saturation_depth = d;
                    break;
                }
        }
    }
    rep.configurations = cache_.size();
    rep.simulations = simulations_;
    rep.reused = reused_;
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return rep;
}

} // namespace npusim::harness
