#!/usr/bin/python3
"""Stages what the browser build packs with the page (its .data file): the
assets (string tables with the browser's own words of assets/i18n/web/ added),
the preset scenarios, and two fonts cut down with fontTools (Debian's
`fonttools`) to the glyphs the app can show. Writes DEST/stamp with a hash of
everything, so the link step reruns only when the data changed.

Usage: tools/web_stage.py SOURCE_ROOT DEST
Runs with Debian's /usr/bin/python3, which has fontTools."""
import hashlib
import json
import os
import shutil
import sys

import logging

from fontTools import subset

logging.getLogger("fontTools").setLevel(logging.ERROR)

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
NANUM = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"
# The ranges the window host asks of the Latin font (host.cpp, extra_ranges):
# Latin-1, punctuation, arrows, maths, technical, boxes, shapes, symbols, dingbats.
LATIN_RANGES = [(0x20, 0xFF), (0x2010, 0x2050), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2300, 0x23FF),
                (0x2500, 0x25FF), (0x2600, 0x26FF), (0x2700, 0x27BF)]


def text_files(root):
    """Every file whose words can reach the screen: string tables, tour, style, presets, and the sources."""
    for folder in ("assets", "scenarios", "sim/src", "app/gui"):
        for base, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith((".json", ".cpp", ".hpp")):
                    yield os.path.join(base, name)


def merged_table(root, lang):
    with open(os.path.join(root, "assets", "i18n", lang + ".json"), encoding="utf-8") as f:
        table = json.load(f)
    with open(os.path.join(root, "assets", "i18n", "web", lang + ".json"), encoding="utf-8") as f:
        web = json.load(f)
    web.pop("_comment", None)
    table.update(web)
    return table


def subset_font(src, dest, codepoints):
    options = subset.Options()
    options.hinting = False  # ImGui's rasteriser (stb_truetype) ignores hinting
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(src, options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(codepoints))
    sub.subset(font)
    subset.save_font(font, dest, options)


def main():
    root, dest = sys.argv[1], sys.argv[2]
    staging = dest + ".new"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(os.path.join(staging, "assets", "i18n"))
    os.makedirs(os.path.join(staging, "scenarios"))
    os.makedirs(os.path.join(staging, "fonts"))
    os.makedirs(os.path.join(staging, "settings"))
    for lang in ("en", "ko"):
        with open(os.path.join(staging, "assets", "i18n", lang + ".json"), "w", encoding="utf-8") as f:
            json.dump(merged_table(root, lang), f, ensure_ascii=False, indent=0)
    for name in sorted(os.listdir(os.path.join(root, "assets"))):
        path = os.path.join(root, "assets", name)
        if os.path.isfile(path):
            shutil.copy(path, os.path.join(staging, "assets", name))
    for name in sorted(os.listdir(os.path.join(root, "scenarios"))):
        if name.endswith(".json"):
            shutil.copy(os.path.join(root, "scenarios", name), os.path.join(staging, "scenarios", name))

    used = set()
    for path in text_files(root):
        with open(path, encoding="utf-8", errors="ignore") as f:
            used.update(ord(c) for c in f.read())
    for lang in ("en", "ko"):
        used.update(ord(c) for c in json.dumps(merged_table(root, lang), ensure_ascii=False))
    latin = {c for lo, hi in LATIN_RANGES for c in range(lo, hi + 1)} | {c for c in used if c < 0x1100}
    hangul = {c for c in used if c >= 0x1100} | set(range(0x20, 0x7F))
    subset_font(DEJAVU, os.path.join(staging, "fonts", "DejaVuSans-subset.ttf"), latin)
    subset_font(NANUM, os.path.join(staging, "fonts", "NanumGothic-subset.ttf"), hangul)

    digest = hashlib.sha256()
    for base, _, files in sorted(os.walk(staging)):
        for name in sorted(files):
            with open(os.path.join(base, name), "rb") as f:
                digest.update(name.encode() + b"\0" + f.read())
    old_stamp = os.path.join(dest, "stamp")
    new_hash = digest.hexdigest()
    if os.path.exists(old_stamp) and open(old_stamp).read().strip() == new_hash:
        shutil.rmtree(staging)
        return  # unchanged: keep the old folder and its time stamps
    with open(os.path.join(staging, "stamp"), "w") as f:
        f.write(new_hash + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(staging, dest)


if __name__ == "__main__":
    main()
