#include "NetlistJson.hpp"

#include <string>

namespace npusim::tools {

namespace {

using nlohmann::json;

json tile(model::TileCoord t) { return {{"col", t.col}, {"row", t.row}}; }
const char* dir(model::Direction d) { return d == model::Direction::MM2S ? "MM2S" : "S2MM"; }
json prov(const model::Provenance& p) { return {{"object", p.object}, {"role", p.role}, {"element", p.element}}; }
json endpoint(const model::StreamEndpoint& e) {
    return {{"tile", tile(e.tile)}, {"dir", dir(e.dir)}, {"channel", e.channel}};
}
json dims(const std::vector<model::Dim>& ds) {
    auto j = json::array();
    for (const auto& d : ds) j.push_back({{"size", d.size}, {"stride", d.stride}});
    return j;
}
json paths(const std::vector<std::vector<model::TileCoord>>& ps) {
    auto j = json::array();
    for (const auto& p : ps) {
        auto one = json::array();
        for (const auto& t : p) one.push_back(tile(t));
        j.push_back(one);
    }
    return j;
}
const char* op_kind(model::RuntimeOp::Kind k) {
    switch (k) {
    case model::RuntimeOp::Kind::StartTask: return "start_task";
    case model::RuntimeOp::Kind::AwaitTask: return "await_task";
    case model::RuntimeOp::Kind::FreeTask: return "free_task";
    case model::RuntimeOp::Kind::WriteBuffer: return "write_buffer";
    case model::RuntimeOp::Kind::SetLock: return "set_lock";
    case model::RuntimeOp::Kind::CreateScratchpad: return "create_scratchpad";
    case model::RuntimeOp::Kind::UpdateFromScratchpad: return "update_from_scratchpad";
    }
    return "unknown";
}

json bd_json(const model::BufferDescriptor& b) {
    auto pad = json::array();
    for (const auto& p : b.pad) pad.push_back({{"before", p.before}, {"after", p.after}});
    return {{"bd_id", b.bd_id},
            {"buffer", b.buffer},
            {"offset_bytes", b.offset_bytes},
            {"length_bytes", b.length_bytes},
            {"dims", dims(b.dims)},
            {"acquire_lock", b.acquire_lock},
            {"acquire_value", b.acquire_value},
            {"acquire_equal", b.acquire_equal},
            {"release_lock", b.release_lock},
            {"release_value", b.release_value},
            {"next", b.next},
            {"repeat", b.repeat},
            {"pad", pad},
            {"pad_word", b.pad_word},
            {"packet_id", b.packet_id},
            {"packet_type", b.packet_type},
            {"prov", prov(b.prov)}};
}

json core_json(const model::CoreProgram& c) {
    auto rings = json::array();
    for (const auto& r : c.rings)
        rings.push_back({{"key", r.key},
                         {"buffers", r.buffers},
                         {"acquire_lock", r.acquire_lock},
                         {"release_lock", r.release_lock},
                         {"repeat", r.repeat},
                         {"prov", prov(r.prov)}});
    auto refs = [](const std::vector<model::CoreBufferRef>& v) {
        auto j = json::array();
        for (const auto& b : v) j.push_back({{"key", b.key}, {"buffer", b.buffer}});
        return j;
    };
    auto locks = json::array();
    for (const auto& l : c.locks) locks.push_back({{"key", l.key}, {"lock", l.lock}, {"user_lock", l.user_lock}});
    return {{"worker", c.worker},
            {"tile", tile(c.tile)},
            {"while_true", c.while_true},
            {"stack_bytes", c.stack_bytes},
            {"rings", rings},
            {"buffers", refs(c.buffers)},
            {"locks", locks},
            {"params", refs(c.params)},
            {"param_sync_lock", c.param_sync_lock},
            {"cascade_in", c.cascade_in},
            {"cascade_out", c.cascade_out},
            {"stream_in", c.stream_in},
            {"stream_out", c.stream_out}};
}

} // namespace

nlohmann::json netlist_json(const model::Netlist& net) {
    json j;
    j["design"] = net.design;
    j["device"] = net.device ? net.device->name : std::string();
    j["buffers"] = json::array();
    for (const auto& b : net.buffers)
        j["buffers"].push_back({{"name", b.name},
                                {"tile", tile(b.tile)},
                                {"address", b.address},
                                {"bytes", b.bytes},
                                {"initialized", !b.init.empty()},
                                {"prov", prov(b.prov)}});
    j["locks"] = json::array();
    for (const auto& l : net.locks)
        j["locks"].push_back(
            {{"name", l.name}, {"tile", tile(l.tile)}, {"id", l.id}, {"init", l.init}, {"prov", prov(l.prov)}});
    j["channels"] = json::array();
    for (const auto& c : net.channels) {
        auto bds = json::array();
        for (const auto& b : c.bds) bds.push_back(bd_json(b));
        j["channels"].push_back({{"tile", tile(c.tile)},
                                 {"dir", dir(c.dir)},
                                 {"channel", c.channel},
                                 {"start", c.start},
                                 {"repeat_count", c.repeat_count},
                                 {"bds", bds},
                                 {"prov", prov(c.prov)}});
    }
    j["flows"] = json::array();
    for (const auto& f : net.flows) {
        auto dests = json::array();
        for (const auto& d : f.dests) dests.push_back(endpoint(d));
        j["flows"].push_back({{"source", endpoint(f.source)},
                              {"dests", dests},
                              {"paths", paths(f.paths)},
                              {"from_core", f.from_core},
                              {"to_core", f.to_core},
                              {"prov", prov(f.prov)}});
    }
    j["packet_flows"] = json::array();
    for (const auto& f : net.packet_flows) {
        auto dests = json::array();
        for (const auto& d : f.dests) dests.push_back(endpoint(d));
        j["packet_flows"].push_back({{"packet_id", f.packet_id},
                                     {"source", endpoint(f.source)},
                                     {"dests", dests},
                                     {"keep_pkt_header", f.keep_pkt_header},
                                     {"paths", paths(f.paths)},
                                     {"prov", prov(f.prov)}});
    }
    j["cores"] = json::array();
    for (const auto& c : net.cores) j["cores"].push_back(core_json(c));
    j["cascades"] = json::array();
    for (const auto& c : net.cascades)
        j["cascades"].push_back({{"src_core", c.src_core},
                                 {"dst_core", c.dst_core},
                                 {"src", tile(c.src)},
                                 {"dst", tile(c.dst)},
                                 {"src_worker", c.src_worker},
                                 {"dst_worker", c.dst_worker}});
    j["host_tensors"] = json::array();
    for (const auto& t : net.host_tensors)
        j["host_tensors"].push_back({{"name", t.name},
                                     {"dtype", std::string(dtype_name(t.dtype))},
                                     {"shape", t.shape},
                                     {"bytes", t.bytes}});
    j["tasks"] = json::array();
    for (const auto& t : net.tasks)
        j["tasks"].push_back({{"id", t.id},
                              {"tile", tile(t.tile)},
                              {"dir", dir(t.dir)},
                              {"channel", t.channel},
                              {"bd_id", t.bd_id},
                              {"host_tensor", t.host_tensor},
                              {"offset_bytes", t.offset_bytes},
                              {"dims", dims(t.dims)},
                              {"bytes", t.bytes()},
                              {"issue_token", t.issue_token},
                              {"offset_param", t.offset_param},
                              {"prov", prov(t.prov)}});
    j["sequence"] = json::array();
    for (const auto& op : net.sequence)
        j["sequence"].push_back({{"kind", op_kind(op.kind)},
                                 {"task", op.task},
                                 {"buffer", op.buffer},
                                 {"offset_bytes", op.offset_bytes},
                                 {"data_bytes", op.data.size()},
                                 {"lock", op.lock},
                                 {"value", op.value},
                                 {"prov", prov(op.prov)}});
    j["scratchpad_params"] = json::array();
    for (const auto& p : net.scratchpad_params)
        j["scratchpad_params"].push_back({{"name", p.name},
                                          {"dtype", std::string(dtype_name(p.dtype))},
                                          {"kind", p.kind == model::ScratchpadParam::Kind::Core ? "core" : "addr"}});
    j["fifo_ends"] = json::array();
    for (const auto& e : net.fifo_ends)
        j["fifo_ends"].push_back({{"fifo", e.fifo},
                                  {"end", e.end},
                                  {"consumer", e.consumer},
                                  {"holding", model::fifo_end_holding_name(e.holding)},
                                  {"pool_owner", e.pool_owner},
                                  {"tile", tile(e.tile)},
                                  {"declared", e.declared},
                                  {"depth", e.depth},
                                  {"object_bytes", e.object_bytes},
                                  {"overridden", e.overridden}});
    j["warnings"] = net.warnings;
    return j;
}

} // namespace npusim::tools
