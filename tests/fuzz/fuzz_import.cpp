// libFuzzer target: see fuzz_import_entry.hpp (import_one_input) for what it checks.
#include "fuzz_import_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return leasescope::fuzz::import_one_input(data, size);
}
