#include "ExitReport.hpp"

#include "JsonDocument.hpp"

#include "npusim/traces/OutputFile.hpp"

#include <atomic>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <unistd.h>

namespace npusim::tools::exit_report {

namespace {

// Read by a signal handler: fixed buffers, written before the work they describe starts.
std::atomic<bool> g_json{false};
char g_note[2048];
std::atomic<bool> g_note_set{false};

// A bounded text buffer that never allocates.
struct Buf {
    char text[8192];
    std::size_t n = 0;
    void add(const char* s) {
        while (*s && n + 1 < sizeof text) text[n++] = *s++;
    }
    void add_json_string(const char* s) {
        add("\"");
        static const char hex[] = "0123456789abcdef";
        for (; *s; ++s) {
            const auto c = static_cast<unsigned char>(*s);
            if (c == '"') add("\\\"");
            else if (c == '\\') add("\\\\");
            else if (c == '\n') add("\\n");
            else if (c < 0x20) {
                const char e[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
                add(e);
            } else {
                const char one[] = {static_cast<char>(c), 0};
                add(one);
            }
        }
        add("\"");
    }
    void write_to(int fd) const {
        std::size_t at = 0;
        while (at < n) {
            const auto w = ::write(fd, text + at, n - at);
            if (w <= 0) return;
            at += static_cast<std::size_t>(w);
        }
    }
};

// The report of run_cli's error path, from fixed buffers.
void write_report(const char* status, const char* kind, const char* message) noexcept {
    Buf m;
    m.add(message);
    if (g_note_set.load()) m.add(g_note);
    m.text[m.n] = 0;
    Buf out;
    if (g_json.load()) {
        out.add("{\n  \"document\": \"error\",\n  \"schema_version\": ");
        static_assert(kJsonSchemaVersion >= 0 && kJsonSchemaVersion < 10, "one digit");
        const char v[] = {static_cast<char>('0' + kJsonSchemaVersion), 0};
        out.add(v);
        out.add(",\n  \"npusim_version\": ");
        out.add_json_string(npusim_version().data()); // a string literal: NUL-terminated
        out.add(",\n  \"status\": ");
        out.add_json_string(status);
        out.add(",\n  \"error\": {\n    \"kind\": ");
        out.add_json_string(kind);
        out.add(",\n    \"message\": ");
        out.add_json_string(m.text);
        out.add("\n  },\n  \"files\": {}\n}\n");
        out.write_to(1);
    } else {
        out.add("npusim: ");
        out.add(kind);
        out.add(": ");
        out.add(m.text);
        out.add("\n");
        out.write_to(2);
    }
}

void on_interrupt(int sig) {
    traces::OutputFile::remove_unfinished();
    write_report("error", "interrupted",
                 sig == SIGINT ? "interrupted (SIGINT) before the command finished"
                               : "stopped (SIGTERM) before the command finished");
    ::raise(sig); // the handler was reset (SA_RESETHAND): the signal's own ending
}

} // namespace

void begin(bool json) {
    g_json.store(json);
    clear_pending_outputs();
}

void set_pending_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    std::string note;
    for (const auto& [opt, path] : outputs)
        if (!path.empty()) note += fmt::format("{}{} '{}'", note.empty() ? "" : ", ", opt, path);
    if (note.empty()) return clear_pending_outputs();
    note = "; not written: " + note + " (files of those names are left as they were)";
    g_note_set.store(false);
    const auto n = std::min(note.size(), sizeof g_note - 1);
    std::memcpy(g_note, note.data(), n);
    g_note[n] = 0;
    g_note_set.store(true);
}

void clear_pending_outputs() { g_note_set.store(false); }

std::string unwritten_note() { return g_note_set.load() ? std::string(g_note) : std::string(); }

void fatal_exit(int code, const char* status, const char* kind, const char* message) noexcept {
    traces::OutputFile::remove_unfinished();
    write_report(status, kind, message);
    ::_exit(code);
}

void install_interrupt_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &sa, nullptr);
}

} // namespace npusim::tools::exit_report
