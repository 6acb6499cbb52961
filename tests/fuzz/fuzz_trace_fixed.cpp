// libFuzzer target: see fuzz_entry.hpp (trace_fixed_one_input) for what it builds and checks.
#include "fuzz_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return leasescope::fuzz::trace_fixed_one_input(data, size);
}
