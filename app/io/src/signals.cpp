// The registry of temporary files removed when SIGINT or SIGTERM ends the
// process (signals.hpp).
#include "leasescope/io/signals.hpp"

#include <initializer_list>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstring>

#include <unistd.h>

namespace leasescope::io {
namespace {

// A slot is free (0), being filled (1) or holds a path to remove (2). The
// handler reads only slots in state 2, whose path no longer changes.
constexpr int slots_max = 16;
struct Slot {
    std::atomic<int> state{0};
    char path[PATH_MAX] = {};
};
Slot slots[slots_max];  // NOLINT: a signal handler can only reach a global

extern "C" void on_terminating_signal(int signal_number) {
    remove_temporaries_now();
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

}  // namespace

int register_temporary(const char* path) {
    const std::size_t length = std::strlen(path);
    if (length >= PATH_MAX) return -1;
    for (int i = 0; i < slots_max; ++i) {
        int expected = 0;
        if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(slots[i].path, path, length + 1);
        slots[i].state.store(2);
        return i;
    }
    return -1;
}

void unregister_temporary(int slot) {
    if (slot < 0 || slot >= slots_max) return;
    slots[slot].state.store(0);
}

void remove_temporaries_now() {
    for (Slot& s : slots) {
        if (s.state.load() == 2) ::unlink(s.path);
    }
}

void install_cleanup_on_signals() {
    for (const int signal_number : {SIGINT, SIGTERM}) {
        struct sigaction action = {};
        action.sa_handler = on_terminating_signal;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal_number, &action, nullptr);
    }
}

}  // namespace leasescope::io
