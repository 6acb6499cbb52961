// A minimal Chrome DevTools Protocol client over --remote-debugging-pipe
// (no WebSocket, no npm packages): starts Debian's chromium headless with
// SwiftShader WebGL and a fresh profile, opens pages, evaluates script,
// takes screenshots. Used by browser_test.mjs and bench.mjs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

export const chromiumFlags = [
  "--headless=new",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--no-sandbox",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--mute-audio",
];

export class Browser {
  static async launch({ executable = "/usr/bin/chromium", extraFlags = [] } = {}) {
    const profile = mkdtempSync(join(tmpdir(), "leasescope-chromium-"));
    const child = spawn(executable, [...chromiumFlags, ...extraFlags, `--user-data-dir=${profile}`,
      "--remote-debugging-pipe", "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    const b = new Browser(child, profile);
    await b.send("Target.setDiscoverTargets", { discover: true });
    return b;
  }

  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    this.stderr = "";
    child.stderr.on("data", (d) => { this.stderr += d; });
    let buffer = Buffer.alloc(0);
    child.stdio[4].on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const msg = JSON.parse(buffer.subarray(0, end).toString("utf8"));
        buffer = buffer.subarray(end + 1);
        if (msg.id && this.pending.has(msg.id)) {
          const { resolve, reject } = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if (msg.error) reject(new Error(JSON.stringify(msg.error)));
          else resolve(msg.result);
        } else {
          for (const l of this.listeners) l(msg);
        }
      }
    });
    this.exited = new Promise((resolve) => child.on("exit", resolve));
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdio[3].write(JSON.stringify(msg) + "\0");
    });
  }

  async newPage(width, height) {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId, targetId);
    this.listeners.push((msg) => { if (msg.sessionId === sessionId) page.onEvent(msg); });
    await page.send("Page.enable");
    await page.send("Runtime.enable");
    await page.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  async close() {
    try { await Promise.race([this.send("Browser.close"), new Promise((r) => setTimeout(r, 3000))]); } catch (e) { /* gone */ }
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    await this.exited;
    // Chromium's helper processes may still be writing for a moment after it exits.
    try { rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }); } catch (e) { /* left in /tmp */ }
  }
}

export class Page {
  constructor(browser, sessionId, targetId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.targetId = targetId;
    this.console = [];
    this.waiters = [];
  }
  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }
  onEvent(msg) {
    for (const w of this.waiters.splice(0)) {
      if (w.method === msg.method) w.resolve(msg.params);
      else this.waiters.push(w);
    }
    if (msg.method === "Runtime.consoleAPICalled")
      this.console.push(msg.params.args.map((a) => a.value ?? a.description ?? "").join(" "));
    if (msg.method === "Runtime.exceptionThrown")
      this.console.push("EXCEPTION " + (msg.params.exceptionDetails.exception?.description || msg.params.exceptionDetails.text));
  }
  async eval(expression, awaitPromise = false) {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
    return r.result.value;
  }
  // The next event `method` of this page (enable its domain first); throws after timeoutMs.
  waitForEvent(method, timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const w = { method, resolve };
      this.waiters.push(w);
      setTimeout(() => { this.waiters = this.waiters.filter((x) => x !== w); reject(new Error(`no ${method} in ${timeoutMs} ms`)); }, timeoutMs);
    });
  }
  // Real input, as a user's: a left click at (x, y) in CSS pixels, a key, a wheel notch.
  async click(x, y) {
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await this.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", buttons: 1, clickCount: 1 });
    await this.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", buttons: 0, clickCount: 1 });
  }
  async clickElement(id) {
    const r = await this.eval(`(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);
    await this.click(r.x, r.y);
  }
  // A key held for a few frames, as a hand presses it (ImGui 1.86 reads which keys are down once a frame).
  async key(key, code, keyCode, text) {
    await this.send("Input.dispatchKeyEvent", { type: "keyDown", key, code, windowsVirtualKeyCode: keyCode, text });
    await this.frames(2);
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: keyCode });
  }
  async wheel(x, y, deltaX, deltaY) {
    await this.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
    await this.send("Input.dispatchMouseEvent", { type: "mouseWheel", x, y, deltaX, deltaY });
  }
  // Waits until the app has drawn `n` more frames (what input does shows then).
  async frames(n) { const now = await this.waitFrames(0); await this.waitFrames(now + n); }
  navigate(url) { return this.send("Page.navigate", { url }); }
  // Waits until the app has drawn `frames` frames (its layout settles in a few); throws after timeoutMs.
  async waitFrames(frames, timeoutMs = 30000) {
    const start = Date.now();
    for (;;) {
      const n = await this.eval("(typeof Module !== 'undefined' && Module.calledRun && Module._ls_ready) ? Module._ls_ready() : 0");
      if (n >= frames) return n;
      if (Date.now() - start > timeoutMs)
        throw new Error(`the app drew ${n} of ${frames} frames in ${timeoutMs} ms; console:\n${this.console.join("\n")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async screenshot() {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" });
    return Buffer.from(data, "base64");
  }
  close() { return this.browser.send("Target.closeTarget", { targetId: this.targetId }); }
}

// Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes) to RGBA pixels.
export function decodePng(buf) {
  let pos = 8, width = 0, height = 0, colorType = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString("ascii", pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("PNG: only 8-bit non-interlaced");
      colorType = body[9];
    } else if (type === "IDAT") idat.push(body);
    pos += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (!bpp) throw new Error("PNG: colour type " + colorType);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp, out = Buffer.alloc(width * height * 4), prev = Buffer.alloc(stride), cur = Buffer.alloc(stride);
  for (let y = 0; y < height; ++y) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; ++i) {
      const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let v = line[i];
      if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      cur[i] = v & 255;
    }
    for (let x = 0; x < width; ++x) {
      out[(y * width + x) * 4] = cur[x * bpp]; out[(y * width + x) * 4 + 1] = cur[x * bpp + 1];
      out[(y * width + x) * 4 + 2] = cur[x * bpp + 2]; out[(y * width + x) * 4 + 3] = bpp === 4 ? cur[x * bpp + 3] : 255;
    }
    cur.copy(prev);
  }
  return { width, height, pixels: out };
}

// Distinct colours, and how many pixels are near `hex` ("eb0050") within `tolerance` per channel.
export function colourStats(png, hexes, tolerance = 6) {
  const distinct = new Set();
  const counts = Object.fromEntries(hexes.map((h) => [h, 0]));
  const targets = hexes.map((h) => [h, parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)]);
  const p = png.pixels;
  for (let i = 0; i < p.length; i += 4) {
    if (distinct.size < 100000) distinct.add((p[i] << 16) | (p[i + 1] << 8) | p[i + 2]);
    for (const [h, r, g, b] of targets)
      if (Math.abs(p[i] - r) <= tolerance && Math.abs(p[i + 1] - g) <= tolerance && Math.abs(p[i + 2] - b) <= tolerance) counts[h]++;
  }
  return { distinct: distinct.size, counts };
}
