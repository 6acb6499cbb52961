// libFuzzer target: see fuzz_entry.hpp (override_one_input) for what it checks.
#include "fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return leasescope::fuzz::override_one_input(data, size);
}
