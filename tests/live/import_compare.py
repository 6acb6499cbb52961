#!/usr/bin/env python3
"""Compares an imported trace (leasescope-cli import) with the live trace of
the run that was captured: per node, the same acquisitions, extensions and
releases with the same outcomes, in order, each at the same tick within one
(docs/model.md §19; tests/live/import_capture_test.sh).

    import_compare.py LIVE.jsonl IMPORTED.jsonl

The two traces count ticks from different moments (the live run's tick 0; the
capture's first line of the lock, floored to a tick), so the imported ticks
are first shifted by the difference of the two first acquire attempts. A node
the live run does not have (the live driver's own connection, which deletes
the lock's keys after the run) may appear in the import with releases,
status reads and undecided events only.

A release that the live trace answers `not_owner` was never sent: the live
store, like the library's elector, first validates the token and sends the
release script only when it still holds (model.md §5.4; RedisStore::release).
The capture shows that read, so such a release is matched by a `validate`
of the same node, not `current`, within one tick of it, and is left out of
the node's sequence. Exit 0 when they agree, 1 with every difference on
stderr."""
import json
import sys

OPS = ("acquire", "extend", "release")


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    header = lines[0]
    events = [e for e in lines if e.get("type") == "event"]
    return header, events


def unsent(e):
    return e["op"] == "release" and e["outcome"] == "not_owner"


def per_node(events, skip_unsent):
    nodes = {}
    for e in events:
        if e["op"] in OPS and not (skip_unsent and unsent(e)):
            nodes.setdefault(e["node"], []).append((e["op"], e["outcome"], e["tick"]))
    return nodes


def unsent_releases_seen(live, imported, shift):
    """Each unsent release of the live run has its read in the capture."""
    problems = []
    reads = [(e["node"], e["tick"] + shift) for e in imported if e["op"] == "validate" and e["outcome"] != "current"]
    for e in live:
        if unsent(e) and not any(n == e["node"] and abs(t - e["tick"]) <= 1 for n, t in reads):
            problems.append(f"{e['node']}: its release at tick {e['tick']} (not_owner, not sent) has no validate "
                            "in the capture within one tick")
    return problems


def first_acquire(events):
    return next(e["tick"] for e in events if e["op"] == "acquire")


def main():
    live_header, live = read(sys.argv[1])
    _, imported = read(sys.argv[2])
    problems = []
    shift = first_acquire(live) - first_acquire(imported)
    live_nodes, imported_nodes = per_node(live, True), per_node(imported, False)
    for node in live_header["candidates"]:
        want, got = live_nodes.get(node, []), imported_nodes.get(node, [])
        for i in range(max(len(want), len(got))):
            w = want[i] if i < len(want) else None
            g = got[i] if i < len(got) else None
            if w is None or g is None or w[:2] != g[:2] or abs(g[2] + shift - w[2]) > 1:
                shown = None if g is None else (g[0], g[1], g[2] + shift)
                problems.append(f"{node} #{i}: live {w}, imported {shown} (op, outcome, tick)")
                break
    problems += unsent_releases_seen(live, imported, shift)
    for node, calls in imported_nodes.items():
        if node in live_header["candidates"]:
            continue
        if any(op != "release" for op, _, _ in calls):
            problems.append(f"{node}: not a live candidate, yet imported with {calls}")
    for p in problems:
        print(f"differs: {p}", file=sys.stderr)
    counted = sum(len(v) for v in live_nodes.values())
    reads = sum(1 for e in live if unsent(e))
    if not problems:
        print(f"same: {counted} acquire/extend/release calls of {len(live_nodes)} nodes, {reads} unsent releases "
              f"seen as reads (ticks shifted by {shift})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
