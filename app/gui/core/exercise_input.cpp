// What a student enters in the Exercise panel, as sim/exercise.hpp takes it (exercise_input.hpp).
#include "exercise_input.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

namespace leasescope::gui {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == sep) {
            out.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

std::optional<std::int64_t> integer(std::string_view text) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace

std::optional<int> choice_index(const std::vector<std::string>& choices, std::string_view value) {
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == value) return static_cast<int>(i);
    const auto n = value.size() < 4 ? integer(value) : std::nullopt;
    if (!n || *n < 1 || static_cast<std::size_t>(*n) > choices.size()) return std::nullopt;
    return static_cast<int>(*n - 1);
}

std::string knob_value_label(const std::string& json_text) {
    if (json_text.size() >= 2 && json_text.front() == '"' && json_text.back() == '"')
        return json_text.substr(1, json_text.size() - 2);
    return json_text;
}

std::optional<std::vector<std::int32_t>> knob_indices(const std::vector<sim::Knob>& knobs, std::string_view value) {
    const std::vector<std::string_view> parts = split(value, ',');
    if (parts.size() != knobs.size()) return std::nullopt;
    std::vector<std::int32_t> out;
    for (std::size_t k = 0; k < knobs.size(); ++k) {
        std::optional<std::int32_t> found;
        for (std::size_t i = 0; i < knobs[k].values.size() && !found; ++i)
            if (knobs[k].values[i] == parts[k] || knob_value_label(knobs[k].values[i]) == parts[k])
                found = static_cast<std::int32_t>(i);
        if (!found) return std::nullopt;
        out.push_back(*found);
    }
    return out;
}

bool fault_kind_has_controls(sim::FaultKind kind, const sim::FaultBudget& budget) {
    if (kind == sim::FaultKind::failover) return !budget.failover_losses.empty();
    return kind == sim::FaultKind::pause || kind == sim::FaultKind::partition || kind == sim::FaultKind::crash ||
           kind == sim::FaultKind::clock_jump || kind == sim::FaultKind::delay;
}

bool fault_kind_has_node(sim::FaultKind kind) {
    return kind != sim::FaultKind::failover && kind != sim::FaultKind::clock_jump;
}

FaultControls with_budget_choice(FaultControls c, const sim::FaultBudget& b) {
    if (c.kind == sim::FaultKind::partition && !b.partition_modes.empty()) c.mode = b.partition_modes.front();
    if (c.kind == sim::FaultKind::delay && !b.delay_links.empty()) c.link = b.delay_links.front();
    if (c.kind == sim::FaultKind::failover && !b.failover_losses.empty()) c.lose = b.failover_losses.front();
    return c;
}

sim::Fault fault_of(const FaultControls& c, std::int64_t tick_ms) {
    sim::Fault f;
    f.kind = c.kind;
    f.node = fault_kind_has_node(c.kind) ? c.node : -1;  // a jump of the store's clock, a failover: no node's
    f.at = c.at;
    switch (c.kind) {
        case sim::FaultKind::pause: f.ticks = c.length; break;
        case sim::FaultKind::partition:
            f.ticks = c.length;
            f.mode = c.mode;
            break;
        case sim::FaultKind::clock_jump: f.ms = c.length * tick_ms; break;
        case sim::FaultKind::delay:  // the messages of one tick, as the explorer's delays (model.md §18.4)
            f.ticks = 1;
            f.extra = c.length;
            f.link = c.link;
            break;
        case sim::FaultKind::failover:
            f.node = -1;
            f.lose = c.lose;
            break;
        default: break;
    }
    return f;
}

FaultControls controls_of(const sim::Fault& f, std::int64_t tick_ms) {
    FaultControls c;
    c.kind = f.kind;
    c.node = f.node;
    c.at = f.at;
    c.mode = f.mode;
    c.link = f.link;
    c.lose = f.lose;
    switch (f.kind) {
        case sim::FaultKind::pause:
        case sim::FaultKind::partition: c.length = f.ticks; break;
        case sim::FaultKind::clock_jump: c.length = tick_ms > 0 ? (f.ms < 0 ? -f.ms : f.ms) / tick_ms : 0; break;
        case sim::FaultKind::delay: c.length = f.extra; break;
        default: c.length = 1; break;
    }
    return c;
}

std::optional<FaultControls> parse_fault_controls(std::string_view text, const sim::Scenario& scenario) {
    const std::vector<std::string_view> parts = split(text, ':');
    if (parts.size() != 4 && parts.size() != 5) return std::nullopt;
    FaultControls c;
    std::size_t next = 1;
    bool known = false;
    for (sim::FaultKind k : {sim::FaultKind::pause, sim::FaultKind::partition, sim::FaultKind::crash,
                             sim::FaultKind::clock_jump, sim::FaultKind::delay})
        if (parts[0] == sim::to_string(k)) c.kind = k, known = true;
    if (!known) return std::nullopt;
    if (parts.size() == 5) {  // partition:MODE:node:at:length
        if (c.kind != sim::FaultKind::partition) return std::nullopt;
        if (parts[1] == sim::to_string(sim::PartitionMode::drop_replies))
            c.mode = sim::PartitionMode::drop_replies;
        else if (parts[1] != sim::to_string(sim::PartitionMode::drop_requests))
            return std::nullopt;
        next = 2;
    }
    c.node = -1;
    for (std::size_t i = 0; i < scenario.candidates.size(); ++i)
        if (scenario.candidates[i].name == parts[next]) c.node = static_cast<NodeIndex>(i);
    const auto at = integer(parts[next + 1]);
    const auto length = integer(parts[next + 2]);
    if (c.node < 0 || !at || !length) return std::nullopt;
    c.at = *at;
    c.length = *length;
    return c;
}

std::optional<sim::Fault> fault_from_json(const std::string& file_text, const std::string& file, std::string_view json,
                                          std::string& error) {
    const auto fault = nlohmann::ordered_json::parse(json, nullptr, false);
    if (fault.is_discarded() || !fault.is_object()) {
        error =
            "expected one fault as a JSON object, e.g. {\"kind\":\"pause\",\"node\":\"node-a\",\"at\":3,\"ticks\":8}";
        return std::nullopt;
    }
    auto whole = nlohmann::ordered_json::parse(file_text, nullptr, false, true);
    if (whole.is_discarded() || !whole.is_object()) {
        error = file + ": not a JSON object";
        return std::nullopt;
    }
    if (!whole.contains("faults")) whole["faults"] = nlohmann::ordered_json::array();
    whole["faults"].push_back(fault);
    auto parsed = sim::parse_scenario(whole.dump(), file);
    if (!parsed.ok()) {
        error = parsed.error().to_string();
        return std::nullopt;
    }
    return parsed.value().faults.back();
}

}  // namespace leasescope::gui
