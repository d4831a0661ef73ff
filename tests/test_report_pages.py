"""hh report violations --pages: a replayer page per invalid hand, linked from an index."""

from __future__ import annotations

from pathlib import Path

import typer
from handtext import EX_CHIRIBITO
from import_helpers import hh_import
from typer.testing import CliRunner

from reports.cli import register

app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh (report only)."""


register(app)

HOSTILE = "<script>x=1</script>"


def test_pages_for_every_invalid_hand(tmp_path: Path) -> None:
    good = EX_CHIRIBITO.text
    wrong_collector = EX_CHIRIBITO.text.replace("CH-1", "CH-2").replace(
        "Lucía: collected 1480", "Íñigo: collected 1480"
    )
    # a hostile name and a raise too small (RAISE_SIZE on that line)
    hostile = (
        EX_CHIRIBITO.text.replace("CH-1", "CH-3")
        .replace("Lucía", HOSTILE)
        .replace("Íñigo: raises 20 to 40", "Íñigo: raises 10 to 30")
        .replace("Table 'Mérida 2'", "Table 'Mérida \u202e2'")  # an override in the table's name
    )
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "s.txt").write_text("\n\n".join([good, wrong_collector, hostile]))
    db = tmp_path / "h.duckdb"
    code, summary, _ = hh_import(str(tmp_path / "logs"), "--db", str(db), "--workers", "1")
    assert code == 1 and summary is not None and summary["invalid"] == 2

    pages = tmp_path / "pages"
    result = CliRunner().invoke(
        app, ["report", "violations", "--db", str(db), "--pages", str(pages), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    index = (pages / "index.html").read_text("utf-8")
    written = sorted(p.name for p in pages.glob("hand-*.html"))
    assert len(written) == 2  # the valid hand has no page
    for name in written:
        assert f'href="{name}"' in index
    assert "#CH-2" in index and "#CH-3" in index and "#CH-1<" not in index
    assert "PAYOUT" in index and "RAISE_SIZE" in index
    assert "Mérida \\u202e2" in index and "\u202e" not in index  # shown as the terminal shows it
    page3 = next(p for p in pages.glob("hand-*CH-3*.html")).read_text("utf-8")
    assert HOSTILE not in page3  # the name is data, escaped in the embedded JSON
    assert "RAISE_SIZE" in page3
