"""Detection benchmark of ``hh report integrity`` (not a timed test).

For each game and collusion mode, ``seeds`` sessions of two 6-max tables:
one colluding pair seated at both, four honest players at each (ten at the
start, newcomers as players go broke). Each session is simulated, imported
and reported at checkpoints (its first N hands, by time): how often the
true pair ranks first, and with no colluders at all how often the alert
fires (false alarms).

    python -m benchmarks.bench_integrity --seeds 20 --hands 5000   # the full table
    python -m benchmarks.bench_integrity --seeds 4 --hands 3000    # a reduced one
    python -m benchmarks.bench_integrity --seeds 4 --policies 1000,3000  # real-cheat policies
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.rows import Row

GAMES = ("chiribito", "aces-straights-flushes", "calatone")
MODES = ("soft-play", "chip-dump", "card-share", "none")
PAIR = ("Ana Colluder", "Bo Colluder")
CACHE = Path(__file__).resolve().parent / ".integrity-sessions"
_SPEED: list[tuple[int, float]] = []  # (hands, seconds) of each report run


def _session(game: str, mode: str, seed: int, hands: int, folder: Path) -> Path:
    """The imported session (a database in ``folder``; one already there,
    from an earlier run with the same game, mode, seed and hands, is reused:
    the simulator is deterministic per seed)."""
    db = folder / f"{game}-{mode}-{seed}-{hands}.duckdb"
    done = folder / f"{db.name}.done"
    if done.exists():
        return db
    from hh.collusion import Collusion
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    pairs = () if mode == "none" else (Collusion(PAIR[0], PAIR[1], mode),)
    sim = Simulator(Game(game), seed, players=6, tables=2, colluders=pairs)
    text = folder / f"{game}-{mode}-{seed}-{hands}.txt"
    with text.open("w", encoding="utf-8") as f:
        for k, hand in enumerate(sim.hands(hands)):
            f.write(("\n" if k else "") + write_hand(hand) + "\n")
    db.unlink(missing_ok=True)  # a run stopped half-way
    subprocess.run([sys.executable, "-m", "hh", "import", str(text), "--db", str(db)],
                   check=True, capture_output=True)  # fmt: skip
    text.unlink()
    done.touch()
    return db


def _checkpoints(db: Path, marks: list[int]) -> list[tuple[int, dict]]:
    """(hands, {rank of the true pair, alert fired}) at each checkpoint."""
    import duckdb

    from reports.cache import default_path
    from reports.db import Filters
    from reports.integrity.signals import integrity

    con = duckdb.connect(str(db), read_only=True)
    times = [r[0] for r in con.execute("SELECT started_at FROM hands ORDER BY started_at")
             .fetchall()]  # fmt: skip
    out = []
    for m in marks:
        until = times[m] if m < len(times) else None
        start = time.perf_counter()
        # each report computes the seats' standings and the per-hand facts of
        # the hands it reads that the cache lacks, and keeps them there
        pairs = integrity(con, Filters(until=until), cache=default_path(db))
        _SPEED.append((min(m, len(times)), time.perf_counter() - start))
        rank = next((k + 1 for k, p in enumerate(pairs) if p.players == PAIR), None)
        out.append((m, {"rank": rank, "alert": any(p.alert for p in pairs),
                        "true_alert": any(p.alert and p.players == PAIR for p in pairs),
                        "other_alert": any(p.alert and p.players != PAIR for p in pairs)}))
    con.close()
    return out


def table(seeds: int, hands: int, games: tuple[str, ...] = GAMES,
          modes: tuple[str, ...] = MODES, cache: Path | None = None,
          only_cached: bool = False) -> list[dict]:  # fmt: skip
    """Rows of the detection table: per game, mode and checkpoint, the share
    of seeds where the true pair ranks first (or, with no colluders, where
    the alert fired). ``only_cached``: the seeds whose session is in
    ``cache`` only (the row says how many)."""
    marks = sorted({min(hands, m) for m in (1000, 2500, hands)})
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = cache or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for game in games:
            for mode in modes:
                got: dict[int, list[dict]] = {m: [] for m in marks}
                for seed in range(seeds):
                    done = folder / f"{game}-{mode}-{seed}-{hands}.duckdb.done"
                    if only_cached and not done.exists():
                        continue
                    db = _session(game, mode, seed, hands, folder)
                    for m, r in _checkpoints(db, marks):
                        got[m].append(r)
                    if cache is None:
                        db.unlink()
                for m in marks:
                    rs = got[m]
                    if not rs:
                        continue
                    row = {"game": game, "mode": mode, "hands": m, "seeds": len(rs)}
                    if mode == "none":
                        row["false_alarms"] = sum(r["alert"] for r in rs) / len(rs)
                    else:
                        row["first"] = sum(r["rank"] == 1 for r in rs) / len(rs)
                        row["alerted"] = sum(r["true_alert"] for r in rs) / len(rs)
                        row["other_alerts"] = sum(r["other_alert"] for r in rs) / len(rs)
                    rows.append(row)
                    print(row, flush=True)
    return rows


# Colluders as real cheats play (hh.collusion), not as the signals measure: each
# (name, players per table, [(first, second, mode)], share of hands colluded in)
POLICIES = (
    ("dump-fold, 6-max", 6, [("Ana", "Bo", "dump-fold")], 1.0),
    ("dump-fold, three-handed", 3, [("Ana", "Bo", "dump-fold")], 1.0),
    ("dump-fold, 30% of hands", 6, [("Ana", "Bo", "dump-fold")], 0.3),
    ("soft-play, 30% of hands", 6, [("Ana", "Bo", "soft-play")], 0.3),
    ("card-share, 30% of hands", 6, [("Ana", "Bo", "card-share")], 0.3),
    ("soft-play, three-handed", 3, [("Ana", "Bo", "soft-play")], 1.0),
    ("card-share, three-handed", 3, [("Ana", "Bo", "card-share")], 1.0),
    ("ring of three, soft-play", 6,
     [("Ana", "Bo", "soft-play"), ("Bo", "Cy", "soft-play"), ("Ana", "Cy", "soft-play")], 1.0),
)  # fmt: skip


def _built(folder: Path, name: str,
           parts: list[tuple[str, int, int | None, int, tuple[object, ...], int]]) -> Path:
    """An imported session of simulated ``parts`` (game, seed, players per
    table, tables, colluding pairs, hands), kept in ``folder`` under
    ``name`` and reused (the simulator is deterministic per seed)."""
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    db = folder / f"{name}.duckdb"
    done = folder / f"{db.name}.done"
    if done.exists():
        return db
    text = folder / f"{name}.txt"
    with text.open("w", encoding="utf-8") as f:
        for game, seed, players, tables, pairs, n in parts:
            sim = Simulator(Game(game), seed, players=players, tables=tables,
                            colluders=pairs)  # type: ignore[arg-type]  # Collusion pairs
            for hand in sim.hands(n):
                f.write(write_hand(hand) + "\n\n")
    db.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "hh", "import", str(text), "--db", str(db)],
                   check=True, capture_output=True)  # fmt: skip
    text.unlink()
    done.touch()
    return db


def _report(db: Path) -> list:
    import duckdb

    from reports.db import Filters
    from reports.integrity.signals import integrity

    con = duckdb.connect(str(db), read_only=True)
    try:
        return integrity(con, Filters())
    finally:
        con.close()


def policies(seeds: int, sizes: tuple[int, ...], folder: Path) -> list[Row]:
    """Recall and rank of each colluding policy (:data:`POLICIES`, Chiribito,
    two tables) per size: the share of seeds where every colluding pair
    ranks among the first (as many as there are pairs) with an alert, and
    the colluding pairs' worst rank (mean over seeds); then, per game,
    honest populations with heads-up tables beside 6-max ones (and honest
    friends who always sit together): false alerts per 1,000 honest pairs
    judged (200 hands together or more)."""
    from hh.collusion import Collusion
    from reports.integrity.signals import MIN_HANDS

    rows: list[Row] = []
    for k, (what, players, spec, rate) in enumerate(POLICIES):
        for n in sizes:
            found, ranks = 0, []
            for seed in range(seeds):
                pairs = tuple(Collusion(a, b, mode, rate) for a, b, mode in spec)
                truth = {frozenset((c.first, c.second)) for c in pairs}
                db = _built(folder, f"policy-{k}-{seed}-{n}",
                            [("chiribito", 100 * k + seed, players, 2, pairs, n)])
                got = _report(db)
                at = [i + 1 for i, p in enumerate(got) if frozenset(p.players) in truth]
                worst = max(at) if len(at) == len(truth) else len(got) + 1
                found += worst == len(truth) and all(
                    p.alert for p in got if frozenset(p.players) in truth)
                ranks.append(worst)
            rows.append(Row(f"integrity.policy.{k}.{n}.first", f"{what}, {n:,} hands: colluders "
                            f"first with an alert, {seeds} seeds", 100.0 * found / seeds, "%"))
            rows.append(Row(f"integrity.policy.{k}.{n}.rank", f"{what}, {n:,} hands: the "
                            "colluders' worst rank (mean)", sum(ranks) / seeds, "rank"))
    for game in GAMES:
        false = judged = 0
        for seed in range(seeds):
            db = _built(folder, f"honest-{game}-{seed}-{sizes[-1]}", [
                (game, 500 + seed, 2, 4, (), sizes[-1]), (game, 600 + seed, 6, 2, (), sizes[-1]),
                ("chiribito", 700 + seed, 6, 2, (Collusion("Flo", "Gil", "friends"),),
                 sizes[-1])])  # fmt: skip
            got = [p for p in _report(db) if p.hands_together >= MIN_HANDS]
            judged += len(got)
            false += sum(p.alert for p in got)
        rows.append(Row(f"integrity.honest.{game}", f"false alerts per 1,000 honest pairs, "
                        f"{game} with heads-up tables (and friends), {judged:,} pairs judged",
                        1000.0 * false / judged if judged else 0.0, "per 1,000"))
    return rows


SPEED_HANDS = 1_000_000
SPEED_BASE_PER_GAME = 12_000  # 36,000 simulated hands, repeated up to SPEED_HANDS
POPULATIONS = 25  # copies k get player names "<name>~<k mod 25>" (their tables: table~<k mod 25>)


def big_database(folder: Path, hands: int, per_game: int) -> tuple[str, str, int]:
    """A synthetic database of ``hands`` hands: ``per_game`` simulated hands
    of each game imported by the real import, repeated in SQL under fresh
    hand ids (benchmarks/bighands.py), each copy's players renamed
    ``<name>~<k mod 25>`` (in seats, actions and pots) so that the copies
    are 25 populations of players, not one population with 25 times the
    hands together. Returns its path, the base's and its number of hands."""
    import duckdb

    from benchmarks.bighands import base, grow

    base_db = base(folder, per_game)
    db = str(folder / "integrity-big.duckdb")
    total = grow(base_db, db, hands)
    con = duckdb.connect(db)
    suffix = f"'~' || (CAST(split_part(hand_id, '~', 2) AS INTEGER) % {POPULATIONS})"
    for table in ("seats", "actions"):
        con.execute(f"UPDATE {table} SET player = player || {suffix} WHERE player IS NOT NULL")
    con.execute(f"""UPDATE pots SET eligible = list_transform(eligible, lambda x: x || {suffix}),
                    winners = list_transform(winners, lambda x: x || {suffix})""")  # fmt: skip
    con.execute("CHECKPOINT")
    con.close()
    return db, base_db, total


def _standings(con: object) -> None:
    """Every hand's seats' standings into the database's cache, as the first
    integrity report computes and keeps them (reports.integrity.standings)."""
    from reports.cache import Cache, path_of
    from reports.integrity import standings
    from reports.integrity.facts import fill_memory

    store = Cache(con, path_of(con))  # type: ignore[arg-type]
    try:
        store.want("TRUE", [])
        with fill_memory(con):  # type: ignore[arg-type]
            standings.fill(con, store, batch=standings.BATCH)  # type: ignore[arg-type]
    finally:
        store.close()


def _facts(con: object) -> None:
    """Every hand's integrity facts into the database's cache, as the first
    integrity report computes and keeps them (within its memory limit; then
    the import's hook keeps them up to date)."""
    from reports.cache import Cache, path_of
    from reports.integrity.facts import BATCH, fill, fill_memory

    store = Cache(con, path_of(con))  # type: ignore[arg-type]
    try:
        store.want("TRUE", [])
        with fill_memory(con):  # type: ignore[arg-type]
            fill(con, store, batch=BATCH, standings_kept=True)  # type: ignore[arg-type]
    finally:
        store.close()


def speed(quick: bool = False) -> list[Row]:
    """``hh report integrity`` over a large synthetic database (see
    :func:`big_database`), against ``hh report players`` on the same
    database in the same run (its counts cached first, as the import's hook
    leaves them, the all-in equity seeded from the base hands'), one run
    each. A first integrity report computes every hand's seats' standings
    (timed: ``standings``) and its per-hand facts (``facts``), then the
    report itself (``report``: as every later report, and every report of a
    database whose import kept them); ``first`` is the three together."""
    from benchmarks.rows import seconds
    from reports.cache import default_path
    from reports.db import Filters, connect
    from reports.integrity.signals import integrity
    from reports.players.counts import after_import
    from reports.players.report import players

    n = SPEED_HANDS // 20 if quick else SPEED_HANDS
    per_game = SPEED_BASE_PER_GAME // 10 if quick else SPEED_BASE_PER_GAME
    with tempfile.TemporaryDirectory(prefix="hh-bench-integrity-") as tmp:
        db, base_db, total = big_database(Path(tmp), n, per_game)
        import shutil

        import duckdb

        from benchmarks.bench_report import seed_equity

        # the all-in equity of the copies is the base's (as bench_report seeds it)
        seeded = str(Path(tmp) / "equity-only.reports.duckdb")
        seed_equity(db, base_db, seeded)
        shutil.copyfile(seeded, default_path(db))
        rw = duckdb.connect(db)
        after_import(rw)  # the players report's counts, as hh import caches them
        # the seats' standings of every hand, as a first integrity report computes them
        t_standings, mb_standings = seconds(lambda: _standings(rw), repeats=1)
        # the integrity report's per-hand facts, as a database read by integrity
        # reports keeps them at import (the first report's fill, over every hand)
        t_facts, mb_facts = seconds(lambda: _facts(rw), repeats=1)
        rw.close()
        con = connect(db)
        cache = default_path(db)
        t_players, mb_players = seconds(lambda: players(con, Filters(), cache=cache), repeats=1)
        t_integrity, mb = seconds(lambda: integrity(con, Filters(), cache=cache), repeats=1)
        con.close()
    what = f"{total:,} hands (synthetic: {3 * per_game:,} simulated, repeated)"
    return [
        Row("integrity.speed.standings", f"seats' standings of {what} (a first report's fill, "
            "once)", t_standings, "s", None, mb_standings),
        Row("integrity.speed.first", f"a first hh report integrity after importing {what}: "
            "standings, facts and the report (target 30 s at 1,000,000)",
            t_standings + t_facts + t_integrity, "s", None, max(mb_standings, mb_facts, mb)),
        Row("integrity.speed.facts", f"integrity facts of {what} (a first report's fill, once)",
            t_facts, "s", None, mb_facts),
        Row("integrity.speed.players", f"hh report players, {what}, counts cached", t_players,
            "s", None, mb_players),
        Row("integrity.speed.report", f"hh report integrity, {what} (target 10 s at "
            "1,000,000)", t_integrity, "s", "integrity.speed.players", mb),
    ]  # fmt: skip


def run(quick: bool = False) -> list[Row]:
    """For ``make bench``'s runner: the speed rows (:func:`speed`), then the
    detection table as rows, shares in percent (minutes of simulation; the
    sessions are kept in ``benchmarks/.integrity-sessions`` and reused)."""
    seeds, hands = (2, 1500) if quick else (20, 5000)
    CACHE.mkdir(parents=True, exist_ok=True)
    out = policies(1, (1000,), CACHE) if quick else policies(10, (1000, 3000), CACHE)
    out += speed(quick)
    for r in table(seeds, hands, cache=CACHE):
        share = r["false_alarms"] if r["mode"] == "none" else r["first"]
        what = "false alarms" if r["mode"] == "none" else "true pair first"
        key = f"integrity.{r['game']}.{r['mode']}.{r['hands']}"
        out.append(Row(key, f"{what}, {r['game']} {r['mode']}, {r['hands']} hands, "
                       f"{r['seeds']} seeds", 100.0 * share, "%"))  # fmt: skip
    hands = sum(h for h, _s in _SPEED)
    seconds = sum(s for _h, s in _SPEED)
    out.append(Row("integrity.report", "hh report integrity over the sessions above "
                   "(one process, no cache)", hands / seconds if seconds else 0.0,
                   "hands/s"))  # fmt: skip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--game", action="append", choices=GAMES)
    ap.add_argument("--mode", action="append", choices=MODES)
    ap.add_argument("--cache", type=Path, help="keep the imported sessions in this folder and "
                    "reuse them (same game, mode, seed and hands) in later runs")
    ap.add_argument("--only-cached", action="store_true",
                    help="with --cache: the seeds already there only")
    ap.add_argument("--policies", metavar="SIZES",
                    help="the real-cheat policies and honest populations instead "
                    "(policies()), at these hands (e.g. 1000,3000), --seeds seeds, the "
                    "sessions kept in --cache (default benchmarks/.integrity-sessions)")
    a = ap.parse_args()
    if a.policies:
        folder = a.cache or CACHE
        folder.mkdir(parents=True, exist_ok=True)
        sizes = tuple(int(n) for n in a.policies.split(","))
        for r in policies(a.seeds, sizes, folder):
            print(f"{r.what}: {r.figure:.1f} {r.unit}")
        return
    rows = table(a.seeds, a.hands, tuple(a.game or GAMES), tuple(a.mode or MODES), a.cache,
                 a.only_cached)
    print("| game | mode | hands | seeds | true pair first | true pair alerted | "
          "another pair alerted (none: false alarm) |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        if r["mode"] == "none":
            print(f"| {r['game']} | none | {r['hands']} | {r['seeds']} | | | "
                  f"{r['false_alarms']:.0%} |")
        else:
            print(f"| {r['game']} | {r['mode']} | {r['hands']} | {r['seeds']} | {r['first']:.0%} "
                  f"| {r['alerted']:.0%} | {r['other_alerts']:.0%} |")


if __name__ == "__main__":
    main()
