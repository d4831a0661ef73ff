"""``hh parse``: summaries, compiler-style errors, JSON lines, exit codes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from typer.testing import CliRunner

from hh.cli import app

DATA = Path(__file__).parent / "data" / "parse"
CH = (DATA / "chiribito.txt").read_text(encoding="utf-8")
runner = CliRunner()


def test_folder_recursive_sorted_and_summaries(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.log").write_text(CH, encoding="utf-8")
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(CH.encode()))
    (tmp_path / "ignored.md").write_text("not a hand", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{tmp_path / 'a.txt.gz'}:1: chiribito.com #CH-1 chiribito")
    assert lines[1].startswith(f"{tmp_path / 'b' / 'x.log'}:1:")
    assert "4 seats" in lines[0] and "total pot 1480" in lines[0]


def test_errors_in_compiler_style_and_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(CH.replace("Lucía: calls 20", "Lucía: calls 020", 1) + "\n" + CH, "utf-8")
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (
        f"{path}:13:14: bad amount '020': amounts are whole numbers written plainly "
        "(no sign, leading zeros, decimals or separators)"
    )
    assert lines[1] == "    Lucía: calls 020"
    assert lines[2] == "    " + " " * 13 + "^"
    assert lines[3].startswith(f"{path}:49: chiribito.com #CH-1")


def test_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(CH + "\n" + CH.replace("*** SUMMARY ***\n", ""), encoding="utf-8")
    result = runner.invoke(app, ["parse", "--json", str(path)])
    assert result.exit_code == 1
    good, bad = (json.loads(line) for line in result.output.splitlines())
    assert (good["file"], good["line"]) == (str(path), 1)
    assert good["header"]["hand_id"] == "CH-1" and good["header"]["game"] == "chiribito"
    assert good["seats"][3]["name"] == "Íñigo"
    assert good["sections"][0]["lines"][0] == {
        "type": "Deal", "name": "Paco", "down": ["Ao", "Rc"], "up": None, "line": 9,
    }  # fmt: skip
    assert good["summary"]["total"]["total"] == 1480
    assert bad == {
        "file": str(path),
        "line": 49,
        "hand_id": "CH-1",
        "error": {
            "line": 89,
            "column": 1,
            "message": "'*** SUMMARY ***' is missing before the 'Total pot <n> | Rake <n>' line",
        },
    }
    assert "Íñigo" in result.output  # not escaped to ASCII


def test_stdin() -> None:
    result = runner.invoke(app, ["parse", "-"], input=CH.encode())
    assert result.exit_code == 0
    assert result.output.startswith("-:1: chiribito.com #CH-1")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["parse", str(tmp_path / "nope.txt")])
    assert missing.exit_code == 2
    assert "no such file or folder" in missing.output
    assert runner.invoke(app, ["parse", "--bogus", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["parse"]).exit_code == 2


def test_no_hands_is_success(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("\n\n", encoding="utf-8")
    result = runner.invoke(app, ["parse", str(tmp_path)])
    assert result.exit_code == 0 and result.output == ""
