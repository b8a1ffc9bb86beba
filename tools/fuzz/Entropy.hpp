#pragma once
// Where the random-design generator takes its choices from: a seeded generator (npusim-fuzz
// --seed, reproducible case by case) or the bytes libFuzzer mutates (fuzz_designs).
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace npusim::fuzz {

class Entropy {
public:
    virtual ~Entropy() = default;
    virtual std::uint64_t next() = 0;
    /// A value in 0..n-1 (0 when n is 0).
    std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
    /// A value in lo..hi.
    std::int64_t range(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
    }
    bool chance(unsigned percent) { return below(100) < percent; }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(below(v.size()))];
    }
};

class SeededEntropy final : public Entropy {
public:
    explicit SeededEntropy(std::uint64_t seed) : rng_(seed) {}
    std::uint64_t next() override { return rng_(); }

private:
    std::mt19937_64 rng_;
};

/// Reads the choices from a byte string, two bytes per choice; zeros once it is used up, so every
/// input, however short, is a complete design.
class ByteEntropy final : public Entropy {
public:
    ByteEntropy(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint64_t next() override {
        std::uint64_t v = 0;
        for (int i = 0; i < 2 && pos_ < size_; ++i) v = (v << 8) | data_[pos_++];
        return v;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

} // namespace npusim::fuzz
