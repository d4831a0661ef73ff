"""Load on ``hh serve`` while it imports: ``python -m benchmarks.serve_load``.

Starts ``hh serve --watch`` on loopback (a free port) over an empty folder,
appends simulated hands of the three games to files in that folder in
batches, and meanwhile runs ``--clients`` concurrent clients, each making
``--requests`` requests over the pages and the API. Prints p50/p95/max
latency per kind of request and overall, the errors (any answer but 200,
any failed connection), and whether every hand appended was imported
(nothing lost). Bounded: the clients' requests, a time limit for the
import, loopback only. Defaults: 50 clients x 20 requests while 20,000
hands are imported; ``--quick``: 10 x 10 while 2,000.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

HOST = "127.0.0.1"
PATHS = ("/", "/api/overview", "/players", "/api/players", "/api/players?min_hands=20",
         "/api/hands", "/api/hands?invalid=true", "/api/hands?player={player}", "/api/tables",
         "/live", "/api/live", "/hands", "/api/status")  # fmt: skip


def _port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 60) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""


def _batches(hands: int, per: int) -> list[tuple[str, str]]:
    """(file name, text) batches: the three games' sessions cut in pieces."""
    out: list[tuple[str, str]] = []
    for k, game in enumerate(Game):
        sim = Simulator(game, seed=100 + k, tables=4)
        n = hands // 3 + (1 if k < hands % 3 else 0)
        texts = [write_hand(h) for h in sim.hands(n)]
        for i in range(0, len(texts), per):
            out.append((f"{game.value}.txt", "\n\n".join(texts[i:i + per]) + "\n\n"))
    # interleave the games, as three tables being played at once
    by_file: dict[str, list[str]] = {}
    for name, text in out:
        by_file.setdefault(name, []).append(text)
    mixed: list[tuple[str, str]] = []
    while any(by_file.values()):
        for name, texts in by_file.items():
            if texts:
                mixed.append((name, texts.pop(0)))
    return mixed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=20)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--batch", type=int, default=250, help="hands appended at a time")
    ap.add_argument("--limit", type=float, default=600, help="seconds the import may take")
    ap.add_argument("--quick", action="store_true", help="10 clients x 10 requests, 2,000 hands")
    a = ap.parse_args()
    if a.quick:
        a.clients, a.requests, a.hands = 10, 10, 2_000
    print(f"simulating {a.hands:,} hands ...", flush=True)
    batches = _batches(a.hands, a.batch)
    tmp = Path(tempfile.mkdtemp(prefix="hh-serve-load-"))
    folder = tmp / "live"
    folder.mkdir()
    db = tmp / "hands.duckdb"
    port = _port()
    base = f"http://{HOST}:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "hh", "serve", "--db", str(db), "--watch", str(folder),
         "--host", HOST, "--port", str(port), "--quiet", "1"],
        env={**os.environ, "PYTHONUTF8": "1"}, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if _get(base + "/api/status", 2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("hh serve did not start")
        done = threading.Event()

        def writer() -> None:
            for name, text in batches:
                with (folder / name).open("a", encoding="utf-8") as f:
                    f.write(text)
                time.sleep(0.05)
            done.set()

        times: dict[str, list[float]] = {}
        errors: list[str] = []
        lock = threading.Lock()

        def client(k: int) -> None:
            player = "Ana María"
            for i in range(a.requests):
                path = PATHS[(k + i) % len(PATHS)].format(player=quote(player))
                start = time.perf_counter()
                try:
                    status, body = _get(base + path)
                except OSError as e:
                    status, body = -1, str(e).encode()
                took = time.perf_counter() - start
                key = path.split("?")[0] + ("?" if "?" in path else "")
                with lock:
                    times.setdefault(key, []).append(took)
                    if status != 200:
                        errors.append(f"{path}: {status}")
                if path == "/api/players" and status == 200:
                    rows = json.loads(body)
                    if rows:
                        player = rows[0]["player"]

        w = threading.Thread(target=writer)
        w.start()
        clients = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
        t0 = time.perf_counter()
        for c in clients:
            c.start()
        for c in clients:
            c.join()
        load_seconds = time.perf_counter() - t0
        w.join()
        stored = 0
        deadline = time.monotonic() + a.limit
        while time.monotonic() < deadline:
            status, body = _get(base + "/api/overview")
            if status == 200:
                stored = sum(g["hands"] for g in json.loads(body)["games"])
                if stored >= a.hands:
                    break
            time.sleep(0.5)
        imported_seconds = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(30)
    every = sorted(t for ts in times.values() for t in ts)

    def pct(ts: list[float], q: float) -> float:
        ts = sorted(ts)
        return 1000 * ts[min(len(ts) - 1, int(q * len(ts)))]

    print(f"\n{a.clients} clients x {a.requests} requests while {a.hands:,} hands were "
          f"imported through --watch (loopback; a busy machine: not a figure)")  # fmt: skip
    print(f"{'request':<22}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for key in sorted(times):
        ts = times[key]
        print(f"{key:<22}{len(ts):>6}{pct(ts, .5):>10.0f}{pct(ts, .95):>10.0f}"
              f"{1000 * max(ts):>10.0f}")
    print(f"{'all':<22}{len(every):>6}{pct(every, .5):>10.0f}{pct(every, .95):>10.0f}"
          f"{1000 * max(every):>10.0f}  (median {1000 * statistics.median(every):.0f})")
    print(f"errors: {len(errors)}" + (f" (first: {errors[:3]})" if errors else ""))
    lost = "nothing lost" if stored == a.hands else "MISSING"
    print(f"hands stored: {stored:,} of {a.hands:,} ({lost})"
          f"; requests took {load_seconds:.1f} s, import done after {imported_seconds:.1f} s")
    if errors or stored != a.hands:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
