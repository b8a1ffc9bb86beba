#pragma once
// N-D DMA address generation (BD dims), as plain C++ shared by resolve-time checks and the
// simulator. A pattern is a base byte offset plus a list of (size, stride) dimensions in 32-bit
// words, outermost first; the innermost dimension advances fastest. An empty list is a linear
// transfer of `linear_bytes`. The pattern is normalised into contiguous runs so that moving data
// is a handful of memcpy calls, never a per-word loop for contiguous data.
#include "npusim/model/Netlist.hpp"

#include <cstdint>
#include <vector>

namespace npusim::model {

class AddressPattern {
public:
    AddressPattern() = default;
    /// dims in 32-bit words (outermost first); if empty, a linear run of linear_bytes.
    AddressPattern(std::int64_t base_bytes, const std::vector<Dim>& dims, std::uint64_t linear_bytes = 0);

    std::uint64_t total_bytes() const { return total_bytes_; }
    /// Smallest and largest byte offset touched (inclusive of the last byte), for bounds checks.
    std::int64_t min_offset() const { return min_offset_; }
    std::int64_t max_offset() const { return max_offset_; }
    std::uint64_t run_bytes() const { return run_bytes_; }

    /// Visit every contiguous run in order: f(std::int64_t offset_bytes, std::uint64_t bytes).
    template <class F>
    void for_each_run(F&& f) const {
        Cursor c(*this);
        c.advance(total_bytes_, f);
    }

    /// Byte offsets of each 32-bit word in order (for tests and access-order tables).
    std::vector<std::int64_t> word_offsets() const;

    /// Incremental walk over a pattern: transfers may end in the middle of a run.
    class Cursor {
    public:
        explicit Cursor(const AddressPattern& p);
        std::uint64_t remaining() const { return remaining_; }
        /// Advance over up to n bytes, calling f(offset, len) for each contiguous piece.
        template <class F>
        std::uint64_t advance(std::uint64_t n, F&& f) {
            std::uint64_t done = 0;
            while (done < n && remaining_ > 0) {
                const std::uint64_t in_run = p_->run_bytes_ - run_pos_;
                const std::uint64_t take = std::min<std::uint64_t>(in_run, n - done);
                f(run_offset_ + static_cast<std::int64_t>(run_pos_), take);
                done += take;
                remaining_ -= take;
                run_pos_ += take;
                if (run_pos_ == p_->run_bytes_ && remaining_ > 0) next_run();
            }
            return done;
        }
        /// Copy the pattern's next n bytes (or fewer, at its end) out of `mem` into `out`, in pattern
        /// order (an MM2S reading tile or host memory). Returns the bytes copied.
        std::uint64_t gather(const std::uint8_t* mem, std::uint8_t* out, std::uint64_t n) {
            return copy<true>(const_cast<std::uint8_t*>(mem), out, n);
        }
        /// Copy n bytes (or fewer, at the pattern's end) from `in` to the pattern's next positions in
        /// `mem` (an S2MM writing tile or host memory). Returns the bytes copied.
        std::uint64_t scatter(std::uint8_t* mem, const std::uint8_t* in, std::uint64_t n) {
            return copy<false>(mem, const_cast<std::uint8_t*>(in), n);
        }

    private:
        /// gather (Gather) or scatter: whole runs along the innermost dimension are copied in one
        /// strided loop with a fixed-size copy for the usual run sizes (a 16-byte run is two moves,
        /// not a library call); partial runs go one piece at a time as in advance().
        template <bool Gather>
        std::uint64_t copy(std::uint8_t* mem, std::uint8_t* buf, std::uint64_t n);
        void next_run();
        const AddressPattern* p_;
        std::vector<std::uint32_t> idx_;
        std::int64_t run_offset_ = 0;
        std::uint64_t run_pos_ = 0;
        std::uint64_t remaining_ = 0;
    };

private:
    struct NDim {
        std::uint32_t size;
        std::int64_t stride_bytes;
    };
    std::int64_t base_ = 0;
    std::vector<NDim> outer_; ///< dims above the contiguous run, outermost first
    std::uint64_t run_bytes_ = 0; ///< bytes per contiguous run
    std::uint64_t total_bytes_ = 0;
    std::int64_t min_offset_ = 0;
    std::int64_t max_offset_ = 0;
};

} // namespace npusim::model
