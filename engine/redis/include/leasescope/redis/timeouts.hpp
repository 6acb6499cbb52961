#pragma once
// Timeouts of a Redis connection. A header of its own, without hiredis, so
// that callers of the live driver (the GUI) need no hiredis headers.
#include <cstdint>

namespace leasescope::redis {

struct Timeouts {
    std::int64_t connect_ms = 2000;
    // Every command: a server that stops answering is a dead connection after this.
    std::int64_t command_ms = 2000;
};

}  // namespace leasescope::redis
