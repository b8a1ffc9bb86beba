#include "npusim/frontend/Element.hpp"

#include <fmt/format.h>

namespace npusim::iron {

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
