"""``hh serve --watch`` on a large database while it imports, with the
compiled build (issue 44, "Speed while importing"): in ``make bench`` (run
as a script by ``.venv-fast``'s interpreter, benchmarks/__main__.py) or
alone (``.venv-fast/bin/python benchmarks/serve_live.py [--quick] [--keep
DIR]``; ``--keep``: the large database built once in DIR and reused).

A copy of the large database of benchmarks/serve_load.py's part 2
(1,000,000 stored hands; ``--quick``: 50,000), its reports' cache as an
import leaves it, served with ``--watch`` over an empty folder. Simulated
hands of the three games (12 tables) are appended there in batches, 20,000
in all (``--quick``: 1,500), at a steady pace (:data:`PACE` hands a second:
many tables being played, far more than one player sits at), while

- 50 clients (``--quick``: 10) make 20 requests each (10) over every page and
  API endpoint (serve_load.LOAD_PATHS: ``/api/player`` and ``/api/live``
  included), players picked among the stored ones: the p50/p95 of every
  answer, and of each kind;
- one more client asks ``/api/live`` every 0.1 s, as the HUD does: the
  latency of a hand is the time from its last line written to the watched
  file until ``/api/live`` shows it (or a later hand of its table) as its
  table's last hand. Each batch's last hand of each table is measured.

Targets: p95 <= 300 ms for the pages, p95 <= 2 s for the HUD's latency.
Fails (exit 1) on any answer but 200, or a hand the HUD never showed.
The server runs in a folder outside the checkout, so that it imports the
installed (compiled) build.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

if __name__ == "__main__" and not __package__:  # a script of the compiled build:
    sys.path[0:1] = []  # its hh before the checkout's (appended for benchmarks.*)
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from benchmarks.rows import Row, script
from benchmarks.serve_load import LOAD_PATHS, STORED, _clients, _get, _pct, _server, _table, kept

HANDS = 20_000
PACE = 250.0  # hands a second appended to the watched files
TARGET_MS, LIVE_TARGET_S = 300, 2.0


def _hands(hands: int, per: int) -> tuple[list[tuple[str, str, dict[str, str]]],
                                          dict[str, tuple[str, int]]]:  # fmt: skip
    """Batches (file, text, {table: its last hand in the batch}) of the three
    games, interleaved; and each hand's (table, place in its table)."""
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    by_file: dict[str, list[tuple[str, dict[str, str]]]] = {}
    place: dict[str, tuple[str, int]] = {}
    for k, game in enumerate(Game):
        n = hands // 3 + (1 if k < hands % 3 else 0)
        made = list(Simulator(game, seed=500 + k, tables=4).hands(n))
        seen: dict[str, int] = {}
        for h in made:
            t = h.table.name
            place[h.header.hand_id] = (t, seen.get(t, 0))
            seen[t] = seen.get(t, 0) + 1
        batches = []
        for i in range(0, len(made), per):
            part = made[i:i + per]
            last = {h.table.name: h.header.hand_id for h in part}
            batches.append(("\n\n".join(write_hand(h) for h in part) + "\n\n", last))
        by_file[f"{game.value}.txt"] = batches
    mixed = []
    while any(by_file.values()):
        for name, items in by_file.items():
            if items:
                text, last = items.pop(0)
                mixed.append((name, text, last))
    return mixed, place


def measure(db: str, tmp: Path, clients: int, requests: int, hands: int) -> list[Row]:
    import duckdb

    from reports.cache import default_path

    copy = tmp / "big.duckdb"
    shutil.copy(db, copy)
    if Path(default_path(db)).exists():
        shutil.copy(default_path(db), default_path(str(copy)))
    con = duckdb.connect(str(copy), read_only=True)
    stored = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    names = [r[0] for r in con.execute(
        "SELECT player FROM seats GROUP BY player HAVING count(*) > 150 "
        "ORDER BY count(*) DESC, player LIMIT 40").fetchall()]  # fmt: skip
    con.close()
    per = 12  # hands a batch of each file: about a second of play at PACE
    batches, place = _hands(hands, per)
    folder = tmp / "live"
    folder.mkdir()

    def path(k: int, i: int) -> str:
        return LOAD_PATHS[(k + i) % len(LOAD_PATHS)].format(
            player=quote(names[(k * 7 + i) % len(names)]))

    with _server(["--db", str(copy), "--watch", str(folder), "--quiet", "1"],
                 tmp / "serve-live.log", cwd=tmp) as base:  # fmt: skip
        t0 = time.perf_counter()
        for p in ("/api/players", "/api/live"):  # the report once, as a user opens the page
            status, body = _get(base + p, 600)
            if status != 200:
                raise SystemExit(f"{p}: {status} {body[:300]!r}")
        first = time.perf_counter() - t0
        written: dict[str, float] = {}  # hand id -> when its last line was written
        shown: dict[str, float] = {}  # hand id -> when /api/live first showed it (or later)
        done = threading.Event()
        latest: dict[str, int] = {}  # table -> the latest place the HUD showed

        def writer() -> None:
            start = time.perf_counter()
            sent = 0
            for name, text, last in batches:
                with (folder / name).open("a", encoding="utf-8") as f:
                    f.write(text)
                now = time.perf_counter()
                for hand_id in last.values():
                    written[hand_id] = now
                sent += per
                time.sleep(max(0.0, start + sent / PACE - time.perf_counter()))

        def hud() -> None:
            while not done.is_set():
                status, body = _get(base + "/api/live")
                now = time.perf_counter()
                if status == 200:
                    for t in json.loads(body)["tables"]:
                        where = place.get(t["hand_id"])
                        if where is not None:
                            latest[where[0]] = max(latest.get(where[0], -1), where[1])
                    for hand_id in list(written):
                        table, k = place[hand_id]
                        if hand_id not in shown and latest.get(table, -1) >= k:
                            shown[hand_id] = now
                time.sleep(0.1)

        w, h = threading.Thread(target=writer), threading.Thread(target=hud)
        w.start()
        h.start()
        t1 = time.perf_counter()
        loaded, errors = _clients(base, clients, requests, path)
        load_s = time.perf_counter() - t1
        w.join()
        deadline = time.monotonic() + 120
        while len(shown) < len(written) and time.monotonic() < deadline:
            time.sleep(0.2)
        done.set()
        h.join()
        import_s = time.perf_counter() - t1
    late = [shown[k] - written[k] for k in written if k in shown]
    missing = len(written) - len(shown)
    every = [t for ts in loaded.values() for t in ts]
    _table(f"{clients} clients x {requests} requests on {stored:,} stored hands while "
           f"{hands:,} are appended at {PACE:.0f} hands/s and imported by --watch "
           f"({load_s:.1f} s; the first /api/players and /api/live {first:.1f} s)", loaded)
    print(f"HUD latency (last line written -> /api/live shows it), {len(late)} hands: "
          f"p50 {_pct(late, .5) / 1000:.2f} s, p95 {_pct(late, .95) / 1000:.2f} s, "
          f"max {max(late, default=0):.2f} s; {missing} never shown; all written and "
          f"shown after {import_s:.1f} s", file=sys.stderr)  # fmt: skip
    if errors or missing:
        kept_log = Path(tempfile.gettempdir()) / "hh-serve-live.log"
        shutil.copy(tmp / "serve-live.log", kept_log)
        print(f"the server's log: {kept_log}", file=sys.stderr)
        raise SystemExit(f"serve_live: {len(errors)} errors (first: {errors[:3]}), "
                         f"{missing} hands the HUD never showed")  # fmt: skip
    big = f"{stored:,} stored hands"
    what = f"{clients} clients x {requests} requests over every page and API endpoint"
    rows = [
        Row("serve.big.load.p50", f"hh serve (compiled): {what}, {big}, while --watch imports "
            f"{hands:,} more: p50", _pct(every, .5), "ms"),
        Row("serve.big.load.p95", f"hh serve (compiled): the same, p95 (target <= "
            f"{TARGET_MS} ms)", _pct(every, .95), "ms"),
    ]  # fmt: skip
    for kind in ("/api/player?", "/api/live", "/api/players", "/api/hands?"):
        if kind in loaded:
            rows.append(Row(f"serve.big.load.p95{kind.rstrip('?').replace('/', '.')}",
                            f"hh serve (compiled): {kind.rstrip('?')} alone, the same load: p95",
                            _pct(loaded[kind], .95), "ms"))  # fmt: skip
    rows += [
        Row("serve.big.live.p50", f"hh serve (compiled): a hand's last line written -> on "
            f"/api/live, {big}, while importing: p50", _pct(late, .5) / 1000, "s"),
        Row("serve.big.live.p95", f"hh serve (compiled): the same latency, p95 (target <= "
            f"{LIVE_TARGET_S:.0f} s)", _pct(late, .95) / 1000, "s"),
    ]  # fmt: skip
    return rows


def run(quick: bool = False, keep: Path | None = None) -> list[Row]:
    tmp = Path(tempfile.mkdtemp(prefix="hh-serve-live-"))
    try:
        if keep is not None:
            db = kept(keep, STORED // 20 if quick else STORED)
        else:
            (tmp / "big").mkdir()
            db = kept(tmp / "big", STORED // 20 if quick else STORED)
        if quick:
            return measure(db, tmp, 10, 10, 1_500)
        return measure(db, tmp, 50, 20, HANDS)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    script(run)
