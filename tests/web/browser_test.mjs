// The browser build in a real browser (Debian's headless chromium, WebGL 2 on
// SwiftShader): presets render in English and Korean with the timeline's
// colours, links open at their tick, language, event and tour step, a link
// copied from the app opens the same view in a new browser, bad links show
// a message in the page, an exercise opens from a link and its progress
// stays in localStorage, and the load time is reported.
// Usage: node browser_test.mjs URL OUT_DIR   (URL: where build/web/ is served)
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Browser, decodePng, colourStats } from "./cdp.mjs";

const [base, outDir] = [process.argv[2].replace(/\/?$/, "/"), process.argv[3]];
mkdirSync(outDir, { recursive: true });
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const W = 1600, H = 934; // the page's bar is 34 px: the app gets 1600x900
const BAR = 34;
let failures = 0;
const loadTimes = [];
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

const colours = { running: "22a05a", stale: "eb0050", paused: "466ec8", record: "286ebe", partition: "8c50c8" };

async function open(browser, fragment, name) {
  const page = await browser.newPage(W, H);
  await page.navigate(base + "index.html" + fragment);
  await page.waitFrames(8);
  const state = JSON.parse(await page.eval("Module.UTF8ToString(Module._ls_link_state())"));
  const error = await page.eval("document.getElementById('error').style.display !== 'none' ? document.getElementById('error-text').textContent : ''");
  const load = await page.eval("window.lsLoad");
  if (load) loadTimes.push(load.sinceNavigationMs);
  const png = await page.screenshot();
  writeFileSync(join(outDir, name + ".png"), png);
  return { page, state, error, png: decodePng(png) };
}

// The app's pixels only (the page's bar shows the load time, which varies).
function appPixels(png) { return png.pixels.subarray(BAR * png.width * 4); }

// Bad links first, in a browser of their own: nothing remembered yet, so the
// language is the link's or English.
const clean = await Browser.launch();
try {
  // Bad links: a message in the page (in the link's language), and the app drawn behind it.
  const validDeflate = deflateRawSync(Buffer.from(readFileSync(join(root, "scenarios/min-lease.json")))).toString("base64url");
  const notScenario = deflateRawSync(Buffer.from('{"name": "x", "candidates": 3}')).toString("base64url");
  const bad = [
    ["truncated", `#s=${validDeflate.slice(0, Math.floor(validDeflate.length / 2))}&tick=3&lang=en`, /damaged: its scenario \(\d+ characters\) does not decompress/],
    ["not-base64", "#s=abc*def!&tick=3", /not URL-safe base64/],
    ["not-a-scenario", `#s=${notScenario}&lang=en`, /not a valid scenario/],
    ["unknown-preset", "#preset=no-such-preset&tick=4", /preset that does not exist/],
    ["bad-tick", "#preset=min-lease&tick=minus-one", /cannot be read: tick=minus-one/],
    ["no-scenario", "#hello", /neither a scenario/],
    ["truncated-ko", `#s=${validDeflate.slice(0, 20)}&lang=ko`, /링크가 손상되었습니다/],
  ];
  for (const [name, fragment, pattern] of bad) {
    const r = await open(clean, fragment, `bad-${name}`);
    check(pattern.test(r.error), `bad link ${name}: "${r.error}"`);
    const stats = colourStats(r.png, [colours.running]);
    check(stats.distinct >= 60 && stats.counts[colours.running] >= 500, `bad link ${name}: the app is drawn (${stats.distinct} colours)`);
    await r.page.close();
  }
} finally {
  await clean.close();
}

const browser = await Browser.launch();
try {
  // Five presets, both languages: non-blank, the timeline's colours in the lanes (not just the legend).
  const presets = [
    ["expiry-takeover", 12, ["running", "stale", "record"]],
    ["gc-pause-no-fencing", 15, ["running", "stale", "record"]],
    ["partition-extend", 8, ["running", "partition", "record"]],
    // Redlock (model.md §20): client-1 STALE after C's jump, client-2 running, the stores' keys.
    ["redlock-clock-jump", 50, ["running", "stale", "record"]],
    // Redisson (model.md §21): node-a STALE after its pause outlived the watchdog's TTL, node-b running,
    // the hash's earlier span node-a's.
    ["watchdog-redisson", 1050, ["running", "stale", "record"]],
  ];
  for (const [preset, tick, expect] of presets) {
    for (const lang of ["en", "ko"]) {
      const name = `${preset}-t${tick}-${lang}`;
      const r = await open(browser, `#preset=${preset}&tick=${tick}&lang=${lang}`, name);
      const stats = colourStats(r.png, expect.map((c) => colours[c]));
      check(r.error === "", `${name}: no error (${r.error})`);
      check(r.state.tick === tick && r.state.lang === lang && r.state.preset === preset,
        `${name}: opened at tick ${r.state.tick}, lang ${r.state.lang}, preset ${r.state.preset}`);
      check(stats.distinct >= 60, `${name}: a real picture (${stats.distinct} colours)`);
      // The legend's swatches are a few hundred pixels; lanes and bars are thousands.
      for (const c of expect)
        check(stats.counts[colours[c]] >= 1500, `${name}: ${c} (#${colours[c]}) on ${stats.counts[colours[c]]} px`);
      const htmlLang = await r.page.eval("document.documentElement.lang");
      check(htmlLang === lang, `${name}: the page's own words in ${htmlLang}`);
      await r.page.close();
    }
  }

  // Event and tour step from a link.
  {
    const r = await open(browser, "#preset=gc-pause-no-fencing&tick=15&lang=ko&ev=12", "link-event");
    check(r.state.event === 12 && r.state.tick === 15, `ev=12: selected event ${r.state.event} at tick ${r.state.tick}`);
    await r.page.close();
    const t = await open(browser, "#preset=expiry-takeover&tour=3&lang=en", "link-tour");
    check(t.state.tour === 3, `tour=3: tour step ${t.state.tour}`);
    await t.page.close();
  }

  // An exercise from a link (model.md §18.1 rule 2): the panel on it, the
  // playhead before the predicted tick; answered as the panel's buttons
  // would, the progress is kept in localStorage under the scenario's name and
  // comes back with the next link to it; a number it does not have is said.
  {
    const sample = deflateRawSync(readFileSync(join(root, "tests/gui/exercise-sample.json"))).toString("base64url");
    const r = await open(browser, `#s=${sample}&exercise=1&lang=en`, "link-exercise");
    check(r.state.exercise === 1 && r.state.tick === 5 && r.error === "",
      `exercise=1: exercise ${r.state.exercise}, playhead ${r.state.tick} (${r.error})`);
    await r.page.eval("Module.ccall('ls_exercise_answer', null, ['string'], ['node-b'])");
    await r.page.frames(3);
    const stored = await r.page.eval("localStorage.getItem('leasescope.exercises.exercise-sample')");
    const answered = JSON.parse(await r.page.eval("Module.UTF8ToString(Module._ls_link_state())"));
    check(stored === "[1]" && JSON.stringify(answered.exercises_done) === "[1]" && answered.tick === 6,
      `the right answer: done ${JSON.stringify(answered.exercises_done)}, stored ${stored}, playhead ${answered.tick}`);
    await r.page.close();
    const again = await open(browser, `#s=${sample}&exercise=2&lang=ko`, "link-exercise-restored");
    check(again.state.exercise === 2 && JSON.stringify(again.state.exercises_done) === "[1]",
      `a new link to it: exercise ${again.state.exercise}, done ${JSON.stringify(again.state.exercises_done)}`);
    await again.page.close();
    const bad = await open(browser, `#s=${sample}&exercise=9&lang=en`, "link-exercise-bad");
    check(/cannot be read: exercise=9/.test(bad.error) && bad.state.exercise === 0, `exercise=9 of 3: "${bad.error}"`);
    await bad.page.close();
  }

  // "Copy link" on gc-pause-no-fencing at tick 15 in Korean, opened in a new browser: the same view, pixel for pixel.
  const copies = [];
  {
    const r = await open(browser, "#preset=gc-pause-no-fencing&tick=15&lang=ko", "copy-source");
    const url = await r.page.eval("lsShell.copyLink()", true);
    check(/#preset=gc-pause-no-fencing&tick=15&lang=ko$/.test(url || ""), `Copy link of a preset: ${url}`);
    copies.push([url, { state: r.state, png: r.png }]);
    // An edited scenario (another seed, a longer lease) goes into the link itself.
    // (Scenario files allow comments, so the edit is textual.)
    const edited = readFileSync(join(root, "scenarios/gc-pause-no-fencing.json"), "utf8")
      .replace(/"name":\s*"[^"]*"/, '"name": "gc-pause-edited"').replace(/"seed":\s*\d+/, '"seed": 77');
    await r.page.eval(`(() => { try { FS.mkdir('/uploads'); } catch (e) {}
      FS.writeFile('/uploads/edited.json', ${JSON.stringify(edited)});
      Module.ccall('ls_open_path', null, ['string'], ['/uploads/edited.json']); })()`);
    await new Promise((res) => setTimeout(res, 500));
    const url2 = await r.page.eval("lsShell.copyLink()", true);
    check(/#s=[A-Za-z0-9_-]+&tick=0&lang=ko$/.test(url2 || ""), `Copy link of an edited scenario (${(url2 || "").length} characters)`);
    copies.push([url2, null]);
    await r.page.close();
  }
  const fresh = await Browser.launch();
  try {
    for (const [i, [url, original]] of copies.entries()) {
      if (!url) continue;
      const name = `copied-link-${i}`;
      const page = await fresh.newPage(W, H);
      await page.navigate(url);
      await page.waitFrames(8);
      const state = JSON.parse(await page.eval("Module.UTF8ToString(Module._ls_link_state())"));
      const png = await page.screenshot();
      writeFileSync(join(outDir, name + ".png"), png);
      check(state.lang === "ko", `${name}: Korean (${state.lang})`);
      if (original) {
        const before = original.state;
        const same = ["scenario", "tick", "lang", "event", "tour"].every((k) => JSON.stringify(before[k]) === JSON.stringify(state[k]));
        check(same, `${name}: the same scenario, tick, language, event and tour step in a new browser` +
          (same ? "" : `\n  before ${JSON.stringify({ ...before, scenario: before.scenario.length })}\n  after  ${JSON.stringify({ ...state, scenario: state.scenario.length })}`));
        const a = appPixels(original.png), b = appPixels(decodePng(png));
        let differ = 0;
        for (let k = 0; k < a.length; ++k) if (a[k] !== b[k]) differ++;
        check(differ === 0, `${name}: the same picture in a new browser (${differ} bytes differ)`);
      } else {
        check(state.scenario.includes('"gc-pause-edited"') && state.scenario.includes('"seed": 77'),
          `${name}: the edited scenario came through the link`);
      }
    }
  } finally {
    await fresh.close();
  }

} finally {
  await browser.close();
}
loadTimes.sort((a, b) => a - b);
const median = loadTimes[Math.floor(loadTimes.length / 2)];
console.log(`load: navigation to first frame, median ${Math.round(median)} ms, max ${Math.round(loadTimes[loadTimes.length - 1])} ms over ${loadTimes.length} pages`);
console.log(failures ? `${failures} FAILED` : "all passed");
process.exit(failures ? 1 : 0);
