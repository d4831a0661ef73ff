"""The parser's per-game memo of lines seen before (hh.parse.lines.LineMemo):
a line read from the memo gives the record a fresh parse gives, with its own
line number; a line is remembered for its game only, once seen twice; the
memo stays bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import hh.parse.lines as parse
from hh.model import Game, ModelRecord, fields
from hh.parse import parse_hand, parse_text

pytestmark = pytest.mark.compiled

DATA = Path(__file__).parent / "data" / "parse"
CH, AS, CA = (
    (DATA / n).read_text(encoding="utf-8")
    for n in ("chiribito.txt", "aces-straights-flushes.txt", "calatone.txt")
)


def line_numbers(obj: Any) -> list[int]:
    """Every record's line number, in field order (they do not take part in
    equality, so they are compared apart)."""
    if isinstance(obj, tuple):
        return [n for x in obj for n in line_numbers(x)]
    if not isinstance(obj, ModelRecord):
        return []
    out = []
    for name in fields(obj):
        value = getattr(obj, name)
        if name == "line":
            out.append(value)
        else:
            out.extend(line_numbers(value))
    return out


@pytest.fixture(autouse=True)
def _empty_memos() -> None:
    _clear()


@pytest.mark.parametrize("text", [CH, AS, CA], ids=["chiribito", "aces", "calatone"])
def test_a_remembered_line_gives_the_same_record_at_its_own_line(text: str) -> None:
    first = parse_hand(text)
    once = len(parse.GAMES[first.header.game].memo.lines)  # the lines the hand repeats
    assert parse_hand(text) == first
    remembered = len(parse.GAMES[first.header.game].memo.lines)
    assert remembered > once + 10  # the second reading kept the lines seen before
    # the same hand again, further down a file: every memoised line is a hit
    (a, b) = [r.hand for r in parse_text(text + "\n\n" + text)]
    assert a == first
    assert b is not None
    offset = len(text.rstrip("\n").split("\n")) + 2  # its lines and two blank ones
    assert b == first
    numbers = line_numbers(first)
    assert len(numbers) > 20 and numbers[0] == 1
    assert line_numbers(b) == [n + offset for n in numbers]
    assert len(parse.GAMES[first.header.game].memo.lines) == remembered


def test_a_line_is_remembered_for_its_game_only() -> None:
    parse_hand(AS)
    parse_hand(AS)  # remembers "*** 4TH STREET ***" as an Aces street
    assert "*** 4TH STREET ***" in parse.GAMES[Game.ACES].memo.lines
    lines = CH.split("\n")
    at = next(i for i, x in enumerate(lines) if x.startswith("*** COMMON 1"))
    bad = "\n".join([*lines[:at], "*** 4TH STREET ***", *lines[at + 1 :]])
    (record,) = parse_text(bad)
    assert record.hand is None and record.error is not None
    assert record.error.line == at + 1
    assert "not a street of Chiribito" in record.error.message


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse.GAMES[Game.ACES].memo, "bound", 8)
    hands = [r.hand for r in parse_text("\n\n".join([AS, AS, AS]))]
    assert all(h is not None for h in hands)
    assert 0 < len(parse.GAMES[Game.ACES].memo.lines) <= 8
    assert hands[0] is not None and hands[2] is not None
    assert hands[2].summary.total.total == hands[0].summary.total.total


def _clear() -> None:
    for game in parse.GAMES.values():
        game.memo.lines.clear()
        game.memo.once.clear()
