// peak_rss LIMIT_MIB COMMAND [ARGS...]: runs COMMAND (its output discarded) and passes (exit 0)
// when it exits 0 with a peak resident set size (getrusage ru_maxrss of the child) of at most
// LIMIT_MIB MiB; prints the peak either way. Guards the host memory of `npusim run`
// (docs/performance.md) without depending on /usr/bin/time.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: peak_rss LIMIT_MIB COMMAND [ARGS...]\n");
        return 2;
    }
    char* end = nullptr;
    const long long limit_mib = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || limit_mib <= 0) {
        std::fprintf(stderr, "peak_rss: bad limit '%s' (MiB)\n", argv[1]);
        return 2;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        std::fprintf(stderr, "peak_rss: fork: %s\n", std::strerror(errno));
        return 2;
    }
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    rusage ru{};
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) {
            std::fprintf(stderr, "peak_rss: wait4: %s\n", std::strerror(errno));
            return 2;
        }
    const long long peak_kib = ru.ru_maxrss; // kilobytes on Linux
    std::printf("peak RSS %lld KiB (%.1f MiB), limit %lld MiB\n", peak_kib, static_cast<double>(peak_kib) / 1024,
                limit_mib);
    if (WIFSIGNALED(status)) {
        std::printf("FAIL: the command was killed by signal %d\n", WTERMSIG(status));
        return 1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("FAIL: the command exited %d%s\n", WEXITSTATUS(status),
                    WEXITSTATUS(status) == 127 ? " (it could not be run)" : "");
        return 1;
    }
    if (peak_kib > limit_mib * 1024) {
        std::printf("FAIL: peak RSS above the limit\n");
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
