#include "npusim/frontend/Element.hpp"
#include "npusim/model/CoreServices.hpp"

#include <fmt/format.h>

namespace npusim::iron {

void detail::charge_element_access() {
    if (auto* s = model::CoreServices::current()) s->element_access();
}

void Element::throw_empty() { throw DesignError("use of an empty element view"); }

void Element::check_dtype(DType want) const {
    if (!data_ || !type_) throw_empty();
    if (want != type_->dtype)
        throw DesignError(
            fmt::format("'{}': element of type {} accessed as {}", *owner_, type_->str(), model::dtype_name(want)));
}

void Element::check_index(std::int64_t i) const {
    if (i < 0 || i >= elements())
        throw DesignError(fmt::format("'{}': index {} out of range for element of type {}", *owner_, i, type_->str()));
}

std::int64_t Element::flat_index(std::span<const std::int64_t> idx) const {
    const auto& shape = type_->shape;
    auto text = [](auto&& xs) {
        std::string s;
        for (auto x : xs) s += (s.empty() ? "" : ",") + std::to_string(x);
        return "(" + s + ")";
    };
    if (idx.size() != shape.size())
        throw DesignError(fmt::format("'{}': {} indices {} for an element of type {} with {} dimension(s)", *owner_,
                                      idx.size(), text(idx), type_->str(), shape.size()));
    std::int64_t flat = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) {
        if (idx[d] < 0 || idx[d] >= shape[d])
            throw DesignError(fmt::format("'{}': index {} is outside the shape {} of element type {}", *owner_,
                                          text(idx), text(shape), type_->str()));
        flat = flat * shape[d] + idx[d];
    }
    return flat;
}

const Element& ElementGroup::operator[](std::size_t i) const {
    if (n_ == 0) throw DesignError(fmt::format("use of an empty ElementGroup (nothing acquired): index {}", i));
    if (i >= n_)
        throw DesignError(fmt::format("'{}': index {} out of range: {} elements acquired", elems()[0].owner(), i, n_));
    return elems()[i];
}

const Element& ElementGroup::single() const {
    if (n_ == 0) throw DesignError("use of an empty ElementGroup (nothing acquired)");
    if (n_ != 1)
        throw DesignError(fmt::format("'{}': {} elements were acquired; index them with [i]", elems()[0].owner(), n_));
    return elems()[0];
}

} // namespace npusim::iron
