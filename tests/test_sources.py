"""Chunks of a file: the same hands, with the same line numbers, as the whole file."""

import gzip
import hashlib
import io
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hh.model import Game
from hh.parse import parse_chunk, parse_file
from hh.read.cut import Chunk, Plan, TableOrder, chunks, cut, marks, table_order
from hh.read.files import Unreadable, is_compressed
from hh.read.places import placement
from hh.read.runs import Run, lines_of_stream, split_blocks, split_runs
from hh.simulate import Simulator
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
    return [(r.line, r.hand_id, r.raw, r.hand is None) for c in parts for r in parse_chunk(c)]


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


def test_a_plan_cuts_every_file_of_the_run(tmp_path: Path) -> None:
    """The chunks of a run's plan, line numbers counted by the one pass
    over each file, give the hands of each whole file; what cannot be read
    stays in its place."""
    path = _session(tmp_path)
    other = tmp_path / "b.txt"
    other.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    gone = Unreadable("x", "no such file")
    work = list(Plan([gone, str(path), str(other)], 2, smallest=1))
    assert work[0] == gone
    for f in (path, other):
        whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(f)]
        parts = [c for c in work if isinstance(c, Chunk) and c.path == str(f)]
        assert len(parts) > 2 and _key(f, parts) == whole


def test_a_plan_gives_the_order_of_the_run_s_tables(tmp_path: Path) -> None:
    """Which tables go back in time, across the files of a run, counted by
    the same pass that cuts them (whether or not they were iterated yet)."""
    texts = [write_hand(h) for h in Simulator(Game.CALATONE, 8, tables=2).hands(40)]
    (tmp_path / "a.txt").write_text("\n\n".join(texts[20:]) + "\n", "utf-8")
    (tmp_path / "b.txt").write_text("\n\n".join(texts[:20]) + "\n", "utf-8")
    files = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    order = Plan(files, 2, smallest=1).order()
    tables = {}
    for text in texts:
        place = placement(*text.split("\n")[:2])
        tables[(place.site, place.table)] = tables.get((place.site, place.table), 0) + 1
    assert len(tables) == 2
    assert order == TableOrder(tables, 40)  # both tables go back at b.txt's start
    assert order == table_order(files)
    assert table_order([files[1], files[0]]) == TableOrder({}, 40)
    assert table_order([files[0]]) == TableOrder({}, 20)


_HEAD_PIECES = ["", "x.com ", "a b ", "\ufeff", "Hand #", "CH-1", "!", ": ", " - ", " ", "\t",
                "\r", "2026/11/29", "21:14:03", " CET", " +01:00", "Chiribito No Limit (blind 20)",
                " - 2026/11/29 21:14:03", " - 2026/11/29 21:14:03 CET", "\u2028", "#", "a"]


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(st.sampled_from(_HEAD_PIECES), max_size=9))
def test_placement_reads_the_site_and_time_as_its_two_searches_do(pieces: list[str]) -> None:
    """placement reads a usual header with one regex: the same site and time
    as the search for each alone (a site at the start, the time at the end)."""
    from hh.read import places

    first = "".join(pieces)
    head = first.lstrip("\ufeff").rstrip(" \t\r")
    site = places._SITE.match(head)
    when = places._HEAD_WHEN.search(head)
    place = placement(first, None)
    assert place.site == (site.group(1) if site else None)
    assert (place.when, place.zone) == (
        (f"{when.group(1)} {when.group(2)}", when.group(3)) if when else (None, None)
    )


def test_the_pass_hashes_the_file_and_its_head(tmp_path: Path) -> None:
    """For the import: the file's SHA-256, and the SHA-256 of the bytes
    before ``start`` with the chunks from there, their lines counted."""
    path = _session(tmp_path)
    data = path.read_bytes()
    starts = [r.line for r in parse_file(path)]
    lines = data.split(b"\n")
    at = len(b"\n".join(lines[: starts[30] - 1])) + 1  # where hand 30 begins
    for start in (0, at, len(data)):
        read = cut(str(path), 2_000, start=start, digest=True)
        assert read.size == len(data)
        assert read.sha256 == hashlib.sha256(data).hexdigest()
        assert read.head_sha256 == hashlib.sha256(data[:start]).hexdigest()
        assert read.chunks[0].start == start and read.chunks[-1].end is None
        assert read.chunks[0].first_line == data[:start].count(b"\n") + 1
    rest = cut(str(path), 2_000, start=at).chunks
    whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(path)]
    assert len(rest) > 2 and _key(path, rest) == whole[30:]
    assert cut(str(path)).sha256 is None


def test_a_run_ends_in_finer_parts(tmp_path: Path) -> None:
    """The run's last file is cut four times finer at its end, so that no
    worker idles long while the last one finishes (hh.read.cut.Plan)."""
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
    work = list(Plan([str(path), str(other)], 2, smallest=1))
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

    from hh.read.cut import Chunk

    chunk = Chunk("/some/file.txt", 10, 99, 3, "-")
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(chunk, protocol=protocol)) == chunk


@pytest.mark.parametrize("block", [None, 64, 200])
def test_the_pass_reads_plain_and_gzip_files_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int | None
) -> None:
    """The pass over a file finds Table lines with a regex over blocks of a
    plain file, and line by line in a gzip file: both must find the same
    hands, at the same offsets and lines, edge cases included."""
    import hh.read.cut

    if block is not None:  # plain files are read in blocks: many small ones
        monkeypatch.setattr(hh.read.cut, "_BLOCK", block)

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
        found = list(marks(str(plain)))
        assert [m.place.table for m in found] == tables, text
        assert found == list(marks(str(packed)))
        data = plain.read_bytes()
        for m in found:  # each hand begins where its mark says, on its line
            assert data[: m.offset].count(b"\n") + 1 == m.line
            assert m.offset == 0 or data[m.offset - 1 : m.offset] == b"\n"


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


def test_gzip_is_known_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    """A .gz file that is text is read as text; gzip named .txt is unpacked."""
    path = _session(tmp_path)
    text_gz = tmp_path / "text.gz"
    text_gz.write_bytes(path.read_bytes())
    packed = tmp_path / "packed.txt"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert not is_compressed(str(text_gz)) and is_compressed(str(packed))
    whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(path)]
    for f in (text_gz, packed):
        assert [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(f)] == whole
        assert _key(f, chunks(str(f), 2_000)) == whole
    assert len(chunks(str(text_gz), 2_000)) > 2 and chunks(str(packed), 2_000) == [
        Chunk(str(packed))
    ]
