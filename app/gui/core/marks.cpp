// The geometry of every mark, one definition for the screen, the panels, the legend and the SVG export (marks.hpp).
#include "marks.hpp"

#include <array>
#include <cmath>
#include <initializer_list>

#include "leasescope/engine/assert.hpp"

namespace leasescope::gui {
namespace {

using P = GlyphPoint;
using T = GlyphPart::Type;

GlyphPart poly(std::vector<P> pts, Ink ink = Ink::mark) { return GlyphPart{T::polygon, ink, 0, 0, std::move(pts)}; }
GlyphPart outline(std::vector<P> pts, Ink ink, float stroke) {
    return GlyphPart{T::outline, ink, 0, stroke, std::move(pts)};
}
GlyphPart line(std::vector<P> pts, Ink ink, float stroke) {
    return GlyphPart{T::polyline, ink, 0, stroke, std::move(pts)};
}
GlyphPart disc(float cx, float cy, float radius, Ink ink = Ink::mark) {
    return GlyphPart{T::circle, ink, radius, 0, {P{cx, cy}}};
}
GlyphPart ring(float cx, float cy, float radius, Ink ink, float stroke) {
    return GlyphPart{T::ring, ink, radius, stroke, {P{cx, cy}}};
}

// A regular polygon of `n` corners, the first at angle `start` (radians, 0 = right).
std::vector<P> regular(int n, float radius, float start) {
    std::vector<P> pts;
    for (int i = 0; i < n; ++i) {
        const float a = start + 6.2831853f * static_cast<float>(i) / static_cast<float>(n);
        pts.push_back(P{radius * std::cos(a), radius * std::sin(a)});
    }
    return pts;
}

// A filled shape with a white rim, so it reads on any span colour.
void solid(Glyph& g, const std::vector<P>& pts) {
    g.parts.push_back(poly(pts));
    g.parts.push_back(outline(pts, Ink::white, 0.18f));
}
// The hollow version of a shape: white inside, a thick rim in the mark colour.
void hollow(Glyph& g, const std::vector<P>& pts) {
    g.parts.push_back(poly(pts, Ink::white));
    g.parts.push_back(outline(pts, Ink::mark, 0.26f));
}
// "Refused": a slash across; "no answer": a dot in the middle.
void slash(Glyph& g) { g.parts.push_back(line({P{-0.45f, 0.45f}, P{0.45f, -0.45f}}, Ink::mark, 0.26f)); }
void dot(Glyph& g, float y = 0.0f) { g.parts.push_back(disc(0, y, 0.24f)); }
// A white check mark.
void check(Glyph& g) {
    g.parts.push_back(line({P{-0.5f, 0.0f}, P{-0.12f, 0.42f}, P{0.55f, -0.42f}}, Ink::white, 0.26f));
}
// A stop sign: the fence's family of marks.
void octagon(Glyph& g) {
    const auto oct = regular(8, 1.08f, 0.3926991f);
    g.parts.push_back(poly(oct));
    g.parts.push_back(outline(oct, Ink::white, 0.14f));
    g.extent = 1.08f;
}
// A white bar across (a closed gate).
void bar(Glyph& g) {
    g.parts.push_back(poly({P{-0.55f, -0.16f}, P{0.55f, -0.16f}, P{0.55f, 0.16f}, P{-0.55f, 0.16f}}, Ink::white));
}

const std::vector<P> up_triangle{P{0, -1.1f}, P{-1, 0.8f}, P{1, 0.8f}};
const std::vector<P> down_triangle{P{0, 1.1f}, P{-1, -0.8f}, P{1, -0.8f}};
const std::vector<P> diamond{P{0, -1.05f}, P{1.05f, 0}, P{0, 1.05f}, P{-1.05f, 0}};
const std::vector<P> square{P{-0.85f, -0.85f}, P{0.85f, -0.85f}, P{0.85f, 0.85f}, P{-0.85f, 0.85f}};

// Glyphs with a few parts, each a line of the table below.
Glyph with(std::initializer_list<GlyphPart> parts, float extent = 1.0f) {
    Glyph g;
    g.parts.assign(parts.begin(), parts.end());
    g.extent = extent;
    return g;
}
Glyph solid_shape(const std::vector<P>& pts) {
    Glyph g;
    solid(g, pts);
    return g;
}
// A hollow shape, slashed or with a dot (at `dot_y`): refused, or no answer.
Glyph hollow_shape(const std::vector<P>& pts) {
    Glyph g;
    hollow(g, pts);
    return g;
}
Glyph hollow_dot(const std::vector<P>& pts, float dot_y) {
    Glyph g = hollow_shape(pts);
    dot(g, dot_y);
    return g;
}

// An envelope (the unlock message, model.md §21.5.2): solid with its flap in
// white; lost (rule 21.5.3), hollow with a cross over it.
Glyph envelope_glyph(bool lost) {
    const std::vector<P> body{P{-0.95f, -0.65f}, P{0.95f, -0.65f}, P{0.95f, 0.65f}, P{-0.95f, 0.65f}};
    const std::vector<P> flap{P{-0.95f, -0.65f}, P{0.0f, 0.1f}, P{0.95f, -0.65f}};
    Glyph g = lost ? hollow_shape(body) : solid_shape(body);
    g.parts.push_back(line(flap, lost ? Ink::mark : Ink::white, 0.18f));
    if (!lost) return g;
    g.parts.push_back(line({P{-0.75f, 0.95f}, P{0.75f, -0.95f}}, Ink::mark, 0.26f));
    g.parts.push_back(line({P{-0.75f, -0.95f}, P{0.75f, 0.95f}}, Ink::mark, 0.26f));
    return g;
}

Glyph acquire_regressed_glyph() {  // an arrow pointing back: the counter went backwards
    const std::vector<P> head{P{-1.1f, 0}, P{-0.1f, -0.95f}, P{-0.1f, 0.95f}};
    const std::vector<P> shaft{P{-0.2f, -0.38f}, P{1.05f, -0.38f}, P{1.05f, 0.38f}, P{-0.2f, 0.38f}};
    return with({poly(head), poly(shaft),
                 outline({P{-1.1f, 0}, P{-0.1f, -0.95f}, P{-0.1f, -0.38f}, P{1.05f, -0.38f}, P{1.05f, 0.38f},
                          P{-0.1f, 0.38f}, P{-0.1f, 0.95f}},
                         Ink::white, 0.16f)},
                1.1f);
}

Glyph expire_glyph() {  // an hourglass: the record's time ran out
    const std::vector<P> top{P{-0.85f, -1}, P{0.85f, -1}, P{0, 0}};
    const std::vector<P> bottom{P{0, 0}, P{0.85f, 1}, P{-0.85f, 1}};
    return with(
        {poly(top), poly(bottom),
         outline({P{-0.85f, -1}, P{0.85f, -1}, P{0, 0}, P{0.85f, 1}, P{-0.85f, 1}, P{0, 0}}, Ink::white, 0.14f)});
}

Glyph write_current_glyph() {  // a disc with a check: written by the current holder
    Glyph g = with({disc(0, 0, 1.0f), ring(0, 0, 1.0f, Ink::white, 0.16f)});
    check(g);
    return g;
}

Glyph write_stale_glyph() {  // a square with a check: it landed, but the writer's lease was gone
    Glyph g = solid_shape(square);
    check(g);
    return g;
}

Glyph write_unsafe_glyph() {  // a burst with "!": an older number landed after a newer one
    std::vector<P> star;
    for (int i = 0; i < 16; ++i) {
        const float a = -1.5707963f + 6.2831853f * static_cast<float>(i) / 16.0f;
        const float rr = i % 2 == 0 ? 1.3f : 0.72f;
        star.push_back(P{rr * std::cos(a), rr * std::sin(a)});
    }
    Glyph g;
    // A white halo first: the burst stays loud on a crimson STALE bar.
    g.parts.push_back(outline(star, Ink::white, 0.4f));
    // Filled as a fan of convex pieces (a star is not convex).
    g.parts.push_back(poly(regular(8, 0.74f, -1.5707963f + 0.3926991f)));
    for (int i = 0; i < 16; i += 2) {
        const P tip = star[static_cast<std::size_t>(i)];
        const P before = star[static_cast<std::size_t>((i + 15) % 16)];
        const P after = star[static_cast<std::size_t>(i + 1)];
        g.parts.push_back(poly({before, tip, after}));
    }
    g.parts.push_back(outline(star, Ink::dark, 0.12f));
    g.parts.push_back(line({P{0, -0.62f}, P{0, 0.12f}}, Ink::white, 0.26f));
    g.parts.push_back(disc(0, 0.42f, 0.15f, Ink::white));
    g.extent = 1.45f;
    return g;
}

Glyph write_rejected_fence_glyph() {  // an octagon (a stop sign) with a bar: the fence refused it
    Glyph g;
    octagon(g);
    bar(g);
    return g;
}

Glyph write_rejected_token_glyph() {  // a shield with a bar: token validation refused it
    Glyph g = solid_shape({P{-0.9f, -0.95f}, P{0.9f, -0.95f}, P{0.9f, 0.2f}, P{0, 1.1f}, P{-0.9f, 0.2f}});
    bar(g);
    g.extent = 1.1f;
    return g;
}

// A database cylinder: the store failed over. Filled (`all`): everything is
// gone, the fencing counter too; hollow: the leases are gone, the counter survived.
Glyph write_rejected_recorded_glyph() {  // a disc with a bar: the real resource refused it, how unknown
    Glyph g = with({disc(0, 0, 1.0f), ring(0, 0, 1.0f, Ink::white, 0.16f)});
    bar(g);
    return g;
}

Glyph failover_glyph(bool all) {
    std::vector<P> body;  // the outline: top ellipse's back, right side, bottom arc, left side
    for (int i = 0; i <= 8; ++i) {
        const float a = 3.1415927f + 3.1415927f * static_cast<float>(i) / 8.0f;
        body.push_back(P{0.9f * std::cos(a), -0.7f + 0.3f * std::sin(a)});
    }
    for (int i = 0; i <= 8; ++i) {
        const float a = 3.1415927f * static_cast<float>(i) / 8.0f;
        body.push_back(P{0.9f * std::cos(a), 0.7f + 0.3f * std::sin(a)});
    }
    std::vector<P> rim;  // the front of the top ellipse
    for (int i = 0; i <= 8; ++i) {
        const float a = 3.1415927f * static_cast<float>(i) / 8.0f;
        rim.push_back(P{0.9f * std::cos(a), -0.7f + 0.3f * std::sin(a)});
    }
    if (all) return with({poly(body), line(rim, Ink::white, 0.16f), outline(body, Ink::dark, 0.12f)});
    return with({poly(body, Ink::white), outline(body, Ink::mark, 0.26f), line(rim, Ink::mark, 0.2f)});
}

// The marks of the safety violations (model.md §9.6-§9.8), one small builder each.
Glyph lost_update_glyph() {  // a square with "!": a stale write landed on a successor's
    Glyph g;
    solid(g, square);
    g.parts.push_back(outline(square, Ink::dark, 0.14f));
    g.parts.push_back(line({P{0, -0.6f}, P{0, 0.15f}}, Ink::white, 0.26f));
    g.parts.push_back(disc(0, 0.45f, 0.15f, Ink::white));
    return g;
}
Glyph holder_rejected_glyph() {  // a stop sign with a check: the fence refused a valid holder
    Glyph g;
    octagon(g);
    check(g);
    return g;
}
Glyph duplicate_glyph() {  // two upward triangles, one behind the other: one number, two holders
    Glyph g;
    g.parts.push_back(poly({P{0.05f, -1.05f}, P{1.1f, 0.75f}, P{-1.0f, 0.75f}}));
    g.parts.push_back(poly({P{-0.35f, -0.65f}, P{0.6f, 1.05f}, P{-1.3f, 1.05f}}));
    g.parts.push_back(outline({P{-0.35f, -0.65f}, P{0.6f, 1.05f}, P{-1.3f, 1.05f}}, Ink::white, 0.16f));
    g.extent = 1.3f;
    return g;
}

struct GlyphRow {
    MarkerKind kind;
    Glyph (*make)();
};

// One row per mark: its kind and its shape, with what the shape says. A new
// mark is a new row (and, for an intricate shape, a function above).
const GlyphRow glyph_rows[] = {
    {MarkerKind::start,  // a thin upright line: a run begins
     [] {
         return with({line({P{0, -0.9f}, P{0, 0.9f}}, Ink::mark, 0.22f)});
     }},
    {MarkerKind::acquire, [] { return solid_shape(up_triangle); }},  // an upward triangle: the lock is taken
    {MarkerKind::acquire_busy, [] { return with({disc(0, 0, 0.35f)}, 0.4f); }},  // a small dot: one more try
    {MarkerKind::acquire_error, [] { return hollow_dot(up_triangle, 0.2f); }},   // hollow, a dot: no answer
    {MarkerKind::acquire_regressed, acquire_regressed_glyph},
    {MarkerKind::skip, [] { return hollow_shape(square); }},    // a hollow square: gave up waiting
    {MarkerKind::extend, [] { return solid_shape(diamond); }},  // a diamond: the lease is pushed forward
    {MarkerKind::extend_lost,                                   // a hollow diamond, slashed: the lease is gone
     [] {
         Glyph g = hollow_shape(diamond);
         slash(g);
         return g;
     }},
    {MarkerKind::extend_error, [] { return hollow_dot(diamond, 0.0f); }},  // a hollow diamond with a dot: no answer
    {MarkerKind::release, [] { return solid_shape(down_triangle); }},  // a downward triangle: the lock is given back
    {MarkerKind::release_rejected,                                     // a hollow downward triangle, slashed: refused
     [] {
         Glyph g = hollow_shape(down_triangle);
         g.parts.push_back(line({P{-0.42f, 0.1f}, P{0.42f, -0.62f}}, Ink::mark, 0.26f));
         return g;
     }},
    {MarkerKind::release_error, [] { return hollow_dot(down_triangle, -0.2f); }},  // hollow, a dot: no answer
    {MarkerKind::release_left_alone,  // a hollow downward triangle around a small solid square: a key kept
     [] {
         Glyph g = hollow_shape(down_triangle);
         g.parts.push_back(poly({P{-0.22f, -0.5f}, P{0.22f, -0.5f}, P{0.22f, -0.06f}, P{-0.22f, -0.06f}}));
         return g;
     }},
    {MarkerKind::release_no_key,  // a hollow downward triangle around a short dash: nothing there
     [] {
         Glyph g = hollow_shape(down_triangle);
         g.parts.push_back(line({P{-0.3f, -0.3f}, P{0.3f, -0.3f}}, Ink::mark, 0.2f));
         return g;
     }},
    {MarkerKind::expire, expire_glyph},
    {MarkerKind::write_current, write_current_glyph},
    {MarkerKind::write_stale, write_stale_glyph},
    {MarkerKind::write_unsafe, write_unsafe_glyph},
    {MarkerKind::write_rejected_fence, write_rejected_fence_glyph},
    {MarkerKind::write_rejected_token, write_rejected_token_glyph},
    {MarkerKind::write_rejected_recorded, write_rejected_recorded_glyph},
    {MarkerKind::write_lost_update, lost_update_glyph},
    {MarkerKind::write_holder_rejected, holder_rejected_glyph},
    {MarkerKind::acquire_duplicate, duplicate_glyph},
    {MarkerKind::pause,  // two bars: stop-the-world
     [] {
         return with({poly({P{-0.75f, -0.9f}, P{-0.2f, -0.9f}, P{-0.2f, 0.9f}, P{-0.75f, 0.9f}}),
                      poly({P{0.2f, -0.9f}, P{0.75f, -0.9f}, P{0.75f, 0.9f}, P{0.2f, 0.9f}})});
     }},
    {MarkerKind::resume,
     [] {
         return solid_shape({P{-0.7f, -0.9f}, P{0.9f, 0}, P{-0.7f, 0.9f}});
     }},                 // play
    {MarkerKind::crash,  // a bold X on a white disc: the node is gone
     [] {
         return with({disc(0, 0, 1.1f, Ink::white), line({P{-0.7f, -0.7f}, P{0.7f, 0.7f}}, Ink::mark, 0.38f),
                      line({P{-0.7f, 0.7f}, P{0.7f, -0.7f}}, Ink::mark, 0.38f)},
                     1.1f);
     }},
    {MarkerKind::partition,  // a zigzag: the link is cut
     [] {
         return with({line({P{-0.2f, -1}, P{0.45f, -0.3f}, P{-0.45f, 0.3f}, P{0.2f, 1}}, Ink::mark, 0.32f)});
     }},
    {MarkerKind::heal, [] { return with({ring(0, 0, 0.7f, Ink::mark, 0.3f)}); }},  // a ring: the link is whole again
    {MarkerKind::failover_leases, [] { return failover_glyph(false); }},
    {MarkerKind::failover_all, [] { return failover_glyph(true); }},
    {MarkerKind::clock_jump,  // a clock face: a clock stepped
     [] {
         return with({disc(0, 0, 1.0f, Ink::white), ring(0, 0, 1.0f, Ink::mark, 0.26f),
                      line({P{0, -0.62f}, P{0, 0}, P{0.5f, 0.3f}}, Ink::mark, 0.24f)});
     }},
    {MarkerKind::op_read,  // a small ring with a dot: someone looked
     [] {
         return with({ring(0, 0, 0.55f, Ink::mark, 0.2f), disc(0, 0, 0.2f)}, 0.65f);
     }},
    // Replication (model.md §17).
    {MarkerKind::link_cut,  // a broken link: two half-rings apart
     [] {
         return with({line({P{-1.0f, 0}, P{-0.35f, 0}}, Ink::mark, 0.3f),
                      line({P{0.35f, 0}, P{1.0f, 0}}, Ink::mark, 0.3f),
                      line({P{-0.2f, -0.8f}, P{0.2f, 0.8f}}, Ink::mark, 0.26f)});
     }},
    {MarkerKind::link_restored,  // a whole link: a bar through a ring
     [] {
         return with({line({P{-1.0f, 0}, P{1.0f, 0}}, Ink::mark, 0.3f), ring(0, 0, 0.5f, Ink::mark, 0.26f)});
     }},
    {MarkerKind::promote,  // a crown: this replica becomes the primary
     [] {
         return solid_shape({P{-0.95f, 0.75f}, P{-0.95f, -0.6f}, P{-0.45f, -0.05f}, P{0, -0.9f}, P{0.45f, -0.05f},
                             P{0.95f, -0.6f}, P{0.95f, 0.75f}});
     }},
    {MarkerKind::wait_synced,  // a hollow square with a check: replicas acknowledged
     [] {
         Glyph g = hollow_shape(square);
         g.parts.push_back(line({P{-0.45f, 0.0f}, P{-0.1f, 0.38f}, P{0.5f, -0.38f}}, Ink::mark, 0.24f));
         return g;
     }},
    {MarkerKind::wait_not_synced,  // a hollow square, slashed: too few replicas
     [] {
         Glyph g = hollow_shape(square);
         slash(g);
         return g;
     }},
    {MarkerKind::refused,  // a stop sign with a bar: NOREPLICAS
     [] {
         Glyph g;
         octagon(g);
         bar(g);
         g.parts.push_back(disc(0, 0, 0.16f));
         return g;
     }},
    {MarkerKind::believe_leader,  // a flag on its pole: the node believes it leads
     [] {
         Glyph g = with({poly({P{-0.75f, -1.05f}, P{-0.45f, -1.05f}, P{-0.45f, 1.05f}, P{-0.75f, 1.05f}})}, 1.05f);
         solid(g, {P{-0.45f, -1.05f}, P{0.95f, -0.55f}, P{-0.45f, -0.05f}});
         return g;
     }},
    {MarkerKind::believe_follower,  // the flag hollow: it no longer believes it leads
     [] {
         Glyph g = with({poly({P{-0.75f, -1.05f}, P{-0.45f, -1.05f}, P{-0.45f, 1.05f}, P{-0.75f, 1.05f}})}, 1.05f);
         hollow(g, {P{-0.45f, -1.05f}, P{0.95f, -0.55f}, P{-0.45f, -0.05f}});
         return g;
     }},
    {MarkerKind::undecided,  // a hollow circle with three dots: the capture cannot tell
     [] {
         Glyph g = with({disc(0, 0, 1.0f, Ink::white), ring(0, 0, 1.0f, Ink::mark, 0.24f)});
         for (const float x : {-0.48f, 0.0f, 0.48f}) g.parts.push_back(disc(x, 0, 0.17f));
         return g;
     }},
    // Redisson's unlock message (model.md §21.5): an envelope, and the same crossed out when lost.
    {MarkerKind::unlock_message, [] { return envelope_glyph(false); }},
    {MarkerKind::unlock_message_lost, [] { return envelope_glyph(true); }},
    // Never drawn as marks (the overlap band); a bar if asked.
    {MarkerKind::overlap_begin,
     [] {
         return with({poly({P{-0.2f, -1}, P{0.2f, -1}, P{0.2f, 1}, P{-0.2f, 1}})});
     }},
    {MarkerKind::overlap_end,
     [] {
         return with({poly({P{-0.2f, -1}, P{0.2f, -1}, P{0.2f, 1}, P{-0.2f, 1}})});
     }},
};

std::array<Glyph, static_cast<std::size_t>(MarkerKind::count_)> make_all() {
    std::array<Glyph, static_cast<std::size_t>(MarkerKind::count_)> all;
    std::array<bool, static_cast<std::size_t>(MarkerKind::count_)> made{};
    for (const GlyphRow& row : glyph_rows) {
        const auto k = static_cast<std::size_t>(row.kind);
        LS_ASSERT(!made[k]);  // one row per mark
        all[k] = row.make();
        made[k] = true;
    }
    for (bool m : made) LS_ASSERT(m);  // every mark has its row
    return all;
}

}  // namespace

const Glyph& mark_glyph(MarkerKind kind) {
    static const auto all = make_all();  // built once, read-only afterwards
    return all[static_cast<std::size_t>(kind)];
}

bool has_legend_entry(MarkerKind kind) {
    return kind != MarkerKind::overlap_begin && kind != MarkerKind::overlap_end && kind != MarkerKind::count_;
}

const std::vector<MarkerKind>& legend_marks() {
    static const std::vector<MarkerKind> order{
        MarkerKind::start,
        MarkerKind::acquire,
        MarkerKind::acquire_busy,
        MarkerKind::skip,
        MarkerKind::acquire_error,
        MarkerKind::acquire_regressed,
        MarkerKind::acquire_duplicate,
        MarkerKind::extend,
        MarkerKind::extend_error,
        MarkerKind::extend_lost,
        MarkerKind::expire,
        MarkerKind::write_current,
        MarkerKind::write_stale,
        MarkerKind::write_unsafe,
        MarkerKind::write_rejected_fence,
        MarkerKind::write_rejected_token,
        MarkerKind::write_rejected_recorded,
        MarkerKind::write_lost_update,
        MarkerKind::write_holder_rejected,
        MarkerKind::release,
        MarkerKind::release_rejected,
        MarkerKind::release_error,
        MarkerKind::release_left_alone,
        MarkerKind::release_no_key,
        MarkerKind::pause,
        MarkerKind::resume,
        MarkerKind::partition,
        MarkerKind::heal,
        MarkerKind::crash,
        MarkerKind::failover_leases,
        MarkerKind::failover_all,
        MarkerKind::op_read,
        MarkerKind::clock_jump,
        MarkerKind::link_cut,
        MarkerKind::link_restored,
        MarkerKind::promote,
        MarkerKind::wait_synced,
        MarkerKind::wait_not_synced,
        MarkerKind::refused,
        MarkerKind::believe_leader,
        MarkerKind::believe_follower,
        MarkerKind::undecided,
        MarkerKind::unlock_message,
        MarkerKind::unlock_message_lost,
    };
    return order;
}

}  // namespace leasescope::gui
