// The model store's operations, one at a time: what a tick costs the store.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "leasescope/engine/model_store.hpp"

namespace {

using leasescope::LockConfig;
using leasescope::ModelStore;
using leasescope::Tick;

// An acquire, an extend, a validate and a release of one token, on a lock of
// `range(0)` slots: four operations per iteration.
void BM_StoreCycle(benchmark::State& state) {
    const auto capacity = static_cast<std::int32_t>(state.range(0));
    ModelStore store(LockConfig{"bench", capacity, 1});
    const std::array<std::string, 4> tokens = {"tokenAAA", "tokenBBB", "tokenCCC", "tokenDDD"};
    Tick now = 0;
    for (auto _ : state) {
        const std::string& token = tokens[static_cast<std::size_t>(now % 4)];
        benchmark::DoNotOptimize(store.do_acquire(now, "node", token, 8));
        benchmark::DoNotOptimize(store.do_extend(now, token, 8));
        benchmark::DoNotOptimize(store.do_validate(now, token));
        benchmark::DoNotOptimize(store.do_release(now, token, 0, 0));
        ++now;
    }
    state.SetItemsProcessed(state.iterations() * 4);
}
BENCHMARK(BM_StoreCycle)->Arg(1)->Arg(64);

// Busy replies: every slot is held by someone else.
void BM_StoreAcquireBusy(benchmark::State& state) {
    ModelStore store(LockConfig{"bench", 1, 1});
    store.do_acquire(0, "holder", "holderTK", 1'000'000'000);
    Tick now = 1;
    for (auto _ : state) benchmark::DoNotOptimize(store.do_acquire(now++, "node", "tokenAAA", 8));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreAcquireBusy);

// The expiry phase's scan when nothing expires.
void BM_StoreExpireNothing(benchmark::State& state) {
    const auto capacity = static_cast<std::int32_t>(state.range(0));
    ModelStore store(LockConfig{"bench", capacity, 1});
    std::vector<leasescope::ExpiredRecord> out;
    Tick now = 0;
    for (auto _ : state) {
        out.clear();
        store.do_expire(now++, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StoreExpireNothing)->Arg(1)->Arg(64);

}  // namespace
