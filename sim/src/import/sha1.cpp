// SHA-1 (FIPS 180-4 §6.1) of a script body, as Redis's SCRIPT LOAD answers it
// (docs/model.md §19.3.3): pure C++, no OpenSSL, so the browser build links it
// too. Not used for anything that needs a secure hash: it names scripts.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import {
namespace {

constexpr std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// One 64-byte block into the five words of the state (FIPS 180-4 §6.1.2).
void sha1_block(std::array<std::uint32_t, 5>& h, const unsigned char* block) {
    std::array<std::uint32_t, 80> w{};
    for (int t = 0; t < 16; ++t) {
        w[t] = (std::uint32_t{block[4 * t]} << 24) | (std::uint32_t{block[4 * t + 1]} << 16) |
               (std::uint32_t{block[4 * t + 2]} << 8) | std::uint32_t{block[4 * t + 3]};
    }
    for (int t = 16; t < 80; ++t) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; ++t) {
        std::uint32_t f = 0;
        std::uint32_t k = 0;
        if (t < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999u;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1u;
        } else if (t < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdcu;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6u;
        }
        const std::uint32_t temp = rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = temp;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

}  // namespace

std::string sha1_hex(std::string_view bytes) {
    std::array<std::uint32_t, 5> h{0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u};
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t full = bytes.size() / 64;
    for (std::size_t i = 0; i < full; ++i) sha1_block(h, data + 64 * i);
    // The padding (§5.1.1): 0x80, zeros, the length in bits as 64 big-endian bits.
    std::array<unsigned char, 128> tail{};
    const std::size_t rest = bytes.size() % 64;
    for (std::size_t i = 0; i < rest; ++i) tail[i] = data[64 * full + i];
    tail[rest] = 0x80;
    const std::size_t tail_size = rest < 56 ? 64 : 128;
    const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8u;
    for (int i = 0; i < 8; ++i) tail[tail_size - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    sha1_block(h, tail.data());
    if (tail_size == 128) sha1_block(h, tail.data() + 64);
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(40);
    for (std::uint32_t word : h) {
        for (int shift = 28; shift >= 0; shift -= 4) out.push_back(digits[(word >> shift) & 0xfu]);
    }
    return out;
}

}  // namespace leasescope::sim::import
