#pragma once
// Host tensors of a design's runtime arguments: what each argument is (ArgSpec: name, dtype, shape,
// role, comparison tolerance) and what it holds (Tensor: dtype, shape, bytes).
#include "npusim/frontend/TensorType.hpp"
#include "npusim/model/DType.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::harness {

/// What the host does with a runtime argument: fills it (input), reads it back and checks it
/// (output), or neither (unused: it is passed but the design never touches it).
/// input: given contents, not compared; output: starts zeroed, compared in full; inout: given
/// initial contents (e.g. a sentinel pattern the design partly overwrites), compared in full;
/// unused: zeroed, not compared.
enum class ArgRole { input, output, unused, inout };
std::string_view role_name(ArgRole r);

/// Number of elements of a shape (1 for the scalar shape ()).
std::int64_t shape_elements(const std::vector<std::int64_t>& shape);
/// NumPy's spelling of a shape: "()", "(4096,)", "(2, 3)".
std::string shape_str(const std::vector<std::int64_t>& shape);
/// NumPy's name of a dtype: "int8", "uint8", "int16", "int32", "uint32", "float32", "bfloat16".
std::string_view numpy_dtype_name(DType t);

/// A host tensor: element type, shape (row-major) and its little-endian bytes.
struct Tensor {
    DType dtype = DType::i32;
    std::vector<std::int64_t> shape;
    std::vector<std::uint8_t> data;

    Tensor() = default;
    /// Zero-filled.
    Tensor(DType dtype, std::vector<std::int64_t> shape);
    /// `data` must hold exactly elements * element size bytes (std::invalid_argument otherwise).
    Tensor(DType dtype, std::vector<std::int64_t> shape, std::vector<std::uint8_t> data);

    /// Tensor::from<std::int16_t>({4096}, values): the values' count must match the shape.
    template <class T>
    static Tensor from(std::vector<std::int64_t> shape, const std::vector<T>& values);
    /// A copy of the elements; T must be the tensor's element type (std::invalid_argument otherwise).
    template <class T>
    std::vector<T> values() const;

    std::int64_t elements() const { return shape_elements(shape); }
    std::uint64_t bytes() const { return data.size(); }
    /// "i16[4096]", "f32[2,3]", "i32[]" for a scalar.
    std::string type_str() const;

    /// An integer tensor of uniformly random bits: its bytes are the successive 64-bit draws of
    /// std::mt19937_64(seed), least significant byte first (a byte tensor takes 8 elements from
    /// each draw, not one: generating a 64 MiB input costs 8 M draws instead of 64 M). A float
    /// dtype is refused (std::invalid_argument): random bits there would include NaNs.
    static Tensor random_bits(DType dtype, std::vector<std::int64_t> shape, std::uint64_t seed);
};

/// Tensors by argument name (a design's inputs, or its expected outputs).
using Tensors = std::map<std::string, Tensor>;
/// tensors("a", ta, "b", Tensor::from(shape, b)): Tensors{{"a", ta}, {"b", ...}} without its
/// copies. A braced list copies every tensor into the map once more (an initializer_list holds
/// const elements), which for a large design costs the memory of its tensors; here each is moved
/// in (pass std::move(ta) for a named one). Names must differ: the first of two equal ones is kept.
template <class... More>
Tensors tensors(std::string name, Tensor tensor, More&&... more);
/// tensors.at(name) with a readable error (std::invalid_argument naming the missing tensor).
const Tensor& get(const Tensors& tensors, const std::string& name);

/// A host byte vector (as the simulator takes and returns them) as elements of T, and back.
template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b);
template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v);

/// One runtime argument of a design, in the order of the runtime sequence's arguments.
struct ArgSpec {
    std::string name;
    DType dtype = DType::i32;
    std::vector<std::int64_t> shape;
    ArgRole role = ArgRole::input;
    /// Float outputs (f32, bf16) match where |got - want| <= atol + rtol * |want| (numpy.isclose).
    /// Integer outputs are always compared exactly; these are then ignored.
    double rtol = 0;
    double atol = 0;
    /// Elements the design never writes (1 = not compared), flat index; empty: compare all.
    std::vector<std::uint8_t> ignore;

    static ArgSpec input(std::string name, const iron::TensorType& t);
    static ArgSpec inout(std::string name, const iron::TensorType& t, double rtol = 0, double atol = 0);
    /// This argument with elements i where ignored(i) left out of the comparison.
    ArgSpec ignoring(const std::function<bool(std::int64_t)>& ignored) const;
    /// Its contents are given before the run (input, inout).
    bool takes_input() const { return role == ArgRole::input || role == ArgRole::inout; }
    /// Its contents are compared after the run (output, inout).
    bool is_checked() const { return role == ArgRole::output || role == ArgRole::inout; }
    static ArgSpec output(std::string name, const iron::TensorType& t, double rtol = 0, double atol = 0);
    static ArgSpec unused(std::string name, const iron::TensorType& t);

    std::int64_t elements() const { return shape_elements(shape); }
    std::uint64_t bytes() const { return static_cast<std::uint64_t>(elements()) * dtype_bytes(dtype); }
    std::string type_str() const; ///< "i16[4096]"
    bool is_float() const { return dtype_is_float(dtype); }
    bool matches(const Tensor& t) const { return t.dtype == dtype && t.shape == shape; }
};

// ---- templates ----

namespace detail {
[[noreturn]] void throw_tensor_type(std::string_view what, DType have, DType want);
[[noreturn]] void throw_tensor_count(std::size_t values, std::int64_t elements);
inline void add_tensors(Tensors&) {}
template <class... More>
void add_tensors(Tensors& m, std::string name, Tensor t, More&&... more) {
    m.emplace(std::move(name), std::move(t));
    add_tensors(m, std::forward<More>(more)...);
}
} // namespace detail

template <class... More>
Tensors tensors(std::string name, Tensor tensor, More&&... more) {
    static_assert(sizeof...(More) % 2 == 0, "tensors(name, tensor, name, tensor, ...)");
    Tensors m;
    detail::add_tensors(m, std::move(name), std::move(tensor), std::forward<More>(more)...);
    return m;
}

template <class T>
Tensor Tensor::from(std::vector<std::int64_t> shape, const std::vector<T>& values) {
    if (static_cast<std::int64_t>(values.size()) != shape_elements(shape))
        detail::throw_tensor_count(values.size(), shape_elements(shape));
    std::vector<std::uint8_t> b(values.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
    return Tensor(iron::dtype_of<T>(), std::move(shape), std::move(b));
}

template <class T>
std::vector<T> Tensor::values() const {
    if (iron::dtype_of<T>() != dtype) detail::throw_tensor_type("Tensor::values", dtype, iron::dtype_of<T>());
    std::vector<T> v(data.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), data.data(), v.size() * sizeof(T));
    return v;
}

template <class T>
std::vector<T> from_bytes(const std::vector<std::uint8_t>& b) {
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
}

template <class T>
std::vector<std::uint8_t> to_bytes(const std::vector<T>& v) {
    std::vector<std::uint8_t> b(v.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

} // namespace npusim::harness
