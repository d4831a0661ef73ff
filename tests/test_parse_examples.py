"""The three examples of FORMAT.md parse to the models they describe and
write back byte for byte.

They are read from ``../shared/examples`` (beside the clone in CI) when it
exists, and always from the copies in ``tests/data/parse``; a test checks the
copies have not drifted from the originals.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hh.model import SHOWDOWN, Action, Collected, Deal, Game, Post, Show
from hh.parse import parse_file, parse_hand
from hh.write import write_hand, write_hands

DATA = Path(__file__).parent / "data" / "parse"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "examples"
NAMES = ["chiribito.txt", "aces-straights-flushes.txt", "calatone.txt"]


def _text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/examples is not beside the clone")
@pytest.mark.parametrize("name", NAMES)
def test_copies_match_the_shared_examples(name: str) -> None:
    assert (DATA / name).read_bytes() == (SHARED / name).read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_example_writes_back_byte_for_byte(name: str) -> None:
    text = _text(name)
    hand = parse_hand(text)
    assert write_hands([hand]) == text  # the file: one hand, one final LF
    assert write_hand(hand) == text.removesuffix("\n")
    assert parse_hand(write_hand(hand)) == hand


def test_chiribito_example() -> None:
    hand = parse_hand(_text("chiribito.txt"))
    h = hand.header
    assert (h.site, h.hand_id, h.game, h.stakes.forced, h.stakes.low) == (
        "chiribito.com", "CH-1", Game.CHIRIBITO, 20, None,
    )  # fmt: skip
    assert (h.date, h.time, h.zone, h.line) == ("2026/11/29", "21:14:03", "CET", 1)
    assert (hand.table.name, hand.table.max_seats, hand.table.dealer) == ("Mérida 2", 6, 3)
    assert [(s.seat, s.name, s.chips) for s in hand.seats] == [
        (1, "Lucía", 1000), (2, "Paco", 1000), (3, "Marta", 1000), (4, "Íñigo", 1000),
    ]  # fmt: skip
    assert hand.house_rules is None and hand.commitment is None
    assert hand.preamble == (Post("Paco", "blind", 20),)
    streets = [s.marker.street for s in hand.sections]
    assert streets == ["HOLE CARDS", *(f"COMMON {k}" for k in range(1, 6)), SHOWDOWN]
    hole = hand.sections[0]
    assert hole.lines[0] == Deal("Paco", ("Ao", "Rc"), None)
    assert hole.lines[5] == Action("Íñigo", "raises", 20, 40)
    assert hole.lines[0].line == 9 and hole.lines[5].line == 14
    assert hand.sections[1].marker.groups == (("7c",),)
    common5 = hand.sections[5].marker
    assert common5.groups == (("7c", "Sc", "Re", "Cc"), ("6o",))
    assert common5.board_before == ("7c", "Sc", "Re", "Cc") and common5.new_cards == ("6o",)
    showdown = hand.sections[6].lines
    assert showdown == (
        Show("Lucía", ("So", "7o"), None, "a straight, Seis to Rey"),
        Show("Íñigo", ("5c", "5e"), None, "a pair, Cincos"),
        Collected("Lucía", 1480, None),
    )
    s = hand.summary
    assert (s.line, s.total.total, s.total.rake, s.total.main, s.total.side) == (
        41,
        1480,
        0,
        None,
        (),
    )
    assert s.board is not None and s.board.cards == ("7c", "Sc", "Re", "Cc", "6o")
    assert s.deck is None
    assert [(o.seat, o.name, o.outcome, o.cards, o.amount, o.street, o.description)
            for o in s.seats] == [
        (1, "Lucía", "showed_won", ("So", "7o"), 1480, None, "a straight"),
        (2, "Paco", "folded", None, None, "COMMON 1", None),
        (3, "Marta", "folded", None, None, "HOLE CARDS", None),
        (4, "Íñigo", "showed_lost", ("5c", "5e"), None, None, "a pair"),
    ]  # fmt: skip
    assert s.seats[-1].line == 47


def test_aces_straights_and_flushes_example() -> None:
    hand = parse_hand(_text("aces-straights-flushes.txt"))
    h = hand.header
    assert (h.site, h.hand_id, h.game, h.zone) == (None, "AS-1", Game.ACES, "UTC")
    assert (h.stakes.forced, h.stakes.low, h.stakes.high) == (1, 1, 2)
    assert (hand.table.name, hand.table.max_seats, hand.table.dealer) == ("Pagat", 7, 5)
    assert [s.seat for s in hand.seats] == [1, 2, 5]
    assert hand.preamble == tuple(Post(n, "ante", 1) for n in ("Anna", "Ben", "Carla"))
    assert [s.marker.street for s in hand.sections] == [
        "3RD STREET", "4TH STREET", "5TH STREET", "6TH STREET", SHOWDOWN,
    ]  # fmt: skip
    third = hand.sections[0].lines
    assert third[0] == Deal("Anna", ("As", "Ks"), ("Qs",))
    assert hand.sections[1].lines[0] == Deal("Anna", None, ("7s",))
    assert hand.sections[3].lines[0] == Deal("Anna", ("2c",), None)
    assert hand.sections[2].lines[4] == Action("Ben", "raises", 2, 4)
    assert hand.sections[4].lines[1] == Show(
        "Ben", ("9c", "9h", "5c", "5d", "Kd", "3h"), None, "two pair, Nines and Fives"
    )
    assert hand.summary.total.total == 22
    assert hand.summary.board is not None and hand.summary.board.cards == ("Jk",)
    assert hand.summary.seats == ()


def test_calatone_example() -> None:
    hand = parse_hand(_text("calatone.txt"))
    assert hand.game is Game.CALATONE and hand.header.site is None
    assert (hand.header.stakes.forced, hand.header.stakes.low, hand.header.stakes.high) == (
        5,
        5,
        50,
    )
    assert hand.sections[0].marker.street == "2ND STREET"
    assert hand.sections[0].lines[0] == Deal("Dario", ("Kh",), ("7c",))
    assert hand.sections[1].lines[5] == Action("Elena", "folds")
    dario = hand.sections[-1].lines[0]
    assert dario == Show(
        "Dario",
        ("Kh", "7c", "Kd", "Ks", "9h", "7d", "Kc"),
        ("Kh", "Kd", "Ks", "Kc", "9h"),
        "four of a kind, Kings",
    )
    assert dario.line == 46
    assert hand.summary.total.total == 565 and hand.summary.board is None
    assert hand.summary.seats == ()


def test_examples_as_files() -> None:
    records = [r for name in NAMES for r in parse_file(DATA / name)]
    assert [(r.hand_id, r.site, r.line, r.error) for r in records] == [
        ("CH-1", "chiribito.com", 1, None), ("AS-1", None, 1, None), ("CA-1", None, 1, None),
    ]  # fmt: skip
    assert records[0].file == str(DATA / "chiribito.txt")
    assert records[0].raw == _text("chiribito.txt").removesuffix("\n")
