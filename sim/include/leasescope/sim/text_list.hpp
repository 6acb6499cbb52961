#pragma once
// Lists of words: splitting a comma-separated list given on a command line (the explorer's
// properties and fault kinds (explore_options.cpp) and the app's --panels
// (app/gui/core/panels.cpp) read their lists with this one rule.
#include <string>
#include <string_view>
#include <vector>

namespace leasescope::sim {

// "a, b , c" -> {"a", "b", "c"}, each trimmed of spaces; an empty item
// (",," or a trailing comma) stays, for the caller to refuse or skip.
inline std::vector<std::string_view> split_list(std::string_view text) {
    std::vector<std::string_view> items;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view item = text.substr(begin, end - begin);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        items.push_back(item);
        begin = end + 1;
    }
    return items;
}

// "; did you mean \"lease\"?" when a known word is near (one edit per
// three letters, a swap of neighbours counting as one), else "; expected one
// of: a, b, c". The scenario reader's rule (scenario_messages.cpp), shared by
// the import's log reader.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& known);

}  // namespace leasescope::sim
