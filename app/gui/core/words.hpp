#pragma once
// Events told in words, for the views: the words library under the app's
// namespace (leasescope/words/words.hpp has the documentation).
#include "leasescope/words/words.hpp"
#include "strings.hpp"

namespace leasescope::gui {

using words::describe_event;
using words::event_fields;
using words::event_key;
using words::explain;
using words::explain_event;
using words::explain_state;
using words::ExplainContext;
using words::Explanation;
using words::op_words;
using words::outcome_words;
using words::Sentence;
using words::short_token;
using words::status_words;
using words::ttl_set;
using words::ttl_words;

}  // namespace leasescope::gui
