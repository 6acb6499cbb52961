#include "trace_lanes.hpp"

#include <algorithm>

namespace leasescope::gui {

LaneModel build_trace_lanes(const sim::Trace& trace) {
    LaneModel model;
    const auto& names = trace.header.candidates;
    for (std::size_t i = 0; i < names.size(); ++i) {
        Lane lane;
        lane.kind = LaneKind::candidate;
        lane.label = names[i];
        lane.index = static_cast<std::int32_t>(i);
        model.lanes.push_back(std::move(lane));
    }
    model.candidate_lanes = static_cast<std::int32_t>(names.size());
    Lane store;
    store.kind = LaneKind::ops;
    store.label = "store";
    Tick end = trace.summary.end_tick;
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        end = std::max(end, e.tick);
        Marker m;
        m.tick = e.tick;
        m.kind = marker_kind_of(e);
        m.event = static_cast<std::int32_t>(k);
        m.fencing = e.fencing;
        const auto it = std::find(names.begin(), names.end(), e.node);
        if (it == names.end()) store.markers.push_back(m);
        else model.lanes[static_cast<std::size_t>(it - names.begin())].markers.push_back(m);
    }
    model.lanes.push_back(std::move(store));
    model.end_tick = end;
    model.event_count = trace.events.size();
    return model;
}

namespace {
// Where the user-info of a URL sits: [begin, at) before the '@' of the authority.
struct UserInfo {
    std::size_t begin = std::string_view::npos;
    std::size_t at = std::string_view::npos;
};
UserInfo find_userinfo(std::string_view url) {
    UserInfo u;
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return u;
    const std::size_t begin = scheme + 3;
    const std::size_t end = std::min(url.find('/', begin), url.size());
    const auto at = url.substr(begin, end - begin).rfind('@');
    if (at == std::string_view::npos) return u;
    u.begin = begin;
    u.at = begin + at;
    return u;
}
}  // namespace

UrlParts split_redis_password(std::string_view url) {
    const UserInfo u = find_userinfo(url);
    if (u.at == std::string_view::npos) return {std::string(url), {}};
    const std::string_view info = url.substr(u.begin, u.at - u.begin);
    const auto colon = info.find(':');
    if (colon == std::string_view::npos) return {std::string(url), {}};
    const std::string_view user = info.substr(0, colon);
    UrlParts parts;
    parts.password = std::string(info.substr(colon + 1));
    parts.url = std::string(url.substr(0, u.begin));
    if (!user.empty()) parts.url.append(user).append("@");
    parts.url.append(url.substr(u.at + 1));
    return parts;
}

std::string join_redis_password(std::string_view url, std::string_view password) {
    if (password.empty()) return std::string(url);
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return std::string(url);
    const UserInfo u = find_userinfo(url);
    std::string out;
    if (u.at == std::string_view::npos) {
        out.append(url.substr(0, scheme + 3)).append(":").append(password).append("@").append(url.substr(scheme + 3));
        return out;
    }
    // Drop a password already there, keep the user.
    std::string_view user = url.substr(u.begin, u.at - u.begin);
    user = user.substr(0, user.find(':'));
    out.append(url.substr(0, u.begin)).append(user).append(":").append(password).append(url.substr(u.at));
    return out;
}

std::string redact_redis_url(std::string_view url) {
    const UrlParts parts = split_redis_password(url);
    if (parts.password.empty()) return parts.url;
    return join_redis_password(parts.url, "***");
}

std::int64_t violation_event(const sim::Trace& trace, bool unsafe_write, bool fencing_regressed, bool overlap) {
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        const std::string_view d = e.detail;
        if (unsafe_write && e.op == sim::EventOp::write && d.find("unsafe_write") != std::string_view::npos)
            return static_cast<std::int64_t>(k);
        if (fencing_regressed && e.op == sim::EventOp::acquire && d.find("fencing_regressed") != std::string_view::npos)
            return static_cast<std::int64_t>(k);
        if (overlap && e.op == sim::EventOp::overlap_begin) return static_cast<std::int64_t>(k);
    }
    return -1;
}

}  // namespace leasescope::gui
