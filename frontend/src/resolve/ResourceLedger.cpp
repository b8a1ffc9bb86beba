#include "resolve/ResourceLedger.hpp"

#include "resolve/BdEncoding.hpp"

#include "npusim/model/Error.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace npusim::iron::detail {

using model::Direction;
using model::TileCoord;

ResourceLedger::ResourceLedger(const model::DeviceSpec& dev, model::Netlist& net) : dev_(dev), net_(net) {}

int ResourceLedger::alloc_channel(TileCoord t, Direction d, const std::string& who, std::optional<int> pin) {
    auto& u = use(t);
    auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    const int n = dev_.dma_channels(t, d);
    v.resize(static_cast<std::size_t>(std::max<int>(n, static_cast<int>(v.size()))));
    if (pin) {
        if (*pin >= 0 && *pin < n && v[static_cast<std::size_t>(*pin)] == who) return *pin;
        reserve_channel(t, d, *pin, who);
        return *pin;
    }
    for (int i = 0; i < n; ++i)
        if (v[static_cast<std::size_t>(i)].empty()) {
            v[static_cast<std::size_t>(i)] = who;
            return i;
        }
    std::string users;
    for (const auto& s : v) users += (users.empty() ? "" : ", ") + s;
    throw DesignError(fmt::format("{} tile {}: {} needs a {} DMA channel but all {} are in use (by {})",
                                  model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), who,
                                  model::direction_name(d), n, users));
}

bool ResourceLedger::channel_free(TileCoord t, Direction d, int channel) {
    const auto& u = use(t);
    const auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    if (channel < 0 || channel >= dev_.dma_channels(t, d)) return false;
    return static_cast<std::size_t>(channel) >= v.size() || v[static_cast<std::size_t>(channel)].empty();
}

void ResourceLedger::reserve_channel(TileCoord t, Direction d, int channel, const std::string& who) {
    // AIEObjectFifoStatefulTransform reservePinnedChannels: "pinned MM2S DMA channel <c> is out of
    // range or already in use on this tile" (DMAChannelAnalysis::reservePinnedChannel).
    if (!channel_free(t, d, channel)) {
        const auto& u = use(t);
        const auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
        const int n = dev_.dma_channels(t, d);
        const std::string why = channel < 0 || channel >= n
                                    ? fmt::format("the tile has {} {} channels", n, model::direction_name(d))
                                    : fmt::format("taken by {}", v[static_cast<std::size_t>(channel)]);
        throw DesignError(fmt::format("{} tile {}: {}: pinned {} DMA channel {} is out of range or already in use on "
                                      "this tile ({})",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), who,
                                      model::direction_name(d), channel, why));
    }
    auto& u = use(t);
    auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    v.resize(static_cast<std::size_t>(std::max<int>(dev_.dma_channels(t, d), static_cast<int>(v.size()))));
    v[static_cast<std::size_t>(channel)] = who;
}

void ResourceLedger::claim_channel(TileCoord t, Direction d, int ch, const std::string& who) {
    auto& u = use(t);
    auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    const int n = dev_.dma_channels(t, d);
    if (ch < 0 || ch >= n)
        throw DesignError(fmt::format("{} tile {}: {} uses {} DMA channel {} but the tile has channels 0..{}",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), who,
                                      model::direction_name(d), ch, n - 1));
    if (static_cast<std::size_t>(ch) >= v.size()) v.resize(static_cast<std::size_t>(ch) + 1);
    auto& owner = v[static_cast<std::size_t>(ch)];
    if (!owner.empty())
        throw DesignError(fmt::format("{} tile {}: {} uses {} DMA channel {}, which {} already uses",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), who,
                                      model::direction_name(d), ch, owner));
    owner = who;
}

int ResourceLedger::channels_used(TileCoord t, Direction d) {
    const auto& u = use(t);
    const auto& v = d == Direction::S2MM ? u.s2mm : u.mm2s;
    return static_cast<int>(std::count_if(v.begin(), v.end(), [](const std::string& s) { return !s.empty(); }));
}

int ResourceLedger::add_lock(TileCoord t, const std::string& name, int init, model::Provenance prov,
                             std::optional<int> id) {
    auto& u = use(t);
    const auto& res = dev_.resources(t);
    if (id && (*id < 0 || *id >= res.locks))
        throw DesignError(fmt::format("{} tile {}: {}: lock assigned invalid id (maximum is {}); got lock_id {}",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), prov.describe(),
                                      res.locks - 1, *id));
    if (id && u.lock_ids.count(*id))
        throw DesignError(fmt::format("{} tile {}: {} is assigned to the same lock ({}) as another op.",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), prov.describe(),
                                      *id));
    int next = 0;
    while (u.lock_ids.count(next)) ++next;
    if (!id && next >= res.locks)
        throw DesignError(fmt::format("{} tile {}: {} needs a lock but all {} locks are in use: not allocated a lock.",
                                      model::tile_kind_name(dev_.kind_at(t)), model::to_string(t), prov.describe(),
                                      res.locks));
    if (init < 0 || init > res.lock_max_value)
        throw DesignError(fmt::format("{}: lock '{}' initial value {} is outside 0..{}", prov.describe(), name, init,
                                      res.lock_max_value));
    model::NetLock l;
    l.name = name;
    l.tile = t;
    l.id = id.value_or(next);
    u.lock_ids.insert(l.id);
    l.init = init;
    l.prov = std::move(prov);
    net_.locks.push_back(std::move(l));
    return static_cast<int>(net_.locks.size()) - 1;
}

int ResourceLedger::add_buffer(TileCoord t, const std::string& name, std::uint64_t bytes, model::Provenance prov) {
    model::NetBuffer b;
    b.name = name;
    b.tile = t;
    b.bytes = static_cast<std::uint32_t>(bytes);
    b.prov = std::move(prov);
    net_.buffers.push_back(std::move(b));
    const int idx = static_cast<int>(net_.buffers.size()) - 1;
    use(t).buffers.push_back(idx);
    return idx;
}

void ResourceLedger::move_buffer(int idx, TileCoord to) {
    auto& b = net_.buffers[static_cast<std::size_t>(idx)];
    auto& from = use(b.tile).buffers;
    from.erase(std::remove(from.begin(), from.end(), idx), from.end());
    auto& dest = use(to).buffers;
    dest.insert(std::upper_bound(dest.begin(), dest.end(), idx), idx); // creation order
    b.tile = to;
}

void ResourceLedger::add_channel(model::DmaChannelProgram ch, const std::string& who) {
    auto& u = use(ch.tile);
    const auto [first, last] = dev_.bd_range(ch.tile, ch.channel);
    const int half = dev_.resources(ch.tile).bds_split_by_channel_parity ? ch.channel % 2 : 0;
    const int avail = last - first + 1 - u.bds[half];
    if (static_cast<int>(ch.bds.size()) > avail)
        throw DesignError(fmt::format("{} tile {}: {} needs {} BDs on {} channel {} but only {} of BDs {}-{} are free: "
                                      "Allocator exhausted available BD IDs (maximum {} available for channel {}).",
                                      model::tile_kind_name(dev_.kind_at(ch.tile)), model::to_string(ch.tile), who,
                                      ch.bds.size(), model::direction_name(ch.dir), ch.channel, avail, first, last,
                                      last - first + 1, ch.channel));
    for (auto& bd : ch.bds) {
        bd.bd_id = first + u.bds[half]++;
        check_bd_length(bd, dev_.resources(ch.tile), dev_.kind_at(ch.tile));
    }
    net_.channels.push_back(std::move(ch));
}

int ResourceLedger::take_shim_bd(TileCoord t, const std::string& who) {
    const int count = dev_.shim.bds;
    auto& busy = use(t).shim_bd_busy;
    busy.resize(static_cast<std::size_t>(count), false);
    auto free_bd = std::find(busy.begin(), busy.end(), false);
    if (free_bd == busy.end())
        throw DesignError(
            fmt::format("{}: shim tile {} has no free BD id (all {} are held by unfinished tasks; finish a "
                        "TaskGroup or free tasks first)",
                        who, model::to_string(t), count));
    *free_bd = true;
    return static_cast<int>(free_bd - busy.begin());
}

void ResourceLedger::free_shim_bd(TileCoord t, int id) {
    auto& busy = use(t).shim_bd_busy;
    if (static_cast<std::size_t>(id) < busy.size()) busy[static_cast<std::size_t>(id)] = false;
}

} // namespace npusim::iron::detail
