#pragma once
// A 128-bit (2x64) hash of a simulation's whole state at a tick boundary,
// fed member by member by each class's hash_into (docs/explorer.md,
// Merging states). Two independent 64-bit lanes: a false merge needs both
// to collide. Not cryptographic; deterministic on every platform (it sees
// values, never pointers or padding).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// The sizes of the classes that feed a StateHasher are pinned beside their
// hash_into where the standard library's own sizes are known (libstdc++ on
// x86-64, as CI builds): a member added later breaks the build until it is
// fed to its hash_into (or said to be left out) and the size pinned again.
#if defined(__GLIBCXX__) && defined(__x86_64__) && !defined(_GLIBCXX_DEBUG)
#define LEASESCOPE_HASH_SIZES_PINNED 1
#else
#define LEASESCOPE_HASH_SIZES_PINNED 0
#endif

namespace leasescope {

class StateHasher {
public:
    struct Digest {
        std::uint64_t high = 0;
        std::uint64_t low = 0;
        bool operator==(const Digest&) const = default;
        bool operator<(const Digest& o) const { return high != o.high ? high < o.high : low < o.low; }
    };

    void add_u64(std::uint64_t v) {
        a_ = mix(a_ ^ v, 0x9e3779b97f4a7c15ULL);
        b_ = mix(b_ + v, 0xc2b2ae3d27d4eb4fULL);
    }
    // Integers, enums and bools by value.
    template <class T>
    void add(T v) {
        static_assert(std::is_integral_v<T> || std::is_enum_v<T>);
        if constexpr (std::is_enum_v<T>) {
            add_u64(static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(v)));
        } else {
            add_u64(static_cast<std::uint64_t>(v));
        }
    }
    // Length first, so that "ab","c" and "a","bc" differ.
    void add(std::string_view s) {
        add_u64(s.size());
        std::uint64_t word = 0;
        std::size_t n = 0;
        for (const char c : s) {
            word = (word << 8) | static_cast<unsigned char>(c);
            if (++n == 8) {
                add_u64(word);
                word = 0;
                n = 0;
            }
        }
        if (n > 0) add_u64(word);
    }
    void add(const std::string& s) { add(std::string_view(s)); }
    template <class T>
    void add(const std::optional<T>& v) {
        add(v.has_value());
        if (v) add(*v);
    }
    Digest digest() const { return {mix(a_, 0xff51afd7ed558ccdULL), mix(b_ ^ (a_ >> 7), 0xc4ceb9fe1a85ec53ULL)}; }

private:
    static std::uint64_t mix(std::uint64_t z, std::uint64_t k) {
        z = (z ^ (z >> 30)) * k;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t a_ = 0x243f6a8885a308d3ULL;
    std::uint64_t b_ = 0x13198a2e03707344ULL;
};

}  // namespace leasescope
