"""What the import reads: a chunk cuts the same runs as the whole file read
line by line, the cut counts the file's lines, and known hands are skipped
without a parse even when the files table forgot them."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from handtext import EX_ACES, EX_CALATONE, EX_CHIRIBITO
from import_helpers import contents, session

import pipelines.work as work
from hh.model import Game
from hh.read.cut import Chunk, chunks, cut, runs
from hh.read.runs import Run, lines_of_stream, split_runs
from pipelines.importer import Importer, connect, find_files


def _cut(path: Path, chunk: Chunk) -> tuple[list[Run], int]:
    """The runs of a chunk as the import reads them, and the file's lines as
    the cut counts them."""
    return list(runs(replace(chunk, name=str(path)))), cut(str(path)).lines


def _line_by_line(path: Path) -> list[Run]:
    return list(split_runs(lines_of_stream(io.BytesIO(path.read_bytes())), str(path)))


def _awkward(folder: Path) -> Path:
    """A byte-order mark, CRLF line ends, blank lines of spaces, a header
    glued to the previous hand and a mark before a header mid-file."""
    a, b, c = (t.text for t in (EX_CHIRIBITO, EX_ACES, EX_CALATONE))
    text = "\ufeff" + a.replace("\n", "\r\n") + "\r\n \t \r\n\r\n" + b + "\n" + "\ufeff" + c
    text += "\n\n" + session(Game.CHIRIBITO, 30, 5)
    path = folder / "awkward.txt"
    path.write_bytes(text.encode("utf-8"))
    return path


def test_chunks_cut_the_same_runs_as_reading_line_by_line(tmp_path: Path) -> None:
    path = _awkward(tmp_path)
    parts = [Chunk(str(path)), *chunks(str(path), 4096)]
    assert len(parts) > 3
    block = [_cut(path, c) for c in parts]
    assert block[0][0] == _line_by_line(path)
    whole, lines = block[0]
    assert lines == path.read_bytes().count(b"\n")
    assert len(whole) == 33 and whole[0].lines[0].startswith("chiribito.com Hand #CH-1")
    assert whole[2].lines[0].startswith("Hand #CA-1: Calatone")  # the mark before it is gone
    # every chunk's runs together are the whole file's
    assert [r for runs, _ in block[1:] for r in runs] == whole


@pytest.mark.parametrize("text", [b"", b"\n", b"\xef\xbb\xbf", b"x", b"\n\nx\n\n", b" \r\n"])
def test_tiny_files(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "tiny.txt"
    path.write_bytes(text)
    lines = text.count(b"\n") + (bool(text) and not text.endswith(b"\n"))
    assert _cut(path, Chunk(str(path))) == (_line_by_line(path), lines)


def test_a_bad_byte_falls_back_to_reading_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    good = EX_CHIRIBITO.text.encode("utf-8")
    latin1 = good.replace("Lucía".encode(), "Lucía".encode("latin-1"))
    assert latin1 != good
    path.write_bytes(latin1 + b"\n" + EX_ACES.text.encode())
    runs, lines = _cut(path, Chunk(str(path)))
    assert len(runs) == 2 and lines == path.read_bytes().count(b"\n")
    assert runs[0].bad[0] == (3, 12)  # line 3: "Seat 1: Luc", then the byte that does not decode
    assert runs[1].bad == [] and runs[1].lines[0] == EX_ACES.text.split("\n")[0]


def test_known_hands_are_skipped_unparsed_when_the_files_table_is_cleared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for k, game in enumerate(Game):
        (folder / f"{game.value}.txt").write_text(session(game, 20, 10 + k), encoding="utf-8")
    db = str(tmp_path / "h.duckdb")

    def run() -> dict[str, object]:
        con = connect(db)
        imp = Importer(con, 1, chunk_bytes=8192)  # several chunks per file
        try:
            imp.import_files(find_files([str(folder)]))
            return imp.finish()
        finally:
            imp.close()
            con.close()

    first = run()
    assert first["imported"] == 60
    before = contents(db)
    import duckdb

    con = duckdb.connect(db)
    con.execute("DELETE FROM files")
    con.close()

    def no_parse(run: object) -> None:
        raise AssertionError("a known hand was parsed")

    monkeypatch.setattr(work, "parse_run", no_parse)
    again = run()
    assert (again["hands"], again["duplicates"], again["imported"]) == (60, 60, 0)
    after = contents(db)
    assert {t: rows for t, rows in after.items() if t != "files"} == {
        t: rows for t, rows in before.items() if t != "files"
    }


def test_the_import_tells_where_its_reading_went(tmp_path: Path) -> None:
    """The writer's and the workers' parts of the reading (make bench
    reports them): each task's time where it ran and the writer's time are
    parts of the reading's wall time."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for k, game in enumerate(Game):
        (folder / f"{game.value}.txt").write_text(session(game, 30, 40 + k), encoding="utf-8")
    con = connect(str(tmp_path / "h.duckdb"))
    imp = Importer(con, 2, chunk_bytes=8192)
    imp.pool_min_bytes = 0  # a pool, however small the files
    try:
        imp.import_files(find_files([str(folder)]))
        assert imp.finish()["imported"] == 90
        busy = imp.busy
    finally:
        imp.close()
        con.close()
    assert busy.workers == 2
    assert 0 < busy.writing < busy.reading
    assert 0 < busy.working < 2 * busy.reading
    assert busy.writer_share == busy.writing / busy.reading
    assert 0 < busy.workers_share < 1
