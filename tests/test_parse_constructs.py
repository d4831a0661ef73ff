"""One test per construct of the format: each parses to the fields the text
says and, the hand being canonical, writes back byte for byte."""

from __future__ import annotations

import pytest

from hh.model import (
    SHOWDOWN,
    Action,
    Collected,
    Deal,
    Game,
    Hand,
    Info,
    Muck,
    Post,
    SeatOutcome,
    Show,
    TopUp,
    Uncalled,
)
from hh.parse import parse_hand
from hh.write import write_hand

HEADER = "Hand #T-1: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:30:00 CET"
TABLE = "Table 'Nápoles' 7-max Seat #6 is the dealer"
SEATS = "Seat 2: Dario (500 in chips)\nSeat 4: Elena (500 in chips)"
BODY = """Dario: posts ante 5
Elena: posts ante 5
*** 2ND STREET ***
Dealt to Dario: down [Kh] up [7c]
Dealt to Elena: down [Qd] up [Jc]
Elena: bets 10
Dario: folds
Uncalled bet (10) returned to Elena
Elena: collected 10 from pot"""
SUMMARY = "*** SUMMARY ***\nTotal pot 10 | Rake 0"


def hand_text(
    body: str = BODY,
    *,
    header: str = HEADER,
    table: str = TABLE,
    extra: str = "",
    seats: str = SEATS,
    summary: str = SUMMARY,
) -> str:
    """A canonical hand with the given parts ("extra": the optional lines
    between the table and the seats)."""
    parts = [header, table, extra, seats, body, summary]
    return "\n".join(p for p in parts if p)


def roundtrip(text: str) -> Hand:
    """Parse, and check the canonical text writes back byte for byte."""
    hand = parse_hand(text)
    assert write_hand(hand) == text
    return hand


def body(hand: Hand) -> list[object]:
    return [line for _, line in hand.lines()]


def test_optional_site() -> None:
    with_site = roundtrip(hand_text(header="chiribito.com " + HEADER))
    without = roundtrip(hand_text())
    assert with_site.header.site == "chiribito.com"
    assert without.header.site is None
    assert with_site.header.hand_id == without.header.hand_id == "T-1"


@pytest.mark.parametrize("zone", ["CET", "UTC", "+01:00", "-03:30", None])
def test_zone_abbreviation_offset_or_none(zone: str | None) -> None:
    header = HEADER.removesuffix(" CET") + (f" {zone}" if zone else "")
    assert roundtrip(hand_text(header=header)).header.zone == zone


def test_stakes_of_each_game() -> None:
    chiribito = "Hand #C: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03"
    aces = "Hand #A: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 21:14:03"
    ch = roundtrip(hand_text("Dario: posts blind 20", header=chiribito))
    assert (ch.game, ch.header.stakes.forced, ch.header.stakes.low) == (Game.CHIRIBITO, 20, None)
    asf = roundtrip(hand_text("Dario: posts ante 1", header=aces))
    stakes = asf.header.stakes
    assert (asf.game, stakes.forced, stakes.low, stakes.high) == (Game.ACES, 1, 1, 2)
    ca = roundtrip(hand_text())
    assert (ca.header.stakes.forced, ca.header.stakes.low, ca.header.stakes.high) == (5, 5, 50)


def test_house_rules() -> None:
    hand = roundtrip(hand_text(extra="House rules: Deck from 7, Flush beats full house"))
    assert hand.house_rules is not None
    assert hand.house_rules.rules == ("Deck from 7", "Flush beats full house")
    assert hand.house_rules.line == 3
    chiribito = "Hand #C: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03"
    perla = roundtrip(hand_text("", header=chiribito, extra="House rules: La Perla wins"))
    assert perla.house_rules is not None and perla.house_rules.rules == ("La Perla wins",)


def test_shuffle_commitment_with_and_without_house_rules() -> None:
    digest = "0123456789abcdef" * 4
    hand = roundtrip(hand_text(extra=f"Shuffle commitment: {digest}"))
    assert hand.commitment is not None and hand.commitment.digest == digest
    assert hand.house_rules is None
    both = roundtrip(hand_text(extra=f"House rules: Deck from 5\nShuffle commitment: {digest}"))
    assert both.commitment is not None and both.commitment.line == 4
    assert both.house_rules is not None and both.house_rules.rules == ("Deck from 5",)


def test_sitting_out_seat() -> None:
    seats = SEATS + "\nSeat 7: Fabio (300 in chips) is sitting out"
    hand = roundtrip(hand_text(seats=seats))
    assert [(s.name, s.sitting_out) for s in hand.seats] == [
        ("Dario", False), ("Elena", False), ("Fabio", True),
    ]  # fmt: skip
    assert hand.seats[2].chips == 300 and hand.seats[2].seat == 7


def test_all_in_on_posts_bets_calls_and_raises() -> None:
    text = hand_text(
        "Dario: posts ante 5 and is all-in\nElena: posts ante 5\n*** 2ND STREET ***\n"
        "Elena: bets 10 and is all-in\nDario: calls 10 and is all-in\n"
        "Elena: raises 20 to 30 and is all-in"
    )
    lines = body(roundtrip(text))
    assert lines[0] == Post("Dario", "ante", 5, all_in=True)
    assert lines[1] == Post("Elena", "ante", 5, all_in=False)
    assert lines[3] == Action("Elena", "bets", 10, None, all_in=True)
    assert lines[4] == Action("Dario", "calls", 10, None, all_in=True)
    assert lines[5] == Action("Elena", "raises", 20, 30, all_in=True)


def test_timed_out_actions() -> None:
    text = hand_text(
        "*** 2ND STREET ***\nElena: checks (timed out)\nDario: bets 5\n"
        "Elena: folds (timed out)\nDario: calls 5 and is all-in (timed out)"
    )
    lines = body(roundtrip(text))
    assert lines[1] == Action("Elena", "checks", timed_out=True)
    assert lines[2] == Action("Dario", "bets", 5)
    assert lines[3] == Action("Elena", "folds", timed_out=True)
    assert lines[4] == Action("Dario", "calls", 5, all_in=True, timed_out=True)


def test_uncalled_bet() -> None:
    hand = roundtrip(hand_text())
    uncalled = hand.sections[0].lines[4]
    assert uncalled == Uncalled(10, "Elena") and uncalled.line == 12


def test_informational_lines_anywhere_in_the_body() -> None:
    text = hand_text(
        'Elena: says "hola, "amigos" (y) [todos]"\n'
        "Dario: posts ante 5\n"
        "Fabio: is disconnected\n"
        "*** 2ND STREET ***\n"
        "Elena: is connected\n"
        "Elena: bets 10\n"
        'Dario: says ""\n'
        "*** SHOWDOWN ***\n"
        'Ana María: says "gg"'
    )
    hand = roundtrip(text)
    assert hand.preamble == (
        Info("Elena", "says", 'hola, "amigos" (y) [todos]'),
        Post("Dario", "ante", 5),
        Info("Fabio", "disconnected"),
    )
    assert hand.sections[0].lines == (
        Info("Elena", "connected"),
        Action("Elena", "bets", 10),
        Info("Dario", "says", ""),
    )
    assert hand.sections[1].marker.street == SHOWDOWN
    assert hand.sections[1].lines == (Info("Ana María", "says", "gg"),)


def test_collected_from_pot_main_pot_and_side_pots() -> None:
    text = hand_text(
        "*** SHOWDOWN ***\nElena: collected 100 from main pot\n"
        "Dario: collected 40 from side pot-1\nDario: collected 7 from side pot-12\n"
        "Elena: collected 5 from pot"
    )
    assert roundtrip(text).sections[0].lines == (
        Collected("Elena", 100, 0),
        Collected("Dario", 40, 1),
        Collected("Dario", 7, 12),
        Collected("Elena", 5, None),
    )


def test_shows_with_declaration_without_description_and_mucks() -> None:
    text = hand_text(
        "*** SHOWDOWN ***\n"
        "Dario: shows [Kh 7c Kd Ks 9h 7d Kc] and declares [Kh Kd Ks Kc 9h] (four of a kind)\n"
        "Elena: shows [Qd Jc] and declares [Qd Jc Qs Qh 2c]\n"
        "Fabio: mucks hand\n"
        "Dario: collected 10 from pot\n"
        "Dario: shows [Kh]"
    )
    lines = roundtrip(text).sections[0].lines
    assert lines[0] == Show(
        "Dario",
        ("Kh", "7c", "Kd", "Ks", "9h", "7d", "Kc"),
        ("Kh", "Kd", "Ks", "Kc", "9h"),
        "four of a kind",
    )
    assert lines[1] == Show("Elena", ("Qd", "Jc"), ("Qd", "Jc", "Qs", "Qh", "2c"), None)
    assert lines[2] == Muck("Fabio")
    assert lines[4] == Show("Dario", ("Kh",), None, None)


@pytest.mark.parametrize(
    "description",
    ["high card", "a pair, Kings", "two pair", "three of a kind,", "a straight, 9 high",
     "a flush", "a full house, Jacks full of Twos", "four of a kind", "a straight flush",
     "five aces", "La Perla", "a straight,La Perla: Seis a Rey! ¿no?"],
)  # fmt: skip
def test_every_description_category(description: str) -> None:
    text = hand_text(f"*** SHOWDOWN ***\nDario: shows [Kh 7c] ({description})")
    assert roundtrip(text).sections[0].lines[0] == Show("Dario", ("Kh", "7c"), None, description)


def test_summary_with_side_pots() -> None:
    summary = "*** SUMMARY ***\nTotal pot 300 Main pot 150. Side pot-1 100. Side pot-2 45. | Rake 5"
    total = roundtrip(hand_text(summary=summary)).summary.total
    assert (total.total, total.main, total.side, total.rake) == (300, 150, (100, 45), 5)
    main_only = "*** SUMMARY ***\nTotal pot 300 Main pot 300. | Rake 0"
    total = roundtrip(hand_text(summary=main_only)).summary.total
    assert (total.main, total.side) == (300, ())


def test_board_deck_and_salt() -> None:
    deck = " ".join(r + s for r in "23456789TJQKA" for s in "cdhs")
    summary = f"{SUMMARY}\nBoard [Jk]\nDeck [{deck}] salt 9f86d081884c7d65"
    s = roundtrip(hand_text(summary=summary)).summary
    assert s.board is not None and s.board.cards == ("Jk",) and s.board.line == 16
    assert s.deck is not None and len(s.deck.cards) == 52 and s.deck.cards[:2] == ("2c", "2d")
    assert s.deck.salt == "9f86d081884c7d65"
    no_salt = roundtrip(hand_text(summary=f"{SUMMARY}\nDeck [As Kd]")).summary
    assert no_salt.deck is not None and no_salt.deck.salt is None and no_salt.board is None


def test_every_seat_outcome() -> None:
    summary = SUMMARY + (
        "\nSeat 1: Ana María: folded on 3RD STREET"
        "\nSeat 2: Dario: showed [Kh 7c] and won 1480 with a straight, Seis to Rey"
        "\nSeat 3: Elena: showed [Qd Jc] and lost with a pair"
        "\nSeat 4: Fabio: showed [4s Js] and won 0"
        "\nSeat 5: Gina: showed [2c 2d] and lost"
        "\nSeat 6: Íñigo: mucked"
        "\nSeat 7: Jon: won 30"
        "\nSeat 8: Kiko: sat out"
    )
    outcomes = roundtrip(hand_text(summary=summary)).summary.seats
    assert outcomes == (
        SeatOutcome(1, "Ana María", "folded", street="3RD STREET"),
        SeatOutcome(2, "Dario", "showed_won", ("Kh", "7c"), 1480, None, "a straight, Seis to Rey"),
        SeatOutcome(3, "Elena", "showed_lost", ("Qd", "Jc"), None, None, "a pair"),
        SeatOutcome(4, "Fabio", "showed_won", ("4s", "Js"), 0),
        SeatOutcome(5, "Gina", "showed_lost", ("2c", "2d")),
        SeatOutcome(6, "Íñigo", "mucked"),
        SeatOutcome(7, "Jon", "won", amount=30),
        SeatOutcome(8, "Kiko", "sat_out"),
    )
    assert outcomes[-1].line == 23


def test_top_ups() -> None:
    text = hand_text("Dario: adds 500 chips\nElena: adds 0 chips\n" + BODY)
    assert roundtrip(text).preamble[:3] == (
        TopUp("Dario", 500), TopUp("Elena", 0), Post("Dario", "ante", 5),
    )  # fmt: skip


NAMES = ["Ana María", "Íñigo", "Zoë O'Neill", "李 小龙", "José  Luis", "x" * 32, "Seat",
         "Deck", "Board", "Dealt to", "9 lives", "a.b-c_d#e!", "Ñ"]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_names_with_spaces_and_any_letters_in_every_place(name: str) -> None:
    seats = f"Seat 1: {name} (500 in chips)\nSeat 4: Elena (500 in chips)"
    text = hand_text(
        f"{name}: adds 5 chips\n{name}: posts ante 5\n*** 2ND STREET ***\n"
        f"Dealt to {name}: down [Kh] up [7c]\n{name}: bets 10\nElena: calls 10\n"
        f'{name}: says "¡hola!"\n{name}: is disconnected\n'
        f"Uncalled bet (5) returned to {name}\n*** SHOWDOWN ***\n{name}: shows [Kh 7c]\n"
        f"Elena: mucks hand\n{name}: mucks hand\n{name}: collected 20 from pot",
        seats=seats,
        summary=f"{SUMMARY}\nSeat 1: {name}: won 20",
    )
    hand = roundtrip(text)
    assert hand.seats[0].name == name
    named = [x for x in body(hand) if getattr(x, "name", None) == name]
    assert len(named) == 10
    assert hand.summary.seats[0].name == name


@pytest.mark.parametrize("table", ["Mérida 2", "Ávila de los Caballeros", "A", "Córdoba (VIP) #3"])
def test_table_names_with_spaces_and_accents(table: str) -> None:
    hand = roundtrip(hand_text(table=f"Table '{table}' 9-max Seat #1 is the dealer"))
    assert (hand.table.name, hand.table.max_seats, hand.table.dealer) == (table, 9, 1)


def test_chiribito_markers_and_hero_view_deals() -> None:
    chiribito = "Hand #C: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03 CET"
    text = hand_text(
        "Dario: posts blind 20\n*** HOLE CARDS ***\nDealt to Dario: down [Ao Rc]\n"
        "Dealt to Elena: down [?? ??]\n*** COMMON 1 *** [7c]\n*** COMMON 2 *** [7c] [Sc]\n"
        "*** COMMON 5 *** [7c Sc Re Cc] [6o]",
        header=chiribito,
        summary=f"{SUMMARY}\nBoard [7c Sc Re Cc 6o]",
    )
    hand = roundtrip(text)
    assert hand.sections[0].lines[1] == Deal("Elena", ("??", "??"), None)
    assert [s.marker.groups for s in hand.sections] == [
        (), (("7c",),), (("7c",), ("Sc",)), (("7c", "Sc", "Re", "Cc"), ("6o",)),
    ]  # fmt: skip


def test_a_well_formed_card_outside_the_deck_is_the_validators_business() -> None:
    text = hand_text(
        "*** 2ND STREET ***\nDealt to Dario: down [Jk] up [2c]",
        extra="House rules: Deck from 7",
    )
    assert roundtrip(text).sections[0].lines[0] == Deal("Dario", ("Jk",), ("2c",))


def test_street_order_is_the_validators_business() -> None:
    text = hand_text("*** 7TH STREET ***\n*** 2ND STREET ***\n*** 7TH STREET ***\nDario: checks")
    hand = roundtrip(text)
    assert [s.marker.street for s in hand.sections] == ["7TH STREET", "2ND STREET", "7TH STREET"]


def test_line_numbers_count_from_first_line() -> None:
    hand = parse_hand("\n\n" + hand_text(), first_line=10)
    assert hand.header.line == 12 and hand.table.line == 13
    assert hand.summary.line == 25 and hand.summary.total.line == 26
