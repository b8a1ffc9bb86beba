#pragma once
// The catalog of hanging designs (deadlock_*, docs/deadlocks.md): each models a hang users report
// on the NPU, in one file, with the output it would produce if it did not hang. What they share:
// objects of 16 i32 words, one input argument "in" (seeded values) and one output "out", a worker
// body that copies one object, and the reference "out = the objects the design would copy".
#include "Design.hpp"

#include <functional>

namespace npusim::examples::hang {

using namespace npusim::iron;

inline constexpr std::int64_t kWords = 16; ///< i32 words per fifo object

inline TensorType object_type() { return tensor<std::int32_t>({kWords}); }
inline TensorType objects_type(std::int64_t n) { return tensor<std::int32_t>({kWords * n}); }

/// Copy the values of one object into another, value by value in the core body, as IRON writes it
/// (`for i in range_(n): y[i] = x[i]`: memref.load / memref.store in an scf.for; each access costs
/// core_element_access_cycles).
template <class From, class To>
void copy_words(const From& from, const To& to) {
    range_(from.elements(), [&](std::int64_t i) { to.template at<std::int32_t>(i) = from.template at<std::int32_t>(i); });
}

/// Copy one object of `in` into one object of `out` (acquire both, copy, release both).
inline void copy_one(ObjectFifoHandle in, ObjectFifoHandle out) {
    auto x = in.acquire(1);
    auto y = out.acquire(1);
    copy_words(x, y);
    in.release(1);
    out.release(1);
}

/// A catalog design's spec: runs on every device, has no kernel, lists after the working designs.
inline DesignSpec catalog_spec(std::string name, std::string description) {
    DesignSpec s;
    s.name = std::move(name);
    s.description = std::move(description);
    s.devices = every_device();
    s.kernels_note = "no kernel: the worker bodies copy objects (a hanging design of the deadlock catalog)";
    return s;
}

/// The instance of a catalog design with input "in" (`in_objects` objects, seeded) and output
/// "out" (`out_objects` objects): out object k = in object `source(k)`, the copy the design makes.
inline DesignInstance catalog_instance(Program p, std::int64_t in_objects, std::int64_t out_objects,
                                       std::function<std::int64_t(std::int64_t)> source, std::uint64_t seed,
                                       const std::string& name) {
    const auto in_ty = objects_type(in_objects), out_ty = objects_type(out_objects);
    std::mt19937_64 rng(seed);
    std::vector<std::int32_t> in(static_cast<std::size_t>(kWords * in_objects));
    for (auto& v : in) v = static_cast<std::int32_t>(rng());
    auto reference = [source, out_objects, out_shape = out_ty.shape](const Tensors& t) {
        const auto x = get(t, "in").values<std::int32_t>();
        std::vector<std::int32_t> y(static_cast<std::size_t>(kWords * out_objects));
        for (std::int64_t k = 0; k < out_objects; ++k)
            std::copy_n(x.begin() + source(k) * kWords, kWords, y.begin() + k * kWords);
        return tensors("out", Tensor::from(out_shape, y));
    };
    return DesignInstance(std::move(p), {ArgSpec::input("in", in_ty), ArgSpec::output("out", out_ty)},
                          tensors("in", Tensor::from(in_ty.shape, in)), reference, name);
}

/// The usual sequence: fill all of "in", drain all of "out" and wait for it.
inline auto fill_then_drain() {
    return [](RuntimeData a, RuntimeData b, ObjectFifoHandle i, ObjectFifoHandle o) {
        i.fill(a);
        o.drain(b, {.wait = true});
    };
}

} // namespace npusim::examples::hang
