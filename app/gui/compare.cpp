// Side by side's run B and its facts at the playhead (compare.hpp).
#include "compare.hpp"

#include "leasescope/sim/scenario.hpp"

namespace leasescope::gui {

bool ComparePair::build_b(const std::string& text, const std::string& file, const std::vector<std::string>& overrides,
                          bool written_back, std::string& error) {
    std::vector<sim::Override> parsed;
    for (const std::string& o : overrides) {
        auto p = sim::parse_override(o);
        if (!p.ok()) {
            error = p.error();
            return false;
        }
        parsed.push_back(std::move(p).value());
    }
    // A scenario written back (a variant of A) names every candidate's options
    // itself, so a `defaults` override is applied to each candidate as well.
    if (written_back) {
        auto plain = sim::parse_scenario(text, file);
        const std::size_t n = plain.ok() ? plain->candidates.size() : 0;
        std::vector<sim::Override> more;
        for (const sim::Override& o : parsed) {
            std::string key = o.path;
            for (char& c : key)
                if (c == '/') c = '.';
            if (key.rfind("defaults.", 0) != 0) continue;
            for (std::size_t i = 0; i < n; ++i)
                more.push_back({"candidates/" + std::to_string(i) + "/" + key.substr(9), o.value});
        }
        parsed.insert(parsed.end(), more.begin(), more.end());
    }
    auto scenario = sim::parse_scenario(text, file, parsed);
    if (!scenario.ok()) {
        error = scenario.error().to_string();
        return false;
    }
    ShownRun run = run_scenario(std::move(scenario).value());
    b_ = std::move(run.timeline);
    lanes_b_ = std::move(run.lanes);
    b_overrides = overrides;
    snap_tick_ = -1;
    a_generation_ = 0;  // the divergence is found again on the next refresh
    words_tick_ = -1;
    ++generation_;
    return true;
}

void ComparePair::refresh(const sim::Timeline& a, std::uint64_t a_generation, Tick playhead, const Strings& strings) {
    if (!b_) return;
    bool changed = false;
    if (a_generation != a_generation_) {
        divergence_ = words::pair_divergence(a.trace(), b_->trace());
        a_generation_ = a_generation;
        changed = true;
    }
    if (snap_tick_ != playhead) {
        snap_b_ = b_->snapshot_at(playhead);
        snap_tick_ = playhead;
    }
    if (changed || words_tick_ != playhead || words_lang_ != strings.lang()) {
        // A replayed history has no scenario whose settings to set beside B's (model.md §19.9).
        words::CompareContext ctx{a.replayed() ? nullptr : &a.scenario(), &b_->scenario(), &a.trace(), &b_->trace(),
                                  playhead};
        sentences_ = words::compare_sentences(ctx, strings);
        words_tick_ = playhead;
        words_lang_ = strings.lang();
    }
}

}  // namespace leasescope::gui
