#pragma once
// Vector iterators: begin_vector / begin_restrict_vector / cbegin_vector (and their _restrict forms).
// Dereferencing views the memory at the iterator as an aie::vector<T, N> (a reference, as in the AIE
// API), so `*it++ = v` stores and `v = *it++` loads.
#include <iterator>

#include "vector.hpp"

namespace aie {

template <typename T, unsigned N>
class vector_iterator {
    using elem = std::remove_const_t<T>;
    using vec = vector<elem, N>;
    static_assert(sizeof(vec) == sizeof(elem) * N && alignof(vec) == alignof(elem), "aie::vector layout");

public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = vec;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<std::is_const_v<T>, const vec*, vec*>;
    using reference = std::conditional_t<std::is_const_v<T>, const vec&, vec&>;

    constexpr vector_iterator() = default;
    explicit vector_iterator(T* p) : p_(p) {}

    reference operator*() const { return *reinterpret_cast<pointer>(p_); }
    pointer operator->() const { return reinterpret_cast<pointer>(p_); }
    reference operator[](difference_type i) const { return *reinterpret_cast<pointer>(p_ + i * N); }

    vector_iterator& operator++() {
        p_ += N;
        return *this;
    }
    vector_iterator operator++(int) {
        vector_iterator t = *this;
        p_ += N;
        return t;
    }
    vector_iterator& operator--() {
        p_ -= N;
        return *this;
    }
    vector_iterator operator--(int) {
        vector_iterator t = *this;
        p_ -= N;
        return t;
    }
    vector_iterator& operator+=(difference_type d) {
        p_ += d * static_cast<difference_type>(N);
        return *this;
    }
    vector_iterator& operator-=(difference_type d) {
        p_ -= d * static_cast<difference_type>(N);
        return *this;
    }
    friend vector_iterator operator+(vector_iterator it, difference_type d) { return it += d; }
    friend vector_iterator operator+(difference_type d, vector_iterator it) { return it += d; }
    friend vector_iterator operator-(vector_iterator it, difference_type d) { return it -= d; }
    friend difference_type operator-(const vector_iterator& a, const vector_iterator& b) {
        return (a.p_ - b.p_) / static_cast<difference_type>(N);
    }
    friend bool operator==(const vector_iterator& a, const vector_iterator& b) { return a.p_ == b.p_; }
    friend auto operator<=>(const vector_iterator& a, const vector_iterator& b) { return a.p_ <=> b.p_; }

    T* ptr() const { return p_; }

private:
    T* p_ = nullptr;
};

template <unsigned N, typename T>
inline vector_iterator<T, N> begin_vector(T* p) {
    return vector_iterator<T, N>(p);
}
template <unsigned N, typename T>
inline vector_iterator<T, N> begin_restrict_vector(T* p) {
    return vector_iterator<T, N>(p);
}
template <unsigned N, typename T>
inline vector_iterator<const T, N> cbegin_vector(const T* p) {
    return vector_iterator<const T, N>(p);
}
template <unsigned N, typename T>
inline vector_iterator<const T, N> cbegin_restrict_vector(const T* p) {
    return vector_iterator<const T, N>(p);
}

// Scalar iterators over a vector's elements are plain pointers (vector::begin()/end()).

} // namespace aie
