// The geometry of every mark, one definition for the screen, the panels, the legend and the SVG export (marks.hpp).
#include "marks.hpp"

#include <array>
#include <cmath>

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
// A white bar across (a closed gate).
void bar(Glyph& g) {
    g.parts.push_back(poly({P{-0.55f, -0.16f}, P{0.55f, -0.16f}, P{0.55f, 0.16f}, P{-0.55f, 0.16f}}, Ink::white));
}

const std::vector<P> up_triangle{P{0, -1.1f}, P{-1, 0.8f}, P{1, 0.8f}};
const std::vector<P> down_triangle{P{0, 1.1f}, P{-1, -0.8f}, P{1, -0.8f}};
const std::vector<P> diamond{P{0, -1.05f}, P{1.05f, 0}, P{0, 1.05f}, P{-1.05f, 0}};
const std::vector<P> square{P{-0.85f, -0.85f}, P{0.85f, -0.85f}, P{0.85f, 0.85f}, P{-0.85f, 0.85f}};

// The marks of a run's calls: start, acquire, extend, release. Fills `g` and returns true for its kinds.
bool run_glyph(MarkerKind kind, Glyph& g) {
    switch (kind) {
        case MarkerKind::start:  // a thin upright line: a run begins
            g.parts.push_back(line({P{0, -0.9f}, P{0, 0.9f}}, Ink::mark, 0.22f));
            break;
        case MarkerKind::acquire:  // an upward triangle: the lock is taken
            solid(g, up_triangle);
            break;
        case MarkerKind::acquire_busy:  // a small dot: one more try
            g.parts.push_back(disc(0, 0, 0.35f));
            g.extent = 0.4f;
            break;
        case MarkerKind::acquire_error:  // a hollow upward triangle with a dot: no answer
            hollow(g, up_triangle);
            dot(g, 0.2f);
            break;
        case MarkerKind::acquire_regressed: {  // an arrow pointing back: the counter went backwards
            const std::vector<P> head{P{-1.1f, 0}, P{-0.1f, -0.95f}, P{-0.1f, 0.95f}};
            const std::vector<P> shaft{P{-0.2f, -0.38f}, P{1.05f, -0.38f}, P{1.05f, 0.38f}, P{-0.2f, 0.38f}};
            g.parts.push_back(poly(head));
            g.parts.push_back(poly(shaft));
            g.parts.push_back(outline({P{-1.1f, 0}, P{-0.1f, -0.95f}, P{-0.1f, -0.38f}, P{1.05f, -0.38f},
                                       P{1.05f, 0.38f}, P{-0.1f, 0.38f}, P{-0.1f, 0.95f}},
                                      Ink::white, 0.16f));
            g.extent = 1.1f;
            break;
        }
        case MarkerKind::skip:  // a hollow square: gave up waiting
            hollow(g, square);
            break;
        case MarkerKind::extend:  // a diamond: the lease is pushed forward
            solid(g, diamond);
            break;
        case MarkerKind::extend_lost:  // a hollow diamond, slashed: the lease is gone
            hollow(g, diamond);
            slash(g);
            break;
        case MarkerKind::extend_error:  // a hollow diamond with a dot: no answer
            hollow(g, diamond);
            dot(g);
            break;
        case MarkerKind::release:  // a downward triangle: the lock is given back
            solid(g, down_triangle);
            break;
        case MarkerKind::release_rejected:  // a hollow downward triangle, slashed: refused
            hollow(g, down_triangle);
            g.parts.push_back(line({P{-0.42f, 0.1f}, P{0.42f, -0.62f}}, Ink::mark, 0.26f));
            break;
        case MarkerKind::release_error:  // a hollow downward triangle with a dot: no answer
            hollow(g, down_triangle);
            dot(g, -0.2f);
            break;
        default: return false;
    }
    return true;
}

// The marks of the store's expiry and of the resource's writes. Fills `g` and returns true for its kinds.
bool store_glyph(MarkerKind kind, Glyph& g) {
    switch (kind) {
        case MarkerKind::expire: {  // an hourglass: the record's time ran out
            const std::vector<P> top{P{-0.85f, -1}, P{0.85f, -1}, P{0, 0}};
            const std::vector<P> bottom{P{0, 0}, P{0.85f, 1}, P{-0.85f, 1}};
            g.parts.push_back(poly(top));
            g.parts.push_back(poly(bottom));
            g.parts.push_back(
                outline({P{-0.85f, -1}, P{0.85f, -1}, P{0, 0}, P{0.85f, 1}, P{-0.85f, 1}, P{0, 0}}, Ink::white, 0.14f));
            break;
        }
        case MarkerKind::write_current:  // a disc with a check: written by the current holder
            g.parts.push_back(disc(0, 0, 1.0f));
            g.parts.push_back(ring(0, 0, 1.0f, Ink::white, 0.16f));
            check(g);
            break;
        case MarkerKind::write_stale:  // a square with a check: it landed, but the writer's lease was gone
            solid(g, square);
            check(g);
            break;
        case MarkerKind::write_unsafe: {  // a burst with "!": an older number landed after a newer one
            std::vector<P> star;
            for (int i = 0; i < 16; ++i) {
                const float a = -1.5707963f + 6.2831853f * static_cast<float>(i) / 16.0f;
                const float rr = i % 2 == 0 ? 1.3f : 0.72f;
                star.push_back(P{rr * std::cos(a), rr * std::sin(a)});
            }
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
            break;
        }
        case MarkerKind::write_rejected_fence: {  // an octagon (a stop sign) with a bar: the fence refused it
            const auto oct = regular(8, 1.08f, 0.3926991f);
            g.parts.push_back(poly(oct));
            g.parts.push_back(outline(oct, Ink::white, 0.14f));
            bar(g);
            g.extent = 1.08f;
            break;
        }
        case MarkerKind::write_rejected_token: {  // a shield with a bar: token validation refused it
            const std::vector<P> shield{P{-0.9f, -0.95f}, P{0.9f, -0.95f}, P{0.9f, 0.2f}, P{0, 1.1f}, P{-0.9f, 0.2f}};
            solid(g, shield);
            bar(g);
            g.extent = 1.1f;
            break;
        }
        default: return false;
    }
    return true;
}

// The marks of faults, third-party reads and clocks. Fills `g` and returns true for its kinds.
bool fault_glyph(MarkerKind kind, Glyph& g) {
    switch (kind) {
        case MarkerKind::pause:  // two bars: stop-the-world
            g.parts.push_back(poly({P{-0.75f, -0.9f}, P{-0.2f, -0.9f}, P{-0.2f, 0.9f}, P{-0.75f, 0.9f}}));
            g.parts.push_back(poly({P{0.2f, -0.9f}, P{0.75f, -0.9f}, P{0.75f, 0.9f}, P{0.2f, 0.9f}}));
            break;
        case MarkerKind::resume:  // play: it runs again
            solid(g, {P{-0.7f, -0.9f}, P{0.9f, 0}, P{-0.7f, 0.9f}});
            break;
        case MarkerKind::crash:  // a bold X on a white disc: the node is gone
            g.parts.push_back(disc(0, 0, 1.1f, Ink::white));
            g.parts.push_back(line({P{-0.7f, -0.7f}, P{0.7f, 0.7f}}, Ink::mark, 0.38f));
            g.parts.push_back(line({P{-0.7f, 0.7f}, P{0.7f, -0.7f}}, Ink::mark, 0.38f));
            g.extent = 1.1f;
            break;
        case MarkerKind::partition:  // a zigzag: the link is cut
            g.parts.push_back(line({P{-0.2f, -1}, P{0.45f, -0.3f}, P{-0.45f, 0.3f}, P{0.2f, 1}}, Ink::mark, 0.32f));
            break;
        case MarkerKind::heal:  // a ring: the link is whole again
            g.parts.push_back(ring(0, 0, 0.7f, Ink::mark, 0.3f));
            break;
        case MarkerKind::failover_leases:
        case MarkerKind::failover_all: {  // a database cylinder: the store failed over
            std::vector<P> body;          // the outline: top ellipse's back, right side, bottom arc, left side
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
            if (kind == MarkerKind::failover_all) {
                // Filled: everything is gone, the fencing counter too.
                g.parts.push_back(poly(body));
                g.parts.push_back(line(rim, Ink::white, 0.16f));
                g.parts.push_back(outline(body, Ink::dark, 0.12f));
            } else {
                // Hollow: the leases are gone, the counter survived.
                g.parts.push_back(poly(body, Ink::white));
                g.parts.push_back(outline(body, Ink::mark, 0.26f));
                g.parts.push_back(line(rim, Ink::mark, 0.2f));
            }
            break;
        }
        case MarkerKind::op_read:  // a small ring with a dot: someone looked
            g.parts.push_back(ring(0, 0, 0.55f, Ink::mark, 0.2f));
            g.parts.push_back(disc(0, 0, 0.2f));
            g.extent = 0.65f;
            break;
        case MarkerKind::clock_jump:  // a clock face: a clock stepped
            g.parts.push_back(disc(0, 0, 1.0f, Ink::white));
            g.parts.push_back(ring(0, 0, 1.0f, Ink::mark, 0.26f));
            g.parts.push_back(line({P{0, -0.62f}, P{0, 0}, P{0.5f, 0.3f}}, Ink::mark, 0.24f));
            break;
        case MarkerKind::overlap_begin:
        case MarkerKind::overlap_end:  // never drawn as marks (the overlap band); a bar if asked
            g.parts.push_back(poly({P{-0.2f, -1}, P{0.2f, -1}, P{0.2f, 1}, P{-0.2f, 1}}));
            break;
        default: return false;
    }
    return true;
}

Glyph make(MarkerKind kind) {
    Glyph g;
    if (!run_glyph(kind, g) && !store_glyph(kind, g)) fault_glyph(kind, g);
    return g;
}

std::array<Glyph, static_cast<std::size_t>(MarkerKind::count_)> make_all() {
    std::array<Glyph, static_cast<std::size_t>(MarkerKind::count_)> all;
    for (std::size_t k = 0; k < all.size(); ++k) all[k] = make(static_cast<MarkerKind>(k));
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
        MarkerKind::extend,
        MarkerKind::extend_error,
        MarkerKind::extend_lost,
        MarkerKind::expire,
        MarkerKind::write_current,
        MarkerKind::write_stale,
        MarkerKind::write_unsafe,
        MarkerKind::write_rejected_fence,
        MarkerKind::write_rejected_token,
        MarkerKind::release,
        MarkerKind::release_rejected,
        MarkerKind::release_error,
        MarkerKind::pause,
        MarkerKind::resume,
        MarkerKind::partition,
        MarkerKind::heal,
        MarkerKind::crash,
        MarkerKind::failover_leases,
        MarkerKind::failover_all,
        MarkerKind::op_read,
        MarkerKind::clock_jump,
    };
    return order;
}

}  // namespace leasescope::gui
