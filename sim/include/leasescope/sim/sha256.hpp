#pragma once
// SHA-256 (FIPS 180-4) in portable C++, for builds without OpenSSL's
// libcrypto (the WebAssembly build). The native build hashes traces with
// libcrypto; tests/sim/trace/sha256_test.cpp proves this one equal to it on the
// standard test vectors and on random inputs split at random points.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace leasescope::sim {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    // Finishes and returns the digest; the object is spent afterwards.
    std::array<std::uint8_t, 32> finish();

private:
    void compress(const std::uint8_t* block);
    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t length_bytes_ = 0;
    bool finished_ = false;
};

// Lower-case hex of a digest.
std::string to_hex(const std::array<std::uint8_t, 32>& digest);

}  // namespace leasescope::sim
