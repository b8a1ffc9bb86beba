#pragma once
// The input stream port of a core (an aie_stream consumer end): the receiver of its flow's
// StreamLink. Each get_ss posts room for one 32-bit word and waits until the flow delivered it.
#include "StreamLink.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace npusim::sim {

class CoreStreamInput final : public StreamReceiver {
public:
    /// `label`: "worker 'w' stream port 0"; `bytes_per_cycle`: the core port's rate.
    CoreStreamInput(std::string label, double bytes_per_cycle);
    void accept(const std::uint8_t* data, std::uint64_t n) override;
    std::string label() const override { return label_; }
    /// The word the last post received (its bytes in stream order); starts the next word.
    std::uint32_t take();

private:
    std::string label_;
    std::array<std::uint8_t, 4> word_{};
    std::uint64_t got_ = 0; ///< bytes of the current word received
};

} // namespace npusim::sim
