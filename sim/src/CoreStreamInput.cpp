#include "CoreStreamInput.hpp"

#include <cstring>

namespace npusim::sim {

CoreStreamInput::CoreStreamInput(std::string label, double bytes_per_cycle) : label_(std::move(label)) {
    this->bytes_per_cycle = bytes_per_cycle;
}

void CoreStreamInput::accept(const std::uint8_t* data, std::uint64_t n) {
    // The core posts one word at a time, so a chunk never exceeds what is left of it.
    const auto k = std::min<std::uint64_t>(n, word_.size() - got_);
    std::memcpy(word_.data() + got_, data, k);
    got_ += k;
    written += k;
}

std::uint32_t CoreStreamInput::take() {
    std::uint32_t w = 0;
    std::memcpy(&w, word_.data(), sizeof w);
    got_ = 0;
    word_ = {};
    return w;
}

} // namespace npusim::sim
