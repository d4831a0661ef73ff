"""``hh report`` through its command line (typer's CliRunner, the entry
point's ``register`` on a fresh app): the issue 24 fixes, each with the
exact output it must give."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.reportdb import build, hand, merge


class _Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def hh(*args: str, columns: int = 250) -> _Result:
    """``hh ARGS`` in process, with every command of hh.cli.COMMANDS."""
    import typer
    from typer.testing import CliRunner

    from hh.cli import add_commands

    app = typer.Typer()
    add_commands(app)
    out = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    if out.exception and not isinstance(out.exception, SystemExit):
        raise out.exception
    return _Result(out.exit_code, out.stdout, out.stderr)


def _two_hands() -> dict:
    """Ana María (blind) folds to Bo's raise twice, at table "T [b]"."""
    parts = []
    for i in range(2):
        parts.append(hand("chiribito", f"h{i}", [
            ("Ana María", -20, 0, 20, {"folded_round": 0}),
            ("Bo", 20, 40, 20)],
            """-1 Ana_María blind 20
                0 Bo raise 40
                0 Ana_María fold
                0 Bo uncalled 20""",
            forced=20, last_round=0, showdown=False, table="T [b]",
            started_at=f"2026-01-01 00:0{i}:00"))  # fmt: skip
    data = merge(*parts)
    for row in data["actions"]:
        row["player"] = row["player"].replace("_", " ")
    return data


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build(tmp_path / "h.duckdb", **_two_hands())


def test_player_table_format_does_not_crash(db: Path) -> None:
    out = hh("report", "player", "Ana María", "--db", str(db))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].strip() == "overall"
    # the overall row: game, stakes (the blind), 2 hands, net -40, bb/100 and
    # net/100 "-" (under 20 hands), adjusted net -40 (whole chips), VPIP 0.0 (she folded)
    row = next(line for line in lines if "chiribito" in line and "│" in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[:8] == ["chiribito", "20", "2", "-40", "-", "-", "-40", "0.0"]
    assert "by position" in out.stdout and "by session" in out.stdout


@pytest.mark.parametrize("command", [["players"], ["player", "Bo"], ["violations"]])
def test_table_format_writes_out(db: Path, tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "t.txt"
    out = hh("report", *command, "--db", str(db), "--out", str(target))
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""
    text = target.read_text("utf-8")
    if command[0] == "violations":
        assert text.startswith("by code")
    else:
        assert "chiribito" in text and "\x1b[" not in text  # no colour codes in a file


def test_violations_help_offers_no_html(db: Path) -> None:
    out = hh("report", "violations", "--help")
    assert out.returncode == 0
    assert "html" not in out.stdout.replace("index.html", "")
    assert "table, csv, json or parquet" in " ".join(out.stdout.split())
    refused = hh("report", "violations", "--db", str(db), "--format", "html")
    assert refused.returncode == 2 and "--pages DIR" in refused.stderr


def test_json_unchanged_by_the_table_fix(db: Path) -> None:
    out = hh("report", "player", "Ana María", "--db", str(db), "--format", "json")
    overall = json.loads(out.stdout)["overall"]
    assert [(r["game"], r["hands"], r["net"]) for r in overall] == [("chiribito", 2, -40)]


def _three_players() -> dict:
    """Ana María wins 20 twice from Bo; Zoé (Aces) wins 5 once from Bo."""
    data = _two_hands()
    for row in data["seats"]:
        if row["player"] == "Ana María":
            row.update(net=20, won=40)
        else:
            row.update(net=-20, won=0, folded_round=0)
    ace = hand("aces-straights-flushes", "a1", [("Zoé", 5, 10, 5), ("Bo", -5, 0, 5)],
               """-1 Zoé ante 5
                  -1 Bo ante 5""", forced=5, last_round=0, showdown=False)  # fmt: skip
    return merge(data, ace)


# the characters every command shows escaped (hh.output.safe): a bidi mark, the
# Arabic letter mark, a byte-order mark and an override, allowed in a name
_HIDDEN = "\u200f\u061c\ufeff\u202e"


def test_report_escapes_what_hh_show_and_validate_escape(tmp_path: Path) -> None:
    data = _three_players()
    for table in ("seats", "actions"):
        for row in data[table]:
            row["player"] = row["player"].replace("Zoé", "Zo" + _HIDDEN + "é")
    db = build(tmp_path / "h.duckdb", **data)
    out = hh("report", "players", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "Zo\\u200f\\u061c\\ufeff\\u202eé" in out.stdout
    assert not any(c in out.stdout for c in _HIDDEN)


def test_sort_by_header_names_and_descending_or_ascending(tmp_path: Path) -> None:
    db = build(tmp_path / "h.duckdb", **_three_players())

    def order(*sort: str) -> list[tuple[str, str]]:
        out = hh("report", "players", "--db", str(db), "--format", "json", *sort)
        assert out.returncode == 0, out.stderr
        return [(r["player"], r["game"][:3]) for r in json.loads(out.stdout)]

    assert order("--sort", "net") == [("Ana María", "chi"), ("Zoé", "ace"), ("Bo", "ace"),
                                      ("Bo", "chi")]  # fmt: skip
    assert order("--sort", "-net") == [("Bo", "chi"), ("Bo", "ace"), ("Zoé", "ace"),
                                       ("Ana María", "chi")]  # fmt: skip
    assert order("--sort", "NET/100") == order("--sort", "net_per_100")
    assert order("--sort=-Player") == [("Zoé", "ace"), ("Bo", "ace"), ("Bo", "chi"),
                                       ("Ana María", "chi")]  # fmt: skip
    assert order("--sort", "W$SD") == order("--sort", "wsd")
    bad = hh("report", "players", "--db", str(db), "--sort", "nope")
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "hh report: --sort 'nope': no such column; the columns are player, game, stakes, hands, "
        "net, bb/100, net/100, adj net, VPIP, PFR, 3B, AF, AFq, CB, FCB, WTSD, W$SD, WWSR2 "
        "(a leading - reverses the order)")


@pytest.mark.parametrize("name", ["ch", "Chiribito", "CH"])
def test_short_game_names(tmp_path: Path, name: str) -> None:
    db = build(tmp_path / "h.duckdb", **_three_players())
    out = hh("report", "players", "--db", str(db), "--format", "json", "--game", name)
    assert out.returncode == 0, out.stderr
    assert {r["game"] for r in json.loads(out.stdout)} == {"chiribito"}
    for short, game in (("asf", "aces-straights-flushes"), ("aces", "aces-straights-flushes")):
        out = hh("report", "players", "--db", str(db), "--format", "json", "--game", short)
        assert {r["game"] for r in json.loads(out.stdout)} == {game}
    bad = hh("report", "players", "--db", str(db), "--game", "holdem")
    assert bad.returncode == 2 and "calatone (or ca, cal)" in bad.stderr


def test_player_names_as_typed(tmp_path: Path) -> None:
    db = build(tmp_path / "h.duckdb", **_three_players())
    decomposed = "Mari\u0301a"  # as a macOS keyboard writes it
    for typed in ("ana maría", f"ANA {decomposed.upper()}", f"Ana {decomposed}"):
        out = hh("report", "player", typed, "--db", str(db), "--format", "json")
        assert out.returncode == 0, (typed, out.stderr)
        assert [r["player"] for r in json.loads(out.stdout)["overall"]] == ["Ana María"]
    rows = hh("report", "players", "--db", str(db), "--format", "json", "--player", "zoe",
              "--player", "BO")  # fmt: skip
    assert rows.returncode == 0, rows.stderr  # zoe is Zoé: without case, then accents
    assert sorted(r["player"] for r in json.loads(rows.stdout)) == ["Bo", "Bo", "Zoé"]
    rows = hh("report", "players", "--db", str(db), "--format", "json", "--player", "ZOÉ",
              "--player", "bo")  # fmt: skip
    assert sorted(r["player"] for r in json.loads(rows.stdout)) == ["Bo", "Bo", "Zoé"]
    found = hh("report", "player", "Ana Maria", "--db", str(db), "--format", "json")
    assert [r["player"] for r in json.loads(found.stdout)["overall"]] == ["Ana María"]
    miss = hh("report", "player", "Ana Marta", "--db", str(db))
    assert miss.returncode == 2
    assert miss.stderr.strip() == ("hh report: no player 'Ana Marta' in the database; "
                                   "nearest: 'Ana María'")  # fmt: skip


def test_show_takes_the_id_as_copied_from_the_header(tmp_path: Path) -> None:
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    log = tmp_path / "a.txt"
    hand = next(iter(Simulator(Game.CHIRIBITO, seed=1).hands(1)))
    log.write_text(write_hand(hand) + "\n", "utf-8")
    plain = hh("show", hand.header.hand_id, str(log))
    assert plain.returncode == 0, plain.stderr
    for copied in (f"#{hand.header.hand_id}", f"#{hand.header.hand_id}:"):
        out = hh("show", copied, str(log))
        assert (out.returncode, out.stdout) == (0, plain.stdout)


def test_sessions_and_named_positions(tmp_path: Path) -> None:
    data = _two_hands()
    later = hand("chiribito", "h9", [("Bo", -20, 0, 20, {"folded_round": 0}),
                                     ("Ana María", 20, 40, 20)],
                 """-1 Bo blind 20
                     0 Ana_María raise 40
                     0 Bo fold
                     0 Ana_María uncalled 20""",
                 forced=20, last_round=0, showdown=False, table="T [b]",
                 started_at="2026-01-01 02:00:00")  # fmt: skip
    for row in later["actions"]:
        row["player"] = row["player"].replace("_", " ")
    db = build(tmp_path / "h.duckdb", **merge(data, later))
    out = hh("report", "player", "Ana María", "--db", str(db), "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    # two hands a minute apart, then two hours later a new session
    assert [(s["session"], s["start"], s["minutes"], s["hands"], s["net"], s["bb_per_100"])
            for s in got["by_session"]] == [
        ("T [b] #1", "2026-01-01T00:00:00", 1, 2, -40, -100.0),
        ("T [b] #2", "2026-01-01T02:00:00", 0, 1, 20, 100.0)]  # fmt: skip
    # heads-up Chiribito: position 1 is the blind, the other the dealer
    assert [(p["position"], p["hands"], p["net"]) for p in got["by_position"]] == [
        ("blind", 2, -40), ("dealer", 1, 20)]
    table = hh("report", "player", "Ana María", "--db", str(db))
    assert "T [b] #1" in table.stdout  # the table's name as written, not rich markup
    assert "│ blind " in table.stdout


def test_position_names_per_game() -> None:
    import polars as pl

    from reports.players.depth import position_name

    rows = pl.DataFrame({
        "game": ["chiribito"] * 6 + ["calatone"] * 4 + ["aces-straights-flushes"] * 2,
        "position": [1, 2, 3, 4, 6, 2, 1, 2, 3, 7, 12, 12],
        "n_players": [6, 6, 6, 6, 6, 2, 7, 7, 7, 7, 13, 12],
    })  # fmt: skip
    assert rows.select(position_name())["position"].to_list() == [
        "blind", "first to speak", "2nd to speak", "3rd to speak", "dealer", "dealer",
        "dealer's left", "2nd dealt", "3rd dealt", "dealer", "12th dealt", "dealer"]


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 simulated hands per game, refereed and stored as the import would,
    with one hand made invalid (a violation row) and two copies of a reject."""
    import duckdb

    from tests.simload import simulated

    path = simulated(tmp_path_factory.mktemp("sim") / "sim.duckdb", 40, seed=4, tables=1)
    con = duckdb.connect(str(path))
    con.execute("UPDATE hands SET valid = FALSE, n_violations = 1 WHERE hand_id = 'CH-4-1-3'")
    con.execute("INSERT INTO violations VALUES ('hh-sim', 'CH-4-1-3', 'OUT_OF_TURN', 7, "
                "'Ana acted out of turn', FALSE, 'hand')")  # fmt: skip
    for file in ("a.txt", "copy/a.txt"):
        con.execute("INSERT INTO rejects (file, line, raw_text, error, kind) VALUES "
                    "(?, 12, 'Hand #X-1: Poker', 'line 1: unknown game \"Poker\"', 'parse')",
                    [file])  # fmt: skip
    con.close()
    return path


def _ids(out: _Result) -> list[str]:
    assert out.returncode == 0, out.stderr
    return [r["hand_id"] for r in json.loads(out.stdout)]


def test_hands_lists_ids_that_show_opens(sim_db: Path) -> None:
    import duckdb

    con = duckdb.connect(str(sim_db), read_only=True)

    def oracle(sql: str, params: list | None = None) -> list[str]:
        return [r[0] for r in con.execute(sql, params or []).fetchall()]

    db = ["--db", str(sim_db), "--format", "json", "--limit", "0"]
    assert _ids(hh("hands", *db)) == oracle(
        "SELECT hand_id FROM hands ORDER BY started_at, site, hand_id")
    assert _ids(hh("hands", *db, "--invalid")) == ["CH-4-1-3"]
    assert _ids(hh("hands", *db, "--code", "out_of_turn")) == ["CH-4-1-3"]
    pots = _ids(hh("hands", *db, "--game", "cal", "--sort", "pot", "--min-pot", "20"))
    assert pots == oracle("SELECT hand_id FROM hands WHERE game = 'calatone' AND "
                          "total_pot >= 20 ORDER BY total_pot DESC, started_at, hand_id")
    assert len(pots) > 2
    name = oracle("SELECT player FROM seats WHERE hand_id = 'AS-4-1-1' ORDER BY seat")[0]
    mine = _ids(hh("hands", *db, "--player", name.upper(), "--since", "2026-01-01 00:05"))
    assert mine == oracle(
        "SELECT h.hand_id FROM hands h WHERE started_at >= '2026-01-01 00:05' AND EXISTS "
        "(SELECT 1 FROM seats s WHERE s.site = h.site AND s.hand_id = h.hand_id AND "
        "s.player = ?) ORDER BY started_at, site, hand_id", [name])  # fmt: skip
    assert mine
    top = hh("hands", "--db", str(sim_db), "--limit", "3", "--sort", "pot")
    assert top.returncode == 0
    assert "Hands (3 of 120)" in top.stdout and "117 more: --limit 0 lists all" in top.stderr
    first = top.stderr.split("hh show ")[1].split()[0]
    shown = hh("show", first, "--db", str(sim_db))
    assert shown.returncode == 0 and f"#{first}" in shown.stdout
    nope = hh("hands", "--db", str(sim_db), "--code", "BET_SIZE")
    assert nope.returncode == 2
    assert nope.stderr == ("hh report: --code BET_SIZE: no such violation in the database; the "
                           "codes found are OUT_OF_TURN (FORMAT.md lists them all)\n")
    bad = hh("hands", "--db", str(sim_db), "--sort", "size")
    assert bad.returncode == 2 and "time, pot, -pot, -time" in bad.stderr


def test_rejects_lists_what_did_not_parse_once(sim_db: Path) -> None:
    out = hh("report", "rejects", "--db", str(sim_db), "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [
        {"kind": "parse", "file": "a.txt", "line": 12, "site": None, "hand_id": None,
         "error": 'line 1: unknown game "Poker"', "copies": 2}]
    table = hh("report", "rejects", "--db", str(sim_db))
    assert 'unknown game "Poker"' in table.stdout and "Rejects (1)" in table.stdout


def test_narrow_terminal_keeps_the_statistics_and_shortens_the_game(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from reports.db import Filters, connect
    from reports.players.report import players
    from reports.render.columns import PLAYER_COLUMNS
    from reports.render.terminal import RATES, show

    db = build(tmp_path / "h.duckdb", **_three_players())
    df = players(connect(db), Filters())
    console = Console(file=io.StringIO(), force_terminal=True, width=80, color_system=None)
    show(console, df, PLAYER_COLUMNS, "Players", RATES)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert [c.strip() for c in lines[2].strip("┃ ").split("┃")] == [
        "player", "game", "hands", "net", "bb/100", "VPIP", "PFR", "AF", "WTSD", "W$SD"]
    assert [c.strip() for c in lines[4].strip("│ ").split("│")][:2] == ["Ana María", "ch"]
    assert "│ asf " in text and "chiribito" not in text
    assert "8 columns left out" in " ".join(text.split())


@pytest.mark.parametrize("flag", ["-q", "--errors-only"])
def test_validate_errors_only(tmp_path: Path, flag: str) -> None:
    import subprocess
    import sys

    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    hands = [write_hand(h) for h in Simulator(Game.CHIRIBITO, seed=3, tables=2).hands(4)]
    first = hands[0].splitlines()
    k = next(i for i, line in enumerate(first) if ": calls " in line)
    name, amount = first[k].split(": calls ")
    first[k] = f"{name}: calls {int(amount.split()[0]) - 1}"  # one chip short
    log = tmp_path / "a.txt"
    log.write_text("\n".join(["\n".join(first), *hands[1:]]) + "\n", "utf-8")

    def run(*args: str) -> tuple[int, str]:
        out = subprocess.run([sys.executable, "-m", "hh", "validate", *args, str(log)],
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        return out.returncode, out.stdout

    code, full = run()
    blocks, block = [], []
    for line in full.splitlines(keepends=True)[:-1]:
        if not line.startswith(" ") and block:
            blocks.append(block)
            block = []
        block.append(line)
    blocks.append(block)
    bad = [b for b in blocks if "INVALID" in b[0]]
    assert 1 <= len(bad) < len(blocks) == 4 and code == 1
    closing = full.splitlines(keepends=True)[-1]
    assert closing.startswith("4 hands: ") and "invalid" in closing
    assert run(flag) == (1, "".join(line for b in bad for line in b) + closing)
    _, json_all = run("--json")
    wanted = [line for line in json_all.splitlines(keepends=True)
              if json.loads(line).get("valid") is False]  # fmt: skip
    assert run("--json", flag) == (1, "".join(wanted))


COMMANDS = ["parse", "validate", "simulate", "import", "show", "hands", "report players",
            "report player", "report violations", "report rejects"]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_no_python_types(command: str) -> None:
    import re
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "hh", *command.split(), "--help"],
                         capture_output=True, text=True, timeout=120,
                         env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert re.findall(r"<(?:bool|str|int|float|path|list\[[a-z]+\])[^>]*>", out.stdout) == []
    rows = [line for line in out.stdout.splitlines() if "--help" in line]
    assert rows and "Show this message and exit." in rows[0]
    assert "bool" not in rows[0]
    workers = [line for line in out.stdout.splitlines() if "--workers" in line]
    for line in workers:  # its default said once
        assert line.count("default") == 1, line


def test_a_locked_database_gives_one_plain_message(sim_db: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); "
         "print('held', flush=True); sys.stdin.read()", str(sim_db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        pid = holder.pid
        said = f"the database {sim_db} is in use by another process (PID {pid})"
        log = tmp_path / "a.txt"
        log.write_text("", "utf-8")
        runs = {
            "import": ["import", "--db", str(sim_db), str(log)],
            "players": ["report", "players", "--db", str(sim_db)],
            "player": ["report", "player", "x", "--db", str(sim_db)],
            "violations": ["report", "violations", "--db", str(sim_db)],
            "rejects": ["report", "rejects", "--db", str(sim_db)],
            "hands": ["hands", "--db", str(sim_db)],
            "show": ["show", "CH-4-1-1", "--db", str(sim_db)],
        }
        for name, args in runs.items():
            # a short wait: the message is the same after any wait (dblock)
            out = subprocess.run([sys.executable, "-m", "hh", *args], capture_output=True,
                                 text=True, timeout=120,
                                 env={**os.environ, "HH_DB_WAIT": "0.2"})  # fmt: skip
            assert out.returncode == 2, (name, out.stderr)
            assert said in out.stderr, (name, out.stderr)
            assert "IO Error" not in out.stderr and "duckdb.org" not in out.stderr, name
            assert out.stderr.count("\n") == 1, (name, out.stderr)
    finally:
        holder.kill()
        holder.wait()


def test_import_says_what_it_did_not_do(tmp_path: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hh", "import", *args],
                              capture_output=True, text=True, timeout=300,
                              env={"HH_NO_IMPORT_HOOKS": "1", "PATH": "/usr/bin:/bin"})  # fmt: skip

    db = str(tmp_path / "h.duckdb")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "notes.md").write_text("no hands here", "utf-8")
    empty = run("--db", db, str(folder))
    assert (empty.returncode, empty.stdout) == (2, "")
    assert empty.stderr == (f"hh: no hand-history files in {folder}: hh import reads *.txt, "
                            "*.log, *.gz, *.ohh files (folders recursively)\n")  # fmt: skip
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    log = folder / "a.txt"
    log.write_text("\n".join(write_hand(h) for h in Simulator(Game.CALATONE, seed=1).hands(3))
                   + "\n", "utf-8")  # fmt: skip
    lake = run("--db", db, str(log), "--lake", str(tmp_path / "lake"))
    assert (lake.returncode, lake.stdout) == (2, "")
    assert lake.stderr == ("hh: --lake is for --engine dask (a Parquet lake); a local import "
                           "writes the DuckDB file of --db\n")  # fmt: skip
    assert run("--db", db, str(folder)).returncode == 0
    again = run("--db", db, "--revalidate")
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[2].split() == ["revalidated", "3", "(0", "invalid:",
                                                    "violations", "stored)"]  # fmt: skip


def test_watch_says_each_batch_and_counts_files_once(tmp_path: Path) -> None:
    import re
    import threading
    import time

    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand
    from pipelines.watch import watch

    folder = tmp_path / "live"
    folder.mkdir()
    hands = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 31, tables=1).hands(10)]
    log = folder / "table.txt"
    log.write_text("\n\n".join(hands[:4]) + "\n\n", encoding="utf-8")
    stop = threading.Event()
    seen: list[dict[str, object]] = []
    said: list[str] = []
    out: list[dict[str, object]] = []

    def imported() -> int:
        return int(seen[-1]["imported"]) if seen else -1  # type: ignore[call-overload]

    def wait_for(n: int) -> None:
        deadline = time.monotonic() + 60
        while imported() < n and time.monotonic() < deadline:
            time.sleep(0.05)

    thread = threading.Thread(target=lambda: out.append(watch(
        str(tmp_path / "live.duckdb"), [str(folder)], 1, quiet=1.5, say=said.append, stop=stop,
        on_cycle=seen.append)))  # fmt: skip
    thread.start()
    try:
        wait_for(4)  # a blank line follows the fourth: it is whole
        with log.open("a", encoding="utf-8") as f:
            f.write("\n\n".join(hands[4:]) + "\n")
        wait_for(10)
    finally:
        stop.set()
        thread.join(60)
    assert out and out[0]["imported"] == 10
    assert out[0]["files"] == 1  # one file, read three times
    assert said[0] == f"watching {folder} (Ctrl-C stops)"
    batches = [re.fullmatch(r"(\d+) hands read from 1 file: (\d+) imported, 0 rejected", s)
               for s in said[1:]]  # fmt: skip
    assert said[1:] and all(batches), said
    assert 4 + sum(int(m.group(2)) for m in batches if m) == 10



def test_violations_json_orders_tied_rows_by_every_key(tmp_path: Path) -> None:
    """Twelve violations of one code, one a hand, over three games, two sites
    and twelve players: every section ties; each comes in the order of its
    keys (most violations first), the same at every run, as a sort of the
    rows themselves says."""
    games = ("chiribito", "aces-straights-flushes", "calatone")
    hands, violations, actions = [], [], []
    for i in range(12):
        site, hid = ("s1", "s2")[i % 2], f"H{i:02}"
        hands.append({"site": site, "hand_id": hid, "game": games[i % 3], "table_name": "T",
                      "valid": False, "n_violations": 1,
                      "started_at": f"2026-01-01 00:{i:02}:00"})
        actions.append({"site": site, "hand_id": hid, "seq": 1, "line": 5,
                        "player": f"P{(7 * i) % 12:02}", "kind": "call"})
        violations.append({"site": site, "hand_id": hid, "code": "OUT_OF_TURN", "line": 5,
                           "message": "out of turn", "source": "hand"})
    db = build(tmp_path / "ties.duckdb", hands=hands, actions=actions, violations=violations)
    keys = {"by_code": ("code", "game"), "by_table": ("table_name", "site", "game"),
            "by_player": ("player", "game", "code"), "hands": ("game",)}
    first = None
    for _ in range(5):
        out = hh("report", "violations", "--db", str(db), "--format", "json")
        assert out.returncode == 0, out.stderr
        found = json.loads(out.stdout)
        for section, key in keys.items():
            rows = found[section]
            assert rows == sorted(rows, key=lambda r, k=key: (-r.get("violations", 0),
                                                              *(r[c] for c in k))), section
        assert len(found["by_player"]) == 12 and len(found["by_table"]) == 6
        assert first is None or out.stdout == first
        first = out.stdout
