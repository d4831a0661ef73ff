"""Chunks of a file: the same hands, with the same line numbers, as the whole file."""

import gzip
import io
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hh.model import Game
from hh.parse import Run, lines_of_stream, parse_file, split_blocks, split_runs
from hh.simulate import Simulator
from hh.sources import Chunk, Unreadable, chunks, numbered, plan, records
from hh.write import write_hand

pytestmark = pytest.mark.compiled


def _session(tmp: Path) -> Path:
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 5, tables=2).hands(60)]
    # a mix of separators, a header glued to the previous hand, and a stray run
    body = "\n\n".join(texts[:20]) + "\n\n\n  \n" + "\n".join(texts[20:40])
    body += "\n\nnot a hand at all\nstill not\n\n" + "\n\n".join(texts[40:]) + "\n"
    path = tmp / "s.txt"
    path.write_text(body, encoding="utf-8")
    return path


def _key(path: Path, parts: list[Chunk]) -> list[tuple[int, str | None, str, bool]]:
    return [(r.line, r.hand_id, r.raw, r.hand is None) for c in parts for r in records(c)]


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.integers(min_value=1, max_value=40_000),
    tail=st.sampled_from([0, 1, 5_000, 10**9]),
)
def test_chunks_give_the_hands_of_the_whole_file(tmp_path: Path, target: int, tail: int) -> None:
    path = _session(tmp_path)
    whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(path)]
    parts = chunks(str(path), target, tail)
    assert _key(path, parts) == whole
    assert parts[0].start == 0 and parts[-1].end is None
    for a, b in pairwise(parts):
        assert a.end == b.start  # no byte lost or read twice


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(target=st.integers(min_value=1, max_value=40_000), tail=st.sampled_from([0, 5_000]))
def test_chunks_counted_as_handed_out_get_the_same_lines(
    tmp_path: Path, target: int, tail: int
) -> None:
    """``count=False`` leaves the line numbers for ``numbered`` to count when
    each chunk is handed out (in order): the same numbers, every file of a
    plan counted from its own first chunk."""
    path = _session(tmp_path)
    counted = chunks(str(path), target, tail)
    later = chunks(str(path), target, tail, count=False)
    assert later[0] == counted[0] and all(c.first_line == 0 for c in later[1:])
    assert [numbered(later, k) for k in range(len(later))] == counted
    assert later == counted  # counted in place: a chunk is counted once
    other = tmp_path / "b.txt"
    other.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    work: list[Chunk | Unreadable] = plan([str(path), str(other)], 2, smallest=1)
    work.insert(0, Unreadable("x", "no such file"))
    got = [numbered(work, k) for k in range(len(work))]
    for f in (path, other):
        whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(f)]
        parts = [c for c in got if isinstance(c, Chunk) and c.path == str(f)]
        assert len(parts) > 2 and _key(f, parts) == whole


def test_a_run_ends_in_finer_parts(tmp_path: Path) -> None:
    """The run's last file is cut four times finer at its end, so that no
    worker idles long while the last one finishes (hh.sources.plan)."""
    path = _session(tmp_path)
    size = path.stat().st_size
    target = size // 8
    plain = chunks(str(path), target)
    fine = chunks(str(path), target, 2 * target)
    sizes = [(c.end or size) - c.start for c in fine]
    assert len(plain) == 8 and len(fine) >= len(plain) + 3
    assert max(sizes[-5:]) < target // 2 < min(sizes[:4])
    # in a run of two files, only the second (the run's end) is cut finer
    other = tmp_path / "b.txt"
    other.write_bytes(path.read_bytes())
    work = plan([str(path), str(other)], 2, smallest=1)
    paths = [c.path for c in work if isinstance(c, Chunk)]
    assert paths.count(str(path)) == 8 and paths.count(str(other)) >= 8 + 3


def test_a_small_or_compressed_file_is_one_chunk(tmp_path: Path) -> None:
    path = _session(tmp_path)
    gz = tmp_path / "s.txt.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert chunks(str(gz), 100) == [Chunk(str(gz))]
    assert chunks(str(path)) == [Chunk(str(path))]
    assert _key(gz, [Chunk(str(gz))]) == [
        (r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(path)
    ]


def test_a_chunk_survives_pickling() -> None:
    """Chunks are sent to worker processes (the compiled build's frozen
    dataclasses need their own ``__reduce__``)."""
    import pickle

    from hh.sources import Chunk

    chunk = Chunk("/some/file.txt", 10, 99, 3, "-")
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(chunk, protocol=protocol)) == chunk


@pytest.mark.parametrize("block", [None, 64, 200])
def test_the_table_scan_reads_plain_and_gzip_files_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int | None
) -> None:
    """The order scan (hh validate's first pass) finds Table lines with a
    regex over a mapped plain file, and line by line in a gzip file: both
    must find the same runs, edge cases included."""
    import hh.sources
    from hh.order import scan_tables

    if block is not None:  # plain files are read in blocks: many small ones
        monkeypatch.setattr(hh.sources, "_BLOCK", block)

    header = "Hand #{}: Chiribito No Limit (blind 10) - 2026/01/0{} 10:00:00 UTC"
    table = "Table '{}' 6-max Seat #1 is the dealer"
    texts = [
        "",
        table.format("T0"),  # a Table line first: no run begins before it
        "\ufeff" + header.format("a", 1) + "\r\n" + table.format("T1") + "\r\nx\r\n",
        "\n".join(
            [
                *(header.format("b", 2), table.format("T2"), "Seat 1: A (10 in chips)"),
                *(table.format("mid-run"), "", " \t", "junk line", table.format("T3")),
                *(header.format("c", 3), table.format("T4")),
            ]
        ),
        header.format("d", 4) + "\n" + table.format("no newline at the end"),
    ]
    expected = [[], [], ["T1"], ["T2", "T3", "T4"], ["no newline at the end"]]
    # a file of many blocks, Table lines at and near the blocks' edges
    many = "\n".join(
        f"{header.format(k, 1 + k % 9)}\n{table.format(f'T{k}')}\n" + "x" * (k * 7919 % 5000)
        for k in range(600)
    )
    texts.append(many)
    expected.append([f"T{k}" for k in range(600)])
    for k, (text, tables) in enumerate(zip(texts, expected, strict=True)):
        plain = tmp_path / f"{k}.txt"
        plain.write_text(text, encoding="utf-8")
        packed = tmp_path / f"{k}.txt.gz"
        packed.write_bytes(gzip.compress(text.encode()))
        assert [p.table for p in scan_tables(str(plain))] == tables, text
        assert list(scan_tables(str(plain))) == list(scan_tables(str(packed)))


# Lines that test the cutter's edges: blank or not (spaces, tabs, CRs), headers
# and near-headers, byte-order marks, bytes that do not decode.
_PIECES = [
    b"Hand #1: x",
    b"X Hand #2",
    b"  Hand #3",
    b"\tHand #",
    b"a Hand #Hand #",
    b"x y Hand #",
    b"Hand #\r",
    b"",
    b" ",
    b"\t",
    b"\r",
    b" \r",
    b"\r\r",
    b"\r ",
    b" \t\r",
    b"a\r",
    b"abc",
    b"\xef\xbb\xbfHand #4",
    b"\xef\xbb\xbf",
    b"\xff bad",
    b"caf\xc3\xa9",
    b"Seat 1: a  ",
]


def _cut_lines(data: bytes) -> list[Run]:
    return list(split_runs(lines_of_stream(io.BytesIO(data)), "f", 3))


def _cut_blocks(data: bytes, size: int) -> list[Run]:
    blocks, at = [], 0
    while at < len(data):
        end = data.find(b"\n", at + size)
        end = len(data) if end < 0 else end + 1
        blocks.append(data[at:end])
        at = end
    return list(split_blocks(blocks, "f", 3))


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(st.sampled_from(_PIECES), max_size=14),
    end=st.sampled_from([b"", b"\n", b"\r\n", b"\n\n"]),
    size=st.integers(min_value=1, max_value=60),
)
def test_cutting_blocks_gives_the_runs_of_cutting_lines(
    lines: list[bytes], end: bytes, size: int
) -> None:
    """split_blocks (searches over whole blocks) is split_runs (line by line)
    to the byte: the same lines, line numbers and undecodable bytes."""
    data = b"\n".join(lines) + end
    assert _cut_blocks(data, size) == _cut_lines(data)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(
        st.sampled_from([p for p in _PIECES if not p.startswith((b" ", b"\t", b"\r"))]),
        max_size=14,
    ),
    end=st.sampled_from([b"", b"\n", b"\n\n"]),
    size=st.integers(min_value=1, max_value=60),
)
def test_cutting_blocks_without_indented_lines_gives_the_runs_of_cutting_lines(
    lines: list[bytes], end: bytes, size: int
) -> None:
    """The usual text (no line begins with a space, tab or CR) takes the
    cutter's literal searches for blank lines: the same runs again."""
    data = b"\n".join(lines) + end
    assert _cut_blocks(data, size) == _cut_lines(data)


def test_cutting_blocks_of_a_session_gives_the_runs_of_cutting_lines(tmp_path: Path) -> None:
    data = _session(tmp_path).read_bytes().replace(b"\n\n\n", b"\r\n \t\r\n\n")
    expected = _cut_lines(data)
    assert len(expected) == 61  # 60 hands and one stray run
    for size in (1, 500, 10**6):
        assert _cut_blocks(data, size) == expected


def test_a_chunk_cannot_be_counted_before_the_one_before_it(tmp_path: Path) -> None:
    path = _session(tmp_path)
    later = chunks(str(path), 2_000, count=False)
    with pytest.raises(ValueError, match="handed out before"):
        numbered(list(later), 2)
