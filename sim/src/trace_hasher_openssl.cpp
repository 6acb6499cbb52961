// The trace hasher of the native build: SHA-256 from OpenSSL's libcrypto.
// The WebAssembly build, which has no libcrypto, uses
// trace_hasher_portable.cpp; tests/sha256_test.cpp proves the two equal.
#include <openssl/evp.h>

#include <fmt/format.h>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

TraceHasher::TraceHasher() : ctx_(EVP_MD_CTX_new()) {
    LS_ASSERT(ctx_ != nullptr);
    LS_ASSERT(EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) == 1);
}

TraceHasher::~TraceHasher() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void TraceHasher::add_line(std::string_view line) {
    auto* ctx = static_cast<EVP_MD_CTX*>(ctx_);
    LS_ASSERT(EVP_DigestUpdate(ctx, line.data(), line.size()) == 1);
    LS_ASSERT(EVP_DigestUpdate(ctx, "\n", 1) == 1);
}

std::string TraceHasher::hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    LS_ASSERT(EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &length) == 1);
    std::string out;
    for (unsigned int i = 0; i < length; ++i) fmt::format_to(std::back_inserter(out), "{:02x}", digest[i]);
    return out;
}

}  // namespace leasescope::sim
