#include "npusim/harness/DepthAnalysis.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sstream>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace npusim::harness {

const char* to_string(DepthOutcome::Status s) {
    switch (s) {
    case DepthOutcome::Status::Ok: return "ok";
    case DepthOutcome::Status::Mismatch: return "mismatch";
    case DepthOutcome::Status::Deadlock: return "deadlock";
    case DepthOutcome::Status::Limit: return "limit";
    case DepthOutcome::Status::Refused: return "refused";
    case DepthOutcome::Status::Error: return "error";
    case DepthOutcome::Status::Crashed: return "crashed";
    case DepthOutcome::Status::Timeout: return "timeout";
    }
    return "?";
}

std::string DepthOutcome::describe() const {
    switch (status) {
    case Status::Ok: return std::to_string(cycles);
    case Status::Deadlock:
    case Status::Limit:
    case Status::Mismatch: return to_string(status);
    default:
        return message.empty() ? std::string(to_string(status)) : fmt::format("{}: {}", to_string(status), message);
    }
}

namespace {

constexpr std::size_t kMaxMessage = 400;

// The first line of an error message, shortened: a table cell's reason, not the full diagnosis.
std::string first_line(const std::string& s) {
    std::string l = s.substr(0, s.find('\n'));
    if (l.size() > kMaxMessage) l = l.substr(0, kMaxMessage - 3) + "...";
    return l;
}

// One worker process's result, as written to its pipe: "status cycles length\n" then the message.
std::string encode(const DepthOutcome& o) {
    return fmt::format("{} {} {}\n{}", static_cast<int>(o.status), o.cycles, o.message.size(), o.message);
}

std::optional<DepthOutcome> decode(const std::string& s) {
    std::istringstream in(s);
    int status = 0;
    DepthOutcome o;
    std::size_t len = 0;
    if (!(in >> status >> o.cycles >> len) || in.get() != '\n') return std::nullopt;
    if (status < 0 || status > static_cast<int>(DepthOutcome::Status::Timeout)) return std::nullopt;
    o.status = static_cast<DepthOutcome::Status>(status);
    const auto pos = static_cast<std::size_t>(in.tellg());
    if (s.size() != pos + len) return std::nullopt;
    o.message = s.substr(pos);
    return o;
}

bool write_all(int fd, const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::write(fd, s.data() + off, s.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += static_cast<std::size_t>(n);
    }
    return true;
}

// In a forked worker: the parent's handlers (a test framework's, say) must not catch a crash,
// so that it ends the process with its signal; stdout belongs to the parent.
void prepare_child() {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGPIPE}) std::signal(sig, SIG_DFL);
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
        ::dup2(devnull, STDOUT_FILENO);
        ::close(devnull);
    }
}

DepthOutcome from_wait_status(int status) {
    DepthOutcome o;
    o.status = DepthOutcome::Status::Crashed;
    if (WIFSIGNALED(status))
        o.message =
            fmt::format("worker process killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        o.message = fmt::format("worker process exited with code {} without a result", WEXITSTATUS(status));
    else
        o.message = "worker process ended without a result";
    return o;
}

pid_t wait_child(pid_t pid, int& status) {
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, 0);
        if (r >= 0 || errno != EINTR) return r;
    }
}

} // namespace

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
    DepthOutcome o;
    try {
        const RunReport rep = run_design(spec_, device_, opts_.params, ro);
        o.cycles = rep.result.cycles;
        o.status = rep.all_match ? DepthOutcome::Status::Ok : DepthOutcome::Status::Mismatch;
        for (const auto& chk : rep.checks)
            if (!chk.match) {
                o.message = fmt::format("output {}: {} of {} elements differ", chk.name, chk.mismatches, chk.elements);
                break;
            }
    } catch (const DesignError& e) {
        o.status = DepthOutcome::Status::Refused;
        o.message = first_line(e.what());
    } catch (const SimulationError& e) {
        o.status = e.kind() == SimulationError::Kind::Deadlock ? DepthOutcome::Status::Deadlock
                   : e.kind() == SimulationError::Kind::Limit  ? DepthOutcome::Status::Limit
                                                               : DepthOutcome::Status::Error;
        o.message = first_line(e.what());
    } catch (const std::exception& e) {
        o.status = DepthOutcome::Status::Error;
        o.message = first_line(e.what());
    }
    return o;
}

void DepthAnalysis::report_progress() const {
    if (!opts_.progress) return;
    DepthProgress p;
    p.done = cache_.size();
    p.total = std::max(planned_.size(), cache_.size());
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    opts_.progress(p);
}

// One child per configuration, at most `jobs` at a time; each writes its encoded outcome to its
// pipe and exits. The parent polls the pipes, reaps each child when its pipe closes, and kills a
// child that runs past the time limit.
void DepthAnalysis::run_forked(const std::vector<Config>& todo, std::vector<DepthOutcome>& out) {
    struct Child {
        pid_t pid = -1;
        int fd = -1;
        std::size_t index = 0;
        std::string data;
        std::chrono::steady_clock::time_point started;
    };
    const unsigned jobs = opts_.jobs ? opts_.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::vector<Child> running;
    // If this function leaves by an exception (poll, pipe or fork failing, or the progress
    // callback throwing), no worker process outlives it.
    struct Reaper {
        std::vector<Child>& running;
        ~Reaper() {
            for (auto& c : running) {
                ::kill(c.pid, SIGKILL);
                ::close(c.fd);
                int status = 0;
                wait_child(c.pid, status);
            }
        }
    } reaper{running};
    std::size_t next = 0;
    const auto limit = std::chrono::duration<double>(opts_.timeout_seconds);
    auto finish = [&](Child& c, const DepthOutcome& o) {
        out[c.index] = o;
        cache_[key(todo[c.index])] = o;
        if (o.status != DepthOutcome::Status::Refused) ++simulations_;
        report_progress();
    };
    while (next < todo.size() || !running.empty()) {
        while (next < todo.size() && running.size() < jobs) {
            int fds[2];
            if (::pipe(fds) != 0)
                throw std::runtime_error(fmt::format("depth analysis: pipe: {}", std::strerror(errno)));
            const pid_t pid = ::fork();
            if (pid < 0) {
                ::close(fds[0]);
                ::close(fds[1]);
                if (running.empty())
                    throw std::runtime_error(fmt::format("depth analysis: fork: {}", std::strerror(errno)));
                break; // retry when a child has finished
            }
            if (pid == 0) {
                ::close(fds[0]);
                for (const auto& c : running) ::close(c.fd);
                prepare_child();
                const DepthOutcome o = run_one(todo[next]);
                ::_exit(write_all(fds[1], encode(o)) ? 0 : 3);
            }
            ::close(fds[1]);
            Child c;
            c.pid = pid;
            c.fd = fds[0];
            c.index = next++;
            c.started = std::chrono::steady_clock::now();
            running.push_back(std::move(c));
        }
        std::vector<pollfd> pfds;
        for (const auto& c : running) pfds.push_back({c.fd, POLLIN, 0});
        const auto now = std::chrono::steady_clock::now();
        double wait_s = 3600;
        for (const auto& c : running)
            wait_s = std::min(wait_s, std::chrono::duration<double>(limit - (now - c.started)).count());
        const int wait_ms = static_cast<int>(std::clamp(wait_s * 1000.0 + 1.0, 0.0, 3'600'000.0));
        const int n = ::poll(pfds.data(), pfds.size(), wait_ms);
        if (n < 0 && errno != EINTR)
            throw std::runtime_error(fmt::format("depth analysis: poll: {}", std::strerror(errno)));
        std::vector<std::size_t> ended;
        for (std::size_t i = 0; i < running.size(); ++i) {
            Child& c = running[i];
            if (n > 0 && (pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                char buf[4096];
                const ssize_t r = ::read(c.fd, buf, sizeof buf);
                if (r > 0) {
                    c.data.append(buf, static_cast<std::size_t>(r));
                    continue;
                }
                if (r < 0 && errno == EINTR) continue;
                // EOF (or a broken pipe): the child is done.
                ::close(c.fd);
                int status = 0;
                wait_child(c.pid, status);
                const auto decoded = decode(c.data);
                finish(c,
                       WIFEXITED(status) && WEXITSTATUS(status) == 0 && decoded ? *decoded : from_wait_status(status));
                ended.push_back(i);
            } else if (std::chrono::steady_clock::now() - c.started >= limit) {
                ::kill(c.pid, SIGKILL);
                ::close(c.fd);
                int status = 0;
                wait_child(c.pid, status);
                DepthOutcome o;
                o.status = DepthOutcome::Status::Timeout;
                o.message = fmt::format("worker process killed after {:g} s", opts_.timeout_seconds);
                finish(c, o);
                ended.push_back(i);
            }
        }
        for (auto it = ended.rbegin(); it != ended.rend(); ++it)
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(*it));
    }
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
    rep.jobs = opts_.fork_workers ? (opts_.jobs ? opts_.jobs : std::max(1u, std::thread::hardware_concurrency())) : 1;
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
