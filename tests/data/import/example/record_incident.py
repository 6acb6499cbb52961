#!/usr/bin/env python3
"""Records the incident of docs/import.md for real: two workers share the lock
`lock:invoices` on a real redis-server with SET NX PX 1000 and DEL, as many
hand-written locks do. worker-a stops for 1.6 s (a garbage-collection pause)
while it holds the lock; its lease expires, worker-b takes the lock, and when
worker-a wakes it still writes to the ledger and then deletes worker-b's lock.
Each worker logs what it believed in the JSON Lines of docs/import.md.

    record_incident.py OUT_DIR [PORT]

Starts its own redis-server on PORT (default 16399, loopback, no persistence),
attaches `redis-cli monitor`, runs the workers, and writes OUT_DIR/incident.
monitor.txt, OUT_DIR/worker-a.jsonl and OUT_DIR/worker-b.jsonl. Python's
standard library only (the RESP protocol is written by hand)."""
import datetime
import json
import os
import socket
import subprocess
import sys
import threading
import time


class Redis:
    """One connection; a command's reply as bytes, an int or None."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")

    def call(self, *args):
        parts = [f"*{len(args)}\r\n".encode()]
        for a in args:
            data = a.encode() if isinstance(a, str) else a
            parts.append(f"${len(data)}\r\n".encode() + data + b"\r\n")
        self.sock.sendall(b"".join(parts))
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"$":
            return None if rest == b"-1" else self.file.read(int(rest) + 2)[:-2]
        if kind == b":":
            return int(rest)
        if kind == b"-":
            raise RuntimeError(rest.decode())
        return rest


class Log:
    def __init__(self, path, node):
        self.file = open(path, "w", encoding="utf-8")
        self.node = node

    def event(self, event, **fields):
        ts = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
        line = {"ts": ts.replace("+00:00", "Z"), "node": self.node, "event": event, **fields}
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()


def acquire(r, token, log, every_s):
    while r.call("SET", "lock:invoices", token, "NX", "PX", "1000") != b"OK":
        time.sleep(every_s)
    log.event("acquired", token=token)


def worker_a(port, out):
    r, log, token = Redis(port), Log(f"{out}/worker-a.jsonl", "worker-a"), "a-4f1c"
    r.call("CLIENT", "SETNAME", "worker-a")
    acquire(r, token, log, 0.25)
    r.call("RPUSH", "ledger:invoices", "a:batch-1")
    log.event("write", token=token, resource="ledger:invoices", value="a:batch-1")
    time.sleep(1.6)  # a stop-the-world pause: no command, no heartbeat
    r.call("RPUSH", "ledger:invoices", "a:batch-2")
    log.event("write", token=token, resource="ledger:invoices", value="a:batch-2")
    r.call("DEL", "lock:invoices")  # deletes whatever lock is there: worker-b's
    log.event("released", token=token)


def worker_b(port, out):
    r, log, token = Redis(port), Log(f"{out}/worker-b.jsonl", "worker-b"), "b-93d7"
    r.call("CLIENT", "SETNAME", "worker-b")
    time.sleep(0.2)
    acquire(r, token, log, 0.25)
    r.call("RPUSH", "ledger:invoices", "b:batch-2")
    log.event("write", token=token, resource="ledger:invoices", value="b:batch-2")
    time.sleep(0.9)
    r.call("RPUSH", "ledger:invoices", "b:batch-3")
    log.event("write", token=token, resource="ledger:invoices", value="b:batch-3")
    r.call("DEL", "lock:invoices")
    log.event("released", token=token)


def main():
    out = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 16399
    os.makedirs(out, exist_ok=True)
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", out, "--loglevel", "warning"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout == b"PONG\n":
                break
            time.sleep(0.1)
        with open(f"{out}/incident.monitor.txt", "wb") as capture:
            monitor = subprocess.Popen(["redis-cli", "-p", str(port), "monitor"], stdout=capture)
            time.sleep(0.3)
            workers = [threading.Thread(target=w, args=(port, out)) for w in (worker_a, worker_b)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            time.sleep(0.3)
            monitor.terminate()
            monitor.wait()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
