// The invariants of §9 on an imported history (docs/model.md §19.7.4), with
// the simulator's definitions (Simulation::judge_write and issue in
// sim/src/simulation/): an acquisition's fencing against every number issued
// before (§9.4, §9.8), and a write, judged by what the log says the resource
// did, against the record and the writes accepted before (§8, §9.3, §9.6,
// §9.7); a Redisson lock's writes as its run judges them (§21.6, rule
// 19.7.4). Overlap is in history_sweep.cpp (it follows the beliefs).
#include <algorithm>

#include "history_internal.hpp"

namespace leasescope::sim::import::history_detail {

// A fresh acquisition in the order the capture shows the store issued them.
// Without a fencing number (no INCR seen) there is nothing to compare.
void Sweep::judge_acquisition(Event& e, const Holder& fresh) {
    acquisition_of_[fresh.token] = fresh.acquisition;
    if (fresh.redisson) redisson_tokens_.insert(fresh.token);
    if (!fresh.fencing) return;
    const Fencing f = *fresh.fencing;
    if (highest_issued_ && f <= *highest_issued_) {
        e.details.add(Detail::fencing_regressed);
        ++violations_.fencing_regressed;
    }
    const auto it = issued_.find(f);
    if (it != issued_.end() && it->second != fresh.token) {
        e.details.add(Detail::fencing_duplicate);
        ++violations_.fencing_duplicate;
    }
    if (it == issued_.end()) issued_.emplace(f, fresh.token);
    highest_issued_ = highest_issued_ ? std::max(*highest_issued_, f) : f;
}

// The write's marks, as Simulation::judge_write gives them, with the verdict
// taken from the log: `stale` when its token is not the record's; rejected
// although current: `holder_rejected`; accepted below the highest accepted
// number: `unsafe_write` (a resource that accepts it compares no numbers,
// which is mode `off`); accepted after a write of a later holder:
// `stale_after_successor`.
void Sweep::judge_write(Event& e, bool accepted, bool current) {
    if (!current) e.details.add(Detail::stale);
    if (!accepted) {
        if (current) {
            e.details.add(Detail::holder_rejected);
            ++violations_.holder_rejected;
        }
        return;
    }
    // Redisson's lock issues no number and one field per client (rule
    // 21.6): accepted while another field holds the record is unsafe; no
    // order among a client's runs, so no stale_after_successor.
    if (redisson_tokens_.count(e.token) > 0 || (record_ && record_->redisson)) {
        if (!current && record_ && record_->token != e.token) {
            e.details.add(Detail::unsafe_write);
            ++violations_.unsafe_write;
        }
        return;
    }
    if (e.fencing && highest_accepted_ && *e.fencing < *highest_accepted_) {
        e.details.add(Detail::unsafe_write);
        ++violations_.unsafe_write;
    }
    const auto holder = acquisition_of_.find(e.token);
    if (holder != acquisition_of_.end()) {
        if (latest_writer_ > holder->second) {
            e.details.add(Detail::stale_after_successor);
            ++violations_.stale_after_successor;
        }
        latest_writer_ = std::max(latest_writer_, holder->second);
    }
    if (e.fencing) highest_accepted_ = highest_accepted_ ? std::max(*highest_accepted_, *e.fencing) : *e.fencing;
}

void Sweep::expect_acquisitions(const std::vector<Item>& items) {
    acquisition_items_.clear();
    for (const Item& i : items)
        if (i.obs != nullptr && i.obs->op == ObservedOp::acquire && i.obs->outcome == Outcome::acquired)
            acquisition_items_.push_back(i);
}

const Observation* Sweep::acquired_in_window(const LogEntry& l, const std::string& token) const {
    const auto from = std::lower_bound(acquisition_items_.begin(), acquisition_items_.end(), l.wall_us,
                                       [](const Item& i, std::int64_t us) { return i.wall_us < us; });
    for (auto it = from; it != acquisition_items_.end() && it->wall_us < l.wall_us + l.resolution_us; ++it) {
        if (it->obs->node != l.node) continue;
        if (token.empty() || it->obs->token == token) return it->obs;
    }
    return nullptr;
}

// A write of the log (rule 19.6.4): the log's token and fencing, else those
// of the acquisition the node believes it holds. Rule 19.6.5: the write is
// judged over its time's window, so an acquisition of its node within the
// window (its token's, when the log names one) makes it current, and a log
// that names no token takes that acquisition's.
void Sweep::on_write(const Item& item) {
    const LogEntry& l = *item.log;
    const NodeState& n = nodes_[l.node];
    Event e = base_event(item, Phase::work, EventOp::write, l.node);
    e.run = run_number(l.node);
    e.token = l.token.value_or(n.token);
    e.fencing = l.fencing ? l.fencing : n.fencing;
    bool current = record_ && !e.token.empty() && record_->token == e.token;
    if (!current) {
        if (const Observation* later = acquired_in_window(l, l.token.value_or(std::string()))) {
            current = true;
            // The run its acquisition's line continues or begins (rule 19.5.2).
            const bool same_run = n.in_run && (!n.acquired || n.token == later->token);
            e.run = same_run ? n.runs - 1 : n.runs;
            e.token = later->token;
            if (!l.fencing) e.fencing = later->fencing;
            // Its acquisition is numbered when its line comes (on_acquire).
            if (l.event == LogEvent::write) early_writers_.insert(later->token);
        }
    }
    const bool accepted = l.event == LogEvent::write;
    e.outcome = accepted ? Outcome::accepted : Outcome::rejected;
    judge_write(e, accepted, current);
    emit(std::move(e));
}

}  // namespace leasescope::sim::import::history_detail
