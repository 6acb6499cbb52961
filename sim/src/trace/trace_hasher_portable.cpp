// The trace hasher of builds without OpenSSL's libcrypto (WebAssembly):
// the portable SHA-256 of sha256.cpp, proven equal to libcrypto's by
// tests/sim/trace/sha256_test.cpp, so a trace hashes the same in the browser.
#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/sha256.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

TraceHasher::TraceHasher() : ctx_(new Sha256()) { pending_.reserve(block_bytes + 1024); }

TraceHasher::~TraceHasher() { delete static_cast<Sha256*>(ctx_); }

void TraceHasher::flush() {
    static_cast<Sha256*>(ctx_)->update(pending_);
    pending_.clear();
}

void TraceHasher::add_lines(std::string_view lines) {
    LS_ASSERT(lines.empty() || lines.back() == '\n');
    flush();
    static_cast<Sha256*>(ctx_)->update(lines);
}

std::string TraceHasher::hex() {
    flush();
    return to_hex(static_cast<Sha256*>(ctx_)->finish());
}

}  // namespace leasescope::sim
