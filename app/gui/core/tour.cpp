#include "tour.hpp"

#include <nlohmann/json.hpp>

namespace leasescope::gui {

bool load_tour(const std::string& json_text, std::vector<TourStep>& out, std::string& error) {
    using nlohmann::json;
    json j = json::parse(json_text, nullptr, false, true);
    if (j.is_discarded() || !j.is_object() || !j.contains("steps") || !j["steps"].is_array()) {
        error = "the tour must be an object with a \"steps\" array";
        return false;
    }
    out.clear();
    std::size_t i = 0;
    for (const json& s : j["steps"]) {
        TourStep step;
        try {
            step.preset = s.at("preset").get<std::string>();
            if (s.contains("tick")) step.tick = s["tick"].get<Tick>();
            if (s.contains("find")) {
                const json& f = s["find"];
                step.find_op = f.value("op", "");
                step.find_outcome = f.value("outcome", "");
                step.find_node = f.value("node", "");
                step.offset = f.value("offset", Tick{0});
            }
            step.focus = s.value("focus", "timeline");
            step.title_en = s.at("title").at("en").get<std::string>();
            step.title_ko = s.at("title").at("ko").get<std::string>();
            step.body_en = s.at("body").at("en").get<std::string>();
            step.body_ko = s.at("body").at("ko").get<std::string>();
        } catch (const json::exception& ex) {
            error = "tour step " + std::to_string(i) + ": " + ex.what();
            return false;
        }
        out.push_back(std::move(step));
        ++i;
    }
    return true;
}

Tick resolve_tour_tick(const TourStep& step, const sim::Trace& trace) {
    if (step.tick) return *step.tick;
    for (const sim::Event& e : trace.events) {
        if (!step.find_op.empty() && step.find_op != sim::to_string(e.op)) continue;
        if (!step.find_outcome.empty() && step.find_outcome != sim::to_string(e.outcome)) continue;
        if (!step.find_node.empty() && step.find_node != e.node) continue;
        return std::max<Tick>(0, e.tick + step.offset);
    }
    return 0;
}

}  // namespace leasescope::gui
