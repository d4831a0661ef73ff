"""The parser's per-game memo of lines seen before (hh.parse.LineMemo):
a line read from the memo gives the record a fresh parse gives, with its own
line number; a line is remembered for its game only; the memo stays bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import hh.parse as parse
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
    remembered = len(parse._GAMES[first.header.game].memo.lines)
    assert remembered > 10  # the first reading filled the memo
    # the same hand again, further down a file: every memoised line is a hit
    (a, b) = [r.hand for r in parse_text(text + "\n\n" + text)]
    assert a == first
    assert b is not None
    offset = len(text.rstrip("\n").split("\n")) + 2  # its lines and two blank ones
    assert b == first
    numbers = line_numbers(first)
    assert len(numbers) > 20 and numbers[0] == 1
    assert line_numbers(b) == [n + offset for n in numbers]
    assert len(parse._GAMES[first.header.game].memo.lines) == remembered


def test_a_line_is_remembered_for_its_game_only() -> None:
    parse_hand(AS)  # remembers "*** 4TH STREET ***" as an Aces street
    assert "*** 4TH STREET ***" in parse._GAMES[Game.ACES].memo.lines
    lines = CH.split("\n")
    at = next(i for i, x in enumerate(lines) if x.startswith("*** COMMON 1"))
    bad = "\n".join([*lines[:at], "*** 4TH STREET ***", *lines[at + 1 :]])
    (record,) = parse_text(bad)
    assert record.hand is None and record.error is not None
    assert record.error.line == at + 1
    assert "not a street of Chiribito" in record.error.message


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse._GAMES[Game.ACES].memo, "bound", 8)
    hands = [r.hand for r in parse_text("\n\n".join([AS, AS, AS]))]
    assert all(h is not None for h in hands)
    assert 0 < len(parse._GAMES[Game.ACES].memo.lines) <= 8
    assert hands[0] is not None and hands[2] is not None
    assert hands[2].summary.total.total == hands[0].summary.total.total


def _clear() -> None:
    for game in parse._GAMES.values():
        game.memo.lines.clear()
        game.memo.parts.clear()


def test_deal_and_seat_lines_are_built_from_parts_seen_before() -> None:
    """A deal or seat line whose parts were seen in other lines (the
    player's name in one, the cards or the stack in another) is built from
    them, and gives the record a fresh parse gives, at its own line."""
    parse_hand(AS.replace("Seat 2: Ben (50 in chips)", "Seat 2: Ben (40 in chips)"))
    text = (
        AS.replace("Dealt to Anna: up [7s]", "Dealt to Anna: up [@]")
        .replace("Dealt to Ben: up [5d]", "Dealt to Ben: up [7s]")
        .replace("Dealt to Anna: up [@]", "Dealt to Anna: up [5d]")
        .replace("Seat 1: Anna (50 in chips)", "Seat 1: Anna (40 in chips)")
        .replace("Dealt to Anna: down [As Ks] up [Qs]", "Dealt to Anna: down [9c 9h] up [2d]")
        .replace("Dealt to Ben: down [9c 9h] up [5c]", "Dealt to Ben: down [As Ks] up [Qs]")
    )
    game = parse._GAMES[Game.ACES]
    assert "Dealt to Anna" in game.memo.parts and " up [5d]" in game.memo.parts
    assert "Seat 1: Anna" in game.memo.parts and " (40 in chips)" in game.memo.parts
    assert "Dealt to Anna: up [5d]" not in game.memo.lines
    warm = parse_hand(text)
    _clear()
    cold = parse_hand(text)
    assert warm == cold and line_numbers(warm) == line_numbers(cold)
    deal = warm.sections[1].lines[0]
    assert (deal.name, deal.up, deal.line) == ("Anna", ("5d",), 17)
    first = warm.sections[0].lines[0]  # Ben's down cards, Carla's up card
    assert (first.name, first.down, first.up, first.line) == ("Anna", ("9c", "9h"), ("2d",), 10)
    assert [(s.name, s.chips) for s in warm.seats] == [("Anna", 40), ("Ben", 50), ("Carla", 50)]


def test_a_new_half_is_read_whole_and_judged_as_always() -> None:
    cases = (
        ("Dealt to Anna: up [7s]", "Dealt to Anna: up [Zz]", 20),
        ("Seat 1: Anna (50 in chips)", "Seat 1: Anna (50 in chipz)", 17),
    )
    for good, bad, column in cases:
        parse_hand(AS)  # both parts of the good line are known; the bad tail is not
        (warm,) = parse_text(AS.replace(good, bad))
        _clear()
        (cold,) = parse_text(AS.replace(good, bad))
        assert warm.hand is None and warm.error == cold.error, bad
        assert warm.error is not None and warm.error.column == column


def test_parts_of_one_kind_or_game_never_make_another() -> None:
    parse_hand(AS)
    seen = parse._GAMES[Game.ACES].memo
    assert seen.from_parts("Dealt to Anna (50 in chips)", 9) is None
    assert seen.from_parts("Seat 1: Anna: up [7s]", 9) is None
    # each part in its own place: a down part is no up part, nor a stack
    assert seen.from_parts("Dealt to Anna: down [As Ks] down [9c 9h]", 9) is None
    assert seen.from_parts("Dealt to Anna: up [7s] up [7s]", 9) is None
    assert seen.from_parts("Dealt to Anna:", 9) is None
    assert seen.from_parts("Dealt to Anna: down [As Ks", 9) is None
    assert seen.from_parts("Seat 1: Anna down [As Ks]", 9) is None
    assert seen.from_parts("Seat 1: Anna up [7s]", 9) is None
    spanish = parse._GAMES[Game.CHIRIBITO].memo
    assert spanish.from_parts("Dealt to Anna: up [7s]", 9) is None
    kind, deal = seen.from_parts("Dealt to Ben: up [7s]", 9) or ("", None)
    assert kind == "DEAL_LINE"
    assert (deal.name, deal.down, deal.up, deal.line) == ("Ben", None, ("7s",), 9)
