"""The import stores exactly what it stored when these checksums were taken:
every row of every table the referee's verdicts fill, on the import tests'
mixed folder (three games, golden hands, a hero view, a .gz, corrupt hands)
and a simulated session per game. A change to how rows are built (columns,
workers, the writer) must leave them equal; a change to what is stored
updates tests/data/import_checksums.json on purpose, in the same commit.
Run against both builds: the compiled one builds the rows in C (pipelines.columns)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from import_helpers import contents, hh_import, mixed_inputs, session

from hh.model import Game

pytestmark = pytest.mark.compiled

GOLDEN = Path(__file__).parent / "data" / "import_checksums.json"
TABLES = ("hands", "hand_text", "seats", "actions", "pots", "hand_violations",
          "cross_violations", "rejects")  # fmt: skip


def checksums(db: Path, root: Path) -> dict[str, list[object]]:
    """Rows and a SHA-256 of the sorted rows per table, the folder's own
    path left out of the file names and the build out of ``hh_version``."""
    out: dict[str, list[object]] = {}
    stored = contents(db)
    for table in TABLES:
        rows = [
            repr(row).replace(str(root), "<root>").replace("+mypyc", "")
            for row in stored[table]
        ]
        digest = hashlib.sha256("\n".join(sorted(rows)).encode("utf-8")).hexdigest()
        out[table] = [len(rows), digest]
    return out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_import_stores_the_same_rows_as_before(tmp_path: Path, workers: str) -> None:
    folder = mixed_inputs(tmp_path)
    for k, game in enumerate(Game):
        (folder / f"session-{game.value}.txt").write_text(
            session(game, 400, 70 + k, tables=3), encoding="utf-8"
        )
    db = tmp_path / "hands.duckdb"
    code, summary, _ = hh_import(str(folder), "--db", str(db), "--workers", workers)
    assert code == 1 and summary is not None
    assert checksums(db, tmp_path) == json.loads(GOLDEN.read_text(encoding="utf-8"))
