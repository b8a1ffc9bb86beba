#include "npusim/harness/Tensor.hpp"

#include <bit>
#include <fmt/format.h>
#include <random>
#include <stdexcept>

namespace npusim::harness {

std::string_view role_name(ArgRole r) {
    switch (r) {
    case ArgRole::input: return "input";
    case ArgRole::output: return "output";
    case ArgRole::unused: return "unused";
    case ArgRole::inout: return "inout";
    }
    return "?";
}

std::int64_t shape_elements(const std::vector<std::int64_t>& shape) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::string shape_str(const std::vector<std::int64_t>& shape) {
    if (shape.size() == 1) return fmt::format("({},)", shape[0]);
    return fmt::format("({})", fmt::join(shape, ", "));
}

std::string_view numpy_dtype_name(DType t) {
    switch (t) {
    case DType::i8: return "int8";
    case DType::u8: return "uint8";
    case DType::i16: return "int16";
    case DType::u16: return "uint16";
    case DType::i32: return "int32";
    case DType::u32: return "uint32";
    case DType::f32: return "float32";
    case DType::bf16: return "bfloat16";
    case DType::bfp16ebs8: return "v8bfp16ebs8";
    }
    return "?";
}

namespace {
std::string type_string(DType t, const std::vector<std::int64_t>& shape) {
    return fmt::format("{}[{}]", dtype_name(t), fmt::join(shape, ","));
}
} // namespace

namespace detail {
void throw_tensor_type(std::string_view what, DType have, DType want) {
    throw std::invalid_argument(
        fmt::format("{}: the tensor holds {}, not {}", what, dtype_name(have), dtype_name(want)));
}
void throw_tensor_count(std::size_t values, std::int64_t elements) {
    throw std::invalid_argument(fmt::format("Tensor::from: {} values for a shape of {} elements", values, elements));
}
} // namespace detail

Tensor::Tensor(DType t, std::vector<std::int64_t> s)
    : dtype(t), shape(std::move(s)), data(static_cast<std::size_t>(shape_elements(shape)) * dtype_bytes(t)) {}

Tensor::Tensor(DType t, std::vector<std::int64_t> s, std::vector<std::uint8_t> d)
    : dtype(t), shape(std::move(s)), data(std::move(d)) {
    const auto want = static_cast<std::uint64_t>(shape_elements(shape)) * dtype_bytes(dtype);
    if (data.size() != want)
        throw std::invalid_argument(
            fmt::format("Tensor {}: {} bytes of data, expected {}", type_str(), data.size(), want));
}

std::string Tensor::type_str() const { return type_string(dtype, shape); }

Tensor Tensor::random_bits(DType t, std::vector<std::int64_t> s, std::uint64_t seed) {
    if (dtype_is_float(t))
        throw std::invalid_argument(fmt::format("Tensor::random_bits: {} is a float type (random bits would include "
                                                "NaNs); draw its values instead",
                                                dtype_name(t)));
    static_assert(std::endian::native == std::endian::little, "a draw's bytes are stored as they lie in memory");
    Tensor r(t, std::move(s));
    std::mt19937_64 rng(seed);
    auto* p = r.data.data();
    const std::size_t n = r.data.size();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const std::uint64_t w = rng();
        std::memcpy(p + i, &w, 8); // least significant byte first
    }
    if (i < n)
        for (std::uint64_t w = rng(); i < n; ++i, w >>= 8) p[i] = static_cast<std::uint8_t>(w);
    return r;
}

const Tensor& get(const Tensors& tensors, const std::string& name) {
    const auto it = tensors.find(name);
    if (it == tensors.end()) {
        std::string known;
        for (const auto& [k, v] : tensors) known += (known.empty() ? "" : ", ") + k;
        throw std::invalid_argument(fmt::format("no tensor '{}' (tensors: {})", name, known.empty() ? "none" : known));
    }
    return it->second;
}

ArgSpec ArgSpec::input(std::string name, const iron::TensorType& t) {
    return ArgSpec{std::move(name), t.dtype, t.shape, ArgRole::input, 0, 0};
}
ArgSpec ArgSpec::output(std::string name, const iron::TensorType& t, double rtol, double atol) {
    return ArgSpec{std::move(name), t.dtype, t.shape, ArgRole::output, rtol, atol};
}
ArgSpec ArgSpec::unused(std::string name, const iron::TensorType& t) {
    return ArgSpec{std::move(name), t.dtype, t.shape, ArgRole::unused, 0, 0};
}
ArgSpec ArgSpec::inout(std::string name, const iron::TensorType& t, double rtol, double atol) {
    return ArgSpec{std::move(name), t.dtype, t.shape, ArgRole::inout, rtol, atol};
}
ArgSpec ArgSpec::ignoring(const std::function<bool(std::int64_t)>& ignored) const {
    ArgSpec a = *this;
    a.ignore.assign(static_cast<std::size_t>(elements()), 0);
    for (std::int64_t i = 0; i < elements(); ++i) a.ignore[static_cast<std::size_t>(i)] = ignored(i) ? 1 : 0;
    return a;
}

std::string ArgSpec::type_str() const { return type_string(dtype, shape); }

} // namespace npusim::harness
