// leasescope-cli: run, check, diff and validate scenarios and traces.
// Data goes to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 a check
// failed, 2 bad input, 3 the store (Redis) failed, 4 an output could not be
// written, 6 explore stopped before its end with nothing found.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "common.hpp"
#include "outcome_spill_file.hpp"
#include "leasescope/io/data_dir.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/io/signals.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace fs = std::filesystem;
using namespace leasescope;
using namespace leasescope::cli;

namespace {

// Writes each event to stdout as it happens, and to the trace file when
// there is one, so a long run never holds its trace in memory. The text view
// shows the rows its filter keeps and counts every run's writes.
class StreamSink final : public sim::EventSink {
public:
    StreamSink(std::FILE* out, bool text, io::OutputFile* trace_file, const sim::TextFilter& filter)
        : out_(out), text_(text), trace_file_(trace_file), filter_(filter) {}
    const sim::WriteTally& writes() const { return writes_; }
    std::int64_t shown() const { return shown_; }
    void on_event(const sim::Event& e) override { on_event_view(sim::view_of(e)); }
    void on_event_view(const sim::EventView& e) override {
        jsonl_.clear();
        if (!text_ || trace_file_ != nullptr) {
            sim::append_event_line(jsonl_, e);
            jsonl_ += '\n';
        }
        on_event_line(e, jsonl_);
    }
    // run_to_end made the line to hash it: written from the same bytes.
    void on_event_line(const sim::EventView& e, std::string_view jsonl) override {
        if (trace_file_ != nullptr) trace_file_->write(jsonl);
        // After a failed write (a full disk) nothing more is formatted; the
        // failure is reported when the command ends.
        if (std::ferror(out_)) return;
        if (text_) {
            const sim::Event event = sim::to_event(e);
            writes_.add(event);
            if (!filter_.keeps(event)) return;
            ++shown_;
            line_ = sim::text_row(event, filter_.time_tick_ms, stores, redisson);
            line_ += '\n';
            std::fwrite(line_.data(), 1, line_.size(), out_);
        } else {
            std::fwrite(jsonl.data(), 1, jsonl.size(), out_);
        }
    }

    std::vector<std::string> stores;  // a Redlock run's (model.md §20.8): rows name them
    bool redisson = false;            // a Redisson run's (model.md §21.9): rows in its words

private:
    std::FILE* out_;
    bool text_;
    io::OutputFile* trace_file_;
    const sim::TextFilter& filter_;
    sim::WriteTally writes_;
    std::int64_t shown_ = 0;
    std::string line_;
    std::string jsonl_;
};

// The presets: ./scenarios when there is one, else the installed copy
// (<executable>/../share/leasescope/scenarios), else the source tree.
std::string default_scenarios_dir() {
    if (fs::is_directory("scenarios")) return "scenarios";
    return io::data_path("scenarios", std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios");
}

// The golden traces, found the same way: ./tests/golden, the installed
// share/leasescope/golden, the source tree's tests/golden.
std::string default_golden_dir() {
    if (fs::is_directory("tests/golden")) return "tests/golden";
    return io::data_path("golden", std::string(LEASESCOPE_SOURCE_DIR) + "/tests/golden");
}

std::vector<std::string> preset_files(const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".json") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The end of a streamed run: the summary line into the trace file, which is
// then put in place, and the summary on stdout (a line, or the text view's
// counts). exit_write_failed (said on stderr) when a write fails.
int finish_run(const sim::Simulation& simulation, const sim::TraceSummary& summary, const StreamSink& sink,
               const OutcomeSpillFile& spill, io::OutputFile* trace_file, bool text, bool filtered) {
    if (trace_file) {
        if (!sim::write_summary_line(simulation, summary, [&](std::string_view piece) { trace_file->write(piece); })) {
            fmt::print(stderr, "error: {}\n", spill.error());
            return exit_write_failed;
        }
        trace_file->write("\n");
        if (!commit_output_file(*trace_file)) return exit_write_failed;
    }
    if (text) {
        if (filtered) fmt::print("shown: {} of {} events\n", sink.shown(), summary.events);
        fmt::print("\n{}", sim::text_summary(summary, sink.writes()));
        return exit_ok;
    }
    if (!sim::write_summary_line(simulation, summary,
                                 [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); })) {
        fmt::print(stderr, "error: {}\n", spill.error());
        return exit_write_failed;
    }
    std::fputc('\n', stdout);
    return exit_ok;
}

int cmd_run(const std::string& path, const std::vector<std::string>& sets, const std::string& format,
            const std::string& trace_path, const std::string& until_text, std::int64_t spill_runs,
            const TextFilterArgs& filter_args) {
    auto scenario = load_scenario(path, sets);
    if (!scenario) return exit_bad_input;
    std::optional<Tick> until;
    if (!until_text.empty()) {
        until = tick_of_option("--until", until_text, scenario->tick_ms);
        if (!until) return exit_bad_input;
    }
    const bool text = format == "text";
    const std::optional<sim::TextFilter> filter = text_filter_for(filter_args, *scenario, text);
    if (!filter) return exit_bad_input;
    // The trace file is opened before any work (an unwritable folder fails
    // at once), written as the run goes and put in place only at its end: it
    // is written whole or not at all.
    std::unique_ptr<io::OutputFile> trace_file;
    if (!open_output_file(trace_path, trace_file)) return exit_write_failed;
    sim::Simulation simulation(*scenario);
    ModelStore store(scenario->lock);
    const sim::TraceHeader header = simulation.header();
    if (trace_file) trace_file->write(sim::header_line(header) + "\n");
    if (text) {
        fmt::print("{} (seed {}, lock {}, {} slot{}, tick {} ms)\n{}\n", header.scenario, header.seed, header.lock,
                   header.capacity, header.capacity == 1 ? "" : "s", header.tick_ms,
                   sim::text_table_header(false, filter->time_tick_ms > 0));
    } else {
        fmt::print("{}\n", sim::header_line(header));
    }
    StreamSink sink(stdout, text, trace_file.get(), *filter);
    sink.stores = header.stores;
    sink.redisson = header.format == 6;
    // The results are written from the electors' compact outcomes (the text
    // view still reads them from the summary), and past spill_runs finished
    // runs those go to a temporary file: memory stays flat.
    OutcomeSpillFile spill;
    if (!text && spill_runs > 0) {
        simulation.set_outcome_spill(
            &spill, static_cast<std::size_t>(spill_runs) + static_cast<std::size_t>(scenario->candidates.size()));
    }
    auto summary = sim::run_to_end(simulation, store, sink, {}, until, /*keep_results=*/text);
    if (!summary.ok()) {
        fmt::print(stderr, "error: store failed: {}\n", summary.error().message);
        return exit_backend;
    }
    // A spill that failed stopped the run: no summary line, no trace file.
    if (simulation.spill_failed()) {
        fmt::print(stderr, "error: {}\n", spill.error());
        return exit_write_failed;
    }
    return finish_run(simulation, summary.value(), sink, spill, trace_file.get(), text, filter->any());
}

// One scenario's result in `check` (for --format json and --junit).
struct CheckResult {
    std::string scenario;  // the file
    std::string name;      // the scenario's name, "" when it did not parse
    std::string golden;
    std::string status;  // ok, updated, differs, no_golden, not_deterministic, bad_input
    std::int64_t events = 0;
    std::string sha256;
    std::optional<sim::Divergence> divergence;
    std::vector<std::string> errors;  // bad_input: what was wrong
};

std::string check_json(const std::vector<CheckResult>& results, int status) {
    nlohmann::ordered_json out;
    out["command"] = "check";
    out["exit_code"] = status;
    std::int64_t passed = 0, failed = 0;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const CheckResult& r : results) {
        (r.status == "ok" || r.status == "updated" ? passed : failed) += 1;
        nlohmann::ordered_json j;
        j["scenario"] = r.scenario;
        j["name"] = r.name.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.name);
        j["golden"] = r.golden.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.golden);
        j["status"] = r.status;
        j["events"] = r.events;
        j["sha256"] = r.sha256.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.sha256);
        if (r.divergence) {
            j["divergence"] = {{"index", r.divergence->index}, {"description", r.divergence->description}};
        } else {
            j["divergence"] = nullptr;
        }
        j["errors"] = r.errors;
        list.push_back(std::move(j));
    }
    out["passed"] = passed;
    out["failed"] = failed;
    out["results"] = std::move(list);
    return out.dump(2) + "\n";
}

std::string check_junit(const std::vector<CheckResult>& results) {
    std::int64_t failures = 0, errors = 0;
    std::string cases;
    for (const CheckResult& r : results) {
        const std::string name = r.name.empty() ? r.scenario : r.name;
        cases += fmt::format("    <testcase classname=\"leasescope.check\" name=\"{}\" file=\"{}\">\n",
                             xml_escape(name), xml_escape(r.scenario));
        if (r.status == "bad_input") {
            ++errors;
            std::string text;
            for (const auto& e : r.errors) text += e + "\n";
            cases += fmt::format("      <error message=\"bad scenario\">{}</error>\n", xml_escape(text));
        } else if (r.status != "ok" && r.status != "updated") {
            ++failures;
            const std::string message = r.status == "differs"     ? "differs from " + r.golden
                                        : r.status == "no_golden" ? "no golden trace at " + r.golden
                                                                  : "not deterministic";
            cases += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(message),
                                 r.status, xml_escape(r.divergence ? r.divergence->description : message));
        }
        cases += "    </testcase>\n";
    }
    return fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites tests=\"{0}\" failures=\"{1}\" errors=\"{2}\">\n"
        "  <testsuite name=\"leasescope check\" tests=\"{0}\" failures=\"{1}\" errors=\"{2}\">\n"
        "{3}  </testsuite>\n</testsuites>\n",
        results.size(), failures, errors, cases);
}

int check_one(const std::string& path, const std::string& golden_dir, bool update, bool quiet, CheckResult& r) {
    r.scenario = path;
    auto scenario = load_scenario(path, {}, &r.errors);
    if (!scenario) {
        r.status = "bad_input";
        return exit_bad_input;
    }
    r.name = scenario->name;
    const sim::Trace first = sim::simulate(*scenario);
    const sim::Trace second = sim::simulate(*scenario);
    r.events = first.summary.events;
    r.sha256 = first.summary.trace_sha256;
    if (first.summary.trace_sha256 != second.summary.trace_sha256) {
        fmt::print(stderr, "FAIL {}: not deterministic: two runs in one process gave {} and {}\n", path,
                   first.summary.trace_sha256, second.summary.trace_sha256);
        r.status = "not_deterministic";
        return exit_check_failed;
    }
    r.golden = (fs::path(golden_dir) / (scenario->name + ".jsonl")).string();
    if (update) {
        if (!write_file_atomic(r.golden, sim::trace_to_jsonl(first))) return exit_write_failed;
        if (!quiet)
            fmt::print("updated {} ({} events, sha256 {})\n", r.golden, first.summary.events,
                       first.summary.trace_sha256);
        r.status = "updated";
        return exit_ok;
    }
    if (!fs::exists(r.golden)) {
        fmt::print(stderr, "FAIL {}: no golden trace at {}; create it with --update and review it\n", path, r.golden);
        r.status = "no_golden";
        return exit_check_failed;
    }
    auto expected = load_trace(r.golden);
    if (!expected) {
        r.status = "bad_input";
        r.errors.push_back(fmt::format("{}: not a valid trace", r.golden));
        return exit_bad_input;
    }
    if (auto d = sim::first_divergence(*expected, first)) {
        fmt::print(stderr, "FAIL {}: differs from {} (A = golden, B = now)\n{}\n", path, r.golden, d->description);
        r.status = "differs";
        r.divergence = std::move(d);
        return exit_check_failed;
    }
    if (!quiet) fmt::print("ok   {} ({} events, sha256 {})\n", path, first.summary.events, first.summary.trace_sha256);
    r.status = "ok";
    return exit_ok;
}

int cmd_check(std::vector<std::string> paths, const std::string& golden_dir, bool update, const std::string& format,
              const std::string& junit_path) {
    if (paths.empty()) paths = preset_files(default_scenarios_dir());
    if (paths.empty()) {
        fmt::print(stderr, "error: no scenarios given and none found in {}\n", default_scenarios_dir());
        return exit_bad_input;
    }
    const bool json = format == "json";
    int status = exit_ok;
    std::vector<CheckResult> results;
    for (const auto& path : paths) {
        CheckResult r;
        const int code = check_one(path, golden_dir, update, json, r);
        results.push_back(std::move(r));
        // A bad scenario or golden file stops the check, as a bad write does.
        if (code == exit_bad_input || code == exit_write_failed) {
            status = code;
            break;
        }
        if (code != exit_ok) status = code;
    }
    if (!junit_path.empty() && !write_file_atomic(junit_path, check_junit(results))) return exit_write_failed;
    if (json) {
        const std::string text = check_json(results, status);
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return status;
}

int cmd_diff(const std::string& a_path, const std::string& b_path, bool ignore_tokens) {
    auto a = load_trace(a_path);
    if (!a) return exit_bad_input;
    auto b = load_trace(b_path);
    if (!b) return exit_bad_input;
    if (auto d = sim::first_divergence(*a, *b, ignore_tokens)) {
        fmt::print("A = {}\nB = {}\n{}\n", a_path, b_path, d->description);
        return exit_check_failed;
    }
    fmt::print("identical ({} events)\n", a->events.size());
    return exit_ok;
}

// A trace file as the text view shows a run (an imported /4 trace with its
// wall-clock column): the table, then the summary.
int cmd_show(const std::string& path, bool marked, const std::vector<std::string>& nodes, bool time) {
    auto trace = load_trace(path);
    if (!trace) return exit_bad_input;
    sim::TextFilter filter;
    filter.marked_only = marked;
    if (time) filter.time_tick_ms = trace->header.tick_ms;
    for (const std::string& node : nodes) {
        const auto& names = trace->header.candidates;
        if (std::find(names.begin(), names.end(), node) == names.end()) {
            fmt::print(stderr, "error: --node {}: {} has no such node; expected one of {}\n", node, path,
                       fmt::join(names, ", "));
            return exit_bad_input;
        }
        filter.nodes.push_back(node);
    }
    const std::string text = sim::trace_to_text(*trace, filter);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return exit_ok;
}

int cmd_validate(const std::vector<std::string>& paths, const std::vector<std::string>& sets,
                 const std::string& format) {
    const bool json = format == "json";
    int status = exit_ok;
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const auto& path : paths) {
        std::vector<std::string> errors;
        auto scenario = load_scenario(path, sets, &errors);
        nlohmann::ordered_json j;
        j["file"] = path;
        j["ok"] = scenario.has_value();
        if (!scenario) {
            status = exit_bad_input;
            j["name"] = nullptr;
            j["errors"] = errors;
            files.push_back(std::move(j));
            continue;
        }
        // The exercises, checked on the file as written (model.md §18.6).
        const std::vector<std::string> problems =
            scenario->exercises.empty() ? std::vector<std::string>{} : exercise_problems(path);
        if (!problems.empty()) {
            for (const std::string& p : problems) fmt::print(stderr, "error: {}\n", p);
            status = exit_bad_input;
            j["ok"] = false;
            j["name"] = scenario->name;
            j["errors"] = problems;
            files.push_back(std::move(j));
            continue;
        }
        j["name"] = scenario->name;
        j["candidates"] = scenario->candidates.size();
        j["faults"] = scenario->faults.size();
        j["ops"] = scenario->ops.size();
        j["horizon"] = scenario->horizon;
        j["errors"] = nlohmann::ordered_json::array();
        files.push_back(std::move(j));
        if (json) continue;
        fmt::print("ok   {}: {} ({} candidate{}, {} fault{}, {} op{}, horizon {})\n", path, scenario->name,
                   scenario->candidates.size(), scenario->candidates.size() == 1 ? "" : "s", scenario->faults.size(),
                   scenario->faults.size() == 1 ? "" : "s", scenario->ops.size(), scenario->ops.size() == 1 ? "" : "s",
                   scenario->horizon);
    }
    if (json) {
        nlohmann::ordered_json out;
        out["command"] = "validate";
        out["exit_code"] = status;
        out["files"] = std::move(files);
        const std::string text = out.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return status;
}

int cmd_list(const std::string& dir, const std::string& lang) {
    const auto files = preset_files(dir);
    if (files.empty()) {
        fmt::print(stderr, "error: no scenario files in {}\n", dir);
        return exit_bad_input;
    }
    int status = exit_ok;
    for (const auto& path : files) {
        auto scenario = load_scenario(path, {});
        if (!scenario) {
            status = exit_bad_input;
            continue;
        }
        const std::string& title =
            lang == "ko" && !scenario->title.ko.empty() ? scenario->title.ko : scenario->title.en;
        fmt::print("{:<28} {}\n", scenario->name, title);
    }
    return status;
}

void add_run_command(CLI::App& app, int& exit_code) {
    struct RunArgs {
        std::string path, format = "jsonl", trace;
        std::vector<std::string> sets;
        std::string until;  // ticks or a duration (model.md §11.7)
        std::int64_t spill = 65'536;
        TextFilterArgs filter;
    };
    auto args = std::make_shared<RunArgs>();
    auto* run = app.add_subcommand("run", "Simulate a scenario and print its trace");
    run->add_option("SCENARIO", args->path, "Scenario file (JSON with comments)")->required();
    run->add_option("--format", args->format, "What stdout shows: jsonl (the trace) or text (a table)")
        ->check(CLI::IsMember({"jsonl", "text"}));
    run->add_option("--trace", args->trace,
                    "Also write the JSONL trace to FILE: whole or not at all, never through a link; a named pipe is "
                    "written straight through");
    run->add_option("--set", args->sets,
                    "Override a value: PATH=VALUE, e.g. defaults.lease=8 or candidates/1/start=3; a time takes ticks "
                    "or a duration such as 30s (docs/model.md §11.7)")
        ->allow_extra_args(false);
    run->add_option("--until", args->until,
                    "Stop after this tick, or this time (30s) at the scenario's tick_ms (runs still going are "
                    "unfinished)")
        ->check(tick_or_duration());
    run->add_option("--spill-runs", args->spill,
                    "With --format jsonl, keep about this many finished runs' results in memory (16 bytes each) and "
                    "the rest in an unnamed temporary file in $TMPDIR (else /tmp), read back for the summary line; 0 "
                    "keeps them all in memory")
        ->check(integer_in(0, limits::runs_total_max))
        ->capture_default_str();
    add_text_filter_options(run, args->filter);
    run->callback([args, &exit_code] {
        const RunArgs& a = *args;
        exit_code = cmd_run(a.path, a.sets, a.format, a.trace, a.until, a.spill, a.filter);
    });
}

void add_check_command(CLI::App& app, int& exit_code) {
    struct CheckArgs {
        std::vector<std::string> paths;
        std::string golden_dir = default_golden_dir();
        bool update = false;
        std::string format = "text", junit;
    };
    auto args = std::make_shared<CheckArgs>();
    auto* check = app.add_subcommand("check", "Compare scenarios with their golden traces (all presets by default)");
    check->add_option("SCENARIO", args->paths, "Scenario files (default: every preset in scenarios/)");
    check
        ->add_option("--golden", args->golden_dir,
                     "Folder of golden traces, one NAME.jsonl per scenario (default: ./tests/golden if it exists, "
                     "else the installed goldens)")
        ->capture_default_str();
    check->add_flag("--update", args->update, "Write the golden traces instead of comparing (review with git diff)");
    check
        ->add_option("--format", args->format,
                     "What stdout shows: text, or json (one document; fields in docs/cli-json.md)")
        ->check(CLI::IsMember({"text", "json"}));
    check->add_option("--junit", args->junit, "Also write a JUnit XML report to FILE, one test case per scenario");
    check->callback([args, &exit_code] {
        exit_code = cmd_check(args->paths, args->golden_dir, args->update, args->format, args->junit);
    });
}

// diff, show, validate and list: the small commands.
void add_file_commands(CLI::App& app, int& exit_code) {
    struct FileArgs {
        std::string diff_a, diff_b, show_path;
        bool ignore_tokens = false, show_marked = false, show_time = false;
        std::vector<std::string> show_nodes;
        std::vector<std::string> validate_paths, validate_sets;
        std::string validate_format = "text";
        std::string list_dir = default_scenarios_dir(), list_lang = "en";
    };
    auto args = std::make_shared<FileArgs>();
    auto* diff = app.add_subcommand("diff", "Compare two trace files; name the first divergent event");
    diff->add_option("A", args->diff_a, "First trace (JSONL)")->required();
    diff->add_option("B", args->diff_b, "Second trace (JSONL)")->required();
    diff->add_flag("--ignore-tokens", args->ignore_tokens,
                   "Do not compare token values, nor an imported trace's wall clock (live or imported versus "
                   "simulated runs)");
    diff->callback([args, &exit_code] { exit_code = cmd_diff(args->diff_a, args->diff_b, args->ignore_tokens); });

    auto* show = app.add_subcommand("show", "Print a trace file (a run's or an imported one) as the text table");
    show->add_option("TRACE", args->show_path, "Trace (JSONL)")->required();
    show->add_flag("--marked", args->show_marked, "Only the rows a reader must not miss (their Outcome has a !)");
    show->add_option("--node", args->show_nodes, "Only this node's rows (repeatable)")->allow_extra_args(false);
    show->add_flag("--time", args->show_time,
                   "A Time column after Tick: each tick's start since tick 0 at the trace's tick_ms (M:SS.mmm)");
    show->callback([args, &exit_code] {
        exit_code = cmd_show(args->show_path, args->show_marked, args->show_nodes, args->show_time);
    });

    auto* validate = app.add_subcommand("validate",
                                        "Check scenario files and their exercises (as written, without --set: "
                                        "docs/exercises.md) and report every error clearly");
    validate->add_option("SCENARIO", args->validate_paths, "Scenario files")->required();
    validate
        ->add_option("--set", args->validate_sets,
                     "Override a value before validating: PATH=VALUE; a time takes ticks or a duration such as 30s")
        ->allow_extra_args(false);
    validate
        ->add_option("--format", args->validate_format,
                     "What stdout shows: text, or json (one document; fields in docs/cli-json.md)")
        ->check(CLI::IsMember({"text", "json"}));
    validate->callback([args, &exit_code] {
        exit_code = cmd_validate(args->validate_paths, args->validate_sets, args->validate_format);
    });

    auto* list = app.add_subcommand("list", "List the preset scenarios with their titles");
    list->add_option("--dir", args->list_dir, "Folder of scenario files")->capture_default_str();
    list->add_option("--lang", args->list_lang, "Title language: en or ko")->check(CLI::IsMember({"en", "ko"}));
    list->callback([args, &exit_code] { exit_code = cmd_list(args->list_dir, args->list_lang); });
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "LeaseScope: a deterministic simulator of Redis leases, leader election and fencing tokens.\n"
        "Exit codes: 0 ok, 1 a check or comparison failed, 2 bad input, 3 the store failed, 4 an output could not\n"
        "be written (a file, or standard output: a full disk, /dev/full), 6 explore was stopped (--time-limit,\n"
        "Ctrl-C) before the end of its budget with no counterexample in the part it searched."};
    app.set_version_flag("--version", std::string("leasescope-cli ") + LEASESCOPE_VERSION);
    app.require_subcommand(1);
    int exit_code = exit_ok;
    // Ctrl-C or SIGTERM while a file is being written removes its temporary.
    io::install_cleanup_on_signals();

    add_run_command(app, exit_code);
    add_check_command(app, exit_code);
    add_file_commands(app, exit_code);
    add_explain_command(app, exit_code);
    add_schema_command(app, exit_code);
    add_exercise_command(app, exit_code);
    add_explore_command(app, exit_code);
    add_bench_commands(app, exit_code);
    add_import_command(app, exit_code);
#ifdef LEASESCOPE_HAVE_LIVE
    add_live_command(app, exit_code);
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return finish_output(code == 0 ? exit_ok : exit_bad_input);
    }
    return finish_output(exit_code);
}
