#pragma once
// The error catalog behind docs/errors.md: every error npusim reports, each with a stable id, the
// component that reports it, the exit code and kind the CLI gives it ("npusim: <kind>: ..."), the
// exact message (with <N> for a number and <...> for any text, where a message holds cycle
// numbers or a long report) and a trigger: a C++ snippet against the public API or an npusim
// command line. ErrorCatalog_test.cpp runs every trigger and checks the message, kind and exit
// code; error_catalog (error_catalog_main.cpp) prints the catalog as the list of docs/errors.md.
// Checks that guard invariants no input can reach are listed separately (Internal), with why.
#include <functional>
#include <string>
#include <vector>

namespace npusim::errcat {

/// What a trigger runs with: a scratch directory, written $TMP in commands and messages.
struct Context {
    std::string tmp;
};

/// What a trigger did: the CLI's exit code, kind and message (failed = false: nothing was reported).
struct Outcome {
    bool failed = false;
    int exit_code = 0;
    std::string kind;
    std::string message;
};

// The kinds the CLI prints ("npusim: <kind>: <message>"); each has one exit code.
inline constexpr const char* kUsage = "usage error";
inline constexpr const char* kDesign = "design error";
inline constexpr const char* kFile = "file error";
inline constexpr const char* kProtocol = "protocol error";
inline constexpr const char* kKernel = "kernel error";
inline constexpr const char* kDeadlock = "deadlock";
inline constexpr const char* kLimit = "limit reached";
inline constexpr const char* kMismatch = "size mismatch";
inline constexpr const char* kInternal = "internal error";
inline constexpr const char* kOther = "error";
inline constexpr const char* kNoDevice = "no NPU device"; ///< hw::HardwareError kinds: exit code 6
inline constexpr const char* kNoXrt = "no XRT";
inline constexpr const char* kXrt = "XRT error";
/// The exit code of a kind (docs/errors.md): 1 size mismatch, 3 deadlock, 4 limit, 5 internal
/// error, 6 no NPU device / no XRT / XRT error, 2 otherwise.
int exit_code_of_kind(const std::string& kind);

struct Entry {
    std::string id; ///< stable, "<area>.<what>"
    std::string component;
    std::string site; ///< the source file that reports it
    std::string kind;
    std::string message; ///< expected; <N> a number, <...> any text
    std::string trigger; ///< for the docs: C++ code or a command line
    std::function<Outcome(const Context&)> run;
    /// Not run in a sanitizer build (NPUSIM_SANITIZE): AddressSanitizer aborts on the trigger
    /// (a huge allocation, a crash) instead of letting npusim report it.
    bool sanitizer_skip = false;
};

/// A check no input reaches: an invariant of npusim's own code.
struct Internal {
    std::string id;
    std::string component;
    std::string site;
    std::string message;
    std::string reason; ///< why no design, command or file reaches it
};

class Catalog {
public:
    /// Entries added next belong to this component (a heading of docs/errors.md) ...
    void component(std::string name, std::string intro = {});
    /// ... and are reported from this source file.
    void site(std::string path) { site_ = std::move(path); }

    /// A trigger in C++: `fn` must throw what the CLI would report.
    Entry& api(std::string id, std::string kind, std::string message, std::string code,
               std::function<void(const Context&)> fn);
    /// A trigger on the command line: `npusim ARGS` ($TMP in an argument is the scratch directory),
    /// after `setup` (described for the docs by `setup_text`, a shell command).
    Entry& cli(std::string id, std::string kind, std::string message, std::vector<std::string> args,
               std::string setup_text = {}, std::function<void(const Context&)> setup = {});
    /// As cli(), in a child process: for what ends the process (the watchdog, the crash reporter).
    Entry& cli_forked(std::string id, std::string kind, std::string message, std::vector<std::string> args);
    void internal(std::string id, std::string message, std::string reason);

    const std::vector<Entry>& entries() const { return entries_; }
    const std::vector<Internal>& internals() const { return internals_; }
    struct Component {
        std::string name, intro;
    };
    const std::vector<Component>& components() const { return components_; }

private:
    Entry& add(Entry e);
    std::vector<Entry> entries_;
    std::vector<Internal> internals_;
    std::vector<Component> components_;
    std::string site_;
};

/// The whole catalog (built once).
const Catalog& catalog();

/// Write `text` to the file `name` in the scratch directory (a trigger's setup).
void write_file(const Context& ctx, const std::string& name, const std::string& text);

/// Run one entry's trigger in a fresh scratch directory.
Outcome run_entry(const Entry& e);
/// Does `text` match `pattern` (literal text with <N>: a number, <...>: any text)?
bool matches(const std::string& pattern, const std::string& text);
/// The list part of docs/errors.md.
std::string markdown(const Catalog& c);

// Parts of the catalog, one per source file in catalog/.
void add_design_api(Catalog& c);
void add_design_api_tiling(Catalog& c);
void add_resolve(Catalog& c);
void add_resolve_lowering(Catalog& c);
void add_shared_pool(Catalog& c);
void add_lowlevel(Catalog& c);
void add_raw_sequence(Catalog& c);
void add_switchbox(Catalog& c);
void add_model(Catalog& c);
void add_simulation(Catalog& c);
void add_harness(Catalog& c);
void add_npy(Catalog& c); ///< called by add_harness
void add_kernel_library(Catalog& c); ///< called by add_harness
void add_kernel_library_post(Catalog& c); ///< called by add_kernel_library
void add_kernel_library_split(Catalog& c); ///< called by add_harness, after add_kernel_library
void add_cli(Catalog& c);
void add_export(Catalog& c);
void add_scratchpad(Catalog& c);
void add_padding(Catalog& c);
void add_hardware(Catalog& c);
void add_recorded_body(Catalog& c);
void add_calibrate(Catalog& c);
void add_block_float(Catalog& c);

} // namespace npusim::errcat

/// An entry whose trigger is C++: the code after MESSAGE is run, and shown in the docs as written.
#define NPUSIM_ERROR(cat, id, kind, message, ...)                                                                      \
    (cat).api(id, kind, message, #__VA_ARGS__, [](const ::npusim::errcat::Context& ctx) {                              \
        (void)ctx;                                                                                                     \
        __VA_ARGS__;                                                                                                   \
    })
