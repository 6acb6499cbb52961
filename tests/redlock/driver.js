#!/usr/bin/env node
// Runs one LeaseScope Redlock scenario (docs/model.md §20) in real time through
// the real npm package redlock 4.2.0 against N real redis-servers on loopback,
// and writes the run as a leasescope-trace/5 trace, so that
// `leasescope-cli diff --ignore-tokens` can compare it with the simulation
// (model.md §20.9; tests/redlock/compare.sh runs both).
//
//   node driver.js SCENARIO --modules DIR/node_modules --out REAL.jsonl
//        --store PORT:DIR [--store PORT:DIR …] [--tick-ms N]
//
// Each --store is one redis-server the caller started on 127.0.0.1:PORT with
// `--dir DIR --pidfile DIR/redis.pid`; the first N are the scenario's N
// `stores`, in their order. The driver may kill and restart a store (a `restart` fault, and
// once before the run for a store that has one, to give it the fault's
// persistence); a restarted server keeps writing DIR/redis.pid, so whoever
// started the servers can stop them by their pid files.
//
// Exit codes: 0 the trace was written; 2 the scenario is outside what this
// driver can run (it says why) or the command line is wrong; 3 a server could
// not be reached or failed; 5 the run did not keep time (a tick began more
// than a quarter tick late, or its calls ended later than half a tick less
// 2 ms; model.md §13.4's rule): no trace is written, since its answers may
// have crossed a TTL boundary.
//
// What runs for real: every Redis call, the package's own vote counting,
// quorum, drift and validity arithmetic (`Date.now()`), its unlock on
// failure and its retry decision. What the driver plays: the scheduler of
// model.md §20.8 (run starts, the action's progress and writes, pauses), the
// protected resource (§20.6, judged by asking every store), the trace, and a
// store's clock jump: no clock is moved; one script moves the deadline of
// the key that store holds by the step (§20.9 rule 5), which is all the step
// would change for the relative commands the package sends, and with
// "stores_clock": "monotonic" nothing is moved (§20.2 rule 5).
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const childProcess = require('child_process');

const EXIT_UNSUPPORTED = 2;
const EXIT_REDIS = 3;
const EXIT_TIMING = 5;

// How a run that gave up ends (redlock.js 431; model.md §20.4 rule 6).
const GIVE_UP_RESULT = 'skipped';
// Whether a write is judged for model.md §9.6 (stale_after_successor).
const CHECK_STALE_AFTER_SUCCESSOR = false;

class DriverError extends Error {
  constructor(code, message) {
    super(message);
    this.exitCode = code;
  }
}
function unsupported(message) {
  return new DriverError(EXIT_UNSUPPORTED, message);
}

// ---------------------------------------------------------------------------
// Command line
function parseArgs(argv) {
  const args = { stores: [], tickMs: null, out: null, modules: null, scenario: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw unsupported(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--store') {
      const v = value();
      const m = /^(\d+):(.+)$/.exec(v);
      if (!m) throw unsupported(`--store ${v}: expected PORT:DIR`);
      args.stores.push({ port: Number(m[1]), dir: m[2] });
    } else if (a === '--tick-ms') args.tickMs = Number(value());
    else if (a === '--out') args.out = value();
    else if (a === '--modules') args.modules = value();
    else if (a.startsWith('--')) throw unsupported(`unknown option ${a}`);
    else if (args.scenario === null) args.scenario = a;
    else throw unsupported(`unexpected argument ${a}`);
  }
  if (!args.scenario || !args.out || !args.modules || args.stores.length === 0)
    throw unsupported('usage: driver.js SCENARIO --modules DIR --out FILE --store PORT:DIR… [--tick-ms N]');
  return args;
}

// ---------------------------------------------------------------------------
// The scenario: the subset of model.md §20 this driver runs, with the
// defaults of §11.2 and the durations of §11.7.

// Comments as model.md §11.1 allows them, outside strings.
function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60000, h: 3600000 };
function durationMs(value, where) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!m) throw unsupported(`${where}: ${JSON.stringify(value)} is not a duration`);
  return Number(m[1]) * UNIT_MS[m[2]];
}
// A time key (model.md §11.7): ticks, or a duration that is whole ticks.
function ticksOf(value, tickMs, where) {
  if (typeof value === 'number') return value;
  const ms = durationMs(value, where);
  if (!Number.isInteger(ms / tickMs)) throw unsupported(`${where}: ${value} is not a whole number of ${tickMs} ms ticks`);
  return ms / tickMs;
}
// retry_delay and retry_jitter (model.md §20.1 rule 2): with a unit they are
// milliseconds, as integers ticks.
function clientMs(value, tickMs, where) {
  return typeof value === 'number' ? value * tickMs : durationMs(value, where);
}

const CANDIDATE_KEYS = new Set(['name', 'client', 'start', 'wait', 'lease', 'action', 'writes', 'runs', 'every',
  'retry_count', 'retry_delay', 'retry_jitter', 'drift_factor']);
const TOP_KEYS = new Set(['$schema', 'name', 'title', 'summary', 'tick_ms', 'horizon', 'seed', 'order', 'lock',
  'resource', 'defaults', 'candidates', 'faults', 'stores', 'exercises', 'client', 'redlock', 'stores_clock']);
const REDLOCK_KEYS = new Set(['retry_count', 'retry_delay_ms', 'retry_jitter_ms', 'drift_factor']);

function loadScenario(file, tickMsOverride) {
  const raw = JSON.parse(stripComments(fs.readFileSync(file, 'utf8')));
  for (const key of Object.keys(raw))
    if (!TOP_KEYS.has(key)) throw unsupported(`/${key}: not run by this driver`);
  if (!Array.isArray(raw.stores) || raw.stores.length === 0) throw unsupported('/stores: not a Redlock scenario');
  // The client's options: the scenario's "redlock" object, named as the
  // package names them, for every candidate (or, in a candidate or
  // defaults, retry_count, retry_delay, retry_jitter, drift_factor).
  const options = raw.redlock || {};
  for (const key of Object.keys(options))
    if (!REDLOCK_KEYS.has(key)) throw unsupported(`/redlock/${key}: not run by this driver`);
  if (raw.client !== undefined && raw.client !== 'redlock') throw unsupported('/client: "redlock" expected');
  if (raw.order !== undefined && raw.order !== 'declared') throw unsupported('/order: only "declared"');
  const storesClock = raw.stores_clock === undefined ? 'wall' : raw.stores_clock;
  if (storesClock !== 'wall' && storesClock !== 'monotonic') throw unsupported('/stores_clock: "wall" or "monotonic" expected');
  const tickMs = tickMsOverride || raw.tick_ms || 50;
  const lock = raw.lock || {};
  for (const key of Object.keys(lock))
    if (!['name', 'capacity', 'fencing_start'].includes(key)) throw unsupported(`/lock/${key}: not run by this driver`);
  if ((lock.capacity || 1) !== 1) throw unsupported('/lock/capacity: Redlock has capacity 1');
  const resource = raw.resource || {};
  if ((resource.mode || 'off') !== 'off') throw unsupported('/resource/mode: Redlock needs "off" (model.md §20.6)');
  const s = {
    name: raw.name,
    tickMs,
    horizon: ticksOf(raw.horizon === undefined ? 1000 : raw.horizon, tickMs, '/horizon'),
    seed: raw.seed || 0,
    lockName: lock.name || 'lock',
    stores: raw.stores.slice(),
    storesClock,
    candidates: [],
    pauses: [],
    crashes: [],     // {order, node, at}
    nodeJumps: [],   // {order, node, at, ms}: a candidate's clock_jump
    storeJumps: [],  // {order, store, at, ms}: a store's clock_jump (model.md §20.9 rule 5)
    restarts: [],
    faultEdges: [],  // ticks at which a fault starts or ends (model.md §6.3)
  };
  const defaults = raw.defaults || {};
  raw.candidates.forEach((c, i) => {
    const where = `/candidates/${i}`;
    const merged = Object.assign({}, defaults, c);
    for (const key of Object.keys(merged))
      if (!CANDIDATE_KEYS.has(key)) throw unsupported(`${where}/${key}: not run by this driver`);
    if (merged.client !== undefined ? merged.client !== 'redlock' : raw.client !== 'redlock')
      throw unsupported(`${where}/client: "redlock" expected`);
    if (merged.network !== undefined || merged.clock !== undefined) throw unsupported(`${where}: no network or clock`);
    const t = (key, dflt) => (merged[key] === undefined ? dflt : ticksOf(merged[key], tickMs, `${where}/${key}`));
    const action = t('action');
    const cand = {
      index: i,
      name: c.name,
      start: t('start', 0),
      lease: t('lease'),
      action,
      writes: merged.writes === undefined ? [action] : merged.writes.map((w, k) => ticksOf(w, tickMs, `${where}/writes/${k}`)),
      runs: merged.runs === undefined ? 1 : merged.runs,
      every: t('every', 0),
      // The package's defaults (redlock.js 58-63).
      retryCount: pick(merged.retry_count, options.retry_count, 10),
      retryDelayMs: merged.retry_delay !== undefined ? clientMs(merged.retry_delay, tickMs, `${where}/retry_delay`) : pick(options.retry_delay_ms, 200),
      retryJitterMs: merged.retry_jitter !== undefined ? clientMs(merged.retry_jitter, tickMs, `${where}/retry_jitter`) : pick(options.retry_jitter_ms, 100),
      driftFactor: pick(merged.drift_factor, options.drift_factor, 0.01),
    };
    checkClientOptions(cand, tickMs, raw.redlock ? '/redlock' : where);
    s.candidates.push(cand);
  });
  (raw.faults || []).forEach((f, i) => {
    const where = `/faults/${i}`;
    if (f.kind === 'pause') {
      const cand = s.candidates.find((c) => c.name === f.node);
      if (!cand) throw unsupported(`${where}/node: not a candidate`);
      const p = { order: i, node: cand.index, at: ticksOf(f.at, tickMs, `${where}/at`), ticks: ticksOf(f.ticks, tickMs, `${where}/ticks`) };
      s.pauses.push(p);
      s.faultEdges.push(p.at, p.at + p.ticks);
    } else if (f.kind === 'restart') {
      const store = s.stores.indexOf(f.store);
      if (store < 0) throw unsupported(`${where}/store: not a store`);
      const persistence = f.persistence || 'none';
      if (persistence !== 'none' && persistence !== 'always')
        throw unsupported(`${where}/persistence: "${persistence}" cannot be shown by killing a process (model.md §20.3): only "none" and "always"`);
      const r = { order: i, store, at: ticksOf(f.at, tickMs, `${where}/at`), ticks: ticksOf(f.ticks, tickMs, `${where}/ticks`), persistence };
      if (s.restarts.some((o) => o.store === store && o.persistence !== persistence))
        throw unsupported(`${where}: one store restarts with one persistence in this driver`);
      s.restarts.push(r);
      s.faultEdges.push(r.at, r.at + r.ticks);
    } else if (f.kind === 'clock_jump' && s.stores.includes(f.clock)) {
      if (!Number.isInteger(f.ms) || f.ms === 0) throw unsupported(`${where}/ms: a whole number of milliseconds, not 0`);
      const j = { order: i, store: s.stores.indexOf(f.clock), at: ticksOf(f.at, tickMs, `${where}/at`), ms: f.ms };
      s.storeJumps.push(j);
      s.faultEdges.push(j.at);
    } else if (f.kind === 'clock_jump' || f.kind === 'crash') {
      const cand = s.candidates.find((c) => c.name === (f.kind === 'crash' ? f.node : f.clock));
      if (!cand) throw unsupported(`${where}: names no candidate`);
      const at = ticksOf(f.at, tickMs, `${where}/at`);
      // A candidate's jump moves the wall clock the package reads with
      // Date.now() (model.md §20.4 rule 2) between two ticks; an attempt's
      // start and decision fall in one tick here (no time on the wire), so
      // it changes no decision and is only its event.
      if (f.kind === 'clock_jump') s.nodeJumps.push({ order: i, node: cand.index, at, ms: f.ms });
      else s.crashes.push({ order: i, node: cand.index, at });
      s.faultEdges.push(at);
    } else {
      throw unsupported(`${where}/kind: "${f.kind}" is not run by this driver`);
    }
  });
  if (raw.ops !== undefined && raw.ops.length) throw unsupported('/ops: not run by this driver');
  return s;
}

function pick(...values) {
  return values.find((v) => v !== undefined);
}

// The client's options as far as a real run can reproduce the simulation.
function checkClientOptions(c, tickMs, where) {
  // The package draws its jitter from Math.random; the simulation from its
  // seed (model.md §20.4 rule 6). Only no jitter gives both the same delay.
  if (c.retryJitterMs !== 0) throw unsupported(`${where}: retry jitter ${c.retryJitterMs} ms; it must be 0 for a comparison with the simulation`);
  // The package's setTimeout fires after retry_delay on Node's monotonic
  // clock; the model retries at the first tick whose moment has reached it,
  // never in the same tick (§20.4 rule 7). They agree on whole ticks of at
  // least one.
  if (c.retryDelayMs < tickMs || c.retryDelayMs % tickMs !== 0)
    throw unsupported(`${where}: retry delay ${c.retryDelayMs} ms is not a whole number (≥ 1) of ${tickMs} ms ticks`);
  // The validity test (§20.4 rule 5) at the decision: the model reads
  // ttl − drift with ttl = lease·tick_ms; the real client has
  // ttl = (lease − ½)·tick_ms (see ttlMs below) and a few milliseconds of
  // real time between start and decision (less than half a tick: the
  // timing rule). Both must fall on the same side of 0 for any of those.
  const modelMargin = c.lease * tickMs - (Math.round(c.driftFactor * c.lease * tickMs) + 2);
  const ttl = ttlMs(c.lease, tickMs);
  const realMargin = ttl - (Math.round(c.driftFactor * ttl) + 2);
  if (modelMargin > 0 ? realMargin <= tickMs / 2 : realMargin > 0)
    throw unsupported(`${where}: drift_factor ${c.driftFactor} puts the validity (${realMargin} ms) too close to 0 for a real run`);
}

// The lease as the package's ttl. Live mode's rule (model.md §13.3): k ticks
// become (k − ½)·tick_ms milliseconds, so that a lock set in tick s (a few
// milliseconds after the tick began) is gone half a tick before tick s + k
// begins and still there at every command of tick s + k − 1, which is the
// model's boundary (§3.3 rule 4, deadline at moment(s + k)); with
// lease·tick_ms itself the boundary would fall on the very milliseconds the
// commands of tick s + k run at.
function ttlMs(leaseTicks, tickMs) {
  return Math.floor((leaseTicks - 0.5) * tickMs);
}

// ---------------------------------------------------------------------------
// Trace lines in the canonical form of model.md §12.2 (JSON.stringify writes
// what nlohmann::json's dump() writes for these values: integers, ASCII
// strings, null).
const EVENT_KEYS = ['type', 'tick', 'seq', 'phase', 'node', 'run', 'op', 'token', 'fencing', 'slot', 'ttl', 'outcome', 'detail'];
function eventLine(e) {
  const o = {};
  for (const key of EVENT_KEYS) o[key] = e[key] === undefined ? null : e[key];
  o.type = 'event';
  if (e.server !== undefined) o.server = e.server;
  return JSON.stringify(o);
}

// Moves a key's deadline by ARGV[1] ms earlier (model.md §20.9 rule 5): -2
// for no key, -1 for a key without a TTL, else PEXPIREAT's answer.
const STEP_CLOCK_SCRIPT = "local at = redis.call('pexpiretime', KEYS[1]) if at < 0 then return at end " +
  "return redis.call('pexpireat', KEYS[1], at - tonumber(ARGV[1]))";

const PHASES = ['faults', 'expiry', 'work', 'extend', 'acquire', 'ops', 'check'];

// ---------------------------------------------------------------------------
// The run.
class Driver {
  constructor(scenario, args) {
    this.s = scenario;
    this.args = args;
    this.T = scenario.tickMs;
    this.quorum = Math.floor(scenario.stores.length / 2) + 1;
    this.Redis = require(path.resolve(args.modules, 'ioredis'));
    this.Redlock = require(path.resolve(args.modules, 'redlock'));
    this.events = [];        // every event line, in trace order
    this.tickEvents = [];    // the events of the tick at hand
    this.tick = -1;
    this.t0 = 0;
    this.late = [];          // timing faults: [tick, ms began late, ms ended after its time]
    this.lateRetries = [];   // timing faults: a retry scheduled after its tick ended (scheduleRetry)
    this.stores = args.stores.map((st, i) => ({
      index: i, name: scenario.stores[i], port: st.port, dir: st.dir,
      up: true, record: null,  // record: {token, node, run} as the driver saw it set
      tail: Promise.resolve(), // the store's queue of calls (enqueue)
      observer: null, restart: scenario.restarts.find((r) => r.store === i) || null,
      pendingStepMs: 0,        // a clock step that fell while the store was down (stepClock)
    }));
    this.holders = [];       // runs that acquired, in acquisition order (model.md §9.6)
    this.written = new Set(); // holders (by position in this.holders) with an accepted write
    this.violations = { overlap: 0, unsafe_write: 0, fencing_regressed: 0, stale_after_successor: 0, holder_rejected: 0, fencing_duplicate: 0 };
    this.overlapping = false;
    this.currentOwner = null; // the candidate whose unlock callback is running (setTimeout hook)
    // The timing rule (model.md §13.4's, for this driver): a tick must begin
    // within a quarter tick of its time, and its calls must all be answered
    // before half a tick less 2 ms, since a lock set in the first
    // milliseconds of a tick expires half a tick before the tick of its
    // boundary begins (ttlMs) and Redis counts whole milliseconds.
    this.startLimitMs = this.T / 4;
    this.endLimitMs = this.T / 2 - 2;
  }

  emit(phase, e) {
    assert(PHASES.includes(phase), `phase ${phase}`);
    this.tickEvents.push(Object.assign({ phase, tick: this.tick }, e));
  }

  // ---- Redis servers -------------------------------------------------------
  redisOptions(port) {
    return {
      host: '127.0.0.1', port,
      // model.md §20.4 rule 4: nothing in redlock 4.2.0 times a call out, and a
      // down server must fail at once. No offline queue: a command while the
      // connection is down is refused at once instead of waiting for a
      // reconnection; no retry per request and no resending after a
      // reconnection: a call that was on the wire when its server died fails.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // Reconnect quickly after a restart: the driver waits for every client
      // to be ready again before the tick at which the store is back.
      retryStrategy: () => 10,
      connectTimeout: 1000,
      // ioredis's ready check waits a whole second when it finds the server
      // loading its append-only file; the driver waits for the load itself
      // (waitServerUp), polling every 2 ms.
      enableReadyCheck: false,
    };
  }

  client(port) {
    const c = new this.Redis(this.redisOptions(port));
    c.on('error', () => {});  // connection errors are the answers' business
    return c;
  }

  async waitReady(client, what) {
    const deadline = Date.now() + 5000;
    while (client.status !== 'ready') {
      if (Date.now() > deadline) throw new DriverError(EXIT_REDIS, `${what}: not ready after 5 s (${client.status})`);
      await sleep(2);
    }
  }

  serverArgs(st, persistence) {
    const aof = persistence === 'always' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    return ['--port', String(st.port), '--bind', '127.0.0.1', '--dir', st.dir, '--pidfile', path.join(st.dir, 'redis.pid'),
      '--save', '', ...aof, '--daemonize', 'no', '--loglevel', 'warning', '--logfile', path.join(st.dir, 'redis.log')];
  }

  async serverPid(st) {
    const info = await st.observer.info('server');
    const m = /process_id:(\d+)/.exec(info);
    if (!m) throw new DriverError(EXIT_REDIS, `${st.name}: no process_id in INFO`);
    return Number(m[1]);
  }

  async kill(st) {
    process.kill(await this.serverPid(st), 'SIGKILL');
    st.up = false;
    // Wait until every client has seen its connection go, so that a call
    // after this is refused at once rather than written to a dead socket.
    const clients = [st.observer, ...this.s.candidates.map((c) => c.clients[st.index])];
    const deadline = Date.now() + 2000;
    while (clients.some((c) => c.status === 'ready')) {
      if (Date.now() > deadline) throw new DriverError(EXIT_REDIS, `${st.name}: clients still connected after kill -9`);
      await sleep(1);
    }
  }

  spawn(st, persistence) {
    const child = childProcess.spawn('redis-server', this.serverArgs(st, persistence), { detached: true, stdio: 'ignore' });
    child.unref();
  }

  async waitServerUp(st) {
    const clients = [st.observer, ...this.s.candidates.map((c) => c.clients[st.index])];
    for (const c of clients) await this.waitReady(c, st.name);
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        await st.observer.ping();
        break;
      } catch (e) {
        if (!String(e.message).startsWith('LOADING') || Date.now() > deadline) throw new DriverError(EXIT_REDIS, `${st.name}: ${e.message}`);
        await sleep(2);
      }
    }
    await this.loadScripts(st);
  }

  // Loaded by the driver so that the package's EVALSHA finds them (also after
  // a restart): its EVAL after NOSCRIPT (redlock.js 455-461) would be a second
  // call, queued behind the store's later calls, out of the model's order.
  // The proxies treat a NOSCRIPT as the driver's failure.
  async loadScripts(st) {
    const rl = this.s.candidates[0].redlock;
    for (const name of ['lockScript', 'unlockScript']) await st.observer.script('load', rl.scripts[name].value);
  }

  // Before the run: every store empty; a store with a restart fault is
  // started afresh with that fault's persistence in an empty directory, so
  // that with "always" its append-only file holds exactly this run's calls.
  async prepareStores() {
    for (const st of this.stores) {
      st.observer = this.client(st.port);
      await this.waitReady(st.observer, st.name);
    }
    for (const st of this.stores) {
      if (st.restart) {
        process.kill(await this.serverPid(st), 'SIGKILL');
        await sleep(50);
        for (const f of fs.readdirSync(st.dir)) if (f !== 'redis.log') fs.rmSync(path.join(st.dir, f), { recursive: true, force: true });
        this.spawn(st, st.restart.persistence);
      }
    }
    for (const st of this.stores) {
      await this.waitReady(st.observer, st.name);
      // A server an earlier scenario restarted with "always" keeps its
      // append-only file; this scenario does not restart it, so no fsync.
      if (!st.restart) await st.observer.config('set', 'appendonly', 'no');
      await st.observer.flushall();
    }
  }

  // ---- Candidates ----------------------------------------------------------
  setUpCandidates() {
    const driver = this;
    for (const c of this.s.candidates) {
      c.clients = this.stores.map((st) => this.client(st.port));
      c.batch = null;           // the calls of one lock or unlock being sent or answered
      c.pendingDecision = null; // a lock batch whose answers the package has just counted
      c.lastFailure = null;     // the unlock of the last failed attempt
      c.paused = false;
      c.runIndex = -1;          // the run at hand
      c.runState = 'idle';      // idle | attempting | retry_wait | holding | releasing | crashed
      c.results = [];
      c.progress = 0;
      c.executing = false;
      c.retry = null;           // {dueTick, fn}
      c.settle = null;          // resolves when the package is done with this step
      c.nextRunTick = c.start;
      // The package talks to a proxy per server with the one method it calls
      // (redlock.js 455), forwarded to the real ioredis client through the
      // store's queue (enqueue).
      const proxies = this.stores.map((st) => ({
        evalsha: (sha, args, cb) => driver.call(c, st, sha, args, cb),
        eval: () => { throw new DriverError(EXIT_REDIS, `${st.name}: the server lost the scripts the driver loaded`); },
      }));
      const rl = new this.Redlock(proxies, {
        driftFactor: c.driftFactor, retryCount: c.retryCount, retryDelay: c.retryDelayMs, retryJitter: c.retryJitterMs,
      });
      // Instrumentation only: note the token the package draws, and who is
      // running when the package's unlock callback schedules a retry.
      rl._random = function () {
        const token = driver.Redlock.prototype._random.call(this);
        c.token = token;
        return token;
      };
      rl.unlock = function (lock, callback) {
        const wrapped = callback && function (...a) {
          driver.currentOwner = c;
          try { return callback.apply(this, a); } finally { driver.currentOwner = null; }
        };
        return driver.Redlock.prototype.unlock.call(this, lock, wrapped);
      };
      c.redlock = rl;
      c.sha = { [rl.scripts.lockScript.hash]: 'lock', [rl.scripts.unlockScript.hash]: 'unlock' };
    }
  }

  // Each store applies what it is sent one call at a time, in the order the
  // driver and the packages sent it, whatever connection it came on: the
  // model's order (model.md §20.8 rule 1: by send number). Two clients'
  // connections to one real server would otherwise race.
  enqueue(st, job) {
    const p = st.tail.then(job);
    st.tail = p.catch(() => {});
    return p;
  }

  // One call from a candidate's package to one store. A batch is the N calls
  // of one lock or unlock (redlock.js 435-437, 255-261), sent together.
  call(c, st, sha, args, cb) {
    const kind = c.sha[sha];
    assert(kind, 'a known script');
    if (!c.batch) {
      const b = { kind, c, run: c.runIndex, token: c.token, answers: new Array(this.stores.length), count: 0, processed: 0, followUp: null, giveUp: false };
      if (kind === 'lock') b.role = 'attempt';
      else if (c.pendingDecision) b.role = 'failure';
      else b.role = 'release';
      b.phase = b.role === 'release' ? 'work' : 'acquire';
      if (b.role === 'failure') {
        // The unlock of a failed attempt (redlock.js 424) is sent as the
        // package counts the attempt's last answer.
        c.pendingDecision.followUp = b;
        c.pendingDecision = null;
        c.lastFailure = b;
      } else {
        this.phaseSends.push({ batch: b });
      }
      c.batch = b;
    }
    const b = c.batch;
    assert(b.kind === kind, 'one batch at a time');
    const client = c.clients[st.index];
    this.enqueue(st, () => new Promise((resolve) => {
      client.evalsha(sha, ...args, (err, result) => {
        if (err && String(err.message).startsWith('NOSCRIPT')) this.fail(new DriverError(EXIT_REDIS, `${st.name}: the server lost the scripts the driver loaded`));
        this.answer(c, st, b, { err, result, cb });
        resolve();
      });
    }));
  }

  fail(e) {
    if (!this.failure) this.failure = e;
  }

  // A store's answer, in the order the store applied the calls: the record
  // the driver follows changes here.
  answer(c, st, b, a) {
    assert(!b.answers[st.index], 'an answer per store');
    b.answers[st.index] = a;
    a.ok = !a.err && (a.result === 1 || a.result === '1');
    if (a.ok) st.record = b.kind === 'lock' ? { token: b.token, node: c.index, run: b.run } : null;
    if (++b.count < this.stores.length) return;
    c.batch = null;
    // A paused client makes no call (runs, retries and the action wait for
    // its first active tick, model.md §20.5 rule 3) and a tick's calls are
    // all answered before the next tick's faults, so no answer ever reaches a
    // paused client: with time on the wire (refused here) one could.
    assert(!c.paused, 'no answer reaches a paused client');
    if (b.kind === 'lock') c.pendingDecision = b;
    for (const x of b.answers) x.cb(x.err, x.result);
    // The package counted the answers (redlock.js 408-420): it has sent the
    // unlock of a failed attempt by now, or it resolves the lock.
    if (c.pendingDecision === b) c.pendingDecision = null;
  }

  // The package's setTimeout(attempt, delay) (redlock.js 428), routed here by
  // the hook below: the retry is due at the tick its real time falls in.
  // The delay is whole ticks (checkClientOptions), so the retry falls in
  // tick + delay/T when this tick's calls ended inside it; a tick that ran
  // past its end (a loaded machine) would put it a tick later: that is a
  // timing fault (exit 5, the run is tried again), not a divergence.
  scheduleRetry(c, fn, delayMs) {
    const dueTick = this.tick + delayMs / this.T;
    assert(Number.isInteger(dueTick) && dueTick > this.tick, `retry due at tick ${dueTick}`);
    const realTick = Math.max(this.tick + 1, this.tickOf(performance.now() + delayMs));
    if (realTick !== dueTick) this.lateRetries.push(`${c.name}'s retry set at tick ${this.tick} fell due at tick ${realTick}, not ${dueTick}`);
    c.retry = { dueTick, fn };
    c.runState = 'retry_wait';
    this.settle(c);
    return { unref() {}, ref() {} };
  }

  settle(c) {
    if (c.settle) {
      const s = c.settle;
      c.settle = null;
      s();
    }
  }

  // Runs fn, which makes the package send its calls, and returns a promise of
  // the package being done with this step: acquired, failed, retry
  // scheduled, or released.
  trigger(c, fn) {
    const done = new Promise((resolve) => { c.settle = resolve; });
    fn();
    return withTimeout(done, this.T, `${c.name}: the package did not finish its calls within a tick`);
  }

  // ---- Time ----------------------------------------------------------------
  tickOf(ms) {
    return Math.floor((ms - this.t0) / this.T);
  }

  // ---- Phases --------------------------------------------------------------
  async faults(t) {
    const edges = [];
    for (const p of this.s.pauses) {
      if (p.at === t) edges.push({ order: p.order, end: false, p });
      if (p.at + p.ticks === t) edges.push({ order: p.order, end: true, p });
    }
    for (const r of this.s.restarts) {
      if (r.at === t) edges.push({ order: r.order, end: false, r });
      if (r.at + r.ticks === t) edges.push({ order: r.order, end: true, r });
    }
    for (const x of this.s.crashes) if (x.at === t) edges.push({ order: x.order, end: false, crash: x });
    for (const j of this.s.nodeJumps) if (j.at === t) edges.push({ order: j.order, end: false, jump: j });
    for (const j of this.s.storeJumps) if (j.at === t) edges.push({ order: j.order, end: false, storeJump: j });
    // Ends before starts at one tick (a pause may end as the next begins,
    // model.md §7.4), then the fault list's order.
    edges.sort((a, b) => (a.end ? 0 : 1) - (b.end ? 0 : 1) || a.order - b.order);
    for (const e of edges) {
      if (e.crash) {
        this.crash(this.s.candidates[e.crash.node]);
      } else if (e.jump) {
        this.emit('faults', { node: this.s.candidates[e.jump.node].name, op: 'clock_jump', detail: String(e.jump.ms) });
      } else if (e.storeJump) {
        await this.storeClockJump(this.stores[e.storeJump.store], e.storeJump.ms);
      } else if (e.p) {
        const c = this.s.candidates[e.p.node];
        if (c.runState === 'crashed') continue;
        c.paused = !e.end;
        this.emit('faults', { node: c.name, op: e.end ? 'resume' : 'pause' });
      } else if (!e.end) {
        const st = this.stores[e.r.store];
        st.recordAtKill = st.record;
        await this.kill(st);
        this.emit('faults', { node: st.name, op: 'crash', server: st.index });
      } else {
        await this.comeBack(this.stores[e.r.store], e.r);
      }
    }
  }

  // model.md §20.5 rule 3: a crashed client stops for good and releases
  // nothing. The driver stops driving it: no progress, no run, no retry; its
  // package, left alone, sends nothing more.
  crash(c) {
    if (c.runState === 'crashed') return;
    if (c.runState !== 'idle') c.results[c.runIndex] = 'crashed';
    c.runState = 'crashed';
    c.executing = false;
    c.retry = null;
    this.emit('faults', { node: c.name, op: 'crash' });
  }

  // A restarted store was started as soon as the tick before had its calls
  // answered (bootEarly): here it is up, and the driver says what it kept.
  async comeBack(st, r) {
    assert(st.booting, 'booted before its tick');
    st.booting = false;
    await this.waitServerUp(st);
    st.up = true;
    // A clock step that fell while it was down: the model's record keeps its
    // deadline on the store's jumped clock (model.md §20.3, §20.9 rule 5).
    if (st.pendingStepMs !== 0) await this.stepClock(st, st.pendingStepMs);
    st.pendingStepMs = 0;
    const had = st.recordAtKill;
    let outcome = null;
    if (had) {
      // Kept when Redis had it on disk: with appendfsync always the SET of
      // the lock is in the append-only file. Redis skips a key whose PXAT
      // passed while it was down when it loads it; the model keeps it and
      // expires it at once (§20.3), so the expiry phase reports it gone.
      const onDisk = r.persistence === 'always' && aofHolds(st.dir, had.token);
      outcome = onDisk ? 'kept' : 'lost';
      st.record = onDisk ? had : null;
    } else st.record = null;
    const value = await st.observer.get(this.s.lockName);
    if (outcome !== 'kept' && value !== null) throw new DriverError(EXIT_REDIS, `${st.name}: came back holding ${value}`);
    this.emit('faults', { node: st.name, op: 'restart', outcome, server: st.index });
  }

  // A store's clock_jump (model.md §20.9 rule 5): the server's clock is not
  // moved; the deadline of the key it holds is, by the step's whole ticks,
  // which is all a step of its clock would change for the relative commands
  // the package sends. With stores_clock "monotonic" (§20.2 rule 5) the
  // jump moves no deadline and is only its event.
  async storeClockJump(st, ms) {
    this.emit('faults', { node: st.name, op: 'clock_jump', detail: String(ms), server: st.index });
    if (this.s.storesClock === 'monotonic') return;
    const stepMs = Math.floor(ms / this.T) * this.T;
    if (stepMs === 0) return;
    if (st.up) await this.stepClock(st, stepMs);
    else st.pendingStepMs += stepMs;
  }

  // One script, so that no call of the package falls between reading the
  // deadline and writing it back; PEXPIRETIME and PEXPIREAT read no clock
  // (PTTL and PEXPIRE each read it afresh). PEXPIREAT deletes a key whose new
  // deadline has passed (Redis 7.0.15 expire.c 487-495, 640-653).
  async stepClock(st, stepMs) {
    await this.enqueue(st, () => st.observer.eval(STEP_CLOCK_SCRIPT, 1, this.s.lockName, String(stepMs)));
  }

  bootEarly(t) {
    for (const r of this.s.restarts) {
      if (r.at + r.ticks === t + 1) {
        const st = this.stores[r.store];
        st.booting = true;
        this.spawn(st, r.persistence);
      }
    }
  }

  // model.md §20.2 rule 3: a record that vanished from a store since the
  // driver saw it set (and not by an unlock) expired.
  // The stores are read at once, not one after the other: on a loaded
  // machine each round trip may wait for its server to be scheduled, and
  // five in a row add up against a tick's time budget.
  async expiry() {
    const watched = this.stores.filter((st) => st.up && st.record);
    const values = await Promise.all(watched.map((st) => st.observer.get(this.s.lockName)));
    for (const [k, st] of watched.entries()) {
      const value = values[k];
      if (value === st.record.token) continue;
      if (value !== null) throw new DriverError(EXIT_REDIS, `${st.name}: holds ${value}, which nobody set`);
      const owner = this.s.candidates[st.record.node];
      this.emit('expiry', { node: owner.name, run: st.record.run, op: 'expire', token: st.record.token, outcome: 'expired', server: st.index });
      st.record = null;
    }
  }

  // Phase work (model.md §20.5): each active holder advances; a write due
  // and the unlock at the action's end are sent, then everything is answered.
  async work(t) {
    this.phaseSends = [];
    const waits = [];
    for (const c of this.s.candidates) {
      if (c.paused || c.runState !== 'holding' || c.acquiredAt === t) continue;
      c.progress++;
      if (c.writes.includes(c.progress)) waits.push(this.sendWrite(c));
      if (c.progress === c.action) {
        c.runState = 'releasing';
        c.executing = false;
        waits.push(this.trigger(c, () => {
          c.lock.unlock().then(() => this.released(c), () => this.released(c));
        }));
      }
    }
    await Promise.all(waits);
    this.replay();
  }

  released(c) {
    c.runState = 'idle';
    this.settle(c);
  }

  // A write reaches the resource (model.md §20.6), which asks every store
  // who holds the lock, at the write's place in each store's queue.
  sendWrite(c) {
    const w = { c, run: c.runIndex, token: c.token, values: new Array(this.stores.length).fill(null) };
    this.phaseSends.push({ write: w });
    return Promise.all(this.stores.map((st) => this.enqueue(st, () => st.observer.get(this.s.lockName).then(
      (v) => { w.values[st.index] = v; }, () => { w.values[st.index] = null; }))));
  }

  // Phase acquire (model.md §20.4): runs and retries due start attempts, in
  // declared order, then everything is answered.
  async acquire(t) {
    this.phaseSends = [];
    const waits = [];
    for (const c of this.s.candidates) {
      if (c.paused) continue;
      if (c.runState === 'retry_wait' && c.retry.dueTick <= t) {
        const fn = c.retry.fn;
        c.retry = null;
        c.runState = 'attempting';
        waits.push(this.trigger(c, fn));
      } else if (c.runState === 'idle' && c.runIndex + 1 < c.runs && t >= c.nextRunTick) {
        waits.push(this.startRun(c));
      }
    }
    await Promise.all(waits);
    this.replay();
  }

  startRun(c) {
    c.runIndex++;
    c.results[c.runIndex] = 'unfinished';
    c.runState = 'attempting';
    c.nextRunTick = c.start + (c.runIndex + 1) * c.every;
    const run = c.runIndex;
    const done = this.trigger(c, () => {
      c.redlock.lock(this.s.lockName, ttlMs(c.lease, this.T)).then((lock) => {
        c.lock = lock;
        c.runState = 'holding';
        c.executing = true;
        c.acquiredAt = this.tick;
        c.progress = 0;
        c.results[run] = 'elected';
        this.settle(c);
      }, () => {
        // "Exceeded retryCount attempts" (redlock.js 431).
        c.runState = 'idle';
        c.results[run] = GIVE_UP_RESULT;
        c.lastFailure.giveUp = true;
        this.settle(c);
      });
    });
    // The package drew the run's token as lock() began.
    this.emit('acquire', { node: c.name, run, op: 'start', token: c.token });
    return done;
  }

  // The phase's events in the model's order (model.md §20.8 rule 1): the
  // model handles a phase's messages first in, first out: every request sent
  // in the phase, each answered by a reply at the back of the queue, a
  // batch's last reply followed by the package's decision and what it sends
  // then. The real answers are all in: this lays them out as that queue
  // would have met them.
  replay() {
    const n = this.stores.length;
    const queue = [];
    for (const s of this.phaseSends) {
      if (s.write) queue.push({ write: s.write });
      else for (let i = 0; i < n; i++) queue.push({ request: s.batch, i });
    }
    for (let k = 0; k < queue.length; k++) {
      const item = queue[k];
      if (item.request) {
        queue.push({ reply: item.request, i: item.i });
      } else if (item.write) {
        this.judgeWrite(item.write);
      } else {
        const b = item.reply;
        this.storeEvent(b, item.i);
        if (++b.processed === n) this.batchEnd(b, queue);
      }
    }
    this.phaseSends = [];
  }

  storeEvent(b, i) {
    const a = b.answers[i];
    let outcome;
    if (a.err) outcome = 'error';
    else if (b.kind === 'lock') outcome = a.ok ? 'acquired' : 'busy';
    else outcome = a.ok ? 'released' : 'not_owner';
    this.emit(b.phase, {
      node: b.c.name, run: b.run, op: b.kind === 'lock' ? 'acquire' : 'release', token: b.token,
      ttl: b.kind === 'lock' && a.ok ? b.c.lease : null, outcome, server: i,
    });
  }

  batchEnd(b, queue) {
    const votes = b.answers.filter((a) => a.ok).length;
    const c = b.c;
    if (b.role === 'attempt') {
      const won = !b.followUp;
      this.emit('acquire', { node: c.name, run: b.run, op: 'quorum', token: b.token, ttl: won ? c.lease : null,
        outcome: won ? 'acquired' : 'busy', detail: String(votes) });
      if (won) this.holders.push({ node: c.index, run: b.run });
      else for (let i = 0; i < this.stores.length; i++) queue.push({ request: b.followUp, i });
    } else if (b.role === 'failure') {
      if (b.giveUp) this.emit('acquire', { node: c.name, run: b.run, op: 'skip', token: b.token, outcome: 'skipped' });
    } else {
      this.emit('work', { node: c.name, run: b.run, op: 'quorum', token: b.token,
        outcome: votes >= this.quorum ? 'released' : 'error', detail: String(votes) });
    }
  }

  // model.md §20.6: stale without a quorum of its own token, unsafe when
  // another token holds a quorum; §9.6 after a successor's accepted write.
  judgeWrite(w) {
    const held = new Map();
    for (const v of w.values) if (v !== null) held.set(v, (held.get(v) || 0) + 1);
    const words = [];
    if ((held.get(w.token) || 0) < this.quorum) words.push('stale');
    let other = false;
    for (const [token, count] of held) if (token !== w.token && count >= this.quorum) other = true;
    if (other) { words.push('unsafe_write'); this.violations.unsafe_write++; }
    if (CHECK_STALE_AFTER_SUCCESSOR) {
      const me = this.holders.findIndex((h) => h.node === w.c.index && h.run === w.run);
      if ([...this.written].some((k) => k > me)) { words.push('stale_after_successor'); this.violations.stale_after_successor++; }
      this.written.add(me);
    }
    this.emit('work', { node: w.c.name, run: w.run, op: 'write', token: w.token, outcome: 'accepted', detail: words.length ? words.join(',') : null });
  }

  check() {
    const executing = this.s.candidates.filter((c) => c.executing).length;
    if (!this.overlapping && executing > 1) {
      this.overlapping = true;
      this.violations.overlap++;
      this.emit('check', { op: 'overlap_begin', detail: String(executing) });
    } else if (this.overlapping && executing <= 1) {
      this.overlapping = false;
      this.emit('check', { op: 'overlap_end' });
    }
  }

  // model.md §6.3: nothing can happen after tick t.
  finishedAfter(t) {
    const done = (c) => c.runState === 'crashed' || (c.runState === 'idle' && c.runIndex + 1 >= c.runs);
    if (!this.s.candidates.every(done)) return false;
    if (this.stores.some((st) => st.record)) return false;
    return !this.s.faultEdges.some((e) => e > t);
  }

  async runTick(t) {
    this.tick = t;
    this.tickEvents = [];
    await this.faults(t);
    await this.expiry();
    await this.work(t);
    await this.acquire(t);
    this.check();
    if (this.failure) throw this.failure;
    this.flushTick();
  }

  // The tick's events by phase; inside a phase in the order they were
  // emitted (faults in list order, stores in list order, replay's order).
  flushTick() {
    const ordered = this.tickEvents.map((e, i) => [PHASES.indexOf(e.phase), i, e]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, , e] of ordered) {
      e.seq = this.events.length;
      this.events.push(e);
    }
  }

  async run() {
    await this.prepareStores();
    this.setUpCandidates();
    for (const st of this.stores) await this.waitServerUp(st);
    installTimeoutHook(this);
    this.t0 = performance.now() + 200;
    let end = this.s.horizon;
    for (let t = 0; t <= this.s.horizon; t++) {
      await sleepUntil(this.t0 + t * this.T);
      const began = performance.now();
      await this.runTick(t);
      const beganMs = began - (this.t0 + t * this.T);
      const endedMs = performance.now() - (this.t0 + t * this.T);
      this.longestMs = Math.max(this.longestMs || 0, endedMs);
      if (beganMs > this.startLimitMs || endedMs > this.endLimitMs) this.late.push([t, Math.round(beganMs), Math.round(endedMs)]);
      if (this.finishedAfter(t)) { end = t; break; }
      // A store due back next tick boots now: this tick's calls are all
      // answered, and no call is made before the next tick begins.
      this.bootEarly(t);
    }
    this.endTick = end;
    for (const c of this.s.candidates) for (const cl of c.clients) cl.disconnect();
    for (const st of this.stores) st.observer.disconnect();
  }

  traceText() {
    const s = this.s;
    const header = { type: 'header', format: 'leasescope-trace/5', scenario: s.name, seed: s.seed, tick_ms: s.tickMs, lock: s.lockName, capacity: 1,
      candidates: s.candidates.map((c) => c.name), stores: s.stores };
    const lines = this.events.map(eventLine);
    const body = lines.map((l) => l + '\n').join('');
    const results = [];
    for (const c of s.candidates) c.results.forEach((r, run) => results.push({ node: c.name, run, result: r, fencing: null }));
    const summary = { type: 'summary', end_tick: this.endTick, results, violations: this.violations, events: lines.length,
      trace_sha256: crypto.createHash('sha256').update(body).digest('hex') };
    return JSON.stringify(header) + '\n' + body + JSON.stringify(summary) + '\n';
  }
}

function aofHolds(dir, token) {
  const aofDir = path.join(dir, 'appendonlydir');
  if (!fs.existsSync(aofDir)) return false;
  return fs.readdirSync(aofDir).some((f) => f.endsWith('.aof') && fs.readFileSync(path.join(aofDir, f), 'latin1').includes(token));
}

// The package schedules its retry with the global setTimeout
// (redlock.js 428); that one callback, named `attempt`, goes to the driver's
// scheduler so that a paused client does not retry (model.md §20.5 rule 3,
// §7.1) and the retry takes its place in the acquire phase of its tick.
function installTimeoutHook(driver) {
  const real = global.setTimeout;
  global.setTimeout = function (fn, delay, ...rest) {
    if (typeof fn === 'function' && fn.name === 'attempt' && driver.currentOwner) return driver.scheduleRetry(driver.currentOwner, fn, delay);
    return real(fn, delay, ...rest);
  };
}

function assert(cond, what) {
  if (!cond) throw new Error(`driver.js: assertion failed: ${what}`);
}
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
async function sleepUntil(ms) {
  const left = ms - performance.now();
  if (left > 0) await sleep(left);
}
function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new DriverError(EXIT_TIMING, what)), ms); })])
    .finally(() => clearTimeout(timer));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const scenario = loadScenario(args.scenario, args.tickMs);
  // The first N servers given are the scenario's N stores.
  if (args.stores.length < scenario.stores.length)
    throw unsupported(`the scenario has ${scenario.stores.length} stores, only ${args.stores.length} --store given`);
  args.stores = args.stores.slice(0, scenario.stores.length);
  const driver = new Driver(scenario, args);
  try {
    await driver.run();
  } catch (e) {
    if (e.exitCode === undefined && /ECONNREFUSED|Connection|Stream/.test(String(e.message))) throw new DriverError(EXIT_REDIS, e.message);
    throw e;
  }
  if (driver.late.length || driver.lateRetries.length) {
    const list = driver.late.map(([t, began, ended]) => `tick ${t} began ${began} ms and ended ${ended} ms after its time`)
      .concat(driver.lateRetries).join('; ');
    throw new DriverError(EXIT_TIMING, `did not keep time (a tick begins within ${driver.startLimitMs} ms and ends within ${driver.endLimitMs} ms): ${list}; no trace written`);
  }
  const tmp = args.out + '.tmp';
  fs.writeFileSync(tmp, driver.traceText());
  fs.renameSync(tmp, args.out);
  console.log(`${scenario.name}: ${driver.events.length} events, end tick ${driver.endTick}, ticks of ${scenario.tickMs} ms; ` +
    `the longest tick's calls ended ${driver.longestMs.toFixed(1)} ms after its time (limit ${driver.endLimitMs})`);
}

main().then(() => process.exit(0), (e) => {
  console.error(`driver.js: ${e.message}`);
  process.exit(e.exitCode === undefined ? 1 : e.exitCode);
});
