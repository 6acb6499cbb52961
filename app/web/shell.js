// The page around LeaseScope's WebAssembly build: reads the link in the URL
// fragment before the app starts, keeps the settings in the browser
// (IndexedDB), makes links ("Copy link"), opens picked or dropped scenario
// files, downloads what the app saves, and reports the load time.
//
// A link: #s=<scenario>&tick=15&lang=ko&ev=12&tour=3, or #preset=<name>&...
//   s     the scenario JSON, deflate-raw compressed (the browser's own
//         CompressionStream), then URL-safe base64 without padding
//   tick  the playhead; lang en|ko; ev the selected event's index in the
//         trace; tour the open tour step (1-based); exercise the exercise
//         open in the Exercise panel (1-based, docs/model.md §18)
// The done exercises of each scenario stay in localStorage, under
// "leasescope.exercises.<scenario name>" as a list of their numbers.
// The fragment never reaches a server. Links longer than LINK_MAX characters
// are not made (the app says to share the file instead).
"use strict";

const LINK_MAX = 1000000; // below Chromium's 2 MiB URL limit, with room for the page's address

const lsShell = (() => {
  const started = performance.now();
  const $ = (id) => document.getElementById(id);
  const canvas = $("canvas");
  let firstFrameMs = null;
  let lastLink = null;

  function tr(key, fields) {
    let text = key;
    if (window.Module && Module._ls_tr && Module.calledRun) text = Module.UTF8ToString(Module._ls_tr(allocString(key)));
    for (const [k, v] of Object.entries(fields || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }

  // A string on the wasm heap for a call; freed on the next call.
  let lastAlloc = 0;
  function allocString(s) {
    if (lastAlloc) Module._free(lastAlloc);
    const n = Module.lengthBytesUTF8(s) + 1;
    lastAlloc = Module._malloc(n);
    Module.stringToUTF8(s, lastAlloc, n);
    return lastAlloc;
  }

  function setStatus(text) { $("status").textContent = text; }

  // A link that could not be opened: said once, here above the app (not
  // again inside it), until the reader closes it.
  function showError(text) {
    $("error-text").textContent = text;
    $("error").style.display = text ? "flex" : "none";
  }

  function relabel() {
    $("open-file").textContent = tr("web.open_file");
    $("copy-link").textContent = tr("web.copy_link");
    $("copy-link").title = tr("web.copy_link_tip");
    $("drop").textContent = tr("web.drop_here");
    $("error-close").title = $("error-close").ariaLabel = tr("web.close");
    document.documentElement.lang = Module.UTF8ToString(Module._ls_lang());
    if (firstFrameMs !== null) $("load").textContent = tr("web.load_time", { ms: Math.round(firstFrameMs) });
  }

  // base64url without padding <-> bytes.
  function toBase64Url(bytes) {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function fromBase64Url(text) {
    if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    try {
      const bin = atob(b64);
      const out = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; ++i) out[i] = bin.charCodeAt(i);
      return out;
    } catch (e) {
      return null;
    }
  }
  async function pipe(bytes, stream) {
    const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
    return new Uint8Array(await out.arrayBuffer());
  }
  const deflate = (bytes) => pipe(bytes, new CompressionStream("deflate-raw"));
  const inflate = (bytes) => pipe(bytes, new DecompressionStream("deflate-raw"));

  // The fragment -> the app's arguments (and the scenario file it names).
  async function linkArgs() {
    const hash = location.hash.replace(/^#/, "");
    if (!hash) return [];
    const p = new URLSearchParams(hash);
    const args = [];
    const fail = (key, detail) => {
      // The link's own language wins over the remembered one, even when the link is damaged.
      const lang = p.get("lang") === "ko" || p.get("lang") === "en" ? ["--lang", p.get("lang")] : [];
      return [...lang, "--link-error", key, "--link-detail", String(detail)];
    };
    const lang = p.get("lang");
    if (lang !== null) {
      if (lang !== "en" && lang !== "ko") return fail("web.link.bad_field", "lang=" + lang);
      args.push("--lang", lang);
    }
    for (const [key, flag, re] of [["tick", "--tick", /^\d{1,9}$/], ["ev", "--event", /^\d{1,9}$/], ["tour", "--tour", /^\d{1,3}$/], ["exercise", "--exercise", /^[1-9]\d?$/]]) {
      const v = p.get(key);
      if (v === null) continue;
      if (!re.test(v)) return fail("web.link.bad_field", key + "=" + v);
      args.push(flag, v);
    }
    const s = p.get("s"), preset = p.get("preset");
    if (s !== null) {
      const packed = fromBase64Url(s);
      if (!packed) return fail("web.link.not_base64", "");
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(await inflate(packed));
      } catch (e) {
        return fail("web.link.truncated", s.length);
      }
      const FS = Module.FS;
      try { FS.mkdir("/link"); } catch (e) { /* exists */ }
      FS.writeFile("/link/scenario.json", text);
      args.push("--scenario", "/link/scenario.json");
    } else if (preset !== null) {
      args.push("--preset", preset);
    } else {
      return fail("web.link.no_scenario", hash.slice(0, 80));
    }
    return args;
  }

  async function copyLink() {
    const state = JSON.parse(Module.UTF8ToString(Module._ls_link_state()));
    // A replayed history (a trace file) is not a scenario a link can carry: say so.
    if (state.replayed) {
      setStatus(tr("web.replay_no_link"));
      lastLink = null;
      return null;
    }
    const p = new URLSearchParams();
    if (state.preset) p.set("preset", state.preset);
    else p.set("s", toBase64Url(await deflate(new TextEncoder().encode(state.scenario))));
    p.set("tick", state.tick);
    p.set("lang", state.lang);
    if (state.event >= 0) p.set("ev", state.event);
    if (state.tour > 0) p.set("tour", state.tour);
    if (state.exercise > 0) p.set("exercise", state.exercise);
    const url = location.href.replace(/#.*$/, "") + "#" + p.toString();
    if (url.length > LINK_MAX) {
      setStatus(tr("web.link_too_long", { size: url.length, limit: LINK_MAX }));
      lastLink = null;
      return null;
    }
    lastLink = url;
    ignoreHashChange = true;
    history.replaceState(null, "", url);
    const box = $("link");
    box.value = url;
    try {
      await navigator.clipboard.writeText(url);
      setStatus(tr("web.link_copied", { size: url.length }));
      box.style.display = "none";
      $("status").style.display = "";
    } catch (e) {
      setStatus(tr("web.link_not_copied", { size: url.length }));
      box.style.display = "block";
      box.select();
    }
    return url;
  }

  // A file from the picker or a drop: into the memory file system, then opened by the app.
  async function openFile(file) {
    // What the page said about the scenario before ("Link copied", the link
    // itself, a damaged link) is about the one being replaced: it goes.
    forgetLink();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const FS = Module.FS;
    try { FS.mkdir("/uploads"); } catch (e) { /* exists */ }
    const path = "/uploads/" + file.name.replace(/[^A-Za-z0-9._-]/g, "_");
    FS.writeFile(path, bytes);
    Module._ls_open_path(allocString(path));
  }

  function forgetLink() {
    lastLink = null;
    setStatus("");
    $("link").style.display = "none";
    $("link").value = "";
    showError("");
    if (location.hash) history.replaceState(null, "", location.href.replace(/#.*$/, ""));
  }

  function download(path) {
    const FS = Module.FS;
    const data = FS.readFile(path);
    const name = path.split("/").pop();
    const type = name.endsWith(".png") ? "image/png" : name.endsWith(".svg") ? "image/svg+xml" : "application/json";
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data], { type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    try { FS.unlink(path); } catch (e) { /* gone */ }
  }

  // The done exercises of a scenario (app/web/main.cpp's sync_progress): a
  // bit mask for the app (bit n-1: exercise n), a list of numbers in storage.
  const PROGRESS_PREFIX = "leasescope.exercises.";
  function loadProgress(name) {
    let list = [];
    try { list = JSON.parse(localStorage.getItem(PROGRESS_PREFIX + name) || "[]"); } catch (e) { list = []; }
    let mask = 0;
    for (const n of Array.isArray(list) ? list : []) if (Number.isInteger(n) && n >= 1 && n <= 32) mask |= 1 << (n - 1);
    return mask;
  }
  function saveProgress(name, mask) {
    const list = [];
    for (let n = 1; n <= 32; ++n) if (mask & (1 << (n - 1))) list.push(n);
    try { localStorage.setItem(PROGRESS_PREFIX + name, JSON.stringify(list)); } catch (e) { /* storage refused: kept for this visit */ }
  }

  // Settings (language, speed, panel places) live in IndexedDB under /settings.
  function syncSettings(populate) {
    return new Promise((resolve) => Module.FS.syncfs(populate, () => resolve()));
  }

  // The mouse wheel. Emscripten 3.1.6's GLFW hands the browser's deltaX and
  // deltaY to the app as they are: pixels (100 for one notch in Chromium),
  // with the browser's sign (down is positive), where GLFW and ImGui count
  // notches with up positive. So one notch up zoomed out by 1.25^100 and a
  // 4-pixel trackpad scroll zoomed 2.4x. The page takes every wheel event
  // before GLFW does (capture on the window runs before the canvas's own
  // listeners), turns it into notches with up positive, and gives GLFW an
  // event that carries those notches.
  const WHEEL_PX_PER_NOTCH = 100;   // Chromium's and Firefox's pixel notch (Firefox in pixel mode)
  const WHEEL_LINES_PER_NOTCH = 3;  // Firefox's line mode: three lines a notch
  const WHEEL_NOTCHES_PER_PAGE = 5;
  const WHEEL_NOTCHES_MAX = 10;     // one fling of a free-spinning wheel, at most
  function wheelNotches(delta, mode) {
    const n = mode === 1 ? delta / WHEEL_LINES_PER_NOTCH : mode === 2 ? delta * WHEEL_NOTCHES_PER_PAGE : delta / WHEEL_PX_PER_NOTCH;
    return -Math.max(-WHEEL_NOTCHES_MAX, Math.min(WHEEL_NOTCHES_MAX, n));
  }
  window.addEventListener("wheel", (e) => {
    if (e.target !== canvas || e.lsNotches) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    const notched = new WheelEvent("wheel", {
      deltaX: wheelNotches(e.deltaX, e.deltaMode), deltaY: wheelNotches(e.deltaY, e.deltaMode), deltaMode: 0,
      clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
      shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, altKey: e.altKey, metaKey: e.metaKey, bubbles: true, cancelable: true,
    });
    notched.lsNotches = true;
    canvas.dispatchEvent(notched);
  }, { capture: true, passive: false });

  let ignoreHashChange = false;
  window.addEventListener("hashchange", () => {
    if (ignoreHashChange) { ignoreHashChange = false; return; }
    location.reload(); // a new link pasted into the address bar opens afresh
  });

  // The page's buttons never keep the keyboard: Space and the arrows belong
  // to the app (a focused button would take Space as another click: Copy
  // link copied again while the app started playing).
  for (const id of ["open-file", "copy-link", "error-close"]) {
    $(id).addEventListener("mousedown", (e) => e.preventDefault());
    $(id).addEventListener("click", (e) => { e.currentTarget.blur(); canvas.focus(); });
  }
  $("open-file").addEventListener("click", () => $("file-input").click());
  $("file-input").addEventListener("change", (e) => { if (e.target.files[0]) openFile(e.target.files[0]); e.target.value = ""; });
  $("copy-link").addEventListener("click", () => copyLink());
  $("error-close").addEventListener("click", () => showError(""));
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dragging"); });
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dragging");
    if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
  });

  const view = $("view");
  window.Module = {
    canvas,
    noInitialRun: true,
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    preRun: [() => {
      const FS = Module.FS;
      try { FS.mkdir("/settings"); } catch (e) { /* exists */ }
      FS.mount(IDBFS, {}, "/settings");
    }],
    onRuntimeInitialized: async () => {
      await syncSettings(true);
      const args = await linkArgs();
      Module.callMain(args);
      setInterval(() => syncSettings(false), 3000);
      window.addEventListener("pagehide", () => syncSettings(false));
    },
  };
  if (!document.createElement("canvas").getContext("webgl2")) showError("This browser cannot draw LeaseScope: it needs WebGL 2.");

  return {
    stageWidth: () => view.clientWidth,
    stageHeight: () => view.clientHeight,
    showError,
    langChanged: () => relabel(),
    firstFrame: () => {
      firstFrameMs = performance.now() - started;
      const nav = performance.getEntriesByType("navigation")[0];
      window.lsLoad = { firstFrameMs, sinceNavigationMs: performance.now(), domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null };
      console.log("leasescope: first frame after " + Math.round(performance.now()) + " ms from navigation");
      setStatus("");
      relabel();
    },
    pickFile: () => $("file-input").click(),
    loadProgress,
    saveProgress,
    download,
    copyLink,
    lastLink: () => lastLink,
  };
})();
window.lsShell = lsShell;
