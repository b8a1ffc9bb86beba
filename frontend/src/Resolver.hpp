#pragma once
// Resolver: lowers a Program to a netlist, step by step (see docs/resolve.md):
//   collect -> trace bodies -> place workers and links -> lower fifos (shared pools, producer
//   and consumer copies, shim endpoints) -> lower links -> allocate memory -> route flows ->
//   record the runtime sequence.
#include "npusim/frontend/Program.hpp"
#include "npusim/model/Netlist.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace npusim::iron::detail {

class Resolver {
public:
    Resolver(const Program& program, const ResolveOptions& opts);
    model::Netlist run();

private:
    struct TileUse {
        std::vector<std::string> s2mm;   ///< owner of each allocated S2MM channel
        std::vector<std::string> mm2s;
        int locks = 0;
        int bds[2] = {0, 0};             ///< BDs used in each id range (even/odd channel halves)
        std::vector<int> buffers;
    };
    struct LinkPlan {
        LinkState* link = nullptr;
        model::TileCoord tile;
        std::map<FifoState*, int> s2mm_of;   ///< S2MM channel of each input fifo
        std::map<FifoState*, int> mm2s_of;   ///< MM2S channel of each output fifo
    };

    void collect();
    void trace_bodies();
    void place_workers();
    void place_links();
    void lower_fifo(FifoState* f);
    void lower_link(LinkPlan& plan);
    void allocate_memory();
    void route_flows();
    void record_sequence();

    // helpers
    model::TileCoord endpoint_tile(EndpointState* ep, model::Direction shim_dir, int preferred_col);
    int preferred_column(FifoState* f, EndpointState* self);
    int alloc_channel(model::TileCoord t, model::Direction d, const std::string& who);
    int add_lock(model::TileCoord t, const std::string& name, int init, model::Provenance prov);
    int add_buffer(model::TileCoord t, const std::string& name, std::uint64_t bytes, model::Provenance prov);
    void add_channel(model::DmaChannelProgram ch, const std::string& who);
    std::vector<int> side_depths(FifoState* f);
    int side_depth(FifoState* f, EndpointState* ep, model::TileKind kind);
    model::CoreProgram& core_of(WorkerState* w);
    std::vector<model::Dim> to_words(const StreamDims& dims, const TensorType& t, model::TileCoord tile,
                                     const std::string& who) const;
    model::BufferDescriptor make_bd(int buffer, std::uint32_t len, std::vector<model::Dim> dims, int acq, int rel,
                                    model::Provenance prov) const;
    std::vector<model::BufferDescriptor> ring_chain(const std::vector<int>& bufs, std::uint32_t len,
                                                    const std::vector<model::Dim>& dims, int acq, int rel,
                                                    const std::string& fifo, const std::string& role) const;
    void check_object(FifoState* f) const;
    void apply_repeat(std::vector<model::BufferDescriptor>& bds, int R, bool allow_hw_repeat = true) const;
    void check_chain_dims(const std::vector<model::BufferDescriptor>& bds, const std::string& fifo,
                          const std::string& role) const;

    const Program& program_;
    ResolveOptions opts_;
    const model::DeviceSpec& dev_;
    model::Netlist net_;
    std::vector<WorkerState*> workers_;
    std::map<WorkerState*, model::TileCoord> worker_tile_;
    std::map<WorkerState*, int> worker_core_;
    std::vector<FifoState*> fifos_;
    std::vector<LinkPlan> links_;
    std::map<LinkState*, std::size_t> link_index_;
    std::map<int, int> max_acquire_;                     ///< endpoint uid -> largest acquire
    std::map<int, model::StreamEndpoint> shim_alloc_;    ///< runtime endpoint uid -> shim channel
    std::map<model::TileCoord, TileUse> use_;
    std::set<model::TileCoord> worker_tiles_;
    std::map<int, int> buffer_of_;                       ///< Buffer uid -> NetBuffer index
};

} // namespace npusim::iron::detail
