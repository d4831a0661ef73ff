# ruff: noqa: E501  (hand texts are written out line by line, as in the log format)
"""Issue 8, the referee's part: chips never vanish, payouts copied from a
hero-view log stay bounded by the pots, zone offsets, contradicting house
rules, DECK_ORDER and CARD_MISMATCH on the right line, hands nobody can play
(SEATS, never a crash), and messages that name players instead of "he".

Expected pots, payouts and net are worked out by hand in the comments."""

from __future__ import annotations

import os
import random
import re

import pytest
from handtext import (
    CH_SHORT_BLIND,
    CH_THREE,
    EX_CALATONE,
    EX_CHIRIBITO,
    SPANISH,
    HandText,
    assert_legal,
    assert_only,
    codes,
    deck_line,
    pots,
)

from hh.model import Game
from hh.parse import HandSyntaxError, parse_hand
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import Verdict, validate
from hh.write import write_hand

pytestmark = pytest.mark.compiled

# ------------------------------------------------------- chips never vanish

# CH_SHORT_BLIND with Ceci folding on COMMON 1 after her 20 went in: Blas
# (15, all-in) and Ana reach the showdown. Main 3 x 15 = 45 (Ana, Blas
# eligible), side pot-1 2 x 5 = 10 (Ceci folded: only Ana). Ana mucks, Blas
# shows: Blas takes the main pot, the side pot is Ana's without showing
# (RULES.md, General, "Chips never vanish"). Net: Blas 45 - 15 = 30, Ana 10 -
# 20 = -10, Ceci -20.
CH_LONE_SIDE = HandText.of("""
    chiribito.com Hand #T-H-1: Chiribito No Limit (blind 20) - 2026/11/29 21:20:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (15 in chips)
    Seat 3: Ceci (1000 in chips)
    Blas: posts blind 15 and is all-in
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [Re Rb]
    Dealt to Ceci: down [Se Sb]
    Ana: calls 20
    Ceci: calls 20
    *** COMMON 1 *** [5o]
    Ana: checks
    Ceci: folds
    *** COMMON 2 *** [5o] [7c]
    *** COMMON 3 *** [5o 7c] [Ce]
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    *** SHOWDOWN ***
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ana: mucks hand
    Blas: collected 45 from main pot
    Ana: collected 10 from side pot-1
    *** SUMMARY ***
    Total pot 55 Main pot 45. Side pot-1 10. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")
LONE_POTS = [(45, ("Ana", "Blas"), ("Blas",)), (10, ("Ana",), ("Ana",))]
LONE_NET = {"Ana": -10, "Blas": 30, "Ceci": -20}


def test_a_pot_with_one_eligible_player_is_his_without_showing() -> None:
    assert_legal(CH_LONE_SIDE, LONE_POTS, {"Blas": 45, "Ana": 10}, LONE_NET)


def test_the_lone_players_missing_collected_line_is_a_payout_fault() -> None:
    bad = CH_LONE_SIDE.delete("Ana: collected 10 from side pot-1")
    v = bad.judge()
    assert_only(v, [("PAYOUT", bad.line("*** SUMMARY ***"))])
    assert "missing 'Ana: collected 10 from side pot-1'" in v.violations[0].message
    # the verdict still pays the side pot: chips never vanish
    assert pots(v) == LONE_POTS
    assert v.payouts == {"Ana": 10, "Blas": 45}
    assert v.net == LONE_NET and sum(v.net.values()) == 0


def test_a_lone_player_who_says_nothing_is_still_missing_from_the_showdown() -> None:
    # He is in the showdown for the main pot: he must show or muck (but the
    # side pot is still his).
    bad = CH_LONE_SIDE.delete("Ana: mucks hand")
    v = bad.judge()
    assert_only(v, [("SHOWDOWN", bad.line("Blas: collected 45 from main pot"))])
    assert v.net == LONE_NET


# CH_SHORT_BLIND with Ana and Ceci both mucking: the side pot (Ana, Ceci) is
# contested and nobody who can win it shows: SHOWDOWN, and it is split as for
# a tie, 5 each (odd chips none). Blas 45 - 15 = 30; Ana 5 - 20 = -15; Ceci -15.
def test_a_contested_pot_whose_players_all_muck_is_a_showdown_fault_and_is_split() -> None:
    bad = (
        CH_SHORT_BLIND.replace("Ana: shows [Re Rb] (three of a kind, Reyes)", "Ana: mucks hand")
        .replace("Ceci: shows [Se Sb] (a pair, Sotas)", "Ceci: mucks hand")
        .replace("Ana: collected 10 from side pot-1",
                 "Ana: collected 5 from side pot-1", "Ceci: collected 5 from side pot-1")
    )
    v = bad.judge()
    assert_only(v, [("SHOWDOWN", bad.line("Blas: collected 45 from main pot"))])
    assert "Ana and Ceci" in v.violations[0].message
    assert "side pot-1" in v.violations[0].message
    assert pots(v) == [(45, ("Ana", "Blas", "Ceci"), ("Blas",)), (10, ("Ana", "Ceci"), ("Ana", "Ceci"))]
    assert v.payouts == {"Ana": 5, "Blas": 45, "Ceci": 5}
    assert v.net == {"Ana": -15, "Blas": 30, "Ceci": -15}


def test_nobody_shows_is_reported_once_and_the_pot_is_still_paid() -> None:
    # CH_THREE with everybody mucking: one SHOWDOWN fault (nobody shows), and
    # the 60 is split three ways as for a tie (20 each): net 0 for everyone.
    bad = (
        CH_THREE.replace("Blas: shows [Ao Ac] (a pair, Ases)", "Blas: mucks hand")
        .replace("Ana: shows [5e 6b] (a straight, Cinco to Caballo)", "Ana: mucks hand")
        .replace("Ceci: shows [Re Rb] (a pair, Reyes)", "Ceci: mucks hand")
    )
    v = bad.judge()
    line = bad.line("Ana: collected 60 from pot")
    assert_only(v, [("SHOWDOWN", line), ("PAYOUT", line)])
    assert v.payouts == {"Ana": 20, "Blas": 20, "Ceci": 20}
    assert v.net == {"Ana": 0, "Blas": 0, "Ceci": 0}


def test_an_undecided_hand_still_pays_every_pot() -> None:
    # The summary right after COMMON 2: HAND_INCOMPLETE; the 60 is split as
    # for a tie among the three, so net sums to 0 (no rake).
    before = CH_THREE.lines[: CH_THREE.line("*** COMMON 3 *** [7c Sc] [Cb]") - 1]
    cut = HandText((*before, "*** SUMMARY ***", "Total pot 60 | Rake 0", "Board [7c Sc]"))
    v = cut.judge()
    assert_only(v, [("HAND_INCOMPLETE", cut.line("*** SUMMARY ***"))])
    assert pots(v) == [(60, ("Ana", "Blas", "Ceci"), ("Ana", "Blas", "Ceci"))]
    assert v.net == {"Ana": 0, "Blas": 0, "Ceci": 0}


# ---------------------------------------- hero view: bounded log payouts

# EX_CHIRIBITO seen by Lucía: Íñigo's cards dealt as ??, and his show is one
# card short, so his hand cannot be evaluated: the pot (1480, Lucía and
# Íñigo) cannot be decided from the cards and its payouts repeat the log.
HERO = (
    EX_CHIRIBITO.replace("Dealt to Íñigo: down [5c 5e]", "Dealt to Íñigo: down [?? ??]")
    .replace("Íñigo: shows [5c 5e] (a pair, Cincos)", "Íñigo: shows [5c] (high card, Cinco)")
    .replace("Seat 4: Íñigo: showed [5c 5e] and lost with a pair", "Seat 4: Íñigo: showed [5c] and lost")
)


def _consistent(v: Verdict) -> None:
    """pots, payouts and net tell one story: every pot is shared out in
    full among its winners, the payouts are those shares, net sums to 0."""
    assert v.pots is not None and v.payouts is not None and v.net is not None
    for p in v.pots:
        assert sum(p.shares) == p.amount and len(p.shares) == len(p.winners)
    assert sum(v.payouts.values()) == sum(p.amount for p in v.pots)
    assert {n for n, x in v.payouts.items() if x} <= {w for p in v.pots for w in p.winners}
    assert sum(v.net.values()) == 0


def test_hero_view_payouts_repeat_a_possible_log_claim() -> None:
    v = HERO.judge()
    assert_only(v, [("CARD_MISMATCH", HERO.line("Íñigo: shows [5c] (high card, Cinco)"))])
    assert [x.code for x in v.unchecked] == ["HAND_DESCRIPTION", "PAYOUT"]
    assert pots(v) == [(1480, ("Lucía", "Íñigo"), ("Lucía",))]
    assert v.payouts == {"Lucía": 1480}
    assert v.net == {"Lucía": 760, "Paco": -40, "Marta": 0, "Íñigo": -720}


def test_hero_view_claim_larger_than_the_pot_is_payout() -> None:
    bad = HERO.replace("Lucía: collected 1480 from pot", "Lucía: collected 5000 from pot")
    v = bad.judge()
    assert_only(v, [
        ("CARD_MISMATCH", bad.line("Íñigo: shows [5c] (high card, Cinco)")),
        ("PAYOUT", bad.line("Lucía: collected 5000 from pot")),
        ("SUMMARY", bad.line("Seat 1: Lucía: showed [So 7o] and won 1480 with a straight")),
        ("SUMMARY", bad.line("Seat 4: Íñigo: showed [5c] and lost")),
    ])
    message = next(x.message for x in v.violations if x.code == "PAYOUT")
    assert "holds 1480" in message and "5000" in message
    # the pot is split as for a tie between the two still in contention
    assert pots(v) == [(1480, ("Lucía", "Íñigo"), ("Lucía", "Íñigo"))]
    assert v.payouts == {"Lucía": 740, "Íñigo": 740}
    assert v.net == {"Lucía": 20, "Paco": -40, "Marta": 0, "Íñigo": 20}
    assert sum(v.net.values()) == 0
    _consistent(v)


def test_hero_view_claim_by_a_player_who_cannot_win_is_payout() -> None:
    bad = HERO.replace("Lucía: collected 1480 from pot", "Paco: collected 1480 from pot")
    v = bad.judge()
    line = bad.line("Paco: collected 1480 from pot")
    assert ("PAYOUT", line) in codes(v)
    assert "Paco cannot win the pot" in next(x.message for x in v.violations if x.line == line)
    assert v.payouts == {"Lucía": 740, "Íñigo": 740}
    assert sum(v.net.values()) == 0


def test_hero_view_claims_short_of_the_pot_are_payout() -> None:
    bad = HERO.replace("Lucía: collected 1480 from pot", "Lucía: collected 1000 from pot")
    v = bad.judge()
    assert ("PAYOUT", bad.line("*** SUMMARY ***")) in codes(v)
    assert v.payouts == {"Lucía": 740, "Íñigo": 740}
    assert sum(v.net.values()) == 0


# --------------------------------------------------------------- header

@pytest.mark.parametrize("zone", ["+14:00", "-14:00", "+05:45", "-03:30", "+00:00"])
def test_zone_offsets_on_earth_are_accepted(zone: str) -> None:
    ok = EX_CHIRIBITO.replace(EX_CHIRIBITO.lines[0], EX_CHIRIBITO.lines[0].replace(" CET", f" {zone}"))
    assert ok.judge().valid


@pytest.mark.parametrize("zone", ["+99:99", "+14:01", "-15:00", "+05:60", "+00:99"])
def test_impossible_zone_offsets_are_header(zone: str) -> None:
    bad = EX_CHIRIBITO.replace(EX_CHIRIBITO.lines[0], EX_CHIRIBITO.lines[0].replace(" CET", f" {zone}"))
    v = bad.judge()
    assert_only(v, [("HEADER", 1)])
    assert zone in v.violations[0].message


def _with_house_rules(hand: HandText, rules: str) -> HandText:
    return hand.insert_after(hand.lines[1], f"House rules: {rules}")


def test_two_deck_from_rules_contradict() -> None:
    bad = _with_house_rules(EX_CALATONE, "Deck from 2, Deck from 2")
    assert bad.judge().violations[0].code == "HEADER"  # 2 is not a Deck from rule
    bad = _with_house_rules(EX_CALATONE, "Flush beats full house, Deck from 7, Deck from 8")
    v = bad.judge()
    line = bad.line("House rules: Flush beats full house, Deck from 7, Deck from 8")
    assert [x.code for x in v.violations if x.line == line] == ["HEADER"]
    assert "'Deck from 7' and 'Deck from 8' contradict" in v.violations[0].message


@pytest.mark.parametrize(
    ("hand", "rule"),
    [(EX_CALATONE, "Flush beats full house"), (CH_THREE, "La Perla wins")],
)
def test_a_house_rule_listed_twice_is_header(hand: HandText, rule: str) -> None:
    bad = _with_house_rules(hand, f"{rule}, {rule}")
    v = bad.judge()
    assert_only(v, [("HEADER", bad.line(f"House rules: {rule}, {rule}"))])
    assert "listed twice" in v.violations[0].message
    assert _with_house_rules(hand, rule).judge().valid


# --------------------------------------------------------- cards, lines

DEALT = "Ao 5e Re Ac 6b Rb 7c Sc Cb 5o 6o"


def test_deck_order_of_a_common_card_is_reported_where_it_was_dealt() -> None:
    # The Deck has the 3rd and 4th common cards swapped: COMMON 3 dealt Cb
    # where the Deck has 5o, COMMON 4 dealt 5o where the Deck has Cb.
    deck = deck_line("Ao 5e Re Ac 6b Rb 7c Sc 5o Cb 6o", SPANISH)
    bad = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck)
    v = bad.judge()
    assert_only(v, [
        ("DECK_ORDER", bad.line("*** COMMON 3 *** [7c Sc] [Cb]")),
        ("DECK_ORDER", bad.line("*** COMMON 4 *** [7c Sc Cb] [5o]")),
    ])
    assert "Cb" in v.violations[0].message and "5o" in v.violations[0].message
    ok = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck_line(DEALT, SPANISH))
    assert ok.judge().valid


def test_summary_cards_other_than_those_shown_are_card_mismatch() -> None:
    old = "Seat 1: Lucía: showed [So 7o] and won 1480 with a straight"
    new = "Seat 1: Lucía: showed [So 7e] and won 1480 with a straight"
    bad = EX_CHIRIBITO.replace(old, new)
    v = bad.judge()
    assert_only(v, [("CARD_MISMATCH", bad.line(new))])
    assert "[So 7o]" in v.violations[0].message


# ------------------------------------------------- hands nobody can play

def _hand(game: Game, seats: list[str], dealer: int = 1) -> str:
    head = {
        Game.CHIRIBITO: "Hand #X-1: Chiribito No Limit (blind 20) - 2026/11/29 21:00:00 CET",
        Game.ACES: "Hand #X-1: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 21:00:00 CET",
        Game.CALATONE: "Hand #X-1: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 21:00:00 CET",
    }[game]
    first = {Game.CHIRIBITO: "HOLE CARDS", Game.ACES: "3RD STREET", Game.CALATONE: "2ND STREET"}[game]
    return "\n".join([
        head, f"Table 'T' 6-max Seat #{dealer} is the dealer", *seats,
        f"*** {first} ***", "*** SUMMARY ***", "Total pot 0 | Rake 0",
    ]) + "\n"


SEATINGS = {
    "all sitting out": ["Seat 1: Ana (100 in chips) is sitting out",
                        "Seat 2: Blas (100 in chips) is sitting out"],
    "a name twice, one sitting out": ["Seat 1: Ana (100 in chips)",
                                      "Seat 2: Ana (100 in chips)",
                                      "Seat 3: Blas (100 in chips) is sitting out"],
    "nobody with chips": ["Seat 1: Ana (0 in chips)", "Seat 2: Blas (0 in chips)"],
}


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("seating", sorted(SEATINGS))
def test_hands_nobody_can_play_are_seats_not_a_crash(game: Game, seating: str) -> None:
    v = validate(parse_hand(_hand(game, SEATINGS[seating])))
    found = {x.code for x in v.violations}
    assert "INTERNAL_ERROR" not in found, v.violations
    assert "SEATS" in found
    assert v.net is not None and sum(v.net.values()) == 0


def test_one_player_dealt_in_is_said_in_the_singular() -> None:
    v = validate(parse_hand(_hand(Game.CHIRIBITO, SEATINGS["a name twice, one sitting out"])))
    assert any(x.message.startswith("1 player dealt in, but Chiribito") for x in v.violations)


def test_a_player_without_chips_is_refused_once_and_left_out() -> None:
    # CH_THREE with Dani at seat 4 with no chips: he is not dealt in (SEATS on
    # his seat line, once); the rest of the hand is judged without him.
    dani = "Seat 4: Dani (0 in chips)"
    bad = CH_THREE.insert_after("Seat 3: Ceci (1000 in chips)", dani)
    v = bad.judge()
    assert_only(v, [("SEATS", bad.line(dani))])
    assert v.net == {"Ana": 40, "Blas": -20, "Ceci": -20}
    # as the blind: his post, cards and actions are not reported again
    blas = CH_THREE.replace("Seat 2: Blas (1000 in chips)", "Seat 2: Blas (0 in chips)")
    v = blas.judge()
    assert codes(v)[0] == ("SEATS", blas.line("Seat 2: Blas (0 in chips)"))
    assert not [x for x in v.violations if "Blas" in x.message and x.code != "SEATS"]
    assert not [x for x in v.violations if "of 0 is missing" in x.message]


# ------------------------------------------------------------ messages

PRONOUNS = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)


def test_messages_name_players_instead_of_pronouns() -> None:
    rng = random.Random(8)
    seen = 0
    for game in Game:
        for hand in Simulator(game, seed=31, tables=2).hands(25):
            for kind in sorted(KINDS):
                m = mutate(hand, kind, rng)
                if m is None:
                    continue
                try:
                    v = validate(parse_hand(write_hand(m)))
                except HandSyntaxError:
                    continue
                for x in (*v.violations, *v.unchecked):
                    seen += 1
                    assert not PRONOUNS.search(x.message), x.message
    assert seen > 1000


def test_summary_messages_name_the_player() -> None:
    old = "Seat 4: Íñigo: showed [5c 5e] and lost with a pair"
    bad = EX_CHIRIBITO.replace(old, "Seat 4: Íñigo: sat out")
    v = bad.judge()
    assert v.violations[0].message == "Íñigo was dealt in, but the summary says Íñigo sat out"


# ------------------------------------------------------------ the build

@pytest.mark.skipif(os.environ.get("HH_EXPECT_COMPILED") != "1", reason="pure-Python run")
def test_the_split_replay_is_compiled_too() -> None:
    import hh.replay.betting
    import hh.replay.run
    import hh.verdict

    for module in (hh.replay.run, hh.replay.betting, hh.verdict):
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), module.__file__
