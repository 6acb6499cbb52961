// The frame-benchmark runner and the fill-rate report (runners.hpp): frame, UI and CPU time percentiles.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <imgui.h>

#include "app.hpp"
#include "gl.hpp"
#include "runners.hpp"
#include "window_host.hpp"

namespace leasescope::gui {
namespace {

double process_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto k = static_cast<std::size_t>(
        std::min<double>(static_cast<double>(v.size() - 1), std::ceil(p / 100.0 * static_cast<double>(v.size())) - 1));
    return v[k];
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

void report_fill(const ImDrawData* data) {
    double total = 0;
    for (int n = 0; n < data->CmdListsCount; ++n) {
        const ImDrawList* list = data->CmdLists[n];
        double area = 0;
        for (int i = 0; i + 2 < list->IdxBuffer.Size; i += 3) {
            const ImVec2 a = list->VtxBuffer[list->IdxBuffer[i]].pos, b = list->VtxBuffer[list->IdxBuffer[i + 1]].pos,
                         c = list->VtxBuffer[list->IdxBuffer[i + 2]].pos;
            area += std::fabs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * 0.5;
        }
        total += area;
        std::fprintf(stderr, "fill %-28s %10.0f px  %6d triangles  %4d draw calls\n",
                     list->_OwnerName ? list->_OwnerName : "?", area, list->IdxBuffer.Size / 3, list->CmdBuffer.Size);
    }
    std::fprintf(stderr, "font atlas %dx%d\n", ImGui::GetIO().Fonts->TexWidth, ImGui::GetIO().Fonts->TexHeight);
    std::fprintf(stderr, "fill total %.0f px (%.2f screens)\n", total,
                 total / (static_cast<double>(data->DisplaySize.x) * data->DisplaySize.y));
}

}  // namespace

void report_fill_if_asked(int frame) {
    static const bool asked = std::getenv("LEASESCOPE_FILL_REPORT") != nullptr;
    if (asked && frame == settle_frames) report_fill(ImGui::GetDrawData());
}

void run_frame_bench(App& app, WindowHost& host, int frames, int width, int height) {
    // The first frames build and upload the font atlas; they are warm-up, not frame time.
    constexpr int warmup = 5;
    std::vector<double> frame_ms;  // whole frame: build, render, swap, glFinish
    std::vector<double> ui_ms;     // building the frame (views + ImGui), before any GL work
    std::vector<double> cpu_ms;    // CPU time of the whole process (its renderer threads too)
    int frame = 0;
    auto last = std::chrono::steady_clock::now();
    while (!host.should_close()) {
        const auto frame_start = std::chrono::steady_clock::now();
        const double cpu_start = process_cpu_ms();
        host.poll_events();
        const double dt = std::chrono::duration<double>(frame_start - last).count();
        last = frame_start;
        app.advance(dt);
        app.poll_jobs();
        app.seek((app.playhead() + 1) % (app.end_tick() + 1));
        HostFrame built = host.frame();
        report_fill_if_asked(frame);
        host.swap();
        glFinish();
        if (frame >= warmup) {
            frame_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
            ui_ms.push_back(std::chrono::duration<double, std::milli>(built.ui_end - frame_start).count());
            cpu_ms.push_back(process_cpu_ms() - cpu_start);
            if (static_cast<int>(frame_ms.size()) >= frames) break;
        }
        app.apply(built.commands);
        ++frame;
    }
    const auto* tl = app.timeline();
    std::printf("frames %zu (after 5 warm-up)  size %dx%d  events %zu  ticks %lld\n", frame_ms.size(), width, height,
                tl ? tl->trace().events.size() : 0, static_cast<long long>(app.end_tick()));
    std::printf("frame ms  p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", percentile(frame_ms, 50),
                percentile(frame_ms, 90), percentile(frame_ms, 99), max_of(frame_ms));
    std::printf("ui ms     p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (views and ImGui, before OpenGL)\n",
                percentile(ui_ms, 50), percentile(ui_ms, 90), percentile(ui_ms, 99), max_of(ui_ms));
    // On a shared machine wall time includes waiting for a core; CPU time does not.
    std::printf("cpu ms    p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (process CPU time per frame, all threads)\n",
                percentile(cpu_ms, 50), percentile(cpu_ms, 90), percentile(cpu_ms, 99), max_of(cpu_ms));
}

}  // namespace leasescope::gui
