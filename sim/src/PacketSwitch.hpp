#pragma once
// Packet-switched streams (aie.packet_flow): the MM2S channels that send packets into a group of
// packet flows connected through shared ports, and the S2MM channels they reach. A packet is one
// BD's data preceded by its header word (id, type, source, parity); it moves whole - from its
// header to TLAST - and the switch grants the group's shared stream to one sender at a time,
// round-robin over the senders waiting at the same cycle (the stream switch's arbiter). Packets
// reach every destination of their (source, packet id) route, which drops the header word unless
// the route keeps it (keep_pkt_header).
//
// A packet's header comes from its sender's BD (Enable_Packet: the DMA inserts the header word
// built from the BD's packet id and type) or, for a BD without one, from its data: such a DMA sends
// its words as they are and the switch reads the first word of each packet - the first word after
// a TLAST, and a DMA ends every BD with TLAST - as its header (UG1603 "Packet Processing": the
// first 32-bit word of a packet is its header; mlir-aie at 3ca0193 relies on this for control
// packets, lib/Targets/AIETargetNPU.cpp L524-525). So each header-less BD is one packet whose
// header is its first data word (data_header).
//
// Timing: the header word takes one word slot of the stream; the data then moves as a StreamLink
// transfer to the route's destinations. The whole group shares one stream, so two packets of one
// group on disjoint paths are serialized too [est: exact for packets merging onto one port].
#include "ProcessClock.hpp"
#include "ProcessState.hpp"
#include "StreamLink.hpp"
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace npusim::sim {

class PacketSwitch {
    struct Route;

public:
    /// A packet send in progress (begin_send, step).
    struct Send {
        enum class Stage { Sync, Ask, Grant, Stream };
        Stage stage = Stage::Sync;
        int source = -1;
        const Route* route = nullptr; ///< the route for (source, packet id)
        std::uint32_t header = 0;
        const std::uint8_t* data = nullptr;
        std::uint64_t n = 0;
        std::uint64_t from = 0; ///< the local time the sender asked for the grant
        StreamSend link; ///< the packet's transfer once granted
    };

    /// `link`: the group's stream, whose receivers are every destination of the group.
    explicit PacketSwitch(std::unique_ptr<StreamLink> link) : link_(std::move(link)) {}

    /// Register a sending MM2S port; returns its index (the round-robin order).
    int add_source(const model::StreamEndpoint& e);
    /// Packets with `packet_id` from `source` reach `dests` (receivers of the link).
    /// `latency`: that flow's own route latency (its longest path's hops), not the group's.
    void add_route(int source, int packet_id, std::vector<StreamReceiver*> dests, bool keep_header,
                   std::uint32_t latency);

    /// Whether packets with `packet_id` from `source` have a route.
    bool routes(int source, int packet_id) const { return routes_.count({source, packet_id}) != 0; }
    /// The header of a packet that a BD without a packet header of its own sends: the first word of
    /// its `n` data bytes. The switch routes by the word's id bits (4:0); the other fields pass as
    /// they are. A packet with no header word, or whose id no packet flow from `source` routes (on
    /// hardware it matches no packet rule of the port: none of the design's destinations gets it),
    /// is a protocol error naming `who` (the BD or task), the port and the id.
    std::uint32_t data_header(int source, const std::uint8_t* data, std::uint64_t n, const std::string& who) const;

    /// Send one packet: wait for the grant, then the header word and the n data bytes.
    void send(int source, int packet_id, std::uint32_t header, const std::uint8_t* data, std::uint64_t n,
              ProcessClock& clk, ProcessState& ps, ChannelTime& time);
    /// send() in steps, for a sender that waits by returning: begin_send, then step until Done,
    /// waiting for what each step says (as StreamLink::step).
    void begin_send(Send& p, int source, int packet_id, std::uint32_t header, const std::uint8_t* data,
                    std::uint64_t n);
    Wake step(Send& p, ProcessClock& clk, ProcessState& ps, ChannelTime& time);

    StreamLink& link() { return *link_; }
    /// The sending MM2S ports, in add_source order.
    const std::vector<model::StreamEndpoint>& sources() const { return sources_; }
    const StreamLink& link() const { return *link_; }
    void wake_all() {
        free_.notify();
        link_->notify_posted();
    }

private:
    struct Route {
        std::vector<StreamReceiver*> dests;
        bool keep_header = false;
        std::uint32_t latency = 0;
    };
    int next_grant() const; ///< the waiting source after the last granted one, round-robin
    std::unique_ptr<StreamLink> link_;
    std::vector<model::StreamEndpoint> sources_;
    std::map<std::pair<int, int>, Route> routes_; ///< (source, packet id) -> route
    std::set<int> waiting_;
    bool busy_ = false;
    int last_ = -1;
    std::vector<std::uint8_t> staging_;
    sc_core::sc_event free_;
};

} // namespace npusim::sim
