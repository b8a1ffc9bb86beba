#include "npusim/model/AddressPattern.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

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

namespace {

template <std::size_t N>
void copy_fixed(std::uint8_t* dst, std::ptrdiff_t dst_stride, const std::uint8_t* src, std::ptrdiff_t src_stride,
                std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i, dst += dst_stride, src += src_stride) std::memcpy(dst, src, N);
}

/// `count` runs of `len` bytes, each `src_stride` / `dst_stride` bytes after the last.
void copy_runs(std::uint8_t* dst, std::ptrdiff_t dst_stride, const std::uint8_t* src, std::ptrdiff_t src_stride,
               std::uint64_t count, std::uint64_t len) {
    switch (len) {
    case 4: return copy_fixed<4>(dst, dst_stride, src, src_stride, count);
    case 8: return copy_fixed<8>(dst, dst_stride, src, src_stride, count);
    case 16: return copy_fixed<16>(dst, dst_stride, src, src_stride, count);
    case 32: return copy_fixed<32>(dst, dst_stride, src, src_stride, count);
    case 64: return copy_fixed<64>(dst, dst_stride, src, src_stride, count);
    case 128: return copy_fixed<128>(dst, dst_stride, src, src_stride, count);
    default:
        for (std::uint64_t i = 0; i < count; ++i, dst += dst_stride, src += src_stride) std::memcpy(dst, src, len);
    }
}

} // namespace

template <bool Gather>
std::uint64_t AddressPattern::Cursor::copy(std::uint8_t* mem, std::uint8_t* buf, std::uint64_t n) {
    const std::uint64_t run = p_->run_bytes_;
    std::uint64_t done = 0;
    while (done < n && remaining_ > 0) {
        if (run_pos_ == 0 && !idx_.empty() && n - done >= run) {
            // Whole runs along the innermost outer dimension, from its current index on. The
            // pattern still holds all of them (remaining_ counts every run not yet started).
            auto& i = idx_.back();
            const auto& d = p_->outer_.back();
            const std::uint64_t runs = std::min<std::uint64_t>(d.size - i, (n - done) / run);
            std::uint8_t* at = mem + run_offset_;
            const auto stride = static_cast<std::ptrdiff_t>(d.stride_bytes);
            const auto step = static_cast<std::ptrdiff_t>(run);
            if constexpr (Gather)
                copy_runs(buf + done, step, at, stride, runs, run);
            else
                copy_runs(at, stride, buf + done, step, runs, run);
            done += runs * run;
            remaining_ -= runs * run;
            if (i + runs < d.size) {
                i += static_cast<std::uint32_t>(runs);
                run_offset_ += static_cast<std::int64_t>(runs) * d.stride_bytes;
            } else {
                // Stand on the dimension's last run, finished, and carry as advance() does.
                run_offset_ += static_cast<std::int64_t>(runs - 1) * d.stride_bytes;
                i = d.size - 1;
                run_pos_ = run;
                if (remaining_ > 0) next_run();
            }
            continue;
        }
        const std::uint64_t take = std::min<std::uint64_t>(run - run_pos_, n - done);
        std::uint8_t* at = mem + run_offset_ + static_cast<std::int64_t>(run_pos_);
        if constexpr (Gather)
            std::memcpy(buf + done, at, take);
        else
            std::memcpy(at, buf + done, take);
        done += take;
        remaining_ -= take;
        run_pos_ += take;
        if (run_pos_ == run && remaining_ > 0) next_run();
    }
    return done;
}

template std::uint64_t AddressPattern::Cursor::copy<true>(std::uint8_t*, std::uint8_t*, std::uint64_t);
template std::uint64_t AddressPattern::Cursor::copy<false>(std::uint8_t*, std::uint8_t*, std::uint64_t);

} // namespace npusim::model
