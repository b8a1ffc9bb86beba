// HtmlReportSink: what the page embeds (spans, arguments, counters), that it loads nothing from the
// network, that design names cannot break it, the reduction of large runs, the diagnosis section,
// the Graphviz-drawn graphs (every label whole), and when the file is written. (ctest
// trace:html-chromium renders real reports in Chromium.)
#include "npusim/traces/HtmlReportSink.hpp"
#include "support/TempDir.hpp"

#include "npusim/model/DeviceSpec.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using npusim::sim::TraceArg;
using npusim::sim::TraceKind;
using npusim::sim::TrackInfo;
using npusim::traces::HtmlReportSink;
using Kind = TrackInfo::Kind;

namespace {

struct TempDir : npusim::test::TempDir {
    TempDir() : npusim::test::TempDir("npusim_html_test") {}
};
using npusim::test::slurp;

// The embedded data object of a page.
nlohmann::json data_of(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"npusim-data\">";
    const auto b = page.find(open);
    REQUIRE(b != std::string::npos);
    const auto e = page.find("</script>", b);
    REQUIRE(e != std::string::npos);
    return nlohmann::json::parse(page.substr(b + open.size(), e - b - open.size()));
}

std::size_t count(const std::string& s, const std::string& what) {
    std::size_t n = 0;
    for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
}

// The <svg> element with id `id` in a page.
std::string svg_of(const std::string& page, const std::string& id) {
    const auto b = page.find("<svg class=\"graph\" id=\"" + id + "\"");
    REQUIRE(b != std::string::npos);
    const auto e = page.find("</svg>", b);
    REQUIRE(e != std::string::npos);
    return page.substr(b, e - b);
}

// Each line of `label` as a whole <text> element of `svg` (Graphviz writes one per line, escaped
// like escape_html).
void check_label_whole(const std::string& svg, const std::string& label) {
    std::istringstream lines(label);
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        CHECK_THAT(svg, Catch::Contains(">" + HtmlReportSink::escape_html(line) + "</text>"));
    }
}

const std::string kEvil = "<script>alert(\"x\")</script> & 'q'";

// A small netlist on npu1_1col: a fifo with an HTML-special name, its lock pair on (0,2), a flow.
npusim::model::Netlist evil_netlist() {
    npusim::model::Netlist net;
    net.device = &npusim::model::device_by_name("npu1_1col");
    net.design = "html <test> & \"quotes\"";
    net.locks.push_back({kEvil + "_cons_prod_lock_0", {0, 2}, 0, 2, {kEvil, "consumer copy prod_lock (free slots)"}});
    net.locks.push_back({kEvil + "_cons_cons_lock_0", {0, 2}, 1, 0, {kEvil, "consumer copy cons_lock (full slots)"}});
    net.locks.push_back({"barrier", {0, 2}, 2, 0, {"b", "barrier"}});
    npusim::model::NetBuffer buf;
    buf.name = kEvil + "_buff_0";
    buf.tile = {0, 2};
    buf.bytes = 1024;
    buf.prov = {kEvil, "consumer copy", 0};
    net.buffers.push_back(buf);
    npusim::model::Flow f;
    f.source = {{0, 0}, npusim::model::Direction::MM2S, 0};
    f.dests = {{{0, 2}, npusim::model::Direction::S2MM, 0}};
    f.paths = {{{0, 0}, {0, 1}, {0, 2}}};
    f.prov = {kEvil, "stream"};
    net.flows.push_back(f);
    return net;
}

// Tracks 0 core, 1 DMA S2MM, 2/3 the fifo's locks, 4 the barrier; a few spans and counters.
void feed(HtmlReportSink& sink, const npusim::model::Netlist& net, const npusim::model::TimingParams& timing) {
    npusim::sim::RunInfo info;
    info.design = net.design;
    info.device = "npu1_1col";
    info.clock_mhz = 1000;
    info.netlist = &net;
    info.timing = &timing;
    sink.begin_run(info);
    sink.add_track(0, {Kind::Core, 0, 2, "worker " + kEvil});
    sink.add_track(1, {Kind::Dma, 0, 2, "DMA (0,2) S2MM 0", 0, npusim::model::Direction::S2MM});
    sink.add_track(2, {Kind::Lock, 0, 2, kEvil + "_cons_prod_lock_0"});
    sink.add_track(3, {Kind::Lock, 0, 2, kEvil + "_cons_cons_lock_0"});
    sink.add_track(4, {Kind::Lock, 0, 2, "barrier"});
    const TraceArg kargs[] = {TraceArg::str("kernel", "k<1>"), TraceArg::num("kernel_cycles", 90)};
    sink.detailed_span(0, TraceKind::KernelCall, "kernel " + kEvil, 100, 200, kargs);
    sink.detailed_span(0, TraceKind::LockStall, "lock stall: x", 200, 250, {});
    const TraceArg targs[] = {TraceArg::str("fifo", kEvil), TraceArg::num("bytes", 1024)};
    sink.detailed_span(1, TraceKind::Transfer, "'in' consumer S2MM, element 0", 10, 400, targs);
    sink.detailed_span(1, TraceKind::Streaming, "streaming", 144, 400, targs);
    sink.counter(3, 0, 0);
    sink.counter(3, 400, 1);
    sink.counter(3, 450, 0);
    sink.counter(2, 0, 2);
    sink.counter(4, 0, 0);
    sink.counter(4, 300, 1);
}

} // namespace

TEST_CASE("HtmlReportSink embeds every span with its arguments and the fifo occupancy", "[traces][html]") {
    TempDir d;
    const auto net = evil_netlist();
    const auto timing = npusim::model::TimingParams::for_arch(npusim::model::Arch::AIE2);
    HtmlReportSink sink(d.file("r.html"));
    feed(sink, net, timing);
    sink.finish(1000);
    CHECK(sink.span_count() == 4);
    const std::string page = slurp(d.file("r.html"));
    REQUIRE_FALSE(page.empty());
    const auto data = data_of(page);
    CHECK(data["end"] == 1000);

    // Spans: per track and kind; begins delta-coded.
    std::map<std::string, nlohmann::json> tracks;
    for (const auto& g : data["groups"])
        for (const auto& t : g["tracks"]) tracks[t["name"].get<std::string>()] = t;
    REQUIRE(tracks.count("worker " + kEvil));
    REQUIRE(tracks.count("DMA (0,2) S2MM 0"));
    CHECK(tracks.size() == 2); // lock tracks are charts, not timeline rows
    const auto kinds = data["kinds"];
    bool kernel_seen = false, streaming_seen = false;
    for (const auto& s : tracks["worker " + kEvil]["series"]) {
        if (kinds[s["k"].get<int>()] != "kernel call") continue;
        kernel_seen = true;
        CHECK(s["b"] == nlohmann::json::array({100}));
        CHECK(s["d"] == nlohmann::json::array({100}));
        CHECK(data["names"][s["n"][0].get<int>()] == "kernel " + kEvil);
        const auto args = data["args"][s["a"][0].get<int>()];
        CHECK(args["kernel"] == "k<1>");
        CHECK(args["kernel_cycles"] == 90);
    }
    for (const auto& s : tracks["DMA (0,2) S2MM 0"]["series"])
        if (kinds[s["k"].get<int>()] == "streaming") {
            streaming_seen = true;
            CHECK(s["b"] == nlohmann::json::array({144}));
            CHECK(s["d"] == nlohmann::json::array({256}));
        }
    CHECK(kernel_seen);
    CHECK(streaming_seen);

    // Counters: the fifo's full-slot lock against depth 2 (2 free + 0 full), the barrier; not the
    // free-slot lock.
    REQUIRE(data["counters"].size() == 2);
    const auto& fifo = data["counters"][0];
    CHECK(fifo["kind"] == "fifo");
    CHECK(fifo["label"] == "'" + kEvil + "' consumer copy");
    CHECK(fifo["cap"] == 2);
    CHECK(fifo["t"] == nlohmann::json::array({0, 400, 450}));
    CHECK(fifo["v"] == nlohmann::json::array({0, 1, 0}));
    CHECK(data["counters"][1]["kind"] == "lock");

    // Utilisation: 100 kernel cycles of 1000; 1024 B in 256 streaming cycles.
    CHECK_THAT(page, Catch::Contains("<td class=\"num\">10.0%</td>"));
    CHECK_THAT(page, Catch::Contains("<td class=\"num\">1,024</td><td class=\"num\">256</td>"));
    // The design graph: the tiles of the device and the flow.
    CHECK_THAT(page, Catch::Contains("id=\"design-graph\""));
    CHECK(count(page, "<g class=\"tile") == 6);
    CHECK(count(page, "<g class=\"flow\"") == 1);
    CHECK_THAT(page, Catch::Contains("(0,0) MM2S 0 \u2192 (0,2) S2MM 0 (3 switch hops)"));
    // Laid out by Graphviz: the tiles' labels whole, the flow labelled with its name.
    const std::string svg = svg_of(page, "design-graph");
    for (int row = 0; row < 6; ++row)
        check_label_whole(
            svg, fmt::format("{} (0,{})", npusim::model::tile_kind_name(npusim::model::tile_kind_of_row(row)), row));
    check_label_whole(svg, "1 buffers, 1 KiB");
    check_label_whole(svg, "'" + kEvil + "' stream");
}

TEST_CASE("HtmlReportSink loads nothing from the network", "[traces][html]") {
    TempDir d;
    const auto net = evil_netlist();
    const auto timing = npusim::model::TimingParams::for_arch(npusim::model::Arch::AIE2);
    HtmlReportSink sink(d.file("r.html"));
    feed(sink, net, timing);
    sink.finish(1000);
    const std::string page = slurp(d.file("r.html"));
    CHECK_THAT(page, !Catch::Contains("http://"));
    CHECK_THAT(page, !Catch::Contains("https://"));
    CHECK_THAT(page, !Catch::Contains("<link"));
    CHECK_THAT(page, !Catch::Contains("@import"));
    CHECK_FALSE(std::regex_search(page, std::regex(R"(\bsrc\s*=)")));
    // Every href and url() is a fragment of the page itself.
    const std::regex ref(R"((href\s*=\s*["']?|url\()([^"')\s>]*))");
    for (auto it = std::sregex_iterator(page.begin(), page.end(), ref); it != std::sregex_iterator(); ++it) {
        INFO((*it)[0].str());
        CHECK((*it)[2].str().rfind('#', 0) == 0);
    }
}

TEST_CASE("HtmlReportSink escapes names: a <script> in a fifo name cannot break the page", "[traces][html]") {
    TempDir d;
    const auto net = evil_netlist();
    const auto timing = npusim::model::TimingParams::for_arch(npusim::model::Arch::AIE2);
    HtmlReportSink sink(d.file("r.html"));
    feed(sink, net, timing);
    sink.finish(1000);
    const std::string page = slurp(d.file("r.html"));
    CHECK_THAT(page, !Catch::Contains("<script>alert"));
    CHECK(count(page, "<script") == 2); // the data and the page's script
    CHECK(count(page, "</script>") == 2);
    CHECK_THAT(page, Catch::Contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"));
    CHECK_THAT(page, Catch::Contains("\\u003cscript\\u003ealert(\\\"x\\\")\\u003c/script\\u003e \\u0026 'q'"));
    CHECK_THAT(page, Catch::Contains("npusim report: html &lt;test&gt; &amp; &quot;quotes&quot;"));

    CHECK(HtmlReportSink::escape_html("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
    CHECK(HtmlReportSink::json_string("</script><!--") == "\"\\u003c/script\\u003e\\u003c!--\"");
    CHECK(HtmlReportSink::json_string("tab\t\x01\xff\xc3\xa9") == "\"tab\\t\\u0001\\ufffd\xc3\xa9\"");
    CHECK(nlohmann::json::parse(HtmlReportSink::json_string(kEvil)) == kEvil);
}

TEST_CASE("HtmlReportSink reduces large runs and says so", "[traces][html]") {
    TempDir d;
    HtmlReportSink::Limits limits;
    limits.max_spans = 100;
    limits.max_counter_points = 20;
    HtmlReportSink sink(d.file("r.html"), true, limits);
    sink.begin_run({});
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    sink.add_track(1, {Kind::Lock, 0, 2, "l"});
    for (std::uint64_t i = 0; i < 1000; ++i) {
        sink.detailed_span(0, TraceKind::KernelCall, "k", i * 10, i * 10 + 5, {});
        sink.counter(1, i * 10, static_cast<std::int64_t>(i % 3));
    }
    sink.finish(10'000);
    const std::string page = slurp(d.file("r.html"));
    CHECK_THAT(page, Catch::Contains("id=\"reduced\""));
    CHECK_THAT(page, Catch::Contains("This run recorded 1,000 spans"));
    const auto data = data_of(page);
    const auto& s = data["groups"][0]["tracks"][0]["series"][0];
    CHECK(s["b"].size() <= 100);
    std::uint64_t merged = 0, busy = 0;
    for (const auto& m : s["m"]) merged += m.get<std::uint64_t>();
    for (const auto& u : s["u"]) busy += u.get<std::uint64_t>();
    CHECK(merged == 1000);
    CHECK(busy == 5000);
    // The utilisation uses every span.
    CHECK_THAT(page,
               Catch::Contains("<td class=\"num\">1,000</td><td class=\"num\">5,000</td><td class=\"num\">50.0%</td>"));
    // The counter: per interval its minimum and maximum.
    const auto& c = data["counters"][0];
    CHECK(c["env"] == 1);
    CHECK(c["t"].size() <= 20);
    for (std::size_t i = 0; i < c["lo"].size(); ++i) {
        CHECK(c["lo"][i] == 0);
        CHECK(c["hi"][i] == 2);
    }
}

TEST_CASE("HtmlReportSink draws the deadlock graph with its cycle and the diagnosis text", "[traces][html]") {
    TempDir d;
    HtmlReportSink sink(d.file("r.html"), false);
    sink.begin_run({});
    sink.add_track(0, {Kind::Core, 0, 2, "worker 'a'"});
    sink.detailed_span(0, TraceKind::Blocked, "blocked: acquire", 10, 50, {});
    sink.finish(50);
    CHECK_FALSE(fs::exists(d.file("r.html"))); // written by write(), once the end is known
    npusim::sim::Diagnosis diag;
    diag.cycle = 50;
    diag.case_id = "lock_cycle";
    diag.case_title = "lock cycle";
    diag.text = "deadlock at cycle 50 <in> 'x'";
    using N = npusim::sim::WaitNode;
    using S = npusim::sim::ProcessProgress::State;
    diag.nodes = {{N::Kind::Worker, "worker:a", "worker 'a'", S::Blocked, "", true, true},
                  {N::Kind::Lock, "lock:l", "lock l <1>", std::nullopt, "value 0", true, true},
                  {N::Kind::Worker, "worker:b", "worker 'b'", S::Finished, "", false, false}};
    diag.edges = {{0, 1, "waits >= 1", true, true}, {1, 0, "released by", true, true}, {1, 2, "released by"}};
    diag.cycles = {{0, 1}};
    diag.chain = {"worker 'a' waits"};
    diag.chain_nodes = {0};
    HtmlReportSink::Outcome o;
    o.status = "deadlock";
    o.message = diag.text;
    o.diagnosis = &diag;
    sink.write(o);
    const std::string page = slurp(d.file("r.html"));
    CHECK_THAT(page, Catch::Contains("status-deadlock"));
    CHECK_THAT(page, Catch::Contains("id=\"deadlock-graph\""));
    CHECK(count(page, "<g class=\"node") == 3);
    CHECK(count(page, "<g class=\"node in-cycle\"") == 2);
    CHECK(count(page, "<g class=\"edge in-cycle\"") == 2);
    CHECK_THAT(page, Catch::Contains("lock l &lt;1&gt;"));
    // The graph of Diagnosis::to_dot() (what --dot writes), laid out by Graphviz: as many node and
    // edge groups as the DOT has nodes and edges, every label whole.
    const std::string svg = svg_of(page, "deadlock-graph");
    const std::string dot = diag.to_dot();
    CHECK(count(svg, "<g class=\"node") == count(dot, "[label=") - diag.edges.size());
    CHECK(count(svg, "<g class=\"edge") == count(dot, "->"));
    CHECK(count(svg, "<g class=\"edge") == diag.edges.size());
    for (const auto& node : diag.nodes) check_label_whole(svg, node.label);
    for (const auto& edge : diag.edges) check_label_whole(svg, edge.label);
    check_label_whole(svg, "[blocked]\nvalue 0\n[finished]");
    CHECK_THAT(page, Catch::Contains("deadlock at cycle 50 &lt;in&gt; &#39;x&#39;"));
    CHECK_THAT(page, Catch::Contains("<li>worker &#39;a&#39; waits</li>"));
}

TEST_CASE("HtmlReportSink shows long names in its graphs whole", "[traces][html]") {
    TempDir d;
    const std::string long_fifo =
        "a_fifo_with_a_very_long_name_that_no_box_of_a_fixed_width_could_hold_whole_" + std::string(40, 'x') + "_end";
    const std::string long_worker = "worker_" + std::string(60, 'w') + "_with <a> long & 'odd' name";
    auto net = evil_netlist();
    net.cores.push_back({});
    net.cores.back().worker = long_worker;
    net.cores.back().tile = {0, 2};
    npusim::model::FifoEndpointInfo end;
    end.fifo = long_fifo;
    end.consumer = 0;
    end.end = "consumer 0";
    end.tile = {0, 2};
    end.depth = 2;
    end.object_bytes = 4096;
    net.fifo_ends.push_back(end);
    net.flows.back().prov = {long_fifo, "stream"};
    const auto timing = npusim::model::TimingParams::for_arch(npusim::model::Arch::AIE2);
    HtmlReportSink sink(d.file("r.html"), false);
    feed(sink, net, timing);
    sink.finish(1000);

    npusim::sim::Diagnosis diag;
    diag.cycle = 7;
    diag.case_id = "lock_cycle";
    diag.case_title = "lock cycle";
    using N = npusim::sim::WaitNode;
    const std::string long_lock = "lock " + long_fifo + "_cons_cons_lock_0 on (0,2)";
    diag.nodes = {{N::Kind::Worker, "worker:w", "worker '" + long_worker + "' on (0,2)",
                   npusim::sim::ProcessProgress::State::Blocked,
                   "acquire 1 of fifo '" + long_fifo + "' consumer 0", true, true},
                  {N::Kind::Lock, "lock:l", long_lock, std::nullopt, "value 0, wants >= 1", true, true}};
    diag.edges = {{0, 1, "waits for " + long_fifo + " to hold an object", true, true},
                  {1, 0, "released by worker '" + long_worker + "'", true, true}};
    HtmlReportSink::Outcome o;
    o.status = "deadlock";
    o.diagnosis = &diag;
    sink.write(o);
    const std::string page = slurp(d.file("r.html"));

    const std::string design = svg_of(page, "design-graph");
    check_label_whole(design, "\u2699 " + long_worker);
    for (const auto& f : net.fifo_ends)
        check_label_whole(design,
                          f.describe() + ": " + npusim::model::fifo_end_holding_name(f.holding) + ", depth 2 x 4 KiB");
    check_label_whole(design, "'" + long_fifo + "' stream");
    const std::string wait_for = svg_of(page, "deadlock-graph");
    for (const auto& node : diag.nodes) {
        check_label_whole(wait_for, node.label);
        check_label_whole(wait_for, node.detail);
    }
    for (const auto& edge : diag.edges) check_label_whole(wait_for, edge.label);
    // No label is shortened anywhere in the page.
    CHECK_THAT(page, !Catch::Contains("\u2026</text>"));
}

TEST_CASE("HtmlReportSink lays out graphs from several threads at once", "[traces][html]") {
    // Graphviz's library is not thread-safe: the layouts take turns, and each page is whole.
    npusim::sim::Diagnosis diag;
    using N = npusim::sim::WaitNode;
    diag.nodes = {{N::Kind::Worker, "worker:a", "worker 'a'", npusim::sim::ProcessProgress::State::Blocked, "", true, true},
                  {N::Kind::Lock, "lock:l", "lock l", std::nullopt, "value 0", true, true}};
    diag.edges = {{0, 1, "waits >= 1", true, true}, {1, 0, "released by", true, true}};
    const auto net = evil_netlist();
    const auto timing = npusim::model::TimingParams::for_arch(npusim::model::Arch::AIE2);
    std::vector<std::string> pages(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < pages.size(); ++i)
        threads.emplace_back([&, i] {
            HtmlReportSink sink("unused.html", false);
            feed(sink, net, timing);
            sink.finish(1000);
            HtmlReportSink::Outcome o;
            o.status = "deadlock";
            o.diagnosis = &diag;
            pages[i] = sink.render(o);
        });
    for (auto& t : threads) t.join();
    for (const auto& page : pages) {
        CHECK(count(page, "<g class=\"node in-cycle\"") == 2);
        CHECK(count(page, "<g class=\"tile") == 6);
        CHECK(page == pages.front());
    }
}

TEST_CASE("HtmlReportSink names the file it cannot write, rejects unknown tracks", "[traces][html]") {
    HtmlReportSink sink("/nonexistent/dir/r.html");
    sink.begin_run({});
    CHECK_THROWS_WITH(sink.span(3, "x", 0, 1), Catch::Contains("track 3, which was never added"));
    sink.add_track(0, {Kind::Core, 0, 2, "core"});
    CHECK_THROWS_AS(sink.add_track(0, {Kind::Core, 0, 2, "core"}), std::invalid_argument);
    CHECK_THROWS_WITH(sink.finish(10),
                      "cannot write HTML report to '/nonexistent/dir/r.html': No such file or directory");
}
