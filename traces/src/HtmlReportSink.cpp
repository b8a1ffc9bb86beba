#include "npusim/traces/HtmlReportSink.hpp"

#include "html/HtmlText.hpp"
#include "html/ReportPage.hpp"
#include "html/SpanCollector.hpp"
#include "npusim/traces/OutputFile.hpp"

namespace npusim::traces {

HtmlReportSink::HtmlReportSink(std::string path, bool write_on_finish)
    : HtmlReportSink(std::move(path), write_on_finish, Limits{}) {}

HtmlReportSink::HtmlReportSink(std::string path, bool write_on_finish, Limits limits)
    : path_(std::move(path)), write_on_finish_(write_on_finish), limits_(limits),
      collector_(std::make_unique<html::SpanCollector>()) {}

HtmlReportSink::~HtmlReportSink() = default;

bool HtmlReportSink::finished() const noexcept { return collector_->run().finished; }

std::size_t HtmlReportSink::span_count() const noexcept { return collector_->run().span_count; }

std::string HtmlReportSink::escape_html(std::string_view s) { return html::escape_html(s); }

std::string HtmlReportSink::json_string(std::string_view s) { return html::script_json_string(s); }

void HtmlReportSink::begin_run(const sim::RunInfo& info) { collector_->begin_run(info); }

void HtmlReportSink::add_track(int track, const sim::TrackInfo& info) { collector_->add_track(track, info); }

void HtmlReportSink::span(int track, std::string_view name, std::uint64_t begin, std::uint64_t end) {
    collector_->add_span(track, sim::TraceKind::Other, name, begin, end, {});
}

void HtmlReportSink::detailed_span(int track, sim::TraceKind kind, std::string_view name, std::uint64_t begin,
                                   std::uint64_t end, sim::TraceArgs args) {
    collector_->add_span(track, kind, name, begin, end, args);
}

void HtmlReportSink::counter(int track, std::uint64_t cycle, std::int64_t value) {
    collector_->counter(track, cycle, value);
}

void HtmlReportSink::finish(std::uint64_t end_cycle) {
    collector_->finish(end_cycle);
    if (write_on_finish_) write({});
}

void HtmlReportSink::write(const Outcome& outcome) {
    const std::string page = render(outcome);
    OutputFile f(path_, "HTML report");
    f.write(page);
    f.close();
}

std::string HtmlReportSink::render(const Outcome& outcome) const {
    return html::render_page(collector_->run(), outcome, limits_);
}

} // namespace npusim::traces
