// The scripts the importer knows (docs/model.md §19.3.3): sha1_hex gives the
// FIPS 180-4 vectors, OpenSSL's SHA-1 on random inputs, and what a real
// redis-server's SCRIPT LOAD answered for every known body; normalize_script
// collapses whitespace; the table holds our store's seven scripts as the store
// loads them, with lines that still point at their definitions.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/redis/script_calls.hpp"
#include "leasescope/sim/import.hpp"
#include "support/capture_generator.hpp"

using namespace leasescope;
namespace imp = leasescope::sim::import;

namespace {

std::string openssl_sha1_hex(const std::string& bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EXPECT_EQ(EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha1(), nullptr), 1);
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += "0123456789abcdef"[digest[i] >> 4];
        out += "0123456789abcdef"[digest[i] & 15];
    }
    return out;
}

// Bytes as redis-cli monitor shows an argument (Redis's sdscatrepr), for
// finding a body in a capture without the capture reader: the test
// generator's own writer, independent of the importer's redis_repr.
std::string monitor_repr(std::string_view bytes) { return capture_gen::repr(bytes); }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << path;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const imp::KnownScript* find_script(std::string_view library, std::string_view name) {
    for (const auto& s : imp::known_scripts()) {
        if (s.library == library && s.name == name) return &s;
    }
    return nullptr;
}

}  // namespace

// The published vectors (FIPS 180-4 examples, NIST's short and long messages).
TEST(ImportSha1, StandardVectors) {
    const std::vector<std::pair<std::string, std::string>> vectors = {
        {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
        {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqr"
         "stu",
         "a49b2446a02c645bf419f995b67091253a04a259"},
        {std::string(1000000, 'a'), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
    };
    for (const auto& [input, expected] : vectors) {
        EXPECT_EQ(imp::sha1_hex(input), expected) << input.size() << " bytes";
        EXPECT_EQ(openssl_sha1_hex(input), expected) << input.size() << " bytes";
    }
}

// Random bytes of every length from 0 to 300 (every padding case around the
// 56- and 64-byte edges) and some long ones, zero and high bytes included.
TEST(ImportSha1, EqualsOpenSslOnRandomInputs) {
    SplitMix64 rng(20261204);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
    for (int i = 0; i < 20; ++i) lengths.push_back(static_cast<std::size_t>(rng.next() % 100000));
    for (std::size_t n : lengths) {
        std::string bytes(n, '\0');
        for (auto& c : bytes) c = static_cast<char>(rng.next() & 0xff);
        EXPECT_EQ(imp::sha1_hex(bytes), openssl_sha1_hex(bytes)) << n << " bytes";
    }
}

// What redis-server 7.0.15's SCRIPT LOAD answered for each known body
// (tests/data/import/make_client_captures.sh prints the same answers from a
// live server; the live test import.client_captures compares them again).
// A changed byte of a body, or a wrong hash, fails here.
TEST(ImportKnownScripts, ShaIsWhatScriptLoadAnswered) {
    const std::map<std::pair<std::string, std::string>, std::string> loaded = {
        {{"leasescope", "acquire"}, "2f404dcb511c2e101ca4927bad7ebad16590430b"},
        {{"leasescope", "extend"}, "3fb426f291feb8450b00164d2931d58812507548"},
        {{"leasescope", "release"}, "0d9f3b7aff1d0f42f8a21549f36ae509818822ab"},
        {{"leasescope", "status"}, "43ceecfee04ea38d422feb066318e518968b66a0"},
        {{"leasescope", "validate"}, "892d8e653dfa17944043b58ae577e8be5f4ce7fa"},
        {{"leasescope", "expire"}, "7764d7c5fa6d3481cd0283eebb8c80e9cb4cdc87"},
        {{"leasescope", "failover"}, "7d84d0576fb151c7d2ba0131d2d864cfaa7a697e"},
        {{"kotlin-elector", "UNLOCK_SCRIPT"}, "1b396ca304685fcb9d1c5b97cb01e7cc0ab9b717"},
        {{"kotlin-elector", "EXTEND_SCRIPT"}, "fa233160fc2c2841102972fe687834cd569f2a04"},
        {{"redisson", "tryLockInnerAsync"}, "149c5a8bf18676fd99e9e6e24923bd64d9b62f94"},
        {{"redisson", "unlockInnerAsync"}, "6866459238a13a701d42f4971f12d9f3a50e2442"},
        {{"redisson", "renewExpirationAsync"}, "8e19a1ddbdee9138df9f32a480c57addab4353d1"},
        {{"redisson", "forceUnlockAsync"}, "605e338249a7a1d40df83b04f7658354f883b41b"},
    };
    ASSERT_EQ(loaded.size(), imp::known_scripts().size());
    for (const auto& s : imp::known_scripts()) {
        const auto it = loaded.find({std::string(s.library), std::string(s.name)});
        ASSERT_NE(it, loaded.end()) << s.library << " " << s.name;
        EXPECT_EQ(imp::sha1_hex(s.body), it->second) << s.library << " " << s.name;
    }
}

// Every run of whitespace is one space, and none is left at either end.
TEST(ImportKnownScripts, NormalizeCollapsesWhitespace) {
    EXPECT_EQ(imp::normalize_script(""), "");
    EXPECT_EQ(imp::normalize_script(" \n\t "), "");
    EXPECT_EQ(imp::normalize_script("\nif a then\r\n  return 1\n\tend\n"), "if a then return 1 end");
    EXPECT_EQ(imp::normalize_script("a  \v\f b"), "a b");
    EXPECT_EQ(imp::normalize_script("'x  y'"), "'x y'");  // inside a string too: the rule is on bytes
    const imp::KnownScript* extend = find_script("kotlin-elector", "EXTEND_SCRIPT");
    ASSERT_NE(extend, nullptr);
    EXPECT_EQ(imp::normalize_script(extend->body),
              "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else "
              "return 0 end");
}

// No two known scripts are the same after normalising (a body names one
// script), and each names an operation's positions that exist.
TEST(ImportKnownScripts, BodiesAreDistinctAndPositionsSane) {
    std::set<std::string> seen;
    for (const auto& s : imp::known_scripts()) {
        EXPECT_TRUE(seen.insert(imp::normalize_script(s.body)).second) << s.library << " " << s.name;
        EXPECT_FALSE(s.source.empty());
        EXPECT_GE(s.token_argv, 0);
        EXPECT_GE(s.lock_keys, 0);
        if (s.op == imp::ScriptOp::acquire || s.op == imp::ScriptOp::extend) {
            EXPECT_GT(s.lease_argv, 0) << s.name;
        }
    }
    EXPECT_EQ(seen.size(), imp::known_scripts().size());
}

// Our store's seven scripts are the bytes the store loads (script_source),
// with the ARGV positions script_calls.cpp builds, and each `source` line is
// still the line that defines that script in lua_scripts.cpp.
TEST(ImportKnownScripts, OwnStoreScriptsAreTheStores) {
    std::vector<std::string> lines;
    {
        std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/engine/redis/src/lua_scripts.cpp");
        ASSERT_TRUE(in);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    for (redis::ScriptId id : redis::all_scripts) {
        const imp::KnownScript* s = find_script("leasescope", redis::script_name(id));
        ASSERT_NE(s, nullptr) << redis::script_name(id);
        EXPECT_EQ(s->body, redis::script_source(id));
        EXPECT_EQ(s->lock_keys, 0);  // the slots, the counter and the hold-off
        const std::string_view prefix = "engine/redis/src/lua_scripts.cpp:";
        ASSERT_EQ(s->source.substr(0, prefix.size()), prefix);
        const std::size_t line = std::stoul(std::string(s->source.substr(prefix.size())));
        ASSERT_LE(line, lines.size());
        EXPECT_EQ(lines[line - 1], "const std::string_view " + std::string(redis::script_name(id)) + " = R\"lua(");
    }
    // ARGV as acquire_call builds them: owner, token, lease_ms, counter's initial value.
    const auto call = redis::acquire_call("n1", "tok", 3, 100, 1);
    const imp::KnownScript* acquire = find_script("leasescope", "acquire");
    ASSERT_NE(acquire, nullptr);
    EXPECT_EQ(call.args[acquire->owner_argv - 1], "n1");
    EXPECT_EQ(call.args[acquire->token_argv - 1], "tok");
    EXPECT_EQ(call.args[acquire->lease_argv - 1], "250");  // ttl_ms_for(3, 100)
    const auto extend = redis::extend_call("tok", 2, 100);
    const imp::KnownScript* ext = find_script("leasescope", "extend");
    ASSERT_NE(ext, nullptr);
    EXPECT_EQ(extend.args[ext->token_argv - 1], "tok");
    EXPECT_EQ(extend.args[ext->lease_argv - 1], "150");  // ttl_ms_for(2, 100)
}

// The committed real captures (tests/data/import/make_client_captures.sh)
// carry the table's bytes: every Redisson and Kotlin body as an EVAL's
// argument, and the Kotlin client's EVALSHA names the table's SHA-1. A body
// changed in the table or in the script that made the captures fails here.
TEST(ImportKnownScripts, CommittedCapturesCarryTheKnownBodies) {
    const std::string dir = std::string(LEASESCOPE_SOURCE_DIR) + "/tests/data/import/";
    const std::map<std::string_view, std::string> captures = {
        {"kotlin-elector", read_text(dir + "kotlin-elector.monitor")},
        {"redisson", read_text(dir + "redisson.monitor")},
    };
    int found = 0;
    for (const auto& s : imp::known_scripts()) {
        const auto it = captures.find(s.library);
        if (it == captures.end()) continue;
        ++found;
        const std::string eval = "\"EVAL\" \"" + monitor_repr(s.body) + "\" ";
        EXPECT_NE(it->second.find(eval), std::string::npos) << s.library << " " << s.name;
        if (s.library == "kotlin-elector") {
            const std::string evalsha = "\"EVALSHA\" \"" + imp::sha1_hex(s.body) + "\" ";
            EXPECT_NE(it->second.find(evalsha), std::string::npos) << s.name;
        }
    }
    EXPECT_EQ(found, 6);
}
