"""RULES.md section 1, Chiribito: every rule with a legal hand (valid, exact
pots, payouts and net worked out by hand) and an illegal variant (the exact
code at the exact line). Hands are in ``handtext``; the comments there show
the arithmetic."""

from __future__ import annotations

import pytest
from handtext import (
    CH_ALLIN_OPENER,
    CH_FOLDED_OPENER,
    CH_MIN_RAISE,
    CH_ODD,
    CH_REOPEN,
    CH_SHORT_BLIND,
    CH_THREE,
    CH_THREE_NEXT,
    CH_WRAP,
    EX_CHIRIBITO,
    SPANISH,
    HandText,
    assert_legal,
    assert_line,
    assert_only,
    ch_heads_up,
    ch_perla,
    codes,
    commitment,
    deck_line,
    judge_run,
)

pytestmark = pytest.mark.compiled

THREE_POTS = [(60, ("Ana", "Blas", "Ceci"), ("Ana",))]
THREE_NET = {"Ana": 40, "Blas": -20, "Ceci": -20}


# ------------------------------------------------------------ who speaks, round 1


def test_rule_chiribito_blind_does_not_speak_twice():
    # Nobody raises the blind: round 1 closes at the dealer (Ceci) and the
    # blind (Blas) never acts.
    assert_legal(CH_THREE, THREE_POTS, {"Ana": 60}, THREE_NET)
    late = CH_THREE.insert_after("Ceci: calls 20", "Blas: checks")
    v = late.judge()
    assert_line(v, "OUT_OF_TURN", late.line("Blas: checks"), "Blas")


def test_rule_chiribito_uncalled_raise_in_round_one():
    # Ana raises to 40, everybody folds (the blind included): 20 of her 40
    # are beyond the second highest total (the blind's 20) and come back.
    hand = CH_THREE.replace("Ana: calls 20", "Ana: raises 20 to 40").replace(
        "Ceci: calls 20", "Ceci: folds"
    )
    cut = hand.line("Ceci: folds")
    hand = HandText(
        (
            *hand.lines[:cut],
            "Blas: folds",
            "Uncalled bet (20) returned to Ana",
            "Ana: collected 40 from pot",
            "*** SUMMARY ***",
            "Total pot 40 | Rake 0",
        )
    )
    assert_legal(hand, [(40, ("Ana",), ("Ana",))], {"Ana": 40}, {"Ana": 20, "Blas": -20, "Ceci": 0})


def test_rule_chiribito_blind_does_not_raise_an_unraised_round():
    late = CH_THREE.insert_after("Ceci: calls 20", "Blas: raises 20 to 40")
    v = late.judge()
    assert_line(v, "OUT_OF_TURN", late.line("Blas: raises 20 to 40"), "Blas")


def test_rule_chiribito_blind_answers_a_raise():
    # Blas raises to 40 in round 1: the blind (Ceci) answers like anybody.
    assert_legal(
        CH_FOLDED_OPENER,
        [(460, ("Ana", "Dani"), ("Ana",))],
        {"Ana": 460},
        {"Ana": 270, "Blas": -40, "Ceci": -40, "Dani": -190},
    )
    silent = CH_FOLDED_OPENER.delete("Ceci: calls 20")
    v = silent.judge()
    assert_line(v, "ROUND_NOT_CLOSED", silent.line("*** COMMON 1 *** [5o]"), "Ceci", only_one=False)


def test_rule_chiribito_blind_is_at_the_dealers_right_and_play_goes_counter_clockwise():
    # Dealer seat 1: the next occupied seat counter-clockwise wraps to seat 6.
    # Round 1 goes 4, (2 sits out), 1.
    assert_legal(
        CH_WRAP,
        [(80, ("Dani",), ("Dani",))],
        {"Dani": 80},
        {"Ana": 0, "Dani": 40, "Fede": -40},
    )
    wrong_blind = CH_WRAP.replace("Fede: posts blind 20", "Dani: posts blind 20")
    v = wrong_blind.judge()
    assert_line(v, "FORCED_BET", wrong_blind.line("Dani: posts blind 20"), only_one=False)


def test_rule_chiribito_first_to_speak_is_after_the_blind_counter_clockwise():
    # Clockwise play would have Ana (seat 1) speak first after the blind.
    early = CH_WRAP.insert_before("Dani: raises 20 to 40", "Ana: calls 20")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Ana: calls 20"), "Ana")


def test_rule_chiribito_sitting_out_player_is_skipped():
    v = CH_WRAP.judge()
    assert "Blas" not in (v.net or {})
    acts = CH_WRAP.insert_after("Dani: raises 20 to 40", "Blas: folds")
    v = acts.judge()
    assert_line(v, "NOT_IN_HAND", acts.line("Blas: folds"), "Blas")


def test_rule_chiribito_cards_dealt_counter_clockwise_from_the_blind_dealer_last():
    # Blas (blind) Ao, Ana 5e, Ceci Re, then Blas Ac, Ana 6b, Ceci Rb, then the
    # five common cards.
    deck = deck_line("Ao 5e Re Ac 6b Rb 7c Sc Cb 5o 6o", SPANISH)
    ok = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck)
    assert_legal(ok, THREE_POTS, {"Ana": 60}, THREE_NET)
    # Clockwise from the dealer's left (Ana, Blas, Ceci) is not the order.
    clockwise = deck_line("5e Ao Re 6b Ac Rb 7c Sc Cb 5o 6o", SPANISH)
    bad = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", clockwise)
    v = bad.judge()
    assert "DECK_ORDER" in [c for c, _ in codes(v)]
    assert not v.valid


def test_rule_chiribito_deck_with_commitment():
    deck = deck_line("Ao 5e Re Ac 6b Rb 7c Sc Cb 5o 6o", SPANISH, salt="5eed")
    digest = commitment(deck, "5eed")
    ok = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck).insert_after(
        "Table 'Mérida' 6-max Seat #3 is the dealer", f"Shuffle commitment: {digest}"
    )
    assert_legal(ok, THREE_POTS, {"Ana": 60}, THREE_NET)


# ------------------------------------------------------------------ the blind


def test_rule_chiribito_short_blind_owes_full_call():
    # Blas posts 15 all-in; Ana and Ceci still call 20. Main 45, side 10.
    assert_legal(
        CH_SHORT_BLIND,
        [(45, ("Ana", "Blas", "Ceci"), ("Blas",)), (10, ("Ana", "Ceci"), ("Ana",))],
        {"Blas": 45, "Ana": 10},
        {"Ana": -10, "Blas": 30, "Ceci": -20},
    )
    short_call = CH_SHORT_BLIND.replace("Ana: calls 20", "Ana: calls 15")
    v = short_call.judge()
    assert_line(v, "CALL_AMOUNT", short_call.line("Ana: calls 15"), "20")


def test_rule_chiribito_short_blind_call_beyond_the_post_is_returned():
    # Ana owes the full 20, Ceci folds: 5 of Ana's 20 are beyond the second
    # highest total (Blas's 15) and come back. Pot 30 to Blas's aces.
    hand = HandText.of("""
        chiribito.com Hand #T-CH-SR: Chiribito No Limit (blind 20) - 2026/11/30 11:20:00 CET
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
        Ceci: folds
        Uncalled bet (5) returned to Ana
        *** COMMON 1 *** [5o]
        *** COMMON 2 *** [5o] [7c]
        *** COMMON 3 *** [5o 7c] [Ce]
        *** COMMON 4 *** [5o 7c Ce] [Ab]
        *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
        *** SHOWDOWN ***
        Blas: shows [Ao Ac] (three of a kind, Ases)
        Ana: shows [Re Rb] (three of a kind, Reyes)
        Blas: collected 30 from pot
        *** SUMMARY ***
        Total pot 30 | Rake 0
        Board [5o 7c Ce Ab Ro]
    """)
    assert_legal(
        hand,
        [(30, ("Ana", "Blas"), ("Blas",))],
        {"Blas": 30},
        {"Ana": -15, "Blas": 15, "Ceci": 0},
    )
    kept = hand.delete("Uncalled bet (5) returned to Ana")
    v = kept.judge()
    assert_line(v, "UNCALLED_BET", kept.line("*** COMMON 1 *** [5o]"), "5", only_one=False)


def test_rule_chiribito_short_blind_mucking_the_winner_forfeits_every_pot():
    # CH_SHORT_BLIND with Blas (best hand, main pot only) mucking: Ana's
    # kings take the main pot (45) and the side pot (10): 55 - 20 = +35.
    hand = CH_SHORT_BLIND.replace(
        "Blas: shows [Ao Ac] (three of a kind, Ases)", "Blas: mucks hand"
    ).replace("Blas: collected 45 from main pot", "Ana: collected 45 from main pot")
    v = hand.judge()
    assert v.valid, codes(v)
    assert [p.winners for p in v.pots or ()] == [("Ana",), ("Ana",)]
    assert [p.amount for p in v.pots or ()] == [45, 10]
    assert {k: x for k, x in (v.payouts or {}).items() if x} == {"Ana": 55}
    assert v.net == {"Ana": 35, "Blas": -15, "Ceci": -20}


def test_rule_chiribito_short_blind_current_bet_is_the_header_blind():
    # The current bet is 20, not 15: a raise to 30 rises by 10 ...
    by_15 = CH_SHORT_BLIND.replace("Ana: calls 20", "Ana: raises 15 to 30")
    v = by_15.judge()
    assert_line(v, "AMOUNT_MISMATCH", by_15.line("Ana: raises 15 to 30"), "10")
    # ... and is below the minimum of 40.
    to_30 = CH_SHORT_BLIND.replace("Ana: calls 20", "Ana: raises 10 to 30")
    v = to_30.judge()
    assert_line(v, "RAISE_SIZE", to_30.line("Ana: raises 10 to 30"), "40")


def test_rule_chiribito_blind_posts_the_header_amount():
    small = CH_THREE.replace("Blas: posts blind 20", "Blas: posts blind 10")
    v = small.judge()
    assert_line(v, "FORCED_BET", small.line("Blas: posts blind 10"), "20", only_one=False)


def test_rule_chiribito_short_blind_posts_all_and_is_all_in():
    unmarked = CH_SHORT_BLIND.replace("Blas: posts blind 15 and is all-in", "Blas: posts blind 15")
    v = unmarked.judge()
    assert_line(v, "ALL_IN_FLAG", unmarked.line("Blas: posts blind 15"))


def test_rule_chiribito_blind_all_in_opens_next_counter_clockwise():
    # Nobody bet: the blind would open; he is all-in: Ana (seat 1), not Ceci.
    wrong = CH_SHORT_BLIND.insert_after("*** COMMON 1 *** [5o]", "Ceci: checks")
    v = wrong.judge()
    assert_line(v, "OUT_OF_TURN", wrong.line("*** COMMON 1 *** [5o]") + 1, "Ceci")


# -------------------------------------------------------------- bets and raises


def test_rule_chiribito_raise_to_at_least_double():
    assert_legal(
        CH_MIN_RAISE,
        [(210, ("Ana", "Blas", "Ceci"), ("Ceci",)), (440, ("Ana", "Blas"), ("Blas",))],
        {"Ceci": 210, "Blas": 440},
        {"Ana": -290, "Blas": 150, "Ceci": 140},
    )
    to_30 = CH_MIN_RAISE.replace("Ana: raises 20 to 40", "Ana: raises 10 to 30")
    v = to_30.judge()
    assert_line(v, "RAISE_SIZE", to_30.line("Ana: raises 10 to 30"), "40")
    # Common 1: Blas bets 100, a raise must make it 200.
    to_150 = CH_MIN_RAISE.replace("Ana: raises 100 to 200", "Ana: raises 50 to 150")
    v = to_150.judge()
    assert_line(v, "RAISE_SIZE", to_150.line("Ana: raises 50 to 150"), "200")


def test_rule_chiribito_all_in_below_the_minimum_is_allowed():
    # Ceci's raise to 70 is below 80 but all-in: legal (the hand is valid).
    v = CH_MIN_RAISE.judge()
    assert v.valid
    # Not all-in, the same raise is too small.
    stacked = CH_MIN_RAISE.replace("Seat 3: Ceci (70 in chips)", "Seat 3: Ceci (1000 in chips)")
    stacked = stacked.replace("Ceci: raises 30 to 70 and is all-in", "Ceci: raises 30 to 70")
    v = stacked.judge()
    assert_line(v, "RAISE_SIZE", stacked.line("Ceci: raises 30 to 70"), "80")


def test_rule_chiribito_bet_at_least_the_blind():
    # Common 3: Ana bets 20, the minimum (legal hand above); 15 is too little.
    small = CH_MIN_RAISE.replace("Ana: bets 20", "Ana: bets 15").replace(
        "Blas: calls 20", "Blas: calls 15"
    )
    v = small.judge()
    assert_line(v, "BET_SIZE", small.line("Ana: bets 15"), "20")


def test_rule_chiribito_check_only_when_nobody_has_bet():
    # Round 1: the blind is a bet, Ana may not check.
    check = CH_THREE.replace("Ana: calls 20", "Ana: checks")
    v = check.judge()
    assert_line(v, "ILLEGAL_CHECK", check.line("Ana: checks"))


def test_rule_chiribito_short_all_in_does_not_reopen():
    # Ana raised to 40 and faces Ceci's 70 < 2 x 40: she may only call or fold.
    reraise = CH_MIN_RAISE.replace("Ana: calls 30", "Ana: raises 70 to 140")
    v = reraise.judge()
    assert_line(v, "NOT_REOPENED", reraise.line("Ana: raises 70 to 140"), "Ana")


def test_rule_chiribito_short_all_ins_adding_up_to_double_reopen():
    # Blas bet 100; Dani (150) and Ceci (200) go all-in short; 200 >= 2 x 100.
    assert_legal(
        CH_REOPEN,
        [
            (680, ("Ana", "Blas", "Ceci", "Dani"), ("Dani",)),
            (150, ("Ana", "Blas", "Ceci"), ("Ceci",)),
            (400, ("Ana", "Blas"), ("Ana",)),
        ],
        {"Dani": 680, "Ceci": 150, "Ana": 400},
        {"Ana": -20, "Blas": -420, "Ceci": -70, "Dani": 510},
    )


def test_rule_chiribito_short_all_ins_below_double_do_not_reopen():
    # Ceci has 200: all-in to 180 < 2 x 100 faced by Blas, who bet 100.
    short = (
        CH_REOPEN.replace("Seat 3: Ceci (220 in chips)", "Seat 3: Ceci (200 in chips)")
        .replace("Ceci: raises 50 to 200 and is all-in", "Ceci: raises 30 to 180 and is all-in")
        .replace("Blas: raises 200 to 400", "Blas: raises 180 to 360")
    )
    v = short.judge()
    assert_line(v, "NOT_REOPENED", short.line("Blas: raises 180 to 360"), "Blas")


def test_rule_chiribito_short_all_in_reopening_counts_from_the_matched_bet():
    # Ana called (matched) 20; Ceci's all-in makes 30 < 2 x 20: after Blas
    # calls, Ana may only call or fold.
    hand = HandText.of("""
        chiribito.com Hand #T-CH-MB: Chiribito No Limit (blind 20) - 2026/11/30 11:10:00 CET
        Table 'Mérida' 6-max Seat #3 is the dealer
        Seat 1: Ana (1000 in chips)
        Seat 2: Blas (1000 in chips)
        Seat 3: Ceci (30 in chips)
        Blas: posts blind 20
        *** HOLE CARDS ***
        Dealt to Blas: down [Ao Ac]
        Dealt to Ana: down [Re Rb]
        Dealt to Ceci: down [6e 7b]
        Ana: calls 20
        Ceci: raises 10 to 30 and is all-in
        Blas: calls 10
        Ana: calls 10
        *** COMMON 1 *** [5o]
        Blas: checks
        Ana: checks
        *** COMMON 2 *** [5o] [Sc]
        Blas: checks
        Ana: checks
        *** COMMON 3 *** [5o Sc] [Cb]
        Blas: checks
        Ana: checks
        *** COMMON 4 *** [5o Sc Cb] [Ab]
        Blas: checks
        Ana: checks
        *** COMMON 5 *** [5o Sc Cb Ab] [Ro]
        Blas: checks
        Ana: checks
        *** SHOWDOWN ***
        Ceci: shows [6e 7b] (a straight, Seis to Rey)
        Blas: shows [Ao Ac] (three of a kind, Ases)
        Ana: shows [Re Rb] (three of a kind, Reyes)
        Ceci: collected 90 from pot
        *** SUMMARY ***
        Total pot 90 | Rake 0
        Board [5o Sc Cb Ab Ro]
    """)
    # Ceci raised last (all-in): Blas, next counter-clockwise from seat 3,
    # opens every common round. One pot of 3 x 30.
    assert_legal(
        hand,
        [(90, ("Ana", "Blas", "Ceci"), ("Ceci",))],
        {"Ceci": 90},
        {"Ana": -30, "Blas": -30, "Ceci": 60},
    )
    reraise = hand.replace("Ana: calls 10", "Ana: raises 30 to 60")
    v = reraise.judge()
    assert_line(v, "NOT_REOPENED", reraise.line("Ana: raises 30 to 60"), "Ana")


def test_rule_chiribito_posting_the_blind_is_not_acting():
    # Ceci's all-in to 30 is short (< 40) but Blas, the blind, has not acted:
    # he may raise (to 60). Ana folds; 30 of Blas's 60 comes back.
    # Ana 20, Ceci 30, Blas 30: 80 to Ceci's straight.
    hand = HandText.of("""
        chiribito.com Hand #T-CH-PB: Chiribito No Limit (blind 20) - 2026/11/30 11:00:00 CET
        Table 'Mérida' 6-max Seat #3 is the dealer
        Seat 1: Ana (1000 in chips)
        Seat 2: Blas (1000 in chips)
        Seat 3: Ceci (30 in chips)
        Blas: posts blind 20
        *** HOLE CARDS ***
        Dealt to Blas: down [Ao Ac]
        Dealt to Ana: down [Re Rb]
        Dealt to Ceci: down [6e 7b]
        Ana: calls 20
        Ceci: raises 10 to 30 and is all-in
        Blas: raises 30 to 60
        Ana: folds
        Uncalled bet (30) returned to Blas
        *** COMMON 1 *** [5o]
        *** COMMON 2 *** [5o] [Sc]
        *** COMMON 3 *** [5o Sc] [Cb]
        *** COMMON 4 *** [5o Sc Cb] [Ab]
        *** COMMON 5 *** [5o Sc Cb Ab] [Ro]
        *** SHOWDOWN ***
        Ceci: shows [6e 7b] (a straight, Seis to Rey)
        Blas: shows [Ao Ac] (three of a kind, Ases)
        Ceci: collected 80 from pot
        *** SUMMARY ***
        Total pot 80 | Rake 0
        Board [5o Sc Cb Ab Ro]
    """)
    assert_legal(
        hand,
        [(80, ("Blas", "Ceci"), ("Ceci",))],
        {"Ceci": 80},
        {"Ana": -20, "Blas": -30, "Ceci": 50},
    )


# ----------------------------------------------------- who opens rounds 2 to 6


def test_rule_chiribito_opener_is_last_aggressor_across_rounds():
    # FORMAT.md's example: Íñigo opens common 1, Lucía common 2 and 3.
    example = EX_CHIRIBITO
    assert_legal(
        example,
        [(1480, ("Lucía", "Íñigo"), ("Lucía",))],
        {"Lucía": 1480},
        {"Lucía": 760, "Paco": -40, "Marta": 0, "Íñigo": -720},
    )
    # CH_MIN_RAISE: Ana raised in common 1, nobody bet in common 2: Ana opens
    # common 3, not Blas.
    anchor = "*** COMMON 3 *** [5o Sc] [Cb]"
    wrong = CH_MIN_RAISE.insert_after(anchor, "Blas: checks")
    v = wrong.judge()
    assert_only(v, [("OUT_OF_TURN", wrong.line(anchor) + 1)])


def test_rule_chiribito_opener_when_nobody_has_bet_is_the_blind():
    wrong = CH_THREE.insert_after("*** COMMON 1 *** [7c]", "Ana: checks")
    v = wrong.judge()
    assert_line(v, "OUT_OF_TURN", wrong.line("*** COMMON 1 *** [7c]") + 1, "Ana")


def test_rule_chiribito_opener_folded_last_aggressor_passes_counter_clockwise():
    v = CH_FOLDED_OPENER.judge()
    assert v.valid
    # Common 2: Blas (folded) raised last; Ana (seat 1) opens, not Ceci (seat 3).
    anchor = "*** COMMON 2 *** [5o] [7c]"
    for who in ("Ceci", "Dani"):
        wrong = CH_FOLDED_OPENER.insert_after(anchor, f"{who}: checks")
        v = wrong.judge()
        assert_line(v, "OUT_OF_TURN", wrong.line(anchor) + 1, who)


def test_rule_chiribito_opener_all_in_last_aggressor_short_raise_included():
    assert_legal(
        CH_ALLIN_OPENER,
        [(240, ("Blas", "Ceci", "Dani"), ("Dani",)), (200, ("Blas", "Ceci"), ("Blas",))],
        {"Dani": 240, "Blas": 200},
        {"Ana": -60, "Blas": 40, "Ceci": -160, "Dani": 180},
    )
    # Ana made the last full raise, but Dani's short all-in raise came after.
    for who in ("Ana", "Blas"):
        wrong = CH_ALLIN_OPENER.insert_after("*** COMMON 1 *** [5o]", f"{who}: checks")
        v = wrong.judge()
        assert_line(v, "OUT_OF_TURN", wrong.line("*** COMMON 1 *** [5o]") + 1, who)
    # Common 2 (nobody bet in common 1): the most recent aggressor is still Dani.
    anchor = "*** COMMON 2 *** [5o] [7c]"
    wrong = CH_ALLIN_OPENER.insert_after(anchor, "Blas: checks")
    v = wrong.judge()
    assert_line(v, "OUT_OF_TURN", wrong.line(anchor) + 1, "Blas")


def test_rule_chiribito_raiser_facing_short_all_in_may_only_call():
    reraise = CH_ALLIN_OPENER.replace("Ana: calls 20", "Ana: raises 60 to 120")
    v = reraise.judge()
    assert_line(v, "NOT_REOPENED", reraise.line("Ana: raises 60 to 120"), "Ana")


# --------------------------------------------------------------- hands, ranking


def test_rule_chiribito_hand_is_both_hole_cards_plus_three_common():
    # Ana's Ao with the four oros on the board would be a flush; with both hole
    # cards she has only a pair of fives. Blas's trips win.
    board = ["5o", "6o", "Co", "Ro", "7c"]
    hand = ch_heads_up(
        "T-CH-2H",
        "Ce Cb",
        "Ao 5e",
        board,
        ["Ana: shows [Ao 5e] (a pair, Cincos)", "Blas: shows [Ce Cb] (three of a kind, Caballos)"],
        ["Blas: collected 40 from pot"],
    )
    assert_legal(hand, [(40, ("Ana", "Blas"), ("Blas",))], {"Blas": 40}, {"Ana": -20, "Blas": 20})
    flush = hand.replace("Ana: shows [Ao 5e] (a pair, Cincos)", "Ana: shows [Ao 5e] (a flush)")
    v = flush.judge()
    assert_line(v, "HAND_DESCRIPTION", flush.line("Ana: shows [Ao 5e] (a flush)"), only_one=False)


def test_rule_chiribito_flush_beats_full_house():
    board = ["5o", "6o", "7c", "7e", "Ao"]
    hand = ch_heads_up(
        "T-CH-FF",
        "7b 5c",
        "Ro Co",
        board,
        [
            "Blas: shows [7b 5c] (a full house, Sietes full of Cincos)",
            "Ana: shows [Ro Co] (a flush, As)",
        ],
        ["Ana: collected 40 from pot"],
    )
    assert_legal(hand, [(40, ("Ana", "Blas"), ("Ana",))], {"Ana": 40}, {"Ana": 20, "Blas": -20})
    wrong = hand.replace("Ana: collected 40 from pot", "Blas: collected 40 from pot")
    v = wrong.judge()
    assert_line(v, "PAYOUT", wrong.line("Blas: collected 40 from pot"), only_one=False)


def test_rule_chiribito_ace_low_straight_ranks_lowest():
    # Ana A-5-6-7-S (Sota high, the lowest) loses to Blas 6-7-S-C-R.
    board = ["5o", "6c", "7e", "Rb", "Re"]
    hand = ch_heads_up(
        "T-CH-LS",
        "Ce Sb",
        "Ao Sc",
        board,
        [
            "Blas: shows [Ce Sb] (a straight, Seis to Rey)",
            "Ana: shows [Ao Sc] (a straight, As to Sota)",
        ],
        ["Blas: collected 40 from pot"],
    )
    assert_legal(hand, [(40, ("Ana", "Blas"), ("Blas",))], {"Blas": 40}, {"Ana": -20, "Blas": 20})


def test_rule_chiribito_no_wrap_around_straight():
    # S-C-R-A-5 is no straight: Ana's Ao 5e with Sc Cb Re is ace high; her
    # best is a pair of sevens. Blas's sotas full of sevens win.
    board = ["Sc", "Cb", "Re", "7o", "7e"]
    hand = ch_heads_up(
        "T-CH-NW",
        "Se Sb",
        "Ao 5e",
        board,
        [
            "Blas: shows [Se Sb] (a full house, Sotas full of Sietes)",
            "Ana: shows [Ao 5e] (a pair, Sietes)",
        ],
        ["Blas: collected 40 from pot"],
    )
    assert_legal(hand, [(40, ("Ana", "Blas"), ("Blas",))], {"Blas": 40}, {"Ana": -20, "Blas": 20})
    old = "Ana: shows [Ao 5e] (a pair, Sietes)"
    v = hand.replace(old, "Ana: shows [Ao 5e] (a straight, Sota to Cinco)").judge()
    assert_line(v, "HAND_DESCRIPTION", hand.line(old), only_one=False)


def test_rule_chiribito_suits_never_break_ties():
    v = CH_ODD.judge()
    assert v.valid
    assert v.pots is not None and v.pots[0].winners == ("Ceci", "Dani")


# -------------------------------------------------------------------- La Perla

PERLA_FULL = "a full house, Ases full of Reyes"


def test_rule_chiribito_la_perla_is_a_name_only_by_default():
    # Without the house rule La Perla ranks by its cards (a pair of aces) and
    # loses to Blas's aces full; the description may name it after the comma.
    hand = ch_perla(
        "T-CH-LP1",
        rule=False,
        ceci="Se 6b",
        ceci_desc="a pair, Ases",
        ana_desc="a pair, La Perla",
        collected=["Blas: collected 75 from pot"],
    )
    assert_legal(
        hand,
        [(75, ("Ana", "Blas", "Ceci"), ("Blas",))],
        {"Blas": 75},
        {"Ana": -25, "Blas": 50, "Ceci": -25},
    )


def test_rule_chiribito_la_perla_category_only_under_the_house_rule():
    hand = ch_perla(
        "T-CH-LP2",
        rule=False,
        ceci="Se 6b",
        ceci_desc="a pair, Ases",
        ana_desc="La Perla",
        collected=["Blas: collected 75 from pot"],
    )
    v = hand.judge()
    assert_line(v, "HAND_DESCRIPTION", hand.line("Ana: shows [So 7o] (La Perla)"), only_one=False)


def test_rule_chiribito_la_perla_wins_house_rule():
    hand = ch_perla(
        "T-CH-LP3",
        rule=True,
        ceci="Se 6b",
        ceci_desc="a pair, Ases",
        ana_desc="La Perla",
        collected=["Ana: collected 75 from pot"],
    )
    assert_legal(
        hand,
        [(75, ("Ana", "Blas", "Ceci"), ("Ana",))],
        {"Ana": 75},
        {"Ana": 50, "Blas": -25, "Ceci": -25},
    )
    wrong = hand.replace("Ana: collected 75 from pot", "Blas: collected 75 from pot")
    v = wrong.judge()
    assert_line(v, "PAYOUT", wrong.line("Blas: collected 75 from pot"), only_one=False)


def test_rule_chiribito_two_la_perlas_split_odd_chip_from_the_blind():
    # Blind Ceci (seat 3): the order from the blind is Ceci, Blas, Ana, so of
    # 75 Ceci gets 38 and Ana 37.
    hand = ch_perla(
        "T-CH-LP4",
        rule=True,
        ceci="Sc 7c",
        ceci_desc="La Perla",
        ana_desc="La Perla",
        collected=["Ceci: collected 38 from pot", "Ana: collected 37 from pot"],
    )
    assert_legal(
        hand,
        [(75, ("Ana", "Blas", "Ceci"), ("Ana", "Ceci"))],
        {"Ceci": 38, "Ana": 37},
        {"Ana": 12, "Blas": -25, "Ceci": 13},
    )


# ------------------------------------------------------------------ odd chips


def test_rule_chiribito_odd_chip_order_from_the_blind_counter_clockwise():
    # Blind Ana (1): Ana, Dani (4), Ceci (3), Blas (2). Dani gets 38, Ceci 37.
    assert_legal(
        CH_ODD,
        [(75, ("Ana", "Ceci", "Dani"), ("Ceci", "Dani"))],
        {"Dani": 38, "Ceci": 37},
        {"Ana": -25, "Blas": 0, "Ceci": 12, "Dani": 13},
    )
    swapped = CH_ODD.replace("Dani: collected 38 from pot", "Dani: collected 37 from pot")
    swapped = swapped.replace("Ceci: collected 37 from pot", "Ceci: collected 38 from pot")
    v = swapped.judge()
    assert_line(v, "PAYOUT", swapped.line("Dani: collected 37 from pot"), "38", only_one=False)


# ---------------------------------------------------------------- deal, players


def test_rule_chiribito_two_hole_cards_face_down():
    three = CH_THREE.replace("Dealt to Ana: down [5e 6b]", "Dealt to Ana: down [5e 6b 7b]")
    v = three.judge()
    assert_line(v, "CARD_COUNT", three.line("Dealt to Ana: down [5e 6b 7b]"), only_one=False)
    up = CH_THREE.replace("Dealt to Ana: down [5e 6b]", "Dealt to Ana: down [5e] up [6b]")
    v = up.judge()
    assert_line(v, "CARD_COUNT", up.line("Dealt to Ana: down [5e] up [6b]"), only_one=False)


def test_rule_chiribito_two_to_six_players():
    seats = [f"Seat {k}: P{k} (1000 in chips)" for k in range(1, 8)]
    hand = HandText.of("""
        chiribito.com Hand #T-CH-7P: Chiribito No Limit (blind 20) - 2026/11/30 12:00:00 CET
        Table 'Mérida' 9-max Seat #7 is the dealer
    """)
    cards = ["5o 6o", "7o So", "Co Ro", "Ao 5c", "6c 7c", "Sc Cc", "Rc Ac"]
    deal = [f"Dealt to P{k}: down [{cards[7 - k]}]" for k in range(6, 0, -1)] + [
        f"Dealt to P7: down [{cards[0]}]"
    ]
    acts = [f"P{k}: folds" for k in range(5, 0, -1)] + ["P7: folds"]
    hand = HandText(
        (
            *hand.lines,
            *seats,
            "P6: posts blind 20",
            "*** HOLE CARDS ***",
            *deal,
            *acts,
            "Uncalled bet (20) returned to P6",
            "*** SUMMARY ***",
            "Total pot 0 | Rake 0",
        )
    )
    v = hand.judge()
    seat_codes = [line for code, line in codes(v) if code == "SEATS"]
    assert seat_codes, codes(v)
    assert seat_codes[0] in (2, hand.line("Seat 7: P7 (1000 in chips)"))


# -------------------------------------------------------------- between hands




def test_rule_chiribito_deal_passes_right_and_stacks_carry_over():
    # CH_THREE: dealer 3, blind Blas (2), Ana won 60. Next hand: Blas deals,
    # Ana (the next counter-clockwise) posts; stacks 1040, 980, 980.
    first, second = judge_run(CH_THREE, CH_THREE_NEXT)
    assert first.valid and second.valid, (codes(first), codes(second))
    assert second.net == {"Ana": 0, "Blas": 0, "Ceci": 0}
    assert all(x == 0 for x in (second.payouts or {}).values())
    assert second.pots == ()


def test_rule_chiribito_deal_does_not_pass_left():
    # Dealer passed clockwise (seat 3 -> 1): blind is then seat 3 (Ceci).
    left = HandText.of("""
        chiribito.com Hand #T-CH-3c: Chiribito No Limit (blind 20) - 2026/11/29 21:05:00 CET
        Table 'Mérida' 6-max Seat #1 is the dealer
        Seat 1: Ana (1040 in chips)
        Seat 2: Blas (980 in chips)
        Seat 3: Ceci (980 in chips)
        Ceci: posts blind 20
        *** HOLE CARDS ***
        Dealt to Ceci: down [Ao Ac]
        Dealt to Blas: down [5e 6b]
        Dealt to Ana: down [Re Rb]
        Blas: folds
        Ana: folds
        Uncalled bet (20) returned to Ceci
        *** SUMMARY ***
        Total pot 0 | Rake 0
    """)
    assert left.judge().valid
    _, second = judge_run(CH_THREE, left)
    offset = len(CH_THREE.lines) + 1
    assert_only(second, [("DEALER_ROTATION", offset + 2)])


def test_rule_chiribito_next_dealer_skips_a_player_not_dealt_in():
    # After dealer 3 / blind Blas, Blas sits out: the deal passes on to
    # Ana (seat 1); the blind is then Ceci (seat 3, wrapping).
    nxt = HandText.of("""
        chiribito.com Hand #T-CH-3d: Chiribito No Limit (blind 20) - 2026/11/29 21:05:00 CET
        Table 'Mérida' 6-max Seat #1 is the dealer
        Seat 1: Ana (1040 in chips)
        Seat 2: Blas (980 in chips) is sitting out
        Seat 3: Ceci (980 in chips)
        Ceci: posts blind 20
        *** HOLE CARDS ***
        Dealt to Ceci: down [Ao Ac]
        Dealt to Ana: down [5e 6b]
        Ana: folds
        Uncalled bet (20) returned to Ceci
        *** SUMMARY ***
        Total pot 0 | Rake 0
    """)
    first, second = judge_run(CH_THREE, nxt)
    assert codes(first) == [] and codes(second) == []
    assert second.net == {"Ana": 0, "Ceci": 0}
