#pragma once
// A small Result<T, E>: GCC 12 and Clang 14 in C++20 have no std::expected.
#include <utility>
#include <variant>

#include "leasescope/engine/assert.hpp"

namespace leasescope {

template <class E>
struct Err {
    E error;
};
template <class E>
Err(E) -> Err<E>;

template <class T, class E>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Result(Err<E> err) : v_(std::in_place_index<1>, std::move(err.error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        LS_ASSERT(ok());
        return std::get<0>(v_);
    }
    const T& value() const& {
        LS_ASSERT(ok());
        return std::get<0>(v_);
    }
    T&& value() && {
        LS_ASSERT(ok());
        return std::get<0>(std::move(v_));
    }
    const E& error() const {
        LS_ASSERT(!ok());
        return std::get<1>(v_);
    }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }

private:
    std::variant<T, E> v_;
};

struct Unit {};

}  // namespace leasescope
