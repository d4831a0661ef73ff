"""Chunks of a file: the same hands, with the same line numbers, as the whole file."""

import gzip
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hh.model import Game
from hh.parse import parse_file
from hh.simulate import Simulator
from hh.sources import Chunk, chunks, records
from hh.write import write_hand


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
@given(target=st.integers(min_value=1, max_value=40_000))
def test_chunks_give_the_hands_of_the_whole_file(tmp_path: Path, target: int) -> None:
    path = _session(tmp_path)
    whole = [(r.line, r.hand_id, r.raw, r.hand is None) for r in parse_file(path)]
    parts = chunks(str(path), target)
    assert _key(path, parts) == whole
    assert parts[0].start == 0 and parts[-1].end is None
    for a, b in pairwise(parts):
        assert a.end == b.start  # no byte lost or read twice


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
