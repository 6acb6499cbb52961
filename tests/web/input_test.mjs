// The page as a student's first ten minutes use it, driven by real input
// events in headless chromium (CDP Input.*, not script calls): the mouse
// wheel over the timeline and the Events panel, the page's buttons and the
// keyboard after them, a damaged link's language and message, the file
// picker, a dropped file and the downloads of Save and the exports.
// Usage: node input_test.mjs URL OUT_DIR   (URL: where build/web/ is served)
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, readdirSync, existsSync, copyFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Browser } from "./cdp.mjs";

const [base, outDir] = [process.argv[2].replace(/\/?$/, "/"), process.argv[3]];
mkdirSync(outDir, { recursive: true });
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const W = 1600, H = 934;
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function open(browser, fragment) {
  const page = await browser.newPage(W, H);
  await page.navigate(base + "index.html" + fragment);
  await page.waitFrames(8);
  return page;
}
const probe = async (page) => JSON.parse(await page.eval("Module.UTF8ToString(Module._ls_probe())"));
const linkState = async (page) => JSON.parse(await page.eval("Module.UTF8ToString(Module._ls_link_state())"));
const BAR = 34; // the page's bar above the canvas
const centre = (panel) => ({ x: panel.x + panel.w / 2, y: BAR + panel.y + panel.h / 2 });
const near = (a, b) => Math.abs(a - b) < 1e-3;

// 1. The wheel: one notch is one notch, up is up; a trackpad's few pixels are a fraction of one.
async function wheel(browser) {
  const page = await open(browser, "#preset=scheduled-job&tick=999&lang=en"); // the preset with the most events
  let p = await probe(page);
  const t = centre(p.timeline);
  await page.wheel(t.x, t.y, 0, -100); // one notch up (Chromium: 100 px, negative is up)
  await page.frames(3);
  p = await probe(page);
  check(near(p.wheel_y, 1), `one notch up over the timeline reaches the app as +1 notch (${p.wheel_y})`);
  for (let i = 0; i < 2; ++i) await page.wheel(t.x, t.y, 0, -100);
  await page.frames(3);
  p = await probe(page);
  check(near(p.wheel_y, 3), `three notches up: +3 notches, zooming in (${p.wheel_y})`);
  await page.wheel(t.x, t.y, 0, 4); // a trackpad's 4 pixels down
  await page.frames(3);
  p = await probe(page);
  check(near(p.wheel_y, 2.96), `a 4-pixel scroll down: -0.04 of a notch (total ${p.wheel_y})`);
  await page.wheel(t.x, t.y, -100, 0); // a tilt to the left
  await page.frames(3);
  p = await probe(page);
  check(near(p.wheel_x, 1), `a notch to the left: +1 sideways, as GLFW counts (${p.wheel_x})`);

  // Over the Events table: one notch down scrolls a few rows, not to the bottom.
  const ev = centre(p.events);
  await page.wheel(ev.x, ev.y, 0, -100000); // to the top first (at most ten notches each)
  for (let i = 0; i < 20; ++i) await page.wheel(ev.x, ev.y, 0, -1000);
  await page.frames(3);
  const top = (await probe(page)).events;
  await page.wheel(ev.x, ev.y, 0, 100);
  await page.frames(3);
  const one = (await probe(page)).events;
  const rowsMoved = one.scroll_y - top.scroll_y;
  check(top.scroll_y === 0 && one.scroll_max_y > 400, `Events: scrolled to the top (${top.scroll_y} of ${one.scroll_max_y})`);
  check(rowsMoved > 20 && rowsMoved < 200 && one.scroll_y < one.scroll_max_y,
    `Events: one notch down scrolls ${rowsMoved} px of ${one.scroll_max_y}, not to the bottom`);
  writeFileSync(join(outDir, "input-wheel.png"), await page.screenshot());
  // Firefox counts lines: three lines are a notch (a script's event, as Chromium only sends pixels).
  const before = (await probe(page)).wheel_y;
  await page.eval(`document.getElementById("canvas").dispatchEvent(new WheelEvent("wheel", { deltaY: -3, deltaMode: 1, bubbles: true, cancelable: true }))`);
  await page.frames(3);
  check(near((await probe(page)).wheel_y - before, 1), "three lines up (Firefox's notch): +1 notch");
  await page.close();
}

// 4. A damaged link's own language wins over the one remembered from the last (Korean) link.
async function damagedLinkLanguage(browser) {
  const ko = await open(browser, "#preset=expiry-takeover&tick=3&lang=ko");
  await ko.eval("new Promise((r) => Module.FS.syncfs(false, () => r()))", true); // remembered: Korean
  await ko.close();
  const valid = deflateRawSync(readFileSync(join(root, "scenarios/min-lease.json"))).toString("base64url");
  const page = await open(browser, `#s=${valid.slice(0, 40)}&tick=3&lang=en`);
  const state = await linkState(page);
  const error = await page.eval("document.getElementById('error-text').textContent");
  check(state.lang === "en", `a cut-short link with lang=en after a Korean one opens in English (${state.lang})`);
  check(/^This link is damaged/.test(error), `its message is in English: "${error}"`);
  check(await page.eval("document.documentElement.lang") === "en", "the page's own words in English");
  await page.close();
}

// 5. A damaged link's message: once, above the app, and the reader can close it.
async function linkErrorOnce(browser) {
  const page = await open(browser, "#preset=no-such-preset&tick=4&lang=en");
  const shown = await page.eval("getComputedStyle(document.getElementById('error')).display");
  const p = await probe(page);
  check(shown !== "none", "a link error shows above the app");
  check(p.error === "", `...and not again in the app's own message line ("${p.error}")`);
  const viewBefore = await page.eval("document.getElementById('view').clientHeight");
  await page.clickElement("error-close");
  await page.frames(3);
  const hidden = await page.eval("getComputedStyle(document.getElementById('error')).display");
  const viewAfter = await page.eval("document.getElementById('view').clientHeight");
  check(hidden === "none" && viewAfter > viewBefore, `the close button hides it and the app gets the room (${viewBefore} -> ${viewAfter} px)`);
  await page.close();
}

// 5. Copy link with the mouse, then Space: the app plays, the link is not copied again.
//    Open file… with the mouse through the browser's file chooser (8): the message and the old link go.
async function copyThenKeysThenOpen(browser) {
  await browser.send("Browser.grantPermissions", { permissions: ["clipboardReadWrite", "clipboardSanitizedWrite"] }).catch(() => {});
  const page = await open(browser, "#preset=gc-pause-no-fencing&tick=3&lang=en");
  await page.eval(`window.statusChanges = 0; new MutationObserver(() => window.statusChanges++)
    .observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true }); 0`);
  await page.clickElement("copy-link");
  for (let i = 0; i < 40 && !(await page.eval("location.hash.includes('tick=3')")); ++i) await sleep(50);
  await sleep(200);
  const afterCopy = await page.eval("window.statusChanges");
  check(afterCopy >= 1, `Copy link clicked: "${await page.eval("document.getElementById('status').textContent")}"`);
  check(await page.eval("document.activeElement.id") !== "copy-link", "the button does not keep the keyboard");
  await page.key(" ", "Space", 32, " ");
  await page.frames(3);
  await sleep(300);
  const p = await probe(page);
  check(await page.eval("window.statusChanges") === afterCopy, "Space after Copy link does not copy again");
  check(p.playing === true, "Space after Copy link plays, as it does anywhere in the app");
  await page.key(" ", "Space", 32, " "); // pause again
  await page.frames(2);

  // Open file… with the mouse: the browser's chooser, answered with a file as a user would pick it.
  const dir = mkdtempSync(join(tmpdir(), "leasescope-pick-"));
  const picked = join(dir, "min-lease.json");
  copyFileSync(join(root, "scenarios/min-lease.json"), picked);
  await page.send("Page.setInterceptFileChooserDialog", { enabled: true });
  const chooser = page.waitForEvent("Page.fileChooserOpened");
  await page.clickElement("open-file");
  const { backendNodeId } = await chooser;
  await page.send("DOM.setFileInputFiles", { files: [picked], backendNodeId });
  let state = null;
  for (let i = 0; i < 60; ++i) {
    await sleep(100);
    state = await linkState(page);
    if (state.scenario.includes('"min-lease"')) break;
  }
  check(state.scenario.includes('"min-lease"'), "Open file…: the picked file is open");
  check(await page.eval("location.hash") === "", `...the old link left the address bar ("${await page.eval("location.hash")}")`);
  check(await page.eval("document.getElementById('status').textContent") === "", "...and so did \"Link copied\"");
  check(await page.eval("document.activeElement.id") !== "open-file", "...and the button does not keep the keyboard");
  writeFileSync(join(outDir, "input-picked.png"), await page.screenshot());
  await page.close();
}

// 8. A file dropped on the page opens (a real drag: Input.dispatchDragEvent).
async function dropFile(browser) {
  const page = await open(browser, "#preset=expiry-takeover&tick=0&lang=en");
  const dir = mkdtempSync(join(tmpdir(), "leasescope-drop-"));
  const dropped = join(dir, "dropped.json");
  writeFileSync(dropped, readFileSync(join(root, "scenarios/contention.json"), "utf8"));
  // Over the page, then over the drop hint it shows, then let go.
  const data = { items: [{ mimeType: "application/json", data: "" }], files: [dropped], dragOperationsMask: 1 };
  for (const [type, x] of [["dragEnter", 790], ["dragOver", 795], ["dragOver", 800], ["drop", 800]]) {
    await page.send("Input.dispatchDragEvent", { type, x, y: 400, data });
    await sleep(100);
  }
  let state = null;
  for (let i = 0; i < 60; ++i) {
    await sleep(100);
    state = await linkState(page);
    if (state.scenario.includes('"contention"')) break;
  }
  check(state.scenario.includes('"contention"'), "a dropped file opens");
  check(!(await page.eval("document.body.classList.contains('dragging')")), "the drop hint goes after the drop");
  await page.close();
}

// 8. An imported history (a /4 trace) picked with Open file… replays read-only
// (docs/model.md §19.9); Copy link says a history cannot go into a link.
async function pickTrace(browser) {
  const page = await open(browser, "#preset=expiry-takeover&tick=0&lang=en");
  const dir = mkdtempSync(join(tmpdir(), "leasescope-pick-trace-"));
  const picked = join(dir, "incident.trace.jsonl");
  copyFileSync(join(root, "tests/data/import/incident.trace.jsonl"), picked);
  await page.send("Page.setInterceptFileChooserDialog", { enabled: true });
  const chooser = page.waitForEvent("Page.fileChooserOpened");
  await page.clickElement("open-file");
  const { backendNodeId } = await chooser;
  await page.send("DOM.setFileInputFiles", { files: [picked], backendNodeId });
  let state = null;
  for (let i = 0; i < 60; ++i) {
    await sleep(100);
    state = await linkState(page);
    if (state.replayed) break;
  }
  check(state.replayed === true, "Open file… with a trace: the history replays");
  check(state.scenario.includes('"incident-monitor.txt"'), "...named by its capture");
  const url = await page.eval("lsShell.copyLink()", true);
  check(url === null, `...and Copy link makes no link of it (${url})`);
  check((await page.eval("document.getElementById('status').textContent")).includes("cannot go into a link"),
    "...and says why");
  writeFileSync(join(outDir, "input-picked-trace.png"), await page.screenshot());
  await page.close();
}

// 9. Save and the three exports end as downloads with the right names and contents.
async function downloads(browser) {
  const dir = mkdtempSync(join(tmpdir(), "leasescope-downloads-"));
  await browser.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: dir, eventsEnabled: true });
  const page = await open(browser, "#preset=expiry-takeover&tick=12&lang=en");
  const want = {
    save: ["expiry-takeover-edited.json", (b) => JSON.parse(b.toString("utf8")).name === "expiry-takeover"],
    png: ["expiry-takeover-t12.png", (b) => b.subarray(1, 4).toString() === "PNG" && b.length > 10000],
    svg: ["expiry-takeover-t12.svg", (b) => /<svg[\s>]/.test(b.toString("utf8")) && b.toString("utf8").trimEnd().endsWith("</svg>")],
    jsonl: ["expiry-takeover.trace.jsonl", (b) => JSON.parse(b.toString("utf8").split("\n")[0]).type === "header"],
  };
  for (const [kind, [name, ok]] of Object.entries(want)) {
    await page.eval(`Module.ccall("ls_export", null, ["string"], [${JSON.stringify(kind)}])`);
    const file = join(dir, name);
    for (let i = 0; i < 100 && !existsSync(file); ++i) await sleep(100);
    await sleep(300); // written whole
    const good = existsSync(file) && ok(readFileSync(file));
    check(good, `${kind}: downloaded as ${name}` + (existsSync(file) ? "" : ` (in the folder: ${readdirSync(dir).join(", ")})`));
  }
  await page.close();
}

const browser = await Browser.launch();
try {
  for (const test of [wheel, damagedLinkLanguage, linkErrorOnce, copyThenKeysThenOpen, dropFile, pickTrace, downloads]) {
    try {
      await test(browser);
    } catch (e) {
      check(false, `${test.name}: ${e.message}`);
    }
  }
} finally {
  await browser.close();
}
console.log(failures ? `${failures} FAILED` : "all passed");
process.exit(failures ? 1 : 0);
