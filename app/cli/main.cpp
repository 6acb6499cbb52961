// leasescope-cli: run, check, diff and validate scenarios and traces.
// Data goes to stdout, diagnostics to stderr. Exit codes: 0 ok, 1 a check
// failed, 2 bad input, 3 the store (Redis) failed, 4 an output could not be
// written.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/io/signals.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace fs = std::filesystem;
using namespace leasescope;
using namespace leasescope::cli;

namespace {

// Writes each event to stdout as it happens, and to the trace file when
// there is one, so a long run never holds its trace in memory.
class StreamSink final : public sim::EventSink {
public:
    StreamSink(std::FILE* out, bool text, io::OutputFile* trace_file)
        : out_(out), text_(text), trace_file_(trace_file) {}
    void on_event(const sim::Event& e) override {
        jsonl_.clear();
        if (!text_ || trace_file_ != nullptr) {
            sim::append_event_line(jsonl_, e);
            jsonl_ += '\n';
        }
        if (trace_file_ != nullptr) trace_file_->write(jsonl_);
        // After a failed write (a full disk) nothing more is formatted; the
        // failure is reported when the command ends.
        if (std::ferror(out_)) return;
        if (text_) {
            line_ = sim::text_row(e);
            line_ += '\n';
            std::fwrite(line_.data(), 1, line_.size(), out_);
        } else {
            std::fwrite(jsonl_.data(), 1, jsonl_.size(), out_);
        }
    }

private:
    std::FILE* out_;
    bool text_;
    io::OutputFile* trace_file_;
    std::string line_;
    std::string jsonl_;
};

std::string default_scenarios_dir() {
    if (fs::is_directory("scenarios")) return "scenarios";
    return std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios";
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

int cmd_run(const std::string& path, const std::vector<std::string>& sets, const std::string& format,
            const std::string& trace_path, std::optional<Tick> until) {
    auto scenario = load_scenario(path, sets);
    if (!scenario) return exit_bad_input;
    const bool text = format == "text";
    // The trace file is opened before any work (an unwritable folder fails
    // at once), written as the run goes and put in place only at its end: it
    // is written whole or not at all.
    std::unique_ptr<io::OutputFile> trace_file;
    if (!trace_path.empty()) {
        std::string error;
        trace_file = io::OutputFile::open(trace_path, error);
        if (!trace_file) {
            fmt::print(stderr, "error: {}\n", error);
            return exit_write_failed;
        }
    }
    sim::Simulation simulation(*scenario);
    ModelStore store(scenario->lock);
    const sim::TraceHeader header = simulation.header();
    if (trace_file) trace_file->write(sim::header_line(header) + "\n");
    if (text) {
        fmt::print("{} (seed {}, lock {}, {} slot{}, tick {} ms)\n{}\n", header.scenario, header.seed, header.lock,
                   header.capacity, header.capacity == 1 ? "" : "s", header.tick_ms, sim::text_table_header());
    } else {
        fmt::print("{}\n", sim::header_line(header));
    }
    StreamSink sink(stdout, text, trace_file.get());
    auto summary = sim::run_to_end(simulation, store, sink, {}, until);
    if (!summary.ok()) {
        fmt::print(stderr, "error: store failed: {}\n", summary.error().message);
        return exit_backend;
    }
    if (trace_file) {
        trace_file->write(sim::summary_line(summary.value()) + "\n");
        std::string error;
        if (!trace_file->commit(error)) {
            fmt::print(stderr, "error: {}\n", error);
            return exit_write_failed;
        }
    }
    if (text) {
        sim::Trace just_summary;
        just_summary.header = header;
        just_summary.summary = summary.value();
        const std::string all = sim::trace_to_text(just_summary);
        // The summary part of the text view (after the empty table).
        fmt::print("{}", all.substr(all.find("\nended at")));
    } else {
        fmt::print("{}\n", sim::summary_line(summary.value()));
    }
    return exit_ok;
}

int cmd_check(std::vector<std::string> paths, const std::string& golden_dir, bool update) {
    if (paths.empty()) paths = preset_files(default_scenarios_dir());
    if (paths.empty()) {
        fmt::print(stderr, "error: no scenarios given and none found in {}\n", default_scenarios_dir());
        return exit_bad_input;
    }
    int status = exit_ok;
    for (const auto& path : paths) {
        auto scenario = load_scenario(path, {});
        if (!scenario) return exit_bad_input;
        const sim::Trace first = sim::simulate(*scenario);
        const sim::Trace second = sim::simulate(*scenario);
        if (first.summary.trace_sha256 != second.summary.trace_sha256) {
            fmt::print(stderr, "FAIL {}: not deterministic: two runs in one process gave {} and {}\n", path,
                       first.summary.trace_sha256, second.summary.trace_sha256);
            status = exit_check_failed;
            continue;
        }
        const std::string golden = (fs::path(golden_dir) / (scenario->name + ".jsonl")).string();
        if (update) {
            if (!write_file_atomic(golden, sim::trace_to_jsonl(first))) return exit_write_failed;
            fmt::print("updated {} ({} events, sha256 {})\n", golden, first.summary.events,
                       first.summary.trace_sha256);
            continue;
        }
        if (!fs::exists(golden)) {
            fmt::print(stderr, "FAIL {}: no golden trace at {}; create it with --update and review it\n", path,
                       golden);
            status = exit_check_failed;
            continue;
        }
        auto expected = load_trace(golden);
        if (!expected) return exit_bad_input;
        if (auto d = sim::first_divergence(*expected, first)) {
            fmt::print(stderr, "FAIL {}: differs from {} (A = golden, B = now)\n{}\n", path, golden, d->description);
            status = exit_check_failed;
            continue;
        }
        fmt::print("ok   {} ({} events, sha256 {})\n", path, first.summary.events, first.summary.trace_sha256);
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

int cmd_validate(const std::vector<std::string>& paths, const std::vector<std::string>& sets) {
    int status = exit_ok;
    for (const auto& path : paths) {
        auto scenario = load_scenario(path, sets);
        if (!scenario) {
            status = exit_bad_input;
            continue;
        }
        fmt::print("ok   {}: {} ({} candidate{}, {} fault{}, {} op{}, horizon {})\n", path, scenario->name,
                   scenario->candidates.size(), scenario->candidates.size() == 1 ? "" : "s",
                   scenario->faults.size(), scenario->faults.size() == 1 ? "" : "s", scenario->ops.size(),
                   scenario->ops.size() == 1 ? "" : "s", scenario->horizon);
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
        const std::string& title = lang == "ko" && !scenario->title.ko.empty() ? scenario->title.ko : scenario->title.en;
        fmt::print("{:<28} {}\n", scenario->name, title);
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"LeaseScope: a deterministic simulator of Redis leases, leader election and fencing tokens.\n"
                 "Exit codes: 0 ok, 1 a check or comparison failed, 2 bad input, 3 the store failed, 4 an output could not\n"
                 "be written (a file, or standard output: a full disk, /dev/full)."};
    app.set_version_flag("--version", std::string("leasescope-cli ") + LEASESCOPE_VERSION);
    app.require_subcommand(1);
    int exit_code = exit_ok;
    // Ctrl-C or SIGTERM while a file is being written removes its temporary.
    io::install_cleanup_on_signals();

    auto* run = app.add_subcommand("run", "Simulate a scenario and print its trace");
    std::string run_path, run_format = "jsonl", run_trace;
    std::vector<std::string> run_sets;
    std::optional<Tick> run_until;
    run->add_option("SCENARIO", run_path, "Scenario file (JSON with comments)")->required();
    run->add_option("--format", run_format, "What stdout shows: jsonl (the trace) or text (a table)")
        ->check(CLI::IsMember({"jsonl", "text"}));
    run->add_option("--trace", run_trace,
                    "Also write the JSONL trace to FILE: whole or not at all, never through a link; a named pipe is "
                    "written straight through");
    run->add_option("--set", run_sets, "Override a value: PATH=VALUE, e.g. defaults.lease=8 or candidates/1/start=3")
        ->allow_extra_args(false);
    run->add_option("--until", run_until, "Stop after this tick (runs still going are unfinished)")
        ->check(integer_in(0, limits::horizon_max));
    run->callback([&] { exit_code = cmd_run(run_path, run_sets, run_format, run_trace, run_until); });

    auto* check = app.add_subcommand("check", "Compare scenarios with their golden traces (all presets by default)");
    std::vector<std::string> check_paths;
    std::string golden_dir = "tests/golden";
    bool update = false;
    check->add_option("SCENARIO", check_paths, "Scenario files (default: every preset in scenarios/)");
    check->add_option("--golden", golden_dir, "Folder of golden traces, one NAME.jsonl per scenario")
        ->capture_default_str();
    check->add_flag("--update", update, "Write the golden traces instead of comparing (review with git diff)");
    check->callback([&] { exit_code = cmd_check(check_paths, golden_dir, update); });

    auto* diff = app.add_subcommand("diff", "Compare two trace files; name the first divergent event");
    std::string diff_a, diff_b;
    bool ignore_tokens = false;
    diff->add_option("A", diff_a, "First trace (JSONL)")->required();
    diff->add_option("B", diff_b, "Second trace (JSONL)")->required();
    diff->add_flag("--ignore-tokens", ignore_tokens, "Do not compare token values (live versus simulated runs)");
    diff->callback([&] { exit_code = cmd_diff(diff_a, diff_b, ignore_tokens); });

    auto* validate = app.add_subcommand("validate", "Check scenario files and report every error clearly");
    std::vector<std::string> validate_paths, validate_sets;
    validate->add_option("SCENARIO", validate_paths, "Scenario files")->required();
    validate->add_option("--set", validate_sets, "Override a value before validating: PATH=VALUE")
        ->allow_extra_args(false);
    validate->callback([&] { exit_code = cmd_validate(validate_paths, validate_sets); });

    auto* list = app.add_subcommand("list", "List the preset scenarios with their titles");
    std::string list_dir = default_scenarios_dir(), list_lang = "en";
    list->add_option("--dir", list_dir, "Folder of scenario files")->capture_default_str();
    list->add_option("--lang", list_lang, "Title language: en or ko")->check(CLI::IsMember({"en", "ko"}));
    list->callback([&] { exit_code = cmd_list(list_dir, list_lang); });

#ifdef LEASESCOPE_HAVE_EXPLORE
    add_explore_command(app, exit_code);
#endif
#ifdef LEASESCOPE_HAVE_BENCH
    add_bench_commands(app, exit_code);
#endif
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
