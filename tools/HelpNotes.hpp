#pragma once
// The notes npusim's help texts end with (tools/HelpFormatter.cpp defines them). Apart from
// HelpFormatter.hpp, so a command's source can name them without including CLI11.

namespace npusim::tools {

/// The notes every help ends with: how options are written, and npusim's exit codes.
extern const char* const kOptionFormsNote;
extern const char* const kExitCodesNote;
/// The note on .npy files that the whole usage and the help of run, golden and args end with.
extern const char* const kNpyNote;

} // namespace npusim::tools
