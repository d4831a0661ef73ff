"""hh validate and hh simulate as scripts see them: output and exit codes."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hh.cli import app

pytestmark = pytest.mark.compiled

DATA = Path(__file__).parent / "data" / "parse"
EXAMPLES = {
    "chiribito": DATA / "chiribito.txt",
    "aces-straights-flushes": DATA / "aces-straights-flushes.txt",
    "calatone": DATA / "calatone.txt",
}
runner = CliRunner()


def _json_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_validate_json_on_the_format_examples_is_exactly_as_documented() -> None:
    result = runner.invoke(app, ["validate", "--json", *map(str, EXAMPLES.values())])
    assert result.exit_code == 0, result.output
    ch, asf, ca = _json_lines(result.output)
    assert ch == {
        "file": str(EXAMPLES["chiribito"]),
        "line": 1,
        "hand_id": "CH-1",
        "site": "chiribito.com",
        "game": "chiribito",
        "valid": True,
        "violations": [],
        "pots": [{"amount": 1480, "eligible": ["Lucía", "Íñigo"], "winners": ["Lucía"]}],
        "payouts": {"Lucía": 1480},
        "net": {"Lucía": 760, "Paco": -40, "Marta": 0, "Íñigo": -720},
    }
    assert asf["site"] is None and asf["game"] == "aces-straights-flushes"
    assert asf["payouts"] == {"Anna": 22}
    assert asf["net"] == {"Anna": 12, "Ben": -10, "Carla": -2}
    assert ca["payouts"] == {"Dario": 565}
    assert ca["net"] == {"Dario": 290, "Elena": -15, "Fabio": -275}
    # names are written as they are, not escaped
    assert "Lucía" in result.output and "\\u" not in result.output


def test_validate_reports_a_fault_and_exits_1(tmp_path: Path) -> None:
    text = EXAMPLES["chiribito"].read_text("utf-8").replace(
        "Lucía: raises 40 to 80", "Lucía: raises 20 to 60"
    )
    path = tmp_path / "bad.txt"
    path.write_text(text, "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    (verdict,) = _json_lines(result.output)
    assert verdict["valid"] is False
    first = verdict["violations"][0]
    assert first["code"] == "RAISE_SIZE" and first["line"] == 21
    assert "80" in first["message"] and "40" in first["message"]
    # the readable report quotes the offending line in compiler style
    plain = runner.invoke(app, ["validate", str(path)])
    assert plain.exit_code == 1
    assert f"{path}:21: RAISE_SIZE:" in plain.output
    assert plain.output.endswith("1 hand: 0 valid, 1 invalid\n")  # one hand, not "1 hands"
    assert "      Lucía: raises 20 to 60" in plain.output


def test_parse_error_is_a_result_not_a_crash(tmp_path: Path) -> None:
    good = EXAMPLES["calatone"].read_text("utf-8")
    bad = good.replace("Fabio: calls 10", "Fabio: calls ten")
    path = tmp_path / "two.txt"
    path.write_text(good + "\n" + bad, "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    first, second = _json_lines(result.output)
    assert first["valid"] is True
    assert second["valid"] is False
    assert second["pots"] is None and second["payouts"] is None and second["net"] is None
    (err,) = second["violations"]
    assert err["code"] == "PARSE_ERROR"
    line = len(good.splitlines()) + 1 + 14
    assert err["line"] == line
    assert err["column"] == len("Fabio: calls ") + 1


def test_a_run_of_lines_without_header_has_no_hand_id(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_text("hello there\nthis is no hand\n", "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    (verdict,) = _json_lines(result.output)
    assert verdict["hand_id"] is None and verdict["violations"][0]["code"] == "PARSE_ERROR"


def test_folders_gz_and_stdin(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text(EXAMPLES["chiribito"].read_text("utf-8"), "utf-8")
    with gzip.open(tmp_path / "b.log.gz", "wt", encoding="utf-8") as f:
        f.write(EXAMPLES["calatone"].read_text("utf-8"))
    (tmp_path / "ignored.md").write_text("not a hand", "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(tmp_path)])
    assert result.exit_code == 0, result.output
    ids = [v["hand_id"] for v in _json_lines(result.output)]
    assert ids == ["CA-1", "CH-1"]  # files in sorted order: b.log.gz, sub/a.txt
    stdin = runner.invoke(
        app, ["validate", "--json", "-"], input=EXAMPLES["aces-straights-flushes"].read_text()
    )
    assert stdin.exit_code == 0
    assert _json_lines(stdin.output)[0]["file"] == "-"


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert runner.invoke(app, ["validate", str(tmp_path / "missing.txt")]).exit_code == 2
    assert runner.invoke(app, ["validate", "--bogus", "x"]).exit_code == 2
    assert runner.invoke(app, ["simulate", "--game", "poker", "--hands", "1"]).exit_code == 2
    assert runner.invoke(app, ["simulate", "--game", "chiribito", "--players", "7"]).exit_code == 2
    bad_name = ["simulate", "--game", "chiribito", "--view", "Ana: María"]
    assert runner.invoke(app, bad_name).exit_code == 2


def test_no_hands_at_all_is_exit_0(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("\n\n", "utf-8")
    assert runner.invoke(app, ["validate", str(tmp_path)]).exit_code == 0


def test_cross_hand_checks_across_files(tmp_path: Path) -> None:
    out = tmp_path / "s.txt"
    result = runner.invoke(
        app, ["simulate", "--game", "calatone", "--hands", "30", "--seed", "2", "--out", str(out)]
    )
    assert result.exit_code == 0
    text = out.read_text("utf-8")
    hands = text.split("\n\n")
    # split the session in two files: the chain goes on across them
    (tmp_path / "1.txt").write_text("\n\n".join(hands[:15]) + "\n", "utf-8")
    (tmp_path / "2.txt").write_text("\n\n".join(hands[15:]), "utf-8")
    out.unlink()
    assert runner.invoke(app, ["validate", str(tmp_path)]).exit_code == 0
    # a stack that does not carry over is caught on its seat line
    second = hands[15].split("\n")
    k = next(i for i, line in enumerate(second) if line.startswith("Seat ") and "(" in line)
    name_chips = second[k].split(" (")
    chips = int(name_chips[1].split(" ")[0])
    second[k] = f"{name_chips[0]} ({chips + 1} in chips)" + second[k].split(" in chips)")[1]
    (tmp_path / "2.txt").write_text("\n\n".join(["\n".join(second), *hands[16:]]), "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(tmp_path)])
    assert result.exit_code == 1
    bad = [v for v in _json_lines(result.output) if not v["valid"]]
    codes = {x["code"] for v in bad for x in v["violations"]}
    assert "STACK_CARRYOVER" in codes
    where = [x["line"] for v in bad for x in v["violations"] if x["code"] == "STACK_CARRYOVER"]
    assert k + 1 in where


@pytest.mark.parametrize("game", ["chiribito", "aces-straights-flushes", "calatone"])
def test_simulate_is_deterministic_and_valid(game: str, tmp_path: Path) -> None:
    args = ["simulate", "--game", game, "--hands", "40", "--seed", "11", "--tables", "2"]
    a = runner.invoke(app, args)
    b = runner.invoke(app, args)
    assert a.exit_code == 0 and a.output == b.output
    assert a.output.endswith("\n") and not a.output.endswith("\n\n")
    path = tmp_path / "s.txt"
    path.write_text(a.output, "utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "40 hands: 40 valid, 0 invalid" in result.output


def test_simulate_view_and_no_deck() -> None:
    view = runner.invoke(
        app, ["simulate", "--game", "chiribito", "--hands", "5", "--view", "Ana María"]
    )
    assert view.exit_code == 0
    assert "Seat 1: Ana María" in view.output and "Deck [" not in view.output
    assert "[?? ??]" in view.output
    plain = runner.invoke(app, ["simulate", "--game", "chiribito", "--hands", "5", "--no-deck"])
    assert "Deck [" not in plain.output and "Shuffle commitment" not in plain.output
    full = runner.invoke(app, ["simulate", "--game", "chiribito", "--hands", "5"])
    assert "Deck [" in full.output and "Shuffle commitment: " in full.output


def test_the_installed_command_runs(tmp_path: Path) -> None:
    # outside the checkout, whose hh/ folder would shadow the installed package
    done = subprocess.run(
        [sys.executable, "-m", "hh", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert done.stdout.startswith("hh ")
