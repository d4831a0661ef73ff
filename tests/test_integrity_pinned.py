"""The integrity report is a fact of the hands: the same simulated session
gives the same JSON, number for number, however it is computed. Sessions of
the three games with one colluding pair (soft play; card sharing), imported
by the real import, and the report's whole JSON as the implementation gave
it before the per-pair null models moved from Python loops into grouped SQL
(tests/data/integrity_pinned/, gzipped JSON written with ``HH_PIN_WRITE=1``,
written again when issue 45 changed the signals, the baselines and the alert,
and when it added each pair's `review` (null here: nothing else moved);
compared exactly, every float as the report rounds it)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from hh.collusion import Collusion
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand
from pipelines.cli import register as register_import
from reports.db import Filters
from reports.integrity.render import to_json
from reports.integrity.signals import integrity

PINNED = Path(__file__).parent / "data" / "integrity_pinned"
HANDS = {Game.CHIRIBITO: 900, Game.ACES: 600, Game.CALATONE: 600}
runner = CliRunner()
app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh import."""


register_import(app)


def _session(tmp_path: Path, mode: str) -> duckdb.DuckDBPyConnection:
    """Two 6-max tables per game, ``<b>Ana</b>`` and Bo colluding in ``mode``."""
    pair = (Collusion("<b>Ana</b>", "Bo", mode),)
    src = tmp_path / "s.txt"
    with src.open("w", encoding="utf-8") as f:
        for k, (game, n) in enumerate(HANDS.items()):
            sim = Simulator(game, 40 + k, players=6, tables=2, colluders=pair)
            for hand in sim.hands(n):
                f.write(write_hand(hand) + "\n\n")
    db = tmp_path / "s.duckdb"
    result = runner.invoke(app, ["import", str(src), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return duckdb.connect(str(db), read_only=True)


@pytest.mark.parametrize("mode", ["soft-play", "card-share"])
def test_report_json_pinned(tmp_path: Path, mode: str) -> None:
    con = _session(tmp_path, mode)
    got = {"all": json.loads(to_json(integrity(con, Filters()))),
           "min_hands_300": json.loads(to_json(integrity(con, Filters(min_hands=300))))}
    path = PINNED / f"{mode}.json.gz"
    if os.environ.get("HH_PIN_WRITE"):
        text = json.dumps(got, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        with gzip.GzipFile(path, "wb", 9, mtime=0) as f:
            f.write(text.encode("utf-8"))
    want = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    top = want["all"][0]
    assert top["players"] == ["<b>Ana</b>", "Bo"] and top["alert"]
    for name in want:
        assert len(got[name]) == len(want[name])
        for mine, pinned in zip(got[name], want[name], strict=True):
            assert mine == pinned  # the first pair that differs, whole
