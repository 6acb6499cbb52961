// The protected data as the writes left it: one pass over the trace's writes.
#include "resource_data.hpp"

#include <algorithm>

namespace leasescope::gui {

ResourceData resource_data(const sim::Trace& trace, std::size_t end) {
    ResourceData data;
    end = std::min(end, trace.events.size());
    for (std::size_t k = 0; k < end; ++k) {
        const sim::Event& e = trace.events[k];
        if (e.op != sim::EventOp::write) continue;
        DataWrite w;
        w.event = k;
        w.tick = e.tick;
        w.sent = e.sent.value_or(e.tick);
        w.node = e.node;
        w.run = e.run;
        w.fencing = e.fencing;
        w.accepted = e.outcome == sim::Outcome::accepted;
        w.lost_update = w.accepted && e.details.has(sim::Detail::stale_after_successor);
        w.marks = e.details;
        if (w.accepted) {
            w.replaced = data.value;
            data.value = data.writes.size();
        }
        w.value_after = data.value;
        data.writes.push_back(std::move(w));
    }
    return data;
}

namespace {

// A write without a fencing number (Redlock's, model.md §20.6; Redisson's, §21.6) says so in
// words, never "#–": the key with "_unfenced" has no {fencing} field.
std::string fenced_key(const char* key, const std::optional<Fencing>& f) {
    return f ? std::string(key) : std::string(key) + "_unfenced";
}

std::string fencing_text(const std::optional<Fencing>& f) { return f ? std::to_string(*f) : ""; }

// "accepted", or "accepted (stale writer, unsafe write, lost update)": every mark of the write.
std::string verdict_words(const DataWrite& w, const Strings& strings) {
    const std::string verdict = strings.tr(w.accepted ? "out.write.accepted" : "out.write.rejected");
    std::string marks;
    for (const sim::Detail d : {sim::Detail::stale, sim::Detail::unsafe_write, sim::Detail::stale_after_successor,
                                sim::Detail::holder_rejected}) {
        if (!w.marks.has(d)) continue;
        if (!marks.empty()) marks += ", ";
        marks += strings.tr(std::string("data.mark.") + sim::to_string(d));
    }
    return marks.empty() ? verdict : strings.tr("data.verdict_marks", {{"verdict", verdict}, {"marks", marks}});
}

}  // namespace

std::string data_now_words(const ResourceData& data, const Strings& strings) {
    if (!data.value) return strings.tr("data.now", {{"value", strings.tr("data.empty")}});
    const DataWrite& w = data.writes[*data.value];
    // A recorded write the history placed in no run (run -1, an import) names none.
    const std::string value =
        w.run < 0
            ? strings.tr(fenced_key("data.value_no_run", w.fencing),
                         {{"node", w.node}, {"fencing", fencing_text(w.fencing)}})
            : strings.tr(fenced_key("data.value", w.fencing),
                         {{"node", w.node}, {"run", std::to_string(w.run)}, {"fencing", fencing_text(w.fencing)}});
    return strings.tr("data.now", {{"value", value}});
}

std::string data_write_words(const ResourceData& data, std::size_t i, const Strings& strings) {
    const DataWrite& w = data.writes.at(i);
    std::string value;
    if (w.accepted)
        value = strings.tr("data.set", {{"node", w.node}});
    else if (w.value_after)
        value = strings.tr("data.kept", {{"node", data.writes[*w.value_after].node}});
    else
        value = strings.tr("data.kept_empty");
    const std::string sent = w.sent != w.tick ? strings.tr("data.sent", {{"sent", std::to_string(w.sent)}}) : "";
    return strings.tr(fenced_key("resource.write_line", w.fencing), {{"tick", std::to_string(w.tick)},
                                                                     {"node", w.node},
                                                                     {"fencing", fencing_text(w.fencing)},
                                                                     {"sent", sent},
                                                                     {"verdict", verdict_words(w, strings)},
                                                                     {"value", value}});
}

std::string data_lost_words(const ResourceData& data, std::size_t i, const Strings& strings) {
    const DataWrite& w = data.writes.at(i);
    if (!w.lost_update || !w.replaced) return "";
    return strings.tr("data.lost", {{"node", w.node}, {"previous", data.writes[*w.replaced].node}});
}

}  // namespace leasescope::gui
