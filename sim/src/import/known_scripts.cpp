// Importing a real history (docs/model.md §19): see sim/include/leasescope/sim/import.hpp.
#include "leasescope/sim/import.hpp"
