// The trace hasher of the native build: SHA-256 from OpenSSL's libcrypto.
// The WebAssembly build, which has no libcrypto, uses
// trace_hasher_portable.cpp; tests/sim/trace/sha256_test.cpp proves the two equal.
#include <openssl/evp.h>

#include <fmt/format.h>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

TraceHasher::TraceHasher() : ctx_(EVP_MD_CTX_new()) {
    LS_ASSERT(ctx_ != nullptr);
    pending_.reserve(block_bytes + 1024);
    LS_ASSERT(EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) == 1);
}

TraceHasher::~TraceHasher() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void TraceHasher::flush() {
    auto* ctx = static_cast<EVP_MD_CTX*>(ctx_);
    LS_ASSERT(EVP_DigestUpdate(ctx, pending_.data(), pending_.size()) == 1);
    pending_.clear();
}

void TraceHasher::add_lines(std::string_view lines) {
    LS_ASSERT(lines.empty() || lines.back() == '\n');
    flush();
    LS_ASSERT(EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), lines.data(), lines.size()) == 1);
}

std::string TraceHasher::hex() {
    flush();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    LS_ASSERT(EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &length) == 1);
    std::string out;
    for (unsigned int i = 0; i < length; ++i) fmt::format_to(std::back_inserter(out), "{:02x}", digest[i]);
    return out;
}

}  // namespace leasescope::sim
