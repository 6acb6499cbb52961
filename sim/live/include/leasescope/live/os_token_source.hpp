#pragma once
// Live tokens: 22 random Base58 characters from the operating system, as the
// library draws them. The simulated token is ignored (the simulator has
// already drawn it, so shuffles stay the same as in the model).
#include <random>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::live {

inline constexpr std::size_t live_token_length = 22;

class OsTokenSource final : public sim::TokenSource {
public:
    Token next_token(const Token& simulated) override;

private:
    std::random_device device_;
};

}  // namespace leasescope::live
