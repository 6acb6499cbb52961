#!/usr/bin/env bash
# The guided tour at 1280x720, every step, in English and Korean, from
# --layout-report: the outline lies on the panel the step names (the
# record's window for step 1, not the settings bar), and the card's Next
# button and the step's title are inside the visible part of the card (not
# below the fold, not scrolled away). Usage: tour_test.sh APP SCENARIO
set -euo pipefail
app=$1 scenario=$2
source "$(dirname "$0")/gui_lib.sh"
gui_setup
steps=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["steps"]))' \
  "$(dirname "$0")/../../assets/tour.json")
for lang in en ko; do
  for step in $(seq 1 "$steps"); do
    report="$out/tour-$lang-$step.txt"
    gui_app_ok "tour step $step, $lang" "$app" "$scenario" --tour "$step" --lang "$lang" --size 1280x720 \
      --layout-report "$report"
    python3 - "$report" "$step" "$steps" "$lang" <<'PY' || gui_fail "tour step $step, $lang"
import re, sys
path, step, steps, lang = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
text = open(path, encoding="utf-8").read()
num = r"(-?[\d.]+)"
rect = rf"\[{num},{num} - {num},{num}\]"
windows = {m.group(1): tuple(map(float, m.groups()[1:])) for m in re.finditer(rf"^window: (.+?) {rect}", text, re.M)}
focus = re.search(rf"^focus: (\S+) {rect}", text, re.M)
bad = []
if not focus:
    bad.append("no tour outline in the report")
else:
    fid, box = focus.group(1), tuple(map(float, focus.groups()[1:]))
    names = [n for n in windows if n.endswith("###" + fid)]
    if not names:
        bad.append(f"the outlined panel {fid} is not drawn")
    elif any(abs(a - b) > 1.5 for a, b in zip(windows[names[0]], box)):
        bad.append(f"the outline {box} is not on {names[0]} {windows[names[0]]}")
# The card is the window ###explain; its items with their clip rectangles.
items = [(m.group(1), tuple(map(float, m.groups()[1:5])), tuple(map(float, m.groups()[5:9])), m.group(10))
         for m in re.finditer(rf"^(?:item|text): (.+?) {rect} clip {rect}[^\"]*\"(.*)\"$", text, re.M)]
card = [i for i in items if i[0].endswith("###explain")]
def visible(label_re, what):
    found = [i for i in card if re.search(label_re, i[3])]
    if not found:
        bad.append(f"{what} is not on the card")
        return
    _, r, c, label = found[0]
    if r[1] < c[1] - 1 or r[3] > c[3] + 1:
        bad.append(f"{what} \"{label}\" {r} is outside the card's visible part {c}")
if step < steps:
    visible(r"^(Next|다음) ▶$", "Next")
visible(r"^(End tour|둘러보기 끝내기)$", "End tour")
title_line = [i for i in card if i[3] and not re.match(r"^(Step \d|\d+단계|◀|Next|다음|End tour|둘러보기)", i[3])]
if title_line:
    _, r, c, label = title_line[0]
    if r[1] < c[1] - 1:
        bad.append(f"the title \"{label}\" {r} is scrolled out of view {c}")
for b in bad:
    print(f"FAIL: step {step}, {lang}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  done
done
echo "ok: $steps tour steps at 1280x720 in both languages: outline on its panel, Next and the title in view"
