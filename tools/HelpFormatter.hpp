#pragma once
// npusim's help text on CLI11 (CLI/CLI.hpp): `npusim --help` is every command and every option;
// `npusim CMD --help` is that command's lines, its options and the notes that concern it. Each
// subcommand's description is its lines of the command list ("  npusim run DESIGN [options]  ..."),
// its footer the notes; options are grouped under their heading ("run options ...") and their
// descriptions wrapped under one another.
#include "HelpNotes.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace npusim::tools {

class HelpFormatter : public CLI::FormatterBase {
public:
    std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;

    /// `text` broken into lines of at most `width` columns, every line after the first indented by
    /// `indent` spaces (the first continues where the caller stands).
    static std::string wrap(const std::string& text, std::size_t indent, std::size_t width);
};

} // namespace npusim::tools
