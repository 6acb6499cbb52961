#pragma once
// What the files of the history (docs/model.md §19.5–§19.8) share and nothing
// else needs: the time base, the sweep that turns observations and log lines
// into the events of a leasescope-trace/4, and the draft. Private to
// sim/src/import/.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import::history_detail {

// Ticks of the imported trace (rule 19.7.2).
struct Timebase {
    std::int64_t origin_us = 0;
    std::int64_t tick_ms = 1;
    Tick tick_of(std::int64_t wall_us) const;
};

// An observation or a log line, before it is an event, in the order of
// rule 19.7.3: (time, line, then the order in which they were gathered).
struct Item {
    std::int64_t wall_us = 0;     // the time that orders and gives the tick: a capture line's placed time (19.1.4)
    std::int64_t written_us = 0;  // the event's wall_us: the server's own time, back by the kept clock steps
    std::int64_t line = 0;
    std::int64_t index = 0;
    const Observation* obs = nullptr;  // exactly one of obs and log
    const LogEntry* log = nullptr;
};

// The record as the capture shows it (rule 19.4): whose token it holds.
struct Holder {
    Token token;
    std::string node;
    std::optional<Fencing> fencing;
    std::int64_t acquisition = -1;  // its place in the order the store issued them (§9.6)
    bool redisson = false;          // acquired by Redisson's lock script (rule 19.7.4)
};

// What the sweep knows of one node at a point of the history.
struct NodeState {
    std::int32_t runs = 0;  // runs begun
    bool in_run = false;    // rule 19.5.2: between a run's first attempt and its end
    bool acquired = false;  // the current run acquired
    Token token;            // the node's latest acquisition: what it believes it holds
    std::optional<Fencing> fencing;
    std::int64_t acquisition = -1;
    bool believes = false;     // believes it leads (rule 19.6.3)
    bool log_beliefs = false;  // its log states its beliefs; else they are inferred
    std::int64_t first_attempt_us = 0;
};

// Turns the items, in order, into events with runs, beliefs and the marks of
// the invariants (rules 19.5.2, 19.6.3–4, 19.7.4), and the results per run.
class Sweep {
public:
    Sweep(const Timebase& time, std::vector<std::string> candidates, const std::vector<LogEntry>& logs);
    void add(const Item& item);
    // The capture's acquisitions, in order, so that a log line can be judged
    // over its time's window (rule 19.6.5); items as build_history orders them.
    void expect_acquisitions(const std::vector<Item>& items);
    std::vector<Event> take_events() { return std::move(events_); }
    std::vector<RunSummary> results() const;
    const Violations& violations() const { return violations_; }

private:
    Event base_event(const Item& item, Phase phase, EventOp op, const std::string& node) const;
    void emit(Event e) { events_.push_back(std::move(e)); }
    void on_observation(const Item& item);
    void on_log(const Item& item);
    void on_acquire(const Item& item);
    void on_extend(const Item& item);
    void on_release(const Item& item);
    void on_expire(const Item& item);
    void on_write(const Item& item);
    void on_believe_log(const Item& item);
    void on_plain(const Item& item);
    void begin_run(const Item& item, const std::string& node);
    void end_run(const std::string& node);
    // The record loses its holder: the holder's run ends (it saw its token leave).
    void clear_record();
    void judge_acquisition(Event& e, const Holder& fresh);
    void judge_write(Event& e, bool accepted, bool current);
    // Rule 19.6.5: an acquisition of `node` (of `token` when not empty) that
    // the capture shows within the window of a log line's time.
    const Observation* acquired_in_window(const LogEntry& l, const std::string& token) const;
    // A belief changes: its event (inferred when `word` is inferred) and the overlap check.
    void believe(const Item& item, const std::string& node, bool leader, Detail word);
    void check_overlap(const Item& item);
    RunSummary& run_of(const std::string& node);
    std::int32_t run_number(const std::string& node) const;

    Timebase time_;
    std::vector<std::string> candidates_;
    std::map<std::string, NodeState> nodes_;
    std::map<std::string, std::vector<RunSummary>> runs_;
    std::vector<Item> acquisition_items_;  // expect_acquisitions: the successful acquires, in order
    std::optional<Holder> record_;
    std::map<Token, std::int64_t> acquisition_of_;  // token -> its acquisition
    std::set<Token> redisson_tokens_;               // tokens acquired by Redisson's lock script
    std::map<Fencing, Token> issued_;               // fencing -> the first token it was issued to
    std::optional<Fencing> highest_issued_;
    std::optional<Fencing> highest_accepted_;
    std::int64_t latest_writer_ = -1;  // the latest acquisition with an accepted write (§9.6)
    std::set<Token> early_writers_;    // rule 19.6.5: accepted writes logged just before their acquisition's line
    std::int64_t acquisitions_ = 0;
    bool in_overlap_ = false;
    Violations violations_;
    std::vector<Event> events_;
};

// The ticks of a lease in milliseconds, rounded up.
Tick ticks_of_ms(std::int64_t ms, std::int64_t tick_ms);

// The draft scenario of rule 19.8 from the imported trace, its evidence and
// notes; then simulated and compared (19.8.3).
struct Draft {
    std::string json;
    std::vector<Evidence> evidence;
    std::vector<std::string> differences;
    std::vector<std::string> notes;
};
// A fault the history shows (rule 19.8.2), with a clock step's milliseconds.
struct InferredFault {
    Evidence evidence;
    std::int64_t ms = 0;  // clock_jump only
};
// Pauses and crashes from the logs, pauses and crashes the commands show, a
// kept clock step (history_faults.cpp).
std::vector<InferredFault> infer_faults(const Trace& imported, const std::vector<Observation>& observations,
                                        const std::vector<LogEntry>& logs, const std::vector<std::string>& log_files);
// Simulates the draft and lists where its run parts from the trace (19.8.3,
// history_compare.cpp); a draft that does not parse is a note.
void compare_draft(const Trace& imported, Draft& draft, std::int64_t events_max);

Draft make_draft(const Trace& imported, const std::vector<Observation>& observations, const std::vector<LogEntry>& logs,
                 const std::vector<std::string>& log_files, const CaptureReport& report, std::int64_t events_max);

}  // namespace leasescope::sim::import::history_detail
