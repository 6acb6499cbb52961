// The one place that lists the views, in drawing order. A new panel is one
// file and one line here.
#include "view.hpp"

namespace leasescope::gui {

std::unique_ptr<View> make_controls_view();
std::unique_ptr<View> make_candidates_view();
std::unique_ptr<View> make_action_view();
std::unique_ptr<View> make_timeline_view();
std::unique_ptr<View> make_transport_view();
std::unique_ptr<View> make_record_view();
std::unique_ptr<View> make_resource_view();
std::unique_ptr<View> make_events_view();
std::unique_ptr<View> make_explain_view();
std::unique_ptr<View> make_tour_view();
std::unique_ptr<View> make_live_view();
std::unique_ptr<View> make_find_view();
std::unique_ptr<View> make_code_view();
std::unique_ptr<View> make_exercise_view();

std::vector<std::unique_ptr<View>> make_views() {
    std::vector<std::unique_ptr<View>> views;
    views.push_back(make_controls_view());
    views.push_back(make_candidates_view());
    views.push_back(make_action_view());
    views.push_back(make_timeline_view());
    views.push_back(make_transport_view());
    views.push_back(make_record_view());
    views.push_back(make_resource_view());
    views.push_back(make_events_view());
    views.push_back(make_explain_view());
    views.push_back(make_tour_view());
    views.push_back(make_live_view());
    views.push_back(make_find_view());
    views.push_back(make_code_view());
    views.push_back(make_exercise_view());
    return views;
}

}  // namespace leasescope::gui
