"""Shared inputs and oracles for the import tests: small simulated sessions,
the referee's own verdicts over the same files (hh validate's logic), and
per-table contents without the bookkeeping columns."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import duckdb
import typer
from handtext import EX_ACES, EX_CALATONE, EX_CHIRIBITO
from typer.testing import CliRunner

from hh.model import Game
from hh.parallel import failed_verdict as _failed
from hh.parse import parse_file
from hh.simulate import Simulator
from hh.validate import Verdict, cross_check, validate
from hh.write import write_hand
from pipelines.cli import register
from pipelines.importer import find_files
from pipelines.schema import BOOKKEEPING

app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh (import only)."""


register(app)
runner = CliRunner()

DATA_TABLES = ("files", "hands", "hand_text", "seats", "actions", "pots", "hand_violations",
               "cross_violations", "rejects")  # fmt: skip


def hh_import(*args: str) -> tuple[int, dict[str, Any] | None, str]:
    """Run ``hh import ARGS --json`` in this process: exit code, summary, stderr."""
    result = runner.invoke(app, ["import", *args, "--json"])
    summary = json.loads(result.stdout) if result.stdout.strip() else None
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, summary, result.stderr


def session(game: Game, hands: int, seed: int, tables: int = 2, view: str | None = None) -> str:
    sim = Simulator(game, seed, tables=tables, view=view)
    return "\n\n".join(write_hand(h) for h in sim.hands(hands)) + "\n"


def corrupt_text() -> str:
    """Hands that do not parse, stray lines, and one valid hand among them."""
    bad_card = EX_CHIRIBITO.text.replace("CH-1", "CH-901").replace("[Ao Rc]", "[Ao Zz]")
    truncated = "\n".join(EX_ACES.text.replace("AS-1", "AS-902").split("\n")[:9])
    good = EX_CALATONE.text.replace("CA-1", "CA-903")
    return "\n\n".join([bad_card, "not a hand\nnor this", truncated, good]) + "\n"


def mixed_inputs(root: Path) -> Path:
    """A folder with the three games, golden hands, a hero-view session, a
    .gz and a file of corrupt hands."""
    folder = root / "logs"
    (folder / "sub").mkdir(parents=True)
    (folder / "chiribito.txt").write_text(session(Game.CHIRIBITO, 24, 1), encoding="utf-8")
    (folder / "aces.log").write_text(session(Game.ACES, 24, 2), encoding="utf-8")
    (folder / "sub" / "calatone.txt.gz").write_bytes(
        gzip.compress(session(Game.CALATONE, 24, 3).encode("utf-8"))
    )
    golden = "\n\n".join(t.text for t in (EX_CHIRIBITO, EX_ACES, EX_CALATONE)) + "\n"
    (folder / "golden.txt").write_text(golden, encoding="utf-8")
    # a hand seen by Paco: Íñigo's shown cards cannot be checked against his ??
    seen = (
        EX_CHIRIBITO.text.replace("CH-1", "CH-50")
        .replace("Mérida 2", "Hero table")
        .replace("Dealt to Íñigo: down [5c 5e]", "Dealt to Íñigo: down [?? ??]")
        .replace("Dealt to Lucía: down [So 7o]", "Dealt to Lucía: down [?? ??]")
        .replace("Dealt to Marta: down [Cb 6b]", "Dealt to Marta: down [?? ??]")
    )
    hero = session(Game.CALATONE, 12, 4, tables=1, view="Ana María") + "\n" + seen + "\n"
    (folder / "sub" / "hero.txt").write_text(hero, encoding="utf-8")
    (folder / "corrupt.txt").write_text(corrupt_text(), encoding="utf-8")
    (folder / "notes.md").write_text("not read: not a hand-history suffix\n", encoding="utf-8")
    return folder


def referee(paths: list[str]) -> list[Verdict]:
    """What ``hh validate`` says about the same files, cross-hand checks included."""
    verdicts = []
    for name in find_files(paths):
        for record in parse_file(name):
            if record.hand is None:
                verdicts.append(_failed(record))
            else:
                verdicts.append(validate(record.hand, record.file))
    return cross_check(verdicts)


def contents(db: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every data table's rows, sorted, bookkeeping columns left out."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        for t in DATA_TABLES:
            cols = [
                r[0]
                for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                    "ORDER BY ordinal_position",
                    [t],
                ).fetchall()
                if r[0] not in BOOKKEEPING
            ]
            out[t] = sorted(
                con.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall(), key=repr
            )
        return out
    finally:
        con.close()


def query(db: str | Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()
