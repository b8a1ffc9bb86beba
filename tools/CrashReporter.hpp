#pragma once
// CrashReporter: turns a fatal signal raised by a design's native code (a kernel or worker body
// that overflows its host stack with a large local array, writes through a wild pointer beyond
// the memory checks, calls abort() or fails an assert) into a message naming the worker and kernel and how to raise the stack, and
// exit code 2, instead of a bare "Segmentation fault". The handler runs on its own signal stack
// (the faulting stack may be exhausted) and uses only write(2) and _exit(2). A signal raised
// outside native design code is the simulator's own bug: it keeps its default action.
namespace npusim::tools {

class CrashReporter {
public:
    /// Install the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT (again if something replaced
    /// them; not in an AddressSanitizer build, whose own handler reports with more detail).
    static void install();
};

} // namespace npusim::tools
