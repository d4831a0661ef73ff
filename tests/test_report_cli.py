"""``hh report`` through its command line (typer's CliRunner, the entry
point's ``register`` on a fresh app): the issue 24 fixes, each with the
exact output it must give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reportdb import build, hand, merge


class _Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def hh(*args: str, columns: int = 250) -> _Result:
    """``hh ARGS`` in process, with every ``hh.commands`` entry point."""
    import typer
    from hh.cli import load_plugins
    from typer.testing import CliRunner

    app = typer.Typer()
    load_plugins(app)
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
    # the overall row: game, 2 hands, net -40, VPIP 0.0 (she folded twice)
    row = next(line for line in lines if "chiribito" in line and "│" in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[:3] == ["chiribito", "2", "-40"]
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
