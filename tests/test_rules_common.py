"""RULES.md "In every game" and FORMAT.md's amounts and pots: who must act,
timeouts, folds, uncalled bets, pots per all-in level (three and four levels,
merging, a pot only one can win), odd chips, rake, showdown, summary claims,
informational lines, hero view. Expected pots, payouts and net are worked out
by hand (see the comments in ``handtext``)."""

from __future__ import annotations

import json

import pytest
from handtext import (
    CA_CHECK2,
    CH_FACING,
    CH_FOLDED_OPENER,
    CH_LEVELS3,
    CH_LEVELS4,
    CH_MERGE,
    CH_ODD,
    CH_ONE_WINNER,
    CH_SHORT_BLIND,
    CH_THREE,
    CH_THREE_NEXT,
    CH_TIMEOUT,
    CH_UNCALLED_ALLIN,
    CH_WALK,
    CH_WRAP,
    EX_ACES,
    EX_CALATONE,
    EX_CHIRIBITO,
    HandText,
    assert_legal,
    assert_line,
    assert_only,
    codes,
    judge_run,
)
from typer.testing import CliRunner

from hh.cli import app
from hh.engine import Award
from hh.parse import parse_text
from hh.replay.payouts import rake_shares
from hh.validate import validate

pytestmark = pytest.mark.compiled

EXAMPLES = {
    "chiribito.txt": EX_CHIRIBITO,
    "aces-straights-flushes.txt": EX_ACES,
    "calatone.txt": EX_CALATONE,
}


def example(name: str) -> HandText:
    return EXAMPLES[name]


# ------------------------------------------------------------ FORMAT examples


def test_format_examples_give_the_stated_pots_payouts_and_net():
    assert_legal(
        example("chiribito.txt"),
        [(1480, ("Lucía", "Íñigo"), ("Lucía",))],
        {"Lucía": 1480},
        {"Lucía": 760, "Paco": -40, "Marta": 0, "Íñigo": -720},
    )
    assert_legal(
        example("aces-straights-flushes.txt"),
        [(22, ("Anna", "Ben"), ("Anna",))],
        {"Anna": 22},
        {"Anna": 12, "Ben": -10, "Carla": -2},
    )
    assert_legal(
        example("calatone.txt"),
        [(565, ("Dario", "Fabio"), ("Dario",))],
        {"Dario": 565},
        {"Dario": 290, "Elena": -15, "Fabio": -275},
    )


def test_format_calatone_example_all_checked_4th_street_variant():
    # FORMAT.md: had both checked 4th street, Dario (kings) would collect 145.
    ca = example("calatone.txt")
    cut = ca.line("Dario: bets 10")
    hand = HandText(
        (
            *ca.lines[: cut - 1],
            "Dario: checks",
            "Fabio: checks",
            "*** SHOWDOWN ***",
            "Dario: shows [Kh 7c Kd Ks] (three of a kind, Kings)",
            "Fabio: shows [4s Js Jd 2c] (a pair, Jacks)",
            "Dario: collected 145 from pot",
            "*** SUMMARY ***",
            "Total pot 145 | Rake 0",
        )
    )
    assert_legal(
        hand,
        [(145, ("Dario", "Fabio"), ("Dario",))],
        {"Dario": 145},
        {"Dario": 80, "Elena": -15, "Fabio": -65},
    )


# ------------------------------------------------------------- who must act


def test_rule_common_facing_a_bet_player_always_acts():
    # Blas's all-in leaves nobody else able to act, yet Ana must answer it.
    assert_legal(
        CH_FACING, [(600, ("Ana", "Blas"), ("Ana",))], {"Ana": 600}, {"Ana": 300, "Blas": -300}
    )
    silent = CH_FACING.delete("Ana: calls 280")
    v = silent.judge()
    assert_line(
        v, "ROUND_NOT_CLOSED", silent.line("*** COMMON 2 *** [5o] [7c]"), "Ana", only_one=False
    )


def test_rule_common_no_betting_when_fewer_than_two_can_act():
    anchor = "*** COMMON 2 *** [5o] [7c]"
    alone = CH_FACING.insert_after(anchor, "Ana: checks")
    v = alone.judge()
    assert_line(v, "OUT_OF_TURN", alone.line(anchor) + 1, "Ana")
    all_in = CH_FACING.insert_after(anchor, "Blas: checks")
    v = all_in.judge()
    assert_line(v, "NOT_IN_HAND", all_in.line(anchor) + 1, "Blas")


def test_rule_common_timed_out_player_checked_if_free_else_folded():
    assert_legal(
        CH_TIMEOUT, [(40, ("Ana",), ("Ana",))], {"Ana": 40}, {"Ana": 20, "Blas": -20, "Ceci": 0}
    )
    checked = CA_CHECK2.replace("Dario: checks", "Dario: checks (timed out)")
    assert checked.judge().valid


def test_rule_common_timed_out_player_not_folded_when_checking_is_free():
    bad = CH_TIMEOUT.replace("Blas: checks (timed out)", "Blas: folds (timed out)")
    v = bad.judge()
    assert_line(v, "TIMEOUT_ACTION", bad.line("Blas: folds (timed out)"), "Blas")


def test_rule_common_timed_out_player_facing_a_bet_is_folded():
    bad = CH_TIMEOUT.replace("Ceci: folds (timed out)", "Ceci: calls 20 (timed out)")
    v = bad.judge()
    assert_line(v, "TIMEOUT_ACTION", bad.line("Ceci: calls 20 (timed out)"), "Ceci")


def test_rule_common_fold_allowed_at_any_turn():
    # CH_FOLDED_OPENER: Blas folds with checking free, as first to speak.
    v = CH_FOLDED_OPENER.judge()
    assert v.valid, codes(v)
    assert CH_FOLDED_OPENER.lines[CH_FOLDED_OPENER.line("*** COMMON 1 *** [5o]")] == "Blas: folds"


def test_rule_common_folded_player_cannot_act():
    anchor = "Blas: checks (timed out)"
    acts = CH_TIMEOUT.insert_after(anchor, "Ceci: checks")
    v = acts.judge()
    assert_line(v, "NOT_IN_HAND", acts.line(anchor) + 1, "Ceci")


def test_rule_common_folded_player_wins_nothing():
    shows = CH_FOLDED_OPENER.insert_after("*** SHOWDOWN ***", "Blas: shows [So Sc] (a pair, Sotas)")
    v = shows.judge()
    assert_line(
        v, "SHOWDOWN", shows.line("Blas: shows [So Sc] (a pair, Sotas)"), "Blas", only_one=False
    )
    assert v.payouts is not None and {k: x for k, x in v.payouts.items() if x} == {"Ana": 460}


# ------------------------------------------------------------- uncalled bets


def test_rule_common_uncalled_bet_returned():
    assert_legal(
        CH_WRAP, [(80, ("Dani",), ("Dani",))], {"Dani": 80}, {"Ana": 0, "Dani": 40, "Fede": -40}
    )
    missing = CH_WRAP.delete("Uncalled bet (60) returned to Dani")
    v = missing.judge()
    assert_line(
        v, "UNCALLED_BET", missing.line("Dani: collected 80 from pot"), "60", only_one=False
    )


def test_rule_common_uncalled_bet_amount_and_player():
    old = "Uncalled bet (60) returned to Dani"
    amount = CH_WRAP.replace(old, "Uncalled bet (40) returned to Dani")
    v = amount.judge()
    assert_line(
        v, "UNCALLED_BET", amount.line("Uncalled bet (40) returned to Dani"), "60", only_one=False
    )
    player = CH_WRAP.replace(old, "Uncalled bet (60) returned to Fede")
    v = player.judge()
    assert_line(
        v, "UNCALLED_BET", player.line("Uncalled bet (60) returned to Fede"), "Dani", only_one=False
    )


def test_rule_common_uncalled_beyond_second_highest_total():
    # Ana all-in 500 against Blas's 300: 200 comes back.
    assert_legal(
        CH_UNCALLED_ALLIN,
        [(600, ("Ana", "Blas"), ("Ana",))],
        {"Ana": 600},
        {"Ana": 300, "Blas": -300},
    )
    wrong = CH_UNCALLED_ALLIN.replace(
        "Uncalled bet (200) returned to Ana", "Uncalled bet (180) returned to Ana"
    )
    v = wrong.judge()
    assert_line(
        v, "UNCALLED_BET", wrong.line("Uncalled bet (180) returned to Ana"), "200", only_one=False
    )


def test_rule_common_blind_nobody_calls_is_returned_whole():
    v = CH_WALK.judge()
    assert v.valid, codes(v)
    assert v.pots == ()
    assert all(x == 0 for x in (v.payouts or {}).values())
    assert v.net == {"Ana": 0, "Blas": 0, "Ceci": 0}
    claimed = CH_WALK.insert_after(
        "Uncalled bet (20) returned to Blas", "Blas: collected 20 from pot"
    )
    v = claimed.judge()
    assert not v.valid


# ------------------------------------------------------------------------ pots


def test_rule_common_side_pots_three_all_in_levels():
    assert_legal(
        CH_LEVELS3,
        [
            (500, ("Ana", "Blas", "Ceci", "Dani", "Eva"), ("Ana",)),
            (400, ("Blas", "Ceci", "Dani", "Eva"), ("Blas",)),
            (300, ("Ceci", "Dani", "Eva"), ("Ceci",)),
            (400, ("Dani", "Eva"), ("Dani",)),
        ],
        {"Ana": 500, "Blas": 400, "Ceci": 300, "Dani": 400},
        {"Ana": 400, "Blas": 200, "Ceci": 0, "Dani": -100, "Eva": -500},
    )


def test_rule_common_side_pots_four_all_in_levels():
    assert_legal(
        CH_LEVELS4,
        [
            (600, ("Ana", "Blas", "Ceci", "Dani", "Eva", "Fede"), ("Ana",)),
            (500, ("Blas", "Ceci", "Dani", "Eva", "Fede"), ("Dani",)),
            (400, ("Ceci", "Dani", "Eva", "Fede"), ("Dani",)),
            (300, ("Dani", "Eva", "Fede"), ("Dani",)),
            (200, ("Eva", "Fede"), ("Fede",)),
        ],
        {"Ana": 600, "Dani": 1200, "Fede": 200},
        {"Ana": 500, "Blas": -200, "Ceci": -300, "Dani": 800, "Eva": -500, "Fede": -300},
    )


def test_rule_common_side_pot_amounts_claimed_must_match():
    old = "Total pot 1600 Main pot 500. Side pot-1 400. Side pot-2 300. Side pot-3 400. | Rake 0"
    new = "Total pot 1600 Main pot 400. Side pot-1 500. Side pot-2 300. Side pot-3 400. | Rake 0"
    bad = CH_LEVELS3.replace(old, new)
    v = bad.judge()
    assert_line(v, "SIDE_POTS", bad.line(new), only_one=False)


def test_rule_common_pots_with_the_same_eligible_players_merge_and_split():
    # Two players all-in at the same level: one main pot (800), split 400/400.
    assert_legal(
        CH_MERGE,
        [
            (800, ("Ana", "Blas", "Ceci", "Dani"), ("Ana", "Blas")),
            (200, ("Ceci", "Dani"), ("Ceci",)),
        ],
        {"Blas": 400, "Ana": 400, "Ceci": 200},
        {"Ana": 200, "Blas": 200, "Ceci": -100, "Dani": -300},
    )


def test_rule_common_pot_only_one_player_can_win_is_still_a_pot():
    assert_legal(
        CH_ONE_WINNER,
        [(300, ("Ana", "Blas"), ("Ana",)), (400, ("Blas",), ("Blas",))],
        {"Ana": 300, "Blas": 400},
        {"Ana": 200, "Blas": 100, "Ceci": -300},
    )


def test_rule_common_all_in_player_wins_at_most_what_he_put_in_from_each():
    # CH_SHORT_BLIND: Blas (15 in) wins 15 from each of three players.
    v = CH_SHORT_BLIND.judge()
    assert v.payouts is not None and v.payouts["Blas"] == 45


# -------------------------------------------------------------------- odd chips


def test_rule_common_odd_chips_go_one_by_one_in_the_games_order():
    # CH_ODD: 75 between two: 38 + 37 (Chiribito order from the blind).
    v = CH_ODD.judge()
    assert v.valid
    assert v.payouts is not None and (v.payouts["Dani"], v.payouts["Ceci"]) == (38, 37)


def test_rule_common_odd_chips_one_by_one_three_way_split():
    # Blind 20, dealer Blas (2), blind Ana (1); order from the blind: Ana,
    # Dani (4), Ceci (3), Blas (2). Dani, Ceci and Blas tie (6-7-S-C-R): 80
    # = 27 + 27 + 26, the two odd chips to Dani and Ceci.
    hand = HandText.of("""
        chiribito.com Hand #T-CH-3W: Chiribito No Limit (blind 20) - 2026/11/30 02:20:00 CET
        Table 'Mérida' 6-max Seat #2 is the dealer
        Seat 1: Ana (1000 in chips)
        Seat 2: Blas (1000 in chips)
        Seat 3: Ceci (1000 in chips)
        Seat 4: Dani (1000 in chips)
        Ana: posts blind 20
        *** HOLE CARDS ***
        Dealt to Ana: down [Ab 5e]
        Dealt to Dani: down [Re 6b]
        Dealt to Ceci: down [Rc 6e]
        Dealt to Blas: down [Ro 6c]
        Dani: calls 20
        Ceci: calls 20
        Blas: calls 20
        *** COMMON 1 *** [7b]
        Ana: checks
        Dani: checks
        Ceci: checks
        Blas: checks
        *** COMMON 2 *** [7b] [Sb]
        Ana: checks
        Dani: checks
        Ceci: checks
        Blas: checks
        *** COMMON 3 *** [7b Sb] [Cc]
        Ana: checks
        Dani: checks
        Ceci: checks
        Blas: checks
        *** COMMON 4 *** [7b Sb Cc] [5o]
        Ana: checks
        Dani: checks
        Ceci: checks
        Blas: checks
        *** COMMON 5 *** [7b Sb Cc 5o] [Ae]
        Ana: checks
        Dani: checks
        Ceci: checks
        Blas: checks
        *** SHOWDOWN ***
        Ana: shows [Ab 5e] (two pair, Ases y Cincos)
        Dani: shows [Re 6b] (a straight, Seis to Rey)
        Ceci: shows [Rc 6e] (a straight, Seis to Rey)
        Blas: shows [Ro 6c] (a straight, Seis to Rey)
        Dani: collected 27 from pot
        Ceci: collected 27 from pot
        Blas: collected 26 from pot
        *** SUMMARY ***
        Total pot 80 | Rake 0
        Board [7b Sb Cc 5o Ae]
    """)
    assert_legal(
        hand,
        [(80, ("Ana", "Blas", "Ceci", "Dani"), ("Blas", "Ceci", "Dani"))],
        {"Dani": 27, "Ceci": 27, "Blas": 26},
        {"Ana": -20, "Blas": 6, "Ceci": 7, "Dani": 7},
    )


def test_rule_common_odd_chips_after_rake():
    # Rake 4 off 75: 71 split, Dani 36, Ceci 35.
    raked = (
        CH_ODD.replace("Total pot 75 | Rake 0", "Total pot 75 | Rake 4")
        .replace("Dani: collected 38 from pot", "Dani: collected 36 from pot")
        .replace("Ceci: collected 37 from pot", "Ceci: collected 35 from pot")
    )
    assert_legal(
        raked,
        [(71, ("Ana", "Ceci", "Dani"), ("Ceci", "Dani"))],
        {"Dani": 36, "Ceci": 35},
        {"Ana": -25, "Blas": 0, "Ceci": 10, "Dani": 11},
        rake=4,
    )


# ------------------------------------------------------------------------ rake


def test_rule_common_rake_comes_off_the_pot():
    raked = CH_THREE.replace("Total pot 60 | Rake 0", "Total pot 60 | Rake 3").replace(
        "Ana: collected 60 from pot", "Ana: collected 57 from pot"
    )
    assert_legal(
        raked,
        [(57, ("Ana", "Blas", "Ceci"), ("Ana",))],
        {"Ana": 57},
        {"Ana": 37, "Blas": -20, "Ceci": -20},
        rake=3,
    )


def test_rule_common_rake_comes_off_the_main_pot_only():
    raked = CH_SHORT_BLIND.replace(
        "Total pot 55 Main pot 45. Side pot-1 10. | Rake 0",
        "Total pot 55 Main pot 40. Side pot-1 10. | Rake 5",
    ).replace("Blas: collected 45 from main pot", "Blas: collected 40 from main pot")
    assert_legal(
        raked,
        [(40, ("Ana", "Blas", "Ceci"), ("Blas",)), (10, ("Ana", "Ceci"), ("Ana",))],
        {"Blas": 40, "Ana": 10},
        {"Ana": -10, "Blas": 25, "Ceci": -20},
        rake=5,
    )


def test_rule_common_rake_larger_than_the_pot_is_reported_and_not_taken():
    bad = CH_THREE.replace("Total pot 60 | Rake 0", "Total pot 60 | Rake 61")
    v = bad.judge()
    assert_line(v, "RAKE", bad.line("Total pot 60 | Rake 61"), "61", only_one=False)
    assert v.payouts is not None and v.payouts["Ana"] == 60
    assert v.net == {"Ana": 40, "Blas": -20, "Ceci": -20}


# -------------------------------------------------------------------- showdown


MUCK = CH_THREE.replace("Ana: shows [5e 6b] (a straight, Cinco to Caballo)", "Ana: mucks hand")


def test_rule_common_showdown_muck_forfeits():
    # Ana's straight is mucked: Blas's aces win among the shown hands.
    muck = MUCK.replace("Ana: collected 60 from pot", "Blas: collected 60 from pot")
    v = muck.judge()
    assert v.valid, codes(v)
    assert v.pots is not None and [p.winners for p in v.pots] == [("Blas",)]
    assert {k: x for k, x in (v.payouts or {}).items() if x} == {"Blas": 60}
    assert v.net == {"Ana": -20, "Blas": 40, "Ceci": -20}
    # A mucked hand cannot collect.
    v = MUCK.judge()
    assert_line(v, "PAYOUT", MUCK.line("Ana: collected 60 from pot"), only_one=False)


def test_rule_common_showdown_in_any_order():
    reordered = CH_THREE.replace(
        "Blas: shows [Ao Ac] (a pair, Ases)", "Ceci: shows [Re Rb] (a pair, Reyes)"
    ).replace("Ceci: shows [Re Rb] (a pair, Reyes)", "Blas: shows [Ao Ac] (a pair, Ases)", nth=2)
    assert_legal(
        reordered,
        [(60, ("Ana", "Blas", "Ceci"), ("Ana",))],
        {"Ana": 60},
        {"Ana": 40, "Blas": -20, "Ceci": -20},
    )


def test_rule_common_showdown_at_least_one_must_show():
    allmuck = (
        MUCK.replace("Blas: shows [Ao Ac] (a pair, Ases)", "Blas: mucks hand")
        .replace("Ceci: shows [Re Rb] (a pair, Reyes)", "Ceci: mucks hand")
        .delete("Ana: collected 60 from pot")
    )
    v = allmuck.judge()
    showdown = [line for code, line in codes(v) if code == "SHOWDOWN"]
    assert showdown, codes(v)
    last_muck = allmuck.line("Ceci: mucks hand")
    assert showdown[0] in (last_muck, last_muck + 1)


def test_rule_common_showdown_player_missing():
    missing = CH_THREE.delete("Ceci: shows [Re Rb] (a pair, Reyes)")
    v = missing.judge()
    assert_line(v, "SHOWDOWN", missing.line("Ana: collected 60 from pot"), "Ceci", only_one=False)


def test_rule_common_shown_cards_must_be_the_dealt_cards():
    new = "Ceci: shows [Re Ro] (a pair, Reyes)"
    bad = CH_THREE.replace("Ceci: shows [Re Rb] (a pair, Reyes)", new)
    v = bad.judge()
    assert_line(v, "CARD_MISMATCH", bad.line(new), only_one=False)


def test_rule_common_voluntary_show_after_collecting():
    shows = CH_WRAP.insert_after("Dani: collected 80 from pot", "Dani: shows [Re Rb]")
    v = shows.judge()
    assert v.valid, codes(v)


# ------------------------------------------------------------------- stacks


def test_rule_common_stacks_never_below_zero():
    over = CH_FACING.replace("Blas: bets 280 and is all-in", "Blas: bets 300 and is all-in")
    v = over.judge()
    assert_line(v, "STACK_EXCEEDED", over.line("Blas: bets 300 and is all-in"), "280")


def test_rule_common_all_in_mark():
    unmarked = CH_FACING.replace("Blas: bets 280 and is all-in", "Blas: bets 280")
    v = unmarked.judge()
    assert_line(v, "ALL_IN_FLAG", unmarked.line("Blas: bets 280"), "Blas")
    marked = CH_FACING.replace("Ana: calls 20", "Ana: calls 20 and is all-in")
    v = marked.judge()
    assert_line(v, "ALL_IN_FLAG", marked.line("Ana: calls 20 and is all-in"), "Ana")


# --------------------------------------------------------------- summary lines


SUMMARY_LINES = (
    "Seat 1: Lucía: showed [So 7o] and won 1480 with a straight",
    "Seat 2: Paco: folded on COMMON 1",
    "Seat 3: Marta: folded on HOLE CARDS",
    "Seat 4: Íñigo: showed [5c 5e] and lost with a pair",
)


def test_rule_common_summary_seat_lines_agree_with_the_hand():
    ch = example("chiribito.txt")
    assert ch.lines[-4:] == SUMMARY_LINES
    v = ch.judge()
    assert v.valid
    folded = ch.replace("Seat 3: Marta: folded on HOLE CARDS", "Seat 3: Marta: folded on COMMON 1")
    v = folded.judge()
    assert_only(v, [("SUMMARY", folded.line("Seat 3: Marta: folded on COMMON 1"))])
    new = "Seat 1: Lucía: showed [So 7o] and won 1400 with a straight"
    won = ch.replace(SUMMARY_LINES[0], new)
    v = won.judge()
    assert_only(v, [("SUMMARY", won.line(new))])


LEVELS4_SEATS = (
    "Seat 1: Ana: showed [6e Sb] and won 600 with a straight",
    "Seat 2: Blas: showed [7e 6c] and lost with a pair",
    "Seat 3: Ceci: showed [So Se] and lost with a pair",
    "Seat 4: Dani: showed [Ao Ac] and won 1200 with three of a kind",
    "Seat 5: Eva: showed [Cc 5e] and lost with two pair",
    "Seat 6: Fede: showed [Re Rb] and won 200 with three of a kind",
)


def test_rule_common_summary_won_is_the_total_from_all_pots():
    hand = HandText(CH_LEVELS4.lines + LEVELS4_SEATS)
    v = hand.judge()
    assert v.valid, codes(v)
    new = "Seat 4: Dani: showed [Ao Ac] and won 500 with three of a kind"
    bad = hand.replace(LEVELS4_SEATS[3], new)
    v = bad.judge()
    assert_only(v, [("SUMMARY", bad.line(new))])


def test_rule_common_summary_seat_lines_all_or_none():
    ch = example("chiribito.txt").delete("Seat 2: Paco: folded on COMMON 1")
    v = ch.judge()
    assert "SUMMARY" in [c for c, _ in codes(v)], codes(v)


def test_rule_common_summary_won_zero_for_uncalled_only():
    lines = (
        "Seat 1: Ana: folded on HOLE CARDS",
        "Seat 2: Blas: won 0",
        "Seat 3: Ceci: folded on HOLE CARDS",
    )
    hand = HandText(CH_WALK.lines + lines)
    v = hand.judge()
    assert v.valid, codes(v)


# ------------------------------------------------------- informational lines


def test_rule_common_informational_lines_are_not_judged():
    chatty = (
        CH_THREE.insert_after("Blas: posts blind 20", 'Ceci: says "suerte"')
        .insert_after("Ana: calls 20", "Ceci: is disconnected")
        .insert_after("Ceci: is disconnected", "Ceci: is connected")
    )
    assert_legal(
        chatty,
        [(60, ("Ana", "Blas", "Ceci"), ("Ana",))],
        {"Ana": 60},
        {"Ana": 40, "Blas": -20, "Ceci": -20},
    )




def test_rule_common_top_up_between_hands():
    nxt = HandText.of("""
        chiribito.com Hand #T-CH-3t: Chiribito No Limit (blind 20) - 2026/11/29 21:05:00 CET
        Table 'Mérida' 6-max Seat #2 is the dealer
        Seat 1: Ana (1040 in chips)
        Seat 2: Blas (980 in chips)
        Seat 3: Ceci (1000 in chips)
        Ceci: adds 20 chips
        Ana: posts blind 20
        *** HOLE CARDS ***
        Dealt to Ana: down [Ao Ac]
        Dealt to Ceci: down [5e 6b]
        Dealt to Blas: down [Re Rb]
        Ceci: folds
        Blas: folds
        Uncalled bet (20) returned to Ana
        *** SUMMARY ***
        Total pot 0 | Rake 0
    """)
    first, second = judge_run(CH_THREE, nxt)
    assert first.valid and second.valid, codes(second)


def test_rule_common_carry_over_uses_the_stacks_the_rules_compute():
    # Hand 1 wrongly claims Blas collected; the rules give Ana the 60, and
    # hand 2's stacks (Ana 1040) follow the rules: no STACK_CARRYOVER.
    claims = CH_THREE.replace("Ana: collected 60 from pot", "Blas: collected 60 from pot")
    first, second = judge_run(claims, CH_THREE_NEXT)
    assert "PAYOUT" in [c for c, _ in codes(first)]
    assert codes(second) == []


def test_rule_common_player_absent_from_the_previous_hand_is_not_carry_over_checked():
    joined = HandText.of("""
        chiribito.com Hand #T-CH-3j: Chiribito No Limit (blind 20) - 2026/11/29 21:05:00 CET
        Table 'Mérida' 6-max Seat #2 is the dealer
        Seat 1: Ana (1040 in chips)
        Seat 2: Blas (980 in chips)
        Seat 3: Ceci (980 in chips)
        Seat 4: Dani (700 in chips)
        Ana: posts blind 20
        *** HOLE CARDS ***
        Dealt to Ana: down [Ao Ac]
        Dealt to Dani: down [Se Sb]
        Dealt to Ceci: down [5e 6b]
        Dealt to Blas: down [Re Rb]
        Dani: folds
        Ceci: folds
        Blas: folds
        Uncalled bet (20) returned to Ana
        *** SUMMARY ***
        Total pot 0 | Rake 0
    """)
    first, second = judge_run(CH_THREE, joined)
    assert codes(first) == [] and codes(second) == []


def test_format_cross_hand_order_is_by_converted_time():
    # CH_THREE_NEXT is written first but is later: 20:05 UTC after 21:00 CET
    # (20:00 UTC). Ordered by time the chain is CH_THREE then CH_THREE_NEXT.
    later = CH_THREE_NEXT.replace(
        CH_THREE_NEXT.lines[0], CH_THREE_NEXT.lines[0].replace("21:05:00 CET", "20:05:00 UTC")
    )
    second, first = judge_run(later, CH_THREE)
    assert codes(first) == [] and codes(second) == []


def test_format_a_hand_that_fails_to_parse_breaks_the_chain(tmp_path):
    broken = CH_THREE.replace(CH_THREE.lines[0], CH_THREE.lines[0].replace("#T-CH-3:", "#T-CH-X:"))
    broken = broken.replace(broken.lines[0], broken.lines[0].replace("21:00:00", "21:02:00"))
    broken = broken.replace("Ana: calls 20", "Ana: calls twenty")
    wrong = CH_THREE_NEXT.replace("Seat 3: Ceci (980 in chips)", "Seat 3: Ceci (990 in chips)")
    path = tmp_path / "run.txt"
    path.write_text("\n".join(h.text for h in (CH_THREE, broken, wrong)), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", "--json", str(path)])
    outs = [json.loads(x) for x in result.stdout.splitlines() if x.strip()]
    assert [o["hand_id"] for o in outs] == ["T-CH-3", "T-CH-X", "T-CH-3b"]
    assert [v["code"] for v in outs[1]["violations"]] == ["PARSE_ERROR"]
    # The broken hand sits between: Ceci's 990 is not compared with 980.
    assert outs[2]["violations"] == []
    # Without the broken hand the same 990 is a carry-over fault.
    path.write_text("\n".join(h.text for h in (CH_THREE, wrong)), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", "--json", str(path)])
    outs = [json.loads(x) for x in result.stdout.splitlines() if x.strip()]
    assert [v["code"] for v in outs[1]["violations"]] == ["STACK_CARRYOVER"]


# ------------------------------------------------------------------ hero view


HERO = CH_THREE.replace("Dealt to Blas: down [Ao Ac]", "Dealt to Blas: down [?? ??]").replace(
    "Dealt to Ceci: down [Re Rb]", "Dealt to Ceci: down [?? ??]"
)


def test_hero_view_stays_valid_and_lists_what_it_could_not_check():
    v = HERO.judge()
    assert v.valid, codes(v)
    assert v.unchecked
    out = v.to_json()
    assert isinstance(out["unchecked"], list) and out["unchecked"]
    for item in out["unchecked"]:
        assert set(item) == {"code", "line", "message"}
    assert out["valid"] is True
    # Everybody showed: the winner is known.
    assert {k: x for k, x in (v.payouts or {}).items() if x} == {"Ana": 60}
    assert v.net == {"Ana": 40, "Blas": -20, "Ceci": -20}


def test_hero_view_unchecked_only_in_json_when_non_empty():
    out = CH_THREE.judge().to_json()
    assert "unchecked" not in out


def test_hero_view_still_judges_what_it_can():
    bad = HERO.replace("Ceci: calls 20", "Ceci: calls 10")
    v = bad.judge()
    assert_line(v, "CALL_AMOUNT", bad.line("Ceci: calls 10"), "20")


# ------------------------------------------------------- format settled details


def test_format_zone_offsets_are_converted_for_the_order():
    # 21:00 +01:00 is 20:00 UTC, before 20:05 UTC; written in the other order.
    first = CH_THREE.replace(
        CH_THREE.lines[0], CH_THREE.lines[0].replace("21:00:00 CET", "21:00:00 +01:00")
    )
    later = CH_THREE_NEXT.replace(
        CH_THREE_NEXT.lines[0], CH_THREE_NEXT.lines[0].replace("21:05:00 CET", "20:05:00 UTC")
    )
    second, one = judge_run(later, first)
    assert codes(one) == [] and codes(second) == []


def test_format_informational_lines_from_anyone():
    chat = CH_THREE.insert_after("*** COMMON 3 *** [7c Sc] [Cb]", 'Zoe: says "(vaya mano)"')
    assert chat.judge().valid


def test_format_unknown_cards_only_in_dealt_lines():
    bad = CH_THREE.replace("Ceci: shows [Re Rb] (a pair, Reyes)", "Ceci: shows [?? ??] (a pair)")
    (record,) = list(parse_text(bad.text))
    assert record.error is not None
    assert record.error.line == bad.line("Ceci: shows [?? ??] (a pair)")


def test_format_a_header_inside_a_run_starts_a_new_hand():
    text = CH_THREE.text + CH_THREE_NEXT.text  # no blank line between
    records = list(parse_text(text))
    assert [r.hand_id for r in records] == ["T-CH-3", "T-CH-3b"]
    assert all(r.error is None for r in records)
    assert records[1].line == len(CH_THREE.lines) + 1


def test_format_bom_and_crlf_keep_line_numbers():
    bad = CH_THREE.replace("Ana: calls 20", "Ana: calls 10")
    text = "\ufeff" + bad.text.replace("\n", "\r\n")
    (record,) = list(parse_text(text))
    assert record.error is None and record.hand is not None
    v = validate(record.hand)
    assert_line(v, "CALL_AMOUNT", bad.line("Ana: calls 10"), "20")


def test_format_names_with_spaces():
    spaced = HandText(tuple(line.replace("Ana", "Ana María") for line in CH_THREE.lines))
    assert_legal(
        spaced,
        [(60, ("Ana María", "Blas", "Ceci"), ("Ana María",))],
        {"Ana María": 60},
        {"Ana María": 40, "Blas": -20, "Ceci": -20},
    )


def test_format_summary_outcomes_sat_out_and_mucked():
    wrap = HandText(
        (
            *CH_WRAP.lines,
            "Seat 1: Ana: folded on HOLE CARDS",
            "Seat 2: Blas: sat out",
            "Seat 4: Dani: won 80",
            "Seat 6: Fede: folded on COMMON 1",
        )
    )
    v = wrap.judge()
    assert v.valid, codes(v)
    muck = MUCK.replace("Ana: collected 60 from pot", "Blas: collected 60 from pot")
    muck = HandText(
        (
            *muck.lines,
            "Seat 1: Ana: mucked",
            "Seat 2: Blas: showed [Ao Ac] and won 60 with a pair",
            "Seat 3: Ceci: showed [Re Rb] and lost with a pair",
        )
    )
    v = muck.judge()
    assert v.valid, codes(v)
    wrong = muck.replace("Seat 1: Ana: mucked", "Seat 1: Ana: showed [5e 6b] and lost")
    v = wrong.judge()
    assert_line(v, "SUMMARY", wrong.line("Seat 1: Ana: showed [5e 6b] and lost"), only_one=False)


# ------------------------------------------------------- what each one receives


def test_rule_common_verdict_pairs_shares_with_winners_and_splits_the_rake():
    # CH_ODD with a rake of 4: the main pot 75 - 4 = 71 splits 36 + 35, the
    # odd chip to Dani (first in dealing order from the blind). Winners are
    # listed by seat (Ceci 3, Dani 4), each share beside its winner. The
    # rake falls on the main pot's winners by their shares: 4 * 36 // 71 = 2
    # and 4 * 35 // 71 = 1, the chip the floors leave to Dani: 3 and 1.
    raked = (
        CH_ODD.replace("Total pot 75 | Rake 0", "Total pot 75 | Rake 4")
        .replace("Dani: collected 38 from pot", "Dani: collected 36 from pot")
        .replace("Ceci: collected 37 from pot", "Ceci: collected 35 from pot")
    )
    v = raked.judge()
    assert v.valid, [(x.code, x.message) for x in v.violations]
    assert v.pots is not None
    (main,) = v.pots
    assert (main.amount, main.winners, main.shares) == (71, ("Ceci", "Dani"), (35, 36))
    assert v.rake == 4
    assert v.rake_paid == {"Ceci": 1, "Dani": 3}
    assert v.payouts == {"Ceci": 35, "Dani": 36}


def test_rule_common_no_rake_no_rake_paid():
    # CH_ODD, no rake: nobody pays any; the shares by seat are 37 (Ceci) and 38 (Dani).
    v = CH_ODD.judge()
    assert v.rake == 0 and v.rake_paid == {}
    assert v.pots is not None and v.pots[0].shares == (37, 38)


def test_rule_common_a_main_pot_raked_whole_splits_the_rake_evenly():
    # Rake 5 took the whole main pot: its two winners (players 2 and 0, in
    # dealing order) won 0 each and bear the rake in equal parts, 2 and 2,
    # and the chip left over goes to the first in dealing order: 3 and 2.
    # With shares 6 and 4 of 10, a rake of 7 is 4 and 2, plus 1 to the first.
    main = Award(0, (0, 1, 2), (2, 0), (0, 0))
    assert rake_shares(5, main) == {2: 3, 0: 2}
    assert rake_shares(0, main) == {}
    assert rake_shares(7, Award(10, (0, 1), (1, 0), (6, 4))) == {1: 4 + 1, 0: 2}
