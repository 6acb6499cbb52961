#pragma once
// splitmix64 and Base58 tokens (docs/model.md §10). The generator is a value passed
// explicitly; draws happen only for tokens and shuffles, in processing order.
#include <cstdint>
#include <string>
#include <string_view>

namespace leasescope {

inline constexpr std::string_view base58_alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
static_assert(base58_alphabet.size() == 58);

inline constexpr std::size_t sim_token_length = 8;

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint64_t state() const { return state_; }

private:
    std::uint64_t state_;
};

// One token: each character alphabet[next() % 58].
inline std::string draw_token(SplitMix64& rng, std::size_t length = sim_token_length) {
    if (length == sim_token_length) {
        // The usual length, with a fixed count the compiler unrolls: one
        // token per run start, so this is on the simulator's hot path.
        char drawn[sim_token_length];
        for (char& c : drawn) c = base58_alphabet[rng.next() % base58_alphabet.size()];
        return std::string(drawn, sim_token_length);
    }
    std::string token(length, '?');
    for (auto& c : token) c = base58_alphabet[rng.next() % base58_alphabet.size()];
    return token;
}

}  // namespace leasescope
