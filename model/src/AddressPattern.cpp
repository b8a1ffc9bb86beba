#include "npusim/model/AddressPattern.hpp"

#include <algorithm>

namespace npusim::model {

AddressPattern::AddressPattern(std::int64_t base_bytes, const std::vector<Dim>& dims, std::uint64_t linear_bytes)
    : base_(base_bytes) {
    if (dims.empty()) {
        run_bytes_ = linear_bytes;
        total_bytes_ = linear_bytes;
        min_offset_ = base_;
        max_offset_ = base_ + static_cast<std::int64_t>(linear_bytes) - 1;
        return;
    }
    std::vector<NDim> d;
    std::uint64_t total_words = 1;
    for (const auto& x : dims) {
        total_words *= x.size;
        if (x.size != 1) d.push_back({x.size, x.stride * 4});
    }
    total_bytes_ = total_words * 4;
    // Bounds: every dim contributes (size-1)*stride at its extreme.
    std::int64_t lo = 0, hi = 0;
    for (const auto& x : dims) {
        if (x.size == 0) continue;
        const std::int64_t span = static_cast<std::int64_t>(x.size - 1) * x.stride * 4;
        (span < 0 ? lo : hi) += span;
    }
    min_offset_ = base_ + lo;
    max_offset_ = base_ + hi + 3;
    if (total_words == 0) {
        run_bytes_ = 0;
        return;
    }
    // Contiguous innermost run.
    std::uint64_t run = 4;
    while (!d.empty() && d.back().stride_bytes == static_cast<std::int64_t>(run)) {
        run *= d.back().size;
        d.pop_back();
    }
    run_bytes_ = run;
    outer_ = std::move(d);
}

std::vector<std::int64_t> AddressPattern::word_offsets() const {
    std::vector<std::int64_t> out;
    out.reserve(total_bytes_ / 4);
    for_each_run([&](std::int64_t off, std::uint64_t len) {
        for (std::uint64_t i = 0; i < len; i += 4) out.push_back(off + static_cast<std::int64_t>(i));
    });
    return out;
}

AddressPattern::Cursor::Cursor(const AddressPattern& p)
    : p_(&p), idx_(p.outer_.size(), 0), run_offset_(p.base_), remaining_(p.total_bytes_) {}

void AddressPattern::Cursor::next_run() {
    run_pos_ = 0;
    for (std::size_t i = idx_.size(); i-- > 0;) {
        const auto& d = p_->outer_[i];
        if (++idx_[i] < d.size) {
            run_offset_ += d.stride_bytes;
            return;
        }
        run_offset_ -= static_cast<std::int64_t>(d.size - 1) * d.stride_bytes;
        idx_[i] = 0;
    }
}

} // namespace npusim::model
