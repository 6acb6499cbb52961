#!/usr/bin/env python3
"""Checks the scenario schema (leasescope-cli schema) with Debian's
python3-jsonschema:

- it is a valid draft 2020-12 schema, and the installed copy is the same;
- every preset validates against it;
- every file in tests/bad_scenarios/ marked "// schema: rejects" fails it
  (and the parser agrees); "// schema: syntax" is not JSON at all; the
  others ("// schema: beyond ...") are errors only the parser can find;
- its numbers agree with the parser's: for every integer range and length
  limit in the schema, the parser (leasescope-cli validate) accepts the bound
  and refuses one past it, as the schema does. The schema's numbers come from
  sim/include/leasescope/sim/limits.hpp (app/cli/cmd_schema.cpp); this part
  is what catches a parser limit changed without the schema, or the reverse.

usage: schema_test.py CLI SOURCE_DIR [INSTALLED_SCHEMA]
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

CLI, SRC = sys.argv[1], sys.argv[2]
failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def strip_comments(text):
    """JSON with // and /* */ comments (the scenario format) to plain JSON."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            out.append(" ")
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


schema_text = subprocess.run([CLI, "schema"], check=True, capture_output=True, text=True).stdout
schema = json.loads(schema_text)
validator_class = jsonschema.Draft202012Validator
validator_class.check_schema(schema)
check(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", "the schema is draft 2020-12")
validator = validator_class(schema)
if len(sys.argv) > 3:
    with open(sys.argv[3]) as f:
        check(f.read() == schema_text, "the built schema file equals `leasescope-cli schema`")

# Every preset validates.
presets = sorted(glob.glob(os.path.join(SRC, "scenarios", "*.json")))
check(len(presets) > 0, "there are presets")
for path in presets:
    with open(path) as f:
        doc = json.loads(strip_comments(f.read()))
    errors = [e.message for e in validator.iter_errors(doc)]
    check(not errors, f"preset {os.path.basename(path)} validates: {errors[:3]}")
    # With "$schema" added, as an editor user would write it, the parser still accepts it.
    doc["$schema"] = "scenario.schema.json"
    check(not list(validator.iter_errors(doc)), f"preset {os.path.basename(path)} with $schema validates")

# The bad scenarios, each as its marker says.
for path in sorted(glob.glob(os.path.join(SRC, "tests", "bad_scenarios", "*.json"))):
    name = os.path.basename(path)
    with open(path) as f:
        text = f.read()
    marks = [l[len("// schema:"):].strip() for l in text.splitlines() if l.startswith("// schema:")]
    check(len(marks) == 1, f"{name} has one '// schema: rejects|syntax|beyond ...' line")
    if not marks:
        continue
    kind = marks[0].split(":")[0].split()[0]
    if kind == "syntax":
        try:
            json.loads(strip_comments(text))
            check(False, f"{name} is marked syntax but parses as JSON")
        except json.JSONDecodeError:
            check(True, "")
        continue
    doc = json.loads(strip_comments(text))
    errors = list(validator.iter_errors(doc))
    if kind == "rejects":
        check(len(errors) > 0, f"{name}: the schema rejects it")
    elif kind == "beyond":
        check(len(errors) == 0, f"{name}: marked beyond the schema, yet the schema rejects it "
                                f"({errors[0].message if errors else ''}): mark it 'rejects'")
    else:
        check(False, f"{name}: unknown schema mark {kind!r}")

# The schema's numbers against the parser's, at each bound and one past it.
BASE = {"name": "bounds", "horizon": 10, "defaults": {"wait": 1, "lease": 5, "action": 3},
        "candidates": [{"name": "a"}, {"name": "b"}],
        "faults": [{"kind": "pause", "node": "a", "at": 1, "ticks": 2}],
        "ops": [{"at": 1, "actor": "auditor", "op": "status"}]}
work = tempfile.mkdtemp()


def parser_accepts(doc):
    path = os.path.join(work, "probe.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return subprocess.run([CLI, "validate", path], capture_output=True).returncode == 0


def with_value(pointer, value, extra):
    doc = json.loads(json.dumps(BASE))
    for p, v in list(extra.items()) + [(pointer, value)]:
        parts = p.strip("/").split("/")
        node = doc
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
        last = parts[-1]
        if isinstance(node, list):
            node[int(last)] = v
        else:
            node[last] = v
    return doc


def subschema(pointer):
    """The schema of a value at an instance pointer, through properties, items and $ref."""
    node = schema
    for part in pointer.strip("/").split("/"):
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].split("/")[-1]]
        if part.isdigit():
            node = node["items"]
            if "$ref" in node:
                node = schema["$defs"][node["$ref"].split("/")[-1]]
            continue
        if part in node.get("properties", {}):
            node = node["properties"][part]
        else:  # a fault's or op's keys live in its allOf branches
            for branch in node.get("allOf", []):
                if part in branch.get("then", {}).get("properties", {}):
                    node = branch["then"]["properties"][part]
                    break
    if "$ref" in node:
        ref = schema["$defs"][node["$ref"].split("/")[-1]]
        node = {**ref, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


# Each integer key, with the values it needs to be valid at its maximum.
big = {"/defaults/lease": 100_000_000, "/defaults/action": 100_000_000}
INTEGERS = {
    "/tick_ms": {}, "/horizon": {}, "/seed": {}, "/lock/capacity": {}, "/lock/fencing_start": {},
    "/defaults/start": {}, "/defaults/wait": {}, "/defaults/lease": {}, "/defaults/action": {},
    "/defaults/min_lease": big, "/defaults/extend_every": {}, "/defaults/retry_every": {},
    "/defaults/hold_off": {}, "/defaults/runs": {"/defaults/every": 1}, "/defaults/every": {},
    "/defaults/fail_at": big, "/candidates/0/lease": {}, "/faults/0/at": {}, "/faults/0/ticks": {},
    "/ops/0/at": {},
    # Replicas (docs/model.md §17): the counts need a store with replicas_max replicas to reach their maximum.
    "/store/replicas": {}, "/store/min_replicas_to_write": {"/store/replicas": 8},
    "/store/min_replicas_max_lag": {}, "/defaults/wait_replicas": {"/store/replicas": 8},
    "/defaults/wait_timeout": {},
}
# A time key (docs/model.md §11.7) is ticks or a duration: its integer branch
# has the range; its string branch takes "30s" and refuses "30sec", as the parser.
TIMES = [p for p in INTEGERS if p not in ("/tick_ms", "/seed", "/lock/capacity", "/lock/fencing_start",
                                          "/store/replicas", "/store/min_replicas_to_write", "/defaults/runs",
                                          "/defaults/wait_replicas")]
for pointer in TIMES:
    sub = subschema(pointer)
    branches = sub.get("oneOf", [])
    strings = [b for b in branches if b.get("type") == "string"]
    check(len(branches) == 2 and len(strings) == 1, f"{pointer} is ticks or a duration in the schema")
    if len(strings) != 1:
        continue
    ints = [b for b in branches if b.get("type") == "integer"][0]
    ticks = max(ints["minimum"], 1)
    for value, inside in ((f"{ticks * 50}ms", True), (f"{ticks}sec", False), ("1.5", False)):
        doc = with_value(pointer, value, INTEGERS[pointer])
        by_schema = not list(validator.iter_errors(doc))
        by_parser = parser_accepts(doc)
        check(by_schema == inside and by_parser == inside,
              f"{pointer} = {value!r}: schema {by_schema}, parser {by_parser}, expected {inside}")

for pointer, extra in INTEGERS.items():
    sub = subschema(pointer)
    if pointer in TIMES:
        sub = next((b for b in sub.get("oneOf", []) if b.get("type") == "integer"), sub)
    check("minimum" in sub and "maximum" in sub, f"{pointer} has a range in the schema")
    if "minimum" not in sub:
        continue
    for value, inside in ((sub["minimum"], True), (sub["maximum"], True), (sub["minimum"] - 1, False),
                          (sub["maximum"] + 1, False)):
        doc = with_value(pointer, value, extra)
        by_schema = not list(validator.iter_errors(doc))
        by_parser = parser_accepts(doc)
        check(by_schema == inside, f"{pointer} = {value}: the schema {'accepts' if by_schema else 'refuses'} it")
        check(by_parser == inside, f"{pointer} = {value}: the parser {'accepts' if by_parser else 'refuses'} it, "
                                   f"the schema says {sub['minimum']}..{sub['maximum']}")

# Lengths: names and texts, at the limit and one past it.
for pointer, filler in (("/name", "n"), ("/lock/name", "l"), ("/candidates/0/name", "c"), ("/title/en", "t"),
                        ("/ops/0/actor", "x")):
    sub = subschema(pointer)
    check("maxLength" in sub, f"{pointer} has a maxLength in the schema")
    if "maxLength" not in sub:
        continue
    for length, inside in ((sub["maxLength"], True), (sub["maxLength"] + 1, False)):
        doc = with_value(pointer, filler * length, {"/faults/0/node": filler * length}
                         if pointer == "/candidates/0/name" else {})
        by_schema = not list(validator.iter_errors(doc))
        by_parser = parser_accepts(doc)
        check(by_schema == inside and by_parser == inside,
              f"{pointer} of {length} bytes: schema {by_schema}, parser {by_parser}, expected {inside}")

# Array sizes: at the limit and one past it (writes; the others are large
# files but the same rule).
for pointer, limit_key, item in (("/candidates/0/writes", "maxItems", None),):
    sub = subschema(pointer)
    limit = sub[limit_key]
    for count, inside in ((limit, True), (limit + 1, False)):
        doc = with_value(pointer, list(range(1, count + 1)), {"/defaults/action": 100_000})
        by_schema = not list(validator.iter_errors(doc))
        by_parser = parser_accepts(doc)
        check(by_schema == inside and by_parser == inside,
              f"{pointer} with {count} items: schema {by_schema}, parser {by_parser}, expected {inside}")

print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
