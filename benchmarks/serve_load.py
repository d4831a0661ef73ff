"""``hh serve`` under load, in ``make bench`` (``python -m benchmarks``) or
alone (``python -m benchmarks.serve_load [--quick]``; part 2 alone on a
database kept between runs: ``--keep DIR`` or ``--db FILE``). Loopback only,
bounded (a fixed number of requests, a time limit for the import).

1. While it imports: ``hh serve --watch`` over an empty folder; simulated
   hands of the three games are appended to files there in batches while
   50 concurrent clients make 20 requests each over the pages and the API
   (20,000 hands; ``--quick``: 10 x 10 while 1,500). Then the same requests
   again with the import done and nothing arriving: the baseline of the
   p50/p95 rows. It fails (exit 1) on any answer but 200 or if a hand is
   lost: after the server stopped, the database must hold every hand
   appended, by id, and nothing rejected.
2. Many hands stored: 1,000,000 hands (``--quick``: 50,000), synthetic: the
   simulated sessions of benchmarks/bighands.py imported by the real import
   and repeated in SQL under fresh hand ids, their all-in equity cached as a
   first report leaves it (benchmarks/bench_report.py) and their per-hand
   counts and each player's hands (reports.search.handlist) kept by the
   import's ``hh.imported`` hook. ``hh serve --db``
   on it; timed: its first ``/api/players`` (the report computed once for
   this version of the data), then 10 concurrent clients x 20 requests:
   the players page (``/players``, ``/api/players`` and the chart's
   ``/api/series``, as the page asks them) and hand searches
   (``/api/hands?player=...`` over many players and pages, each a new
   query). Target: p95 <= 300 ms for both at 1,000,000 hands.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from benchmarks.rows import Row

HOST = "127.0.0.1"
LOAD_PATHS = ("/", "/api/overview", "/players", "/api/players", "/api/players?min_hands=20",
              "/api/hands", "/api/hands?invalid=true", "/api/hands?player={player}",
              "/api/tables", "/live", "/api/live", "/hands", "/api/status",
              "/api/player?name={player}")  # fmt: skip
STORED = 1_000_000
TARGET_MS = 300


def _port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 120) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _pct(ts: list[float], q: float) -> float:
    """The ``q`` quantile of ``ts`` (seconds), in milliseconds."""
    ts = sorted(ts)
    return 1000 * ts[min(len(ts) - 1, int(q * len(ts)))]


@contextmanager
def _server(args: list[str], log: Path) -> Iterator[str]:
    """``hh serve ARGS`` on a free loopback port; yields its address."""
    port = _port()
    base = f"http://{HOST}:{port}"
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen([sys.executable, "-m", "hh", "serve", *args, "--host", HOST,
                                 "--port", str(port)], stderr=err,
                                env={**os.environ, "PYTHONUTF8": "1"})  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if _get(base + "/api/status", 2)[0] == 200:
                        break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"hh serve did not start: {log.read_text()[-2000:]}")
                time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            proc.wait(60)


def _clients(base: str, clients: int, requests: int, path: Callable[[int, int], str]
             ) -> tuple[dict[str, list[float]], list[str]]:  # fmt: skip
    """``clients`` threads, each making ``requests`` GETs (``path(client, i)``);
    returns the seconds per kind of request and the failures."""
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        for i in range(requests):
            p = path(k, i)
            start = time.perf_counter()
            try:
                status, body = _get(base + p)
            except OSError as e:
                status, body = -1, str(e).encode()
            took = time.perf_counter() - start
            kind = p.split("?")[0] + ("?" if "?" in p else "")
            with lock:
                times.setdefault(kind, []).append(took)
                if status != 200:
                    errors.append(f"{p}: {status} {body[:200]!r}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, errors


def _table(title: str, times: dict[str, list[float]]) -> None:
    print(title, file=sys.stderr)
    print(f"  {'request':<22}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}",
          file=sys.stderr)  # fmt: skip
    for key in sorted(times):
        ts = times[key]
        print(f"  {key:<22}{len(ts):>6}{_pct(ts, .5):>10.0f}{_pct(ts, .95):>10.0f}"
              f"{1000 * max(ts):>10.0f}", file=sys.stderr)  # fmt: skip


# ------------------------------------------------------------ 1. import


def _batches(hands: int, per: int) -> tuple[list[tuple[str, str]], set[str], str]:
    """(file name, text) batches of the three games' sessions, interleaved
    as three tables played at once, the hand ids, and a player's name."""
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    by_file: dict[str, list[str]] = {}
    ids: set[str] = set()
    for k, game in enumerate(Game):
        n = hands // 3 + (1 if k < hands % 3 else 0)
        made = list(Simulator(game, seed=100 + k, tables=4).hands(n))
        ids.update(h.header.hand_id for h in made)
        texts = [write_hand(h) for h in made]
        by_file[f"{game.value}.txt"] = ["\n\n".join(texts[i:i + per]) + "\n\n"
                                        for i in range(0, len(texts), per)]  # fmt: skip
    mixed: list[tuple[str, str]] = []
    while any(by_file.values()):
        for name, texts in by_file.items():
            if texts:
                mixed.append((name, texts.pop(0)))
    seated = re.search(r"^Seat \d+: (.+?) \(", mixed[0][1], re.M)
    assert seated is not None
    return mixed, ids, seated.group(1)


def while_importing(tmp: Path, clients: int, requests: int, hands: int,
                    limit: float = 900) -> list[Row]:  # fmt: skip
    """Part 1: the load while ``hands`` are imported through ``--watch``,
    and the same load after (the baseline)."""
    import duckdb

    print(f"simulating {hands:,} hands ...", file=sys.stderr, flush=True)
    batches, ids, name = _batches(hands, 250)
    if len(ids) != hands:
        raise SystemExit(f"the simulator gave {len(ids)} distinct ids for {hands} hands")
    folder = tmp / "live"
    folder.mkdir()
    db = tmp / "live.duckdb"
    player = [name]  # the player of most hands once there are some

    def path(k: int, i: int) -> str:
        return LOAD_PATHS[(k + i) % len(LOAD_PATHS)].format(player=quote(player[0]))

    with _server(["--db", str(db), "--watch", str(folder), "--quiet", "1"],
                 tmp / "serve-live.log") as base:  # fmt: skip
        def writer() -> None:
            for name, text in batches:
                with (folder / name).open("a", encoding="utf-8") as f:
                    f.write(text)
                time.sleep(0.05)

        w = threading.Thread(target=writer)
        w.start()
        deadline = time.monotonic() + 60  # the clients start once the player has hands
        while _get(base + path(0, LOAD_PATHS.index("/api/player?name={player}")))[0] != 200:
            if time.monotonic() > deadline:
                raise SystemExit(f"serve_load: no hand of {name} imported after 60 s")
            time.sleep(0.1)
        t0 = time.perf_counter()
        loaded, errors = _clients(base, clients, requests, path)
        load_s = time.perf_counter() - t0
        w.join()
        stored, deadline = 0, time.monotonic() + limit
        while stored < hands and time.monotonic() < deadline:
            status, body = _get(base + "/api/overview")
            if status == 200:
                stored = sum(g["hands"] for g in json.loads(body)["games"])
            time.sleep(0.5)
        imported_s = time.perf_counter() - t0
        status, body = _get(base + "/api/players")
        if status == 200 and json.loads(body):
            player[0] = max(json.loads(body), key=lambda r: r["hands"])["player"]
        idle, idle_errors = _clients(base, clients, requests, path)
        errors += idle_errors
    con = duckdb.connect(str(db), read_only=True)
    have = {r[0] for r in con.execute("SELECT hand_id FROM hands").fetchall()}
    rejected = con.execute("SELECT count(*) FROM rejects").fetchall()[0][0]
    con.close()
    lost = ids - have
    _table(f"{clients} clients x {requests} requests while {hands:,} hands were imported "
           f"through --watch ({load_s:.1f} s; the import done after {imported_s:.1f} s)",
           loaded)  # fmt: skip
    _table("the same requests, the import done", idle)
    print(f"errors: {len(errors)}" + (f" (first: {errors[:3]})" if errors else ""),
          file=sys.stderr)  # fmt: skip
    print(f"hands stored: {len(have):,} of {hands:,}, {len(lost)} missing, {rejected} "
          "rejected", file=sys.stderr)  # fmt: skip
    if errors or lost or rejected or len(have) != hands:
        raise SystemExit(f"serve_load: {len(errors)} errors, {len(lost)} hands lost, "
                         f"{rejected} rejected")  # fmt: skip
    every = [t for ts in loaded.values() for t in ts]
    calm = [t for ts in idle.values() for t in ts]
    what = f"{clients} clients x {requests} requests over pages and API"
    return [
        Row("serve.idle.p50", f"hh serve: {what}, {hands:,} hands stored, no import: p50",
            _pct(calm, .5), "ms"),
        Row("serve.idle.p95", f"hh serve: {what}, no import: p95", _pct(calm, .95), "ms"),
        Row("serve.load.p50", f"hh serve: {what} while {hands:,} hands are imported by "
            "--watch (no error, none lost): p50", _pct(every, .5), "ms", "serve.idle.p50"),
        Row("serve.load.p95", f"hh serve: {what} while importing: p95", _pct(every, .95),
            "ms", "serve.idle.p95"),
    ]  # fmt: skip


# ------------------------------------------------------- 2. many hands


def big_database(tmp: Path, hands: int) -> str:
    """The synthetic database of part 2 (module docstring) with its reports'
    cache filled as an import leaves it; returns its path."""
    import duckdb

    from benchmarks.bench_report import seed_equity
    from benchmarks.bighands import base, grow
    from pipelines.importer import CHECK_MEMORY_LIMIT
    from reports.cache import default_path
    from reports.players.counts import after_import

    base_db = base(tmp, 2_000 if hands >= 200_000 else 200)
    db = str(tmp / "big.duckdb")
    grow(base_db, db, hands)
    seed_equity(db, base_db, default_path(db))
    rw = duckdb.connect(db)
    rw.execute(f"SET memory_limit = '{CHECK_MEMORY_LIMIT}'")
    after_import(rw)  # the hh.imported hook: the per-hand counts, each player's hands
    rw.close()
    return db


def stored(tmp: Path, hands: int, clients: int = 10, requests: int = 20) -> list[Row]:
    """Part 2: the players page and hand searches on ``hands`` stored hands."""
    t0 = time.perf_counter()
    db = big_database(tmp, hands)
    print(f"{time.perf_counter() - t0:.1f} s: the database built", file=sys.stderr)
    return on_stored(db, tmp, clients, requests)


def on_stored(db: str, tmp: Path, clients: int = 10, requests: int = 20) -> list[Row]:
    """Part 2's measure on the database ``db`` (``python -m
    benchmarks.serve_load --db FILE``: again on a database kept)."""
    import duckdb

    con = duckdb.connect(db, read_only=True)
    total = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    names = [r[0] for r in con.execute(
        "SELECT player FROM seats GROUP BY player HAVING count(*) > 150 "  # 4 pages of 50
        "ORDER BY count(*) DESC, player").fetchall()]  # fmt: skip
    con.close()
    top = "&".join(f"pick={quote(n)}" for n in names[:5])  # the chart's players at first
    page = ("/players", "/api/players", f"/api/series?{top}")

    def session(seed: int) -> Callable[[int, int], str]:
        """A user: the players page's requests, and between them a search by
        a player (picked at random among all) paged through 4 pages, then
        another player."""
        rng = random.Random(seed)
        picked: dict[int, str] = {}

        def path(k: int, i: int) -> str:
            if i % 2 == 0:
                return page[(k + i // 2) % len(page)]
            n = i // 2
            if n % 4 == 0 or k not in picked:
                picked[k] = rng.choice(names)
            return f"/api/hands?player={quote(picked[k])}&page={n % 4 + 1}"

        return path

    with _server(["--db", db], tmp / "serve-big.log") as base:
        firsts = []
        for p in ("/api/players", page[2]):  # computed once for this version of the data
            start = time.perf_counter()
            status, body = _get(base + p)
            firsts.append(time.perf_counter() - start)
            if status != 200:
                raise SystemExit(f"{p}: {status} {body[:300]!r}")
        one, errors = _clients(base, 1, 2 * requests, session(7))
        many, more = _clients(base, clients, requests, session(8))
        errors += more
    if errors:
        raise SystemExit(f"serve_load (stored hands): {len(errors)} errors: {errors[:3]}")
    _table(f"one client, {2 * requests} requests on {total:,} stored hands (before: the first "
           f"/api/players {firsts[0]:.2f} s, the first /api/series {firsts[1]:.2f} s)", one)
    _table(f"{clients} clients x {requests} requests on {total:,} stored hands", many)

    def players_page(times: dict[str, list[float]]) -> list[float]:
        return [t for k in ("/players", "/api/players", "/api/series?") for t in times[k]]

    hands = f"{total:,} stored hands (synthetic)"
    target = f"target <= {TARGET_MS} ms at 1,000,000"
    return [
        Row("serve.stored.players.first", f"hh serve: the first /api/players, {hands} (their "
            "counts cached on import; then kept until the data changes)", firsts[0], "s"),
        Row("serve.stored.series.first", f"hh serve: the first /api/series of the players "
            f"page (5 players), {hands}", firsts[1], "s"),
        Row("serve.stored.players.p95", f"hh serve: the players page (/players, /api/players, "
            f"/api/series), {hands}, one client: p95 ({target})",
            _pct(players_page(one), .95), "ms"),
        Row("serve.stored.search.p95", f"hh serve: hand search by player (a new player every "
            f"4 pages), {hands}, one client: p95 ({target})", _pct(one["/api/hands?"], .95),
            "ms"),
        Row("serve.stored.players.p95.clients", f"hh serve: the players page, {hands}, "
            f"{clients} concurrent clients: p95", _pct(players_page(many), .95), "ms"),
        Row("serve.stored.search.p95.clients", f"hh serve: hand search by player, {hands}, "
            f"{clients} concurrent clients: p95", _pct(many["/api/hands?"], .95), "ms"),
    ]  # fmt: skip


def run(quick: bool = False) -> list[Row]:
    """Both parts (``quick``: small sizes, well under a minute)."""
    tmp = Path(tempfile.mkdtemp(prefix="hh-serve-load-"))
    try:
        if quick:
            rows = while_importing(tmp, 10, 10, 1_500)
            rows += stored(tmp, STORED // 20)
        else:
            rows = while_importing(tmp, 50, 20, 20_000)
            rows += stored(tmp, STORED)
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def kept(folder: Path, hands: int = STORED) -> str:
    """Part 2's database kept in ``folder`` (``python -m benchmarks.serve_load
    --keep DIR``): built there the first time, reused after; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "big.duckdb"
    if not db.exists():
        t0 = time.perf_counter()
        built = big_database(folder, hands)
        print(f"{time.perf_counter() - t0:.1f} s: the database built", file=sys.stderr)
        return built
    return str(db)


if __name__ == "__main__":
    if "--keep" in sys.argv:
        where = Path(sys.argv[sys.argv.index("--keep") + 1])
        got = on_stored(kept(where), Path(tempfile.mkdtemp()))
    elif "--db" in sys.argv:
        got = on_stored(sys.argv[sys.argv.index("--db") + 1], Path(tempfile.mkdtemp()))
    else:
        got = run(quick="--quick" in sys.argv)
    for row in got:
        print(row)
