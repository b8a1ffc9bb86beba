#include "npusim/harness/ForkPool.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <stdexcept>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace npusim::harness {

namespace {

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

RunOutcome from_wait_status(int status) {
    RunOutcome o;
    o.status = RunOutcome::Status::Crashed;
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

ForkPool::ForkPool(unsigned jobs, double timeout_seconds)
    : jobs_(jobs ? jobs : std::max(1u, std::thread::hardware_concurrency())), timeout_seconds_(timeout_seconds) {}

// One child per task, at most jobs_ at a time; each writes its encoded outcome to its pipe and
// exits. The parent polls the pipes, reaps each child when its pipe closes, and kills a child
// that runs past the time limit.
void ForkPool::run(std::size_t n, const std::function<RunOutcome(std::size_t)>& task,
                   const std::function<void(std::size_t, const RunOutcome&, double)>& done) const {
    using Clock = std::chrono::steady_clock;
    struct Child {
        pid_t pid = -1;
        int fd = -1;
        std::size_t index = 0;
        std::string data;
        Clock::time_point started;
    };
    std::vector<Child> running;
    // If this function leaves by an exception (poll, pipe or fork failing, or done() throwing),
    // no worker process outlives it.
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
    const auto limit = std::chrono::duration<double>(timeout_seconds_);
    const auto seconds = [](const Child& c) { return std::chrono::duration<double>(Clock::now() - c.started).count(); };
    while (next < n || !running.empty()) {
        while (next < n && running.size() < jobs_) {
            int fds[2];
            if (::pipe(fds) != 0)
                throw std::runtime_error(fmt::format("worker processes: pipe: {}", std::strerror(errno)));
            const pid_t pid = ::fork();
            if (pid < 0) {
                ::close(fds[0]);
                ::close(fds[1]);
                if (running.empty())
                    throw std::runtime_error(fmt::format("worker processes: fork: {}", std::strerror(errno)));
                break; // retry when a child has finished
            }
            if (pid == 0) {
                ::close(fds[0]);
                for (const auto& c : running) ::close(c.fd);
                prepare_child();
                const RunOutcome o = task(next);
                ::_exit(write_all(fds[1], encode(o)) ? 0 : 3);
            }
            ::close(fds[1]);
            Child c;
            c.pid = pid;
            c.fd = fds[0];
            c.index = next++;
            c.started = Clock::now();
            running.push_back(std::move(c));
        }
        std::vector<pollfd> pfds;
        for (const auto& c : running) pfds.push_back({c.fd, POLLIN, 0});
        const auto now = Clock::now();
        double wait_s = 3600;
        for (const auto& c : running)
            wait_s = std::min(wait_s, std::chrono::duration<double>(limit - (now - c.started)).count());
        const int wait_ms = static_cast<int>(std::clamp(wait_s * 1000.0 + 1.0, 0.0, 3'600'000.0));
        const int ready = ::poll(pfds.data(), pfds.size(), wait_ms);
        if (ready < 0 && errno != EINTR)
            throw std::runtime_error(fmt::format("worker processes: poll: {}", std::strerror(errno)));
        // Children that ended leave `running` before done() sees them, so that the Reaper (if
        // done() throws) only touches children still running.
        struct Finished {
            std::size_t index;
            RunOutcome outcome;
            double seconds;
        };
        std::vector<Finished> finished;
        std::vector<std::size_t> ended;
        for (std::size_t i = 0; i < running.size(); ++i) {
            Child& c = running[i];
            if (ready > 0 && (pfds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
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
                finished.push_back(
                    {c.index,
                     WIFEXITED(status) && WEXITSTATUS(status) == 0 && decoded ? *decoded : from_wait_status(status),
                     seconds(c)});
                ended.push_back(i);
            } else if (Clock::now() - c.started >= limit) {
                ::kill(c.pid, SIGKILL);
                ::close(c.fd);
                int status = 0;
                wait_child(c.pid, status);
                RunOutcome o;
                o.status = RunOutcome::Status::Timeout;
                o.message = fmt::format("worker process killed after {:g} s", timeout_seconds_);
                finished.push_back({c.index, std::move(o), seconds(c)});
                ended.push_back(i);
            }
        }
        for (auto it = ended.rbegin(); it != ended.rend(); ++it)
            running.erase(running.begin() + static_cast<std::ptrdiff_t>(*it));
        for (const auto& f : finished) done(f.index, f.outcome, f.seconds);
    }
}

} // namespace npusim::harness
