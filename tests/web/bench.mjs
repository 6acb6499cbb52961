// The browser build's speed in headless chromium (SwiftShader WebGL 2), for
// docs/performance.md, with its budgets: the download (every file of the
// folder, and gzip -9 of each, as a server would send them compressed) under
// 3 MB compressed, navigation to the first drawn frame under 2 s (median of
// five fresh loads), and the frame time at 1600x900 on a given scenario
// (about 100,000 events: `leasescope-cli generate --candidates 50 --horizon 135000`).
// Usage: node bench.mjs URL WEB_DIR [SCENARIO.json [FRAMES]]
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { Browser } from "./cdp.mjs";

const [url, webDir, scenario, framesArg] = process.argv.slice(2);
const base = url.replace(/\/?$/, "/");
let over = 0;
function budget(ok, text) { console.log(`${ok ? "within budget" : "OVER BUDGET"}: ${text}`); if (!ok) over++; }

let raw = 0, gz = 0;
for (const name of readdirSync(webDir).sort()) {
  const bytes = readFileSync(join(webDir, name));
  const z = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length; gz += z;
  console.log(`${name.padEnd(18)} ${String(bytes.length).padStart(9)} bytes  ${String(z).padStart(9)} gzip -9`);
}
console.log(`${"total".padEnd(18)} ${String(raw).padStart(9)} bytes  ${String(gz).padStart(9)} gzip -9`);
budget(gz < 3e6, `download ${(gz / 1e6).toFixed(2)} MB compressed (${(raw / 1e6).toFixed(2)} MB not), budget 3 MB`);

const loads = [];
for (let i = 0; i < 5; ++i) {
  const b = await Browser.launch();
  try {
    const page = await b.newPage(1600, 934);
    await page.navigate(base + "index.html#preset=expiry-takeover&tick=12&lang=en");
    await page.waitFrames(1);
    loads.push((await page.eval("window.lsLoad")).sinceNavigationMs);
  } finally { await b.close(); }
}
loads.sort((a, b) => a - b);
console.log(`first frame after navigation: ${loads.map((x) => Math.round(x)).join(", ")} ms`);
budget(loads[2] < 2000, `first frame median ${Math.round(loads[2])} ms, budget 2000 ms`);

if (scenario) {
  const b = await Browser.launch();
  try {
    const page = await b.newPage(1600, 934);
    await page.navigate(base + "index.html#preset=expiry-takeover&lang=en");
    await page.waitFrames(3);
    const text = readFileSync(scenario, "utf8");
    await page.eval(`(() => { try { FS.mkdir('/uploads'); } catch (e) {}
      FS.writeFile('/uploads/bench.json', ${JSON.stringify(text)});
      Module.ccall('ls_open_path', null, ['string'], ['/uploads/bench.json']); })()`);
    const start = Date.now();
    while (Date.now() - start < 120000) {
      const st = JSON.parse(await page.eval("Module.UTF8ToString(Module._ls_link_state())"));
      if (st.scenario.length > 5000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.waitFrames((await page.eval("Module._ls_ready()")) + 5);
    const r = JSON.parse(await page.eval(`Module.UTF8ToString(Module._ls_bench(${Number(framesArg || 200)}))`));
    console.log(`frame time at 1600x900 (app area), ${r.events} events, ${r.frames} frames: p50 ${r.p50.toFixed(2)}  p90 ${r.p90.toFixed(2)}  p99 ${r.p99.toFixed(2)}  max ${r.max.toFixed(2)} ms`);
  } finally { await b.close(); }
}
process.exit(over ? 1 : 0);
