#pragma once
// Typed views of fifo elements and buffers in tile memory, as a worker body sees them.
#include "npusim/frontend/TensorType.hpp"
#include "npusim/model/Error.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace npusim::iron {

class Element;

namespace detail {
/// Told of every typed access a worker body makes to element or buffer memory while the body is
/// exported (the MLIR exporter's BodyRecorder emits memref.load / memref.store for them); null
/// otherwise, so simulation pays one thread-local load per access.
class ElementAccessObserver {
public:
    virtual ~ElementAccessObserver() = default;
    virtual void viewed(const Element& e) = 0; ///< as<T>(): a span over the whole element
    virtual void indexed(const Element& e, std::int64_t flat) = 0; ///< at<T>(...): one value
};
inline thread_local ElementAccessObserver* element_access_observer = nullptr;
/// An at<T> access outside an export: charged to the body's core (CoreServices::element_access),
/// nothing outside a worker body.
void charge_element_access();
} // namespace detail

/// One object of a fifo (or a Buffer), living in tile memory.
class Element {
public:
    Element() = default;
    Element(std::byte* data, const TensorType* type, const std::string* owner)
        : data_(data), type_(type), owner_(owner) {}

    std::byte* data() const { return data_; }
    const TensorType& type() const {
        if (!type_) throw_empty();
        return *type_;
    }
    /// The fifo or buffer name.
    const std::string& owner() const {
        if (!owner_) throw_empty();
        return *owner_;
    }
    std::int64_t elements() const { return type().elements(); }
    std::uint64_t bytes() const { return type().bytes(); }

    /// The element's values as T (T must match the element type).
    template <class T>
    std::span<T> as() const {
        check_dtype(dtype_of<T>());
        if (detail::element_access_observer) [[unlikely]]
            detail::element_access_observer->viewed(*this);
        return {reinterpret_cast<T*>(data_), static_cast<std::size_t>(elements())};
    }
    /// Value i as T (bounds checked).
    template <class T>
    T& at(std::int64_t i) const {
        check_dtype(dtype_of<T>());
        check_index(i);
        if (detail::element_access_observer) [[unlikely]]
            detail::element_access_observer->indexed(*this, i);
        else
            detail::charge_element_access();
        return reinterpret_cast<T*>(data_)[i];
    }
    /// Value (i, j, ...) of a multi-dimensional element as T, row-major over its shape, as IRON's
    /// `elem[i, j]` (one index per dimension, each bounds checked).
    template <class T, class... I>
    T& at(std::int64_t i, std::int64_t j, I... rest) const requires(std::is_integral_v<I>&&...) {
        check_dtype(dtype_of<T>());
        const std::array<std::int64_t, 2 + sizeof...(I)> idx{i, j, static_cast<std::int64_t>(rest)...};
        const std::int64_t flat = flat_index(idx);
        if (detail::element_access_observer) [[unlikely]]
            detail::element_access_observer->indexed(*this, flat);
        else
            detail::charge_element_access();
        return reinterpret_cast<T*>(data_)[flat];
    }

private:
    std::int64_t flat_index(std::span<const std::int64_t> idx) const;
    [[noreturn]] static void throw_empty(); ///< DesignError: a default-constructed view
    void check_dtype(DType want) const;
    void check_index(std::int64_t i) const;
    std::byte* data_ = nullptr;
    const TensorType* type_ = nullptr;
    const std::string* owner_ = nullptr;
};

/// The result of acquire(n): n elements, oldest first. With n == 1 it also behaves as that one
/// element (IRON returns the element itself for acquire(1)).
class ElementGroup {
public:
    ElementGroup() = default;
    /// n elements (at most kInline without a heap allocation: acquire is on the hot path).
    void push_back(const Element& e) {
        if (n_ < kInline)
            inline_[n_] = e;
        else {
            if (n_ == kInline) overflow_.assign(inline_.begin(), inline_.end());
            overflow_.push_back(e);
        }
        ++n_;
    }

    std::size_t size() const { return n_; }
    const Element& operator[](std::size_t i) const;
    operator const Element&() const { return single(); } // NOLINT: acquire(1) is the element

    template <class T>
    std::span<T> as() const {
        return single().as<T>();
    }
    template <class T>
    T& at(std::int64_t i) const {
        return single().at<T>(i);
    }
    template <class T, class... I>
    T& at(std::int64_t i, std::int64_t j, I... rest) const requires(std::is_integral_v<I>&&...) {
        return single().at<T>(i, j, rest...);
    }
    std::byte* data() const { return single().data(); }
    std::int64_t elements() const { return single().elements(); }
    const Element& single() const;

private:
    static constexpr std::size_t kInline = 4;
    const Element* elems() const { return n_ <= kInline ? inline_.data() : overflow_.data(); }
    std::array<Element, kInline> inline_{};
    std::vector<Element> overflow_;
    std::size_t n_ = 0;
};

} // namespace npusim::iron
