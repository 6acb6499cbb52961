// The portable SHA-256 (sim/src/trace/sha256.cpp, the WebAssembly build's trace
// hash) gives the bytes OpenSSL's libcrypto gives: the FIPS 180-4 / NIST
// test vectors, random inputs of every length near the block edges fed in
// random pieces, and the trace hash of every preset.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <string>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/sha256.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;

namespace {

std::string openssl_hex(const std::string& bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EXPECT_EQ(EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr), 1);
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += "0123456789abcdef"[digest[i] >> 4];
        out += "0123456789abcdef"[digest[i] & 15];
    }
    return out;
}

std::string portable_hex(const std::string& bytes) {
    sim::Sha256 sha;
    sha.update(bytes);
    return sim::to_hex(sha.finish());
}

}  // namespace

// The published vectors (FIPS 180-4 examples and NIST's short/long messages).
TEST(Sha256, StandardVectors) {
    const std::vector<std::pair<std::string, std::string>> vectors = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqr"
         "stu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
        {std::string(1000000, 'a'), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    for (const auto& [input, expected] : vectors) {
        EXPECT_EQ(portable_hex(input), expected) << input.size() << " bytes";
        EXPECT_EQ(openssl_hex(input), expected) << input.size() << " bytes";
    }
}

// Random bytes of every length from 0 to 300 (every padding case around the
// 56- and 64-byte edges) and some long ones, fed whole and in random pieces.
TEST(Sha256, EqualsOpenSslOnRandomInputs) {
    SplitMix64 rng(20261201);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
    for (int i = 0; i < 40; ++i) lengths.push_back(static_cast<std::size_t>(rng.next() % 100000));
    for (std::size_t n : lengths) {
        std::string bytes(n, '\0');
        for (auto& c : bytes) c = static_cast<char>(rng.next() & 0xff);
        const std::string expected = openssl_hex(bytes);
        EXPECT_EQ(portable_hex(bytes), expected) << n << " bytes";
        sim::Sha256 pieces;
        std::size_t at = 0;
        while (at < n) {
            const std::size_t take = std::min<std::size_t>(n - at, 1 + rng.next() % 150);
            pieces.update(bytes.data() + at, take);
            at += take;
        }
        EXPECT_EQ(sim::to_hex(pieces.finish()), expected) << n << " bytes in pieces";
    }
}

// Every preset's trace_sha256 (whichever hasher this build uses) is the
// portable SHA-256 of its event lines: the browser computes the same.
TEST(Sha256, PresetTraceHashesEqualPortable) {
    int presets = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        const sim::Trace t = sim::simulate(test::load_preset(entry.path().stem().string()));
        sim::Sha256 sha;
        for (const sim::Event& e : t.events) {
            sha.update(sim::event_line(e));
            sha.update("\n", 1);
        }
        EXPECT_EQ(sim::to_hex(sha.finish()), t.summary.trace_sha256) << entry.path();
        ++presets;
    }
    EXPECT_GE(presets, 10);
}
