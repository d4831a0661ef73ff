"""RULES.md section 3, Calatone: every rule with a legal hand (valid, exact
pots, payouts, net worked out by hand) and an illegal variant (exact code at
the exact line). Hands and arithmetic: ``handtext``."""

from __future__ import annotations

import pytest
from handtext import (
    CA_CHECK2,
    CA_CHECK5,
    CA_CHECK7,
    CA_DECK7,
    CA_EXPOSED5,
    CA_ODD,
    CA_SHORT,
    CA_SPREAD,
    CA_TIE,
    CA_UNDER,
    FRENCH,
    HandText,
    assert_legal,
    assert_line,
    assert_only,
    ca_flush_full,
    codes,
    deck_line,
    judge_run,
)

pytestmark = pytest.mark.compiled

CHECK2_POTS = [(15, ("Dario", "Elena", "Fabio"), ("Fabio",))]
CHECK2_NET = {"Dario": -5, "Elena": -5, "Fabio": 10}


# ------------------------------------------------------------------ antes, deal


def test_rule_calatone_everyone_antes_the_header_amount():
    assert_legal(CA_CHECK2, CHECK2_POTS, {"Fabio": 15}, CHECK2_NET)
    small = CA_CHECK2.replace("Elena: posts ante 5", "Elena: posts ante 1")
    v = small.judge()
    assert_line(v, "FORCED_BET", small.line("Elena: posts ante 1"), "5", only_one=False)


def test_rule_calatone_second_street_one_down_one_up():
    dealt = "Dealt to Dario: down [Kh] up [7c]"
    both_down = CA_CHECK2.replace(dealt, "Dealt to Dario: down [Kh 7c]")
    v = both_down.judge()
    assert_line(v, "CARD_COUNT", both_down.line("Dealt to Dario: down [Kh 7c]"), only_one=False)
    both_up = CA_CHECK2.replace(dealt, "Dealt to Dario: up [Kh 7c]")
    v = both_up.judge()
    assert_line(v, "CARD_COUNT", both_up.line("Dealt to Dario: up [Kh 7c]"), only_one=False)


def test_rule_calatone_third_to_seventh_street_one_up():
    down = CA_CHECK5.replace("Dealt to Dario: up [Kd]", "Dealt to Dario: down [Kd]")
    v = down.judge()
    assert_line(v, "CARD_COUNT", down.line("Dealt to Dario: down [Kd]"), only_one=False)


def test_rule_calatone_folded_player_gets_no_more_cards():
    # Elena folded on 3rd street.
    anchor = "Dealt to Fabio: up [2s]"
    dealt = CA_CHECK5.insert_after(anchor, "Dealt to Elena: up [2c]")
    v = dealt.judge()
    assert not v.valid
    assert_line(v, "CARD_COUNT", dealt.line(anchor) + 1, "Elena", only_one=False)


# -------------------------------------------------------------- spread limit


def test_rule_calatone_spread_limit_bets_and_raises_no_cap():
    # Bet 7, raises of 5, 50, 13, 25: four raises. 2 x 105 = 210 to Fabio.
    assert_legal(
        CA_SPREAD, [(210, ("Fabio",), ("Fabio",))], {"Fabio": 210}, {"Dario": -105, "Fabio": 105}
    )


def test_rule_calatone_bet_between_minimum_and_maximum():
    for amount, fragment in (("4", "5"), ("51", "50")):
        bad = CA_SPREAD.replace("Dario: bets 7", f"Dario: bets {amount}")
        v = bad.judge()
        assert_line(v, "BET_SIZE", bad.line(f"Dario: bets {amount}"), fragment)


def test_rule_calatone_raise_by_between_minimum_and_maximum():
    low = CA_SPREAD.replace("Fabio: raises 5 to 12", "Fabio: raises 4 to 11")
    v = low.judge()
    assert_line(v, "RAISE_SIZE", low.line("Fabio: raises 4 to 11"), "12")
    high = CA_SPREAD.replace("Fabio: raises 13 to 75", "Fabio: raises 51 to 113")
    v = high.judge()
    assert_line(v, "RAISE_SIZE", high.line("Fabio: raises 51 to 113"), "112")


def test_rule_calatone_short_all_in_raise_does_not_reopen():
    assert_legal(
        CA_SHORT,
        [(174, ("Elena", "Fabio"), ("Elena",))],
        {"Elena": 174},
        {"Dario": -58, "Elena": 116, "Fabio": -58},
    )
    reraise = CA_SHORT.replace("Dario: calls 3", "Dario: raises 10 to 63")
    v = reraise.judge()
    assert_line(v, "NOT_REOPENED", reraise.line("Dario: raises 10 to 63"), "Dario")


def test_rule_calatone_raises_after_short_all_in_count_from_all_in_total():
    # Elena all-in to 53: the smallest raise makes 58; 57 is 4 more than 53.
    small = CA_SHORT.replace("Fabio: calls 53", "Fabio: raises 4 to 57")
    v = small.judge()
    assert_line(v, "RAISE_SIZE", small.line("Fabio: raises 4 to 57"), "58")


def test_rule_calatone_first_to_speak_may_fold():
    folded = CA_CHECK2.replace("Elena: checks", "Elena: folds").delete(
        "Elena: shows [2d Jc] (high card, Jack)"
    )
    assert_legal(folded, [(15, ("Dario", "Fabio"), ("Fabio",))], {"Fabio": 15}, CHECK2_NET)


def test_rule_calatone_no_check_after_a_bet():
    check = CA_CHECK5.replace("Fabio: calls 10", "Fabio: checks")
    v = check.judge()
    assert_line(v, "ILLEGAL_CHECK", check.line("Fabio: checks"))


# -------------------------------------------------------------------- who opens


def test_rule_calatone_round_one_highest_exposed_card_opens():
    # Elena's Jc beats Fabio's 9d and Dario's 7c (Dario's hidden king and
    # Fabio's hidden pair do not count).
    early = CA_CHECK2.insert_before("Elena: checks", "Fabio: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Elena: checks") - 1, "Fabio")


def test_rule_calatone_round_one_ties_in_dealing_order():
    # Dealer seat 1: Fabio (3) is dealt before Dario (1); both show a king.
    assert_legal(
        CA_TIE,
        [(25, ("Dario",), ("Dario",))],
        {"Dario": 25},
        {"Dario": 15, "Elena": -5, "Fabio": -10},
    )
    early = CA_TIE.insert_before("Fabio: bets 5", "Dario: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Fabio: bets 5") - 1, "Dario")
    # CA_CHECK5: Jc and Js tie, Elena (2) before Fabio (3).
    early = CA_CHECK5.insert_before("Elena: bets 10", "Fabio: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Elena: bets 10") - 1, "Fabio")


def test_rule_calatone_later_rounds_best_exposed_hand_opens():
    # CA_TIE 3rd street: Dario's K-T beats Fabio's K-9.
    early = CA_TIE.insert_before("Dario: bets 5", "Fabio: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Dario: bets 5") - 1, "Fabio")
    # CA_CHECK5 4th street: Dario's exposed pair of kings.
    anchor = "Dealt to Fabio: up [2s]"
    early = CA_CHECK5.insert_after(anchor, "Fabio: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line(anchor) + 1, "Fabio")


def test_rule_calatone_exposed_straight_counts_with_five_up_cards():
    # Fabio's kings and queens open 5th street (four up cards each); on 6th
    # street Dario's 5-6-7-8-9 is a straight and opens.
    assert_legal(
        CA_EXPOSED5, [(60, ("Dario",), ("Dario",))], {"Dario": 60}, {"Dario": 30, "Fabio": -30}
    )
    anchor = "Dealt to Fabio: up [Ad]"
    early = CA_EXPOSED5.insert_after(anchor, "Fabio: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line(anchor) + 1, "Fabio")
    anchor = "Dealt to Fabio: up [Qh]"
    early = CA_EXPOSED5.insert_after(anchor, "Dario: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line(anchor) + 1, "Dario")


def test_rule_calatone_all_in_opener_passes_to_next_active_clockwise():
    # 3rd street of CA_SHORT: Elena's kings are best, she is all-in: Fabio.
    anchor = "Dealt to Fabio: up [Qd]"
    early = CA_SHORT.insert_after(anchor, "Dario: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line(anchor) + 1, "Dario")


def test_rule_calatone_play_goes_clockwise():
    # 2nd street of CA_CHECK2: Elena (2), Fabio (3), Dario (1).
    early = CA_CHECK2.insert_after("Elena: checks", "Dario: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Elena: checks") + 1, "Dario")


# ---------------------------------------------------------- all checked: hand over


def test_rule_calatone_all_checked_round_ends_hand_on_2nd_street():
    assert_legal(CA_CHECK2, CHECK2_POTS, {"Fabio": 15}, CHECK2_NET)
    more = CA_CHECK2.insert_after(
        "Dario: checks",
        "*** 3RD STREET ***",
        "Dealt to Dario: up [2c]",
        "Dealt to Elena: up [3c]",
        "Dealt to Fabio: up [4c]",
    )
    v = more.judge()
    assert_line(v, "HAND_OVER", more.line("*** 3RD STREET ***"), only_one=False)


def test_rule_calatone_all_checked_round_ends_hand_on_5th_street():
    # Fabio's hidden 4s completes a spade flush with his four up cards: the
    # best five cards dealt so far beat Dario's kings. 45 + 15 + 45 = 105.
    assert_legal(
        CA_CHECK5,
        [(105, ("Dario", "Fabio"), ("Fabio",))],
        {"Fabio": 105},
        {"Dario": -45, "Elena": -15, "Fabio": 60},
    )
    more = CA_CHECK5.insert_after(
        "Fabio: checks", "*** 6TH STREET ***", "Dealt to Dario: up [2c]", "Dealt to Fabio: up [3c]"
    )
    v = more.judge()
    assert_line(v, "HAND_OVER", more.line("*** 6TH STREET ***"), only_one=False)
    exposed = CA_CHECK5.replace("Fabio: collected 105 from pot", "Dario: collected 105 from pot")
    v = exposed.judge()
    assert_line(v, "PAYOUT", exposed.line("Dario: collected 105 from pot"), only_one=False)


def test_rule_calatone_all_checked_short_hands_need_five_cards_for_a_flush():
    # All check 4th street (the FORMAT.md example's variant): four cards
    # each; Fabio's four spades are no flush; Dario's kings win 35+15+35 = 85.
    start = CA_CHECK5.line("Dario: bets 10") - 1
    head = CA_CHECK5.lines[:start]
    hand = HandText(
        (
            *head,
            "Dario: checks",
            "Fabio: checks",
            "*** SHOWDOWN ***",
            "Dario: shows [Kh 7c Kd Ks] (three of a kind, Kings)",
            "Fabio: shows [4s Js 8s 2s] (high card, Jack)",
            "Dario: collected 85 from pot",
            "*** SUMMARY ***",
            "Total pot 85 | Rake 0",
        )
    )
    assert_legal(
        hand,
        [(85, ("Dario", "Fabio"), ("Dario",))],
        {"Dario": 85},
        {"Dario": 50, "Elena": -15, "Fabio": -35},
    )
    new = "Fabio: shows [4s Js 8s 2s] (a flush, Jack high)"
    flush = hand.replace("Fabio: shows [4s Js 8s 2s] (high card, Jack)", new)
    v = flush.judge()
    assert_line(v, "HAND_DESCRIPTION", flush.line(new), only_one=False)


def test_rule_calatone_all_checked_with_an_all_in_player_ends_hand():
    # CA_SHORT 3rd street: Elena is all-in, Fabio and Dario (two who can act)
    # both check: the hand ends; three cards each, Elena's kings win 3 x 58.
    cut = CA_SHORT.line("Fabio: bets 10")
    hand = HandText(
        (
            *CA_SHORT.lines[: cut - 1],
            "Fabio: checks",
            "Dario: checks",
            "*** SHOWDOWN ***",
            "Dario: shows [2h Ah 5c] (high card, Ace)",
            "Elena: shows [3h Kd Ks] (a pair, Kings)",
            "Fabio: shows [4h Qc Qd] (a pair, Queens)",
            "Elena: collected 174 from pot",
            "*** SUMMARY ***",
            "Total pot 174 | Rake 0",
        )
    )
    assert_legal(
        hand,
        [(174, ("Dario", "Elena", "Fabio"), ("Elena",))],
        {"Elena": 174},
        {"Dario": -58, "Elena": 116, "Fabio": -58},
    )


def test_rule_calatone_all_checked_7th_street_goes_to_normal_showdown():
    assert_legal(
        CA_CHECK7,
        [(60, ("Dario", "Elena"), ("Elena",))],
        {"Elena": 60},
        {"Dario": -30, "Elena": 30},
    )
    old = "Elena: shows [3d Kc 4h Kd 5s 6c 8h] and declares [Kc Kd 8h 6c 5s] (a pair, Kings)"
    plain = CA_CHECK7.replace(old, "Elena: shows [3d Kc 4h Kd 5s 6c 8h] (a pair, Kings)")
    v = plain.judge()
    assert_line(
        v,
        "DECLARATION",
        plain.line("Elena: shows [3d Kc 4h Kd 5s 6c 8h] (a pair, Kings)"),
        "Elena",
        only_one=False,
    )


def test_rule_calatone_round_fewer_than_two_can_act_does_not_end_hand():
    # CA_SHORT: after Dario folds only Fabio can act (Elena all-in): 4th to
    # 7th street have no betting and do not end the hand.
    v = CA_SHORT.judge()
    assert v.valid, codes(v)
    anchor = "Dealt to Fabio: up [8d]"
    acts = CA_SHORT.insert_after(anchor, "Elena: checks")
    v = acts.judge()
    assert_line(v, "NOT_IN_HAND", acts.line(anchor) + 1, "Elena")
    # Ending the hand after 4th street as if that round had been checked is wrong.
    cut = CA_SHORT.line("*** 5TH STREET ***") - 1
    short = HandText(
        (
            *CA_SHORT.lines[:cut],
            "*** SHOWDOWN ***",
            "Elena: shows [3h Kd Ks 7s] (a pair, Kings)",
            "Fabio: shows [4h Qc Qd 8d] (a pair, Queens)",
            "Elena: collected 174 from pot",
            "*** SUMMARY ***",
            "Total pot 174 | Rake 0",
        )
    )
    v = short.judge()
    assert not v.valid


# ----------------------------------------------------------------- declarations


def test_rule_calatone_binding_under_declaration():
    # Dario could make queens full but declares two pair: Elena's trips win.
    assert_legal(
        CA_UNDER, [(70, ("Dario", "Elena"), ("Elena",))], {"Elena": 70}, {"Dario": -35, "Elena": 35}
    )
    claim = CA_UNDER.replace("Elena: collected 70 from pot", "Dario: collected 70 from pot")
    v = claim.judge()
    assert_line(v, "PAYOUT", claim.line("Dario: collected 70 from pot"), only_one=False)


def test_rule_calatone_description_is_that_of_the_declared_cards():
    old = (
        "Dario: shows [Qh Qs 7d 7c Qd 3h 9h] and declares [Qh Qs 7d 7c 9h] "
        "(two pair, Queens and Sevens)"
    )
    new = (
        "Dario: shows [Qh Qs 7d 7c Qd 3h 9h] and declares [Qh Qs 7d 7c 9h] "
        "(a full house, Queens full of Sevens)"
    )
    v = CA_UNDER.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", CA_UNDER.line(old), only_one=False)


def test_rule_calatone_invalid_declaration_forfeits():
    # Elena declares Dario's Qd: invalid, she forfeits; Dario takes the 70.
    old = (
        "Elena: shows [8c 8d 8s Ad 5c 2h Jd] and declares [8c 8d 8s Ad Jd] "
        "(three of a kind, Eights)"
    )
    new = (
        "Elena: shows [8c 8d 8s Ad 5c 2h Jd] and declares [8c 8d 8s Ad Qd] "
        "(three of a kind, Eights)"
    )
    bad = CA_UNDER.replace(old, new)
    v = bad.judge()
    assert_line(v, "DECLARATION", bad.line(new), "Qd", only_one=False)
    assert v.payouts is not None and {k: x for k, x in v.payouts.items() if x} == {"Dario": 70}
    assert v.net == {"Dario": 35, "Elena": -35}
    assert_line(v, "PAYOUT", bad.line("Elena: collected 70 from pot"), only_one=False)


def test_rule_calatone_muck_declares_nothing():
    old = (
        "Dario: shows [Qh Qs 7d 7c Qd 3h 9h] and declares [Qh Qs 7d 7c 9h] "
        "(two pair, Queens and Sevens)"
    )
    mucked = CA_UNDER.replace(old, "Dario: mucks hand")
    assert_legal(
        mucked, [(70, ("Dario", "Elena"), ("Elena",))], {"Elena": 70}, {"Dario": -35, "Elena": 35}
    )


# ------------------------------------------------------------------ house rules


def test_rule_calatone_deck_from_r_ace_low_straight():
    assert_legal(
        CA_DECK7, [(70, ("Dario", "Fabio"), ("Dario",))], {"Dario": 70}, {"Dario": 35, "Fabio": -35}
    )
    # With the full deck A-7-8-9-T is no straight: Dario has ace high and
    # Fabio's trips win.
    full = CA_DECK7.delete("House rules: Deck from 7")
    v = full.judge()
    shows = (
        "Dario: shows [Ah 7c 8d 9s Th Kc Kd] and declares [Ah 7c 8d 9s Th] (a straight, Ten high)"
    )
    assert_line(v, "HAND_DESCRIPTION", full.line(shows), only_one=False)
    assert_line(v, "PAYOUT", full.line("Dario: collected 70 from pot"), only_one=False)


def test_rule_calatone_deck_from_r_has_no_lower_cards():
    low = CA_DECK7.replace("Dealt to Fabio: down [Qs] up [Qd]", "Dealt to Fabio: down [6s] up [Qd]")
    v = low.judge()
    assert_line(
        v, "CARD_UNKNOWN", low.line("Dealt to Fabio: down [6s] up [Qd]"), "6s", only_one=False
    )


def _stripped_table(players: int, low: str = "7") -> HandText:
    names = ["Ada", "Bea", "Cai", "Dan", "Eli"][:players]
    cards = [("9c", "Ac"), ("9d", "Kd"), ("9h", "Qh"), ("9s", "Js"), ("Tc", "Td")]
    lines = [
        "Hand #T-CA-D7P: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 01:00:00 CET",
        f"Table 'Nápoles' 7-max Seat #{players} is the dealer",
        f"House rules: Deck from {low}",
    ]
    lines += [f"Seat {i + 1}: {n} (500 in chips)" for i, n in enumerate(names)]
    lines += [f"{n}: posts ante 5" for n in names]
    lines += ["*** 2ND STREET ***"]
    lines += [f"Dealt to {n}: down [{cards[i][0]}] up [{cards[i][1]}]" for i, n in enumerate(names)]
    # Ada's ace opens; she bets, everybody folds.
    lines += ["Ada: bets 5"] + [f"{n}: folds" for n in names[1:]]
    lines += [
        "Uncalled bet (5) returned to Ada",
        f"Ada: collected {5 * players} from pot",
        "*** SUMMARY ***",
        f"Total pot {5 * players} | Rake 0",
    ]
    return HandText(tuple(lines))


def test_rule_calatone_deck_from_r_limits_the_players():
    # 32 cards / 7 = 4 players at most.
    four = _stripped_table(4)
    net = {"Ada": 15, "Bea": -5, "Cai": -5, "Dan": -5}
    assert_legal(four, [(20, ("Ada",), ("Ada",))], {"Ada": 20}, net)
    five = _stripped_table(5)
    v = five.judge()
    seats = [line for code, line in codes(v) if code == "SEATS"]
    assert seats, codes(v)
    assert seats[0] in (2, 3, five.line("Seat 5: Eli (500 in chips)"))


def test_rule_calatone_deck_from_9_limits_the_players_to_three():
    # 9..A: 24 cards / 7 = 3 players at most.
    three = _stripped_table(3, "9")
    assert_legal(three, [(15, ("Ada",), ("Ada",))], {"Ada": 15}, {"Ada": 10, "Bea": -5, "Cai": -5})
    four = _stripped_table(4, "9")
    v = four.judge()
    seats = [line for code, line in codes(v) if code == "SEATS"]
    assert seats, codes(v)
    assert seats[0] in (2, 3, four.line("Seat 4: Dan (500 in chips)"))


def test_rule_calatone_flush_beats_full_house_house_rule():
    with_rule = ca_flush_full(
        True,
        dario="a flush, King high",
        fabio="a full house, Queens full of Eights",
        collected="Dario: collected 70 from pot",
    )
    assert_legal(
        with_rule,
        [(70, ("Dario", "Fabio"), ("Dario",))],
        {"Dario": 70},
        {"Dario": 35, "Fabio": -35},
    )
    without = ca_flush_full(
        False,
        dario="a flush, King high",
        fabio="a full house, Queens full of Eights",
        collected="Fabio: collected 70 from pot",
    )
    assert_legal(
        without, [(70, ("Dario", "Fabio"), ("Fabio",))], {"Fabio": 70}, {"Dario": -35, "Fabio": 35}
    )
    wrong = ca_flush_full(
        False,
        dario="a flush, King high",
        fabio="a full house, Queens full of Eights",
        collected="Dario: collected 70 from pot",
    )
    v = wrong.judge()
    assert_line(v, "PAYOUT", wrong.line("Dario: collected 70 from pot"), only_one=False)


# ------------------------------------------------------------------- odd chips


def test_rule_calatone_odd_chip_to_first_tied_in_dealing_order():
    # Dealing order Elena, Fabio, Dario: of 15, Fabio 8 and Dario 7.
    assert_legal(
        CA_ODD,
        [(15, ("Dario", "Elena", "Fabio"), ("Dario", "Fabio"))],
        {"Fabio": 8, "Dario": 7},
        {"Dario": 2, "Elena": -5, "Fabio": 3},
    )
    swapped = CA_ODD.replace("Fabio: collected 8 from pot", "Fabio: collected 7 from pot")
    swapped = swapped.replace("Dario: collected 7 from pot", "Dario: collected 8 from pot")
    v = swapped.judge()
    assert_line(v, "PAYOUT", swapped.line("Fabio: collected 7 from pot"), "8", only_one=False)


# ------------------------------------------------------------------- the deck


def test_rule_calatone_deal_order_second_street_cards_i_and_n_plus_i():
    # Dealing order Elena, Fabio, Dario (n = 3): Elena gets cards 1 and 4, in
    # either up/down order; 3rd street: Fabio, Dario (Elena folded).
    deck = deck_line("5c 3s Kd 2d Kh 4c 9h Ts", FRENCH)
    ok = CA_TIE.insert_after("Total pot 25 | Rake 0", deck)
    assert_legal(
        ok, [(25, ("Dario",), ("Dario",))], {"Dario": 25}, {"Dario": 15, "Elena": -5, "Fabio": -10}
    )
    # A card for the folded Elena on 3rd street would shift Fabio's and Dario's.
    shifted = deck_line("5c 3s Kd 2d Kh 4c Jd 9h Ts", FRENCH)
    bad = CA_TIE.insert_after("Total pot 25 | Rake 0", shifted)
    v = bad.judge()
    assert "DECK_ORDER" in [c for c, _ in codes(v)]


# --------------------------------------------------------------- between hands


CA_NEXT = HandText.of("""
    Hand #T-CA-C2b: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:05:00 CET
    Table 'Nápoles' 7-max Seat #1 is the dealer
    Seat 1: Dario (495 in chips)
    Seat 2: Elena (495 in chips)
    Seat 3: Fabio (510 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Elena: down [2d] up [Ah]
    Dealt to Fabio: down [3s] up [Kh]
    Dealt to Dario: down [4c] up [Qd]
    Elena: bets 5
    Fabio: folds
    Dario: folds
    Uncalled bet (5) returned to Elena
    Elena: collected 15 from pot
    *** SUMMARY ***
    Total pot 15 | Rake 0
""")


def test_rule_calatone_deal_passes_clockwise_and_stacks_carry_over():
    first, second = judge_run(CA_CHECK2, CA_NEXT)
    assert first.valid and second.valid, (codes(first), codes(second))
    assert second.net == {"Dario": -5, "Elena": 10, "Fabio": -5}
    wrong = CA_NEXT.replace("Seat 3: Fabio (510 in chips)", "Seat 3: Fabio (500 in chips)")
    _, second = judge_run(CA_CHECK2, wrong)
    offset = len(CA_CHECK2.lines) + 1
    assert_only(second, [("STACK_CARRYOVER", offset + wrong.line("Seat 3: Fabio (500 in chips)"))])


def test_rule_calatone_two_to_seven_players():
    names = [f"P{k}" for k in range(1, 9)]
    ranks = "23456789TJQKA"
    lines = [
        "Hand #T-CA-8P: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 03:00:00 CET",
        "Table 'Nápoles' 9-max Seat #8 is the dealer",
        *[f"Seat {k}: P{k} (500 in chips)" for k in range(1, 9)],
        *[f"{n}: posts ante 5" for n in names],
        "*** 2ND STREET ***",
        # P1 shows the ace and opens.
        *[f"Dealt to P{k}: down [{ranks[k - 1]}c] up [{ranks[13 - k]}h]" for k in range(1, 9)],
        "P1: bets 5",
        *[f"P{k}: folds" for k in range(2, 9)],
        "Uncalled bet (5) returned to P1",
        "P1: collected 40 from pot",
        "*** SUMMARY ***",
        "Total pot 40 | Rake 0",
    ]
    hand = HandText(tuple(lines))
    v = hand.judge()
    seats = [line for code, line in codes(v) if code == "SEATS"]
    assert seats, codes(v)
    assert seats[0] in (2, hand.line("Seat 8: P8 (500 in chips)"))


def test_rule_calatone_no_wrap_around_straight():
    # All check 5th street: Dario's Q-K-A-2-3 is no straight (ace high);
    # Fabio's pair of twos wins 2 x 20.
    hand = HandText.of("""
        Hand #T-CA-NW: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 02:00:00 CET
        Table 'Nápoles' 7-max Seat #3 is the dealer
        Seat 1: Dario (500 in chips)
        Seat 3: Fabio (500 in chips)
        Dario: posts ante 5
        Fabio: posts ante 5
        *** 2ND STREET ***
        Dealt to Dario: down [Qh] up [Kd]
        Dealt to Fabio: down [2c] up [2d]
        Dario: bets 5
        Fabio: calls 5
        *** 3RD STREET ***
        Dealt to Dario: up [Ac]
        Dealt to Fabio: up [7s]
        Dario: bets 5
        Fabio: calls 5
        *** 4TH STREET ***
        Dealt to Dario: up [2h]
        Dealt to Fabio: up [9s]
        Dario: bets 5
        Fabio: calls 5
        *** 5TH STREET ***
        Dealt to Dario: up [3s]
        Dealt to Fabio: up [Ts]
        Dario: checks
        Fabio: checks
        *** SHOWDOWN ***
        Dario: shows [Qh Kd Ac 2h 3s] (high card, Ace)
        Fabio: shows [2c 2d 7s 9s Ts] (a pair, Twos)
        Fabio: collected 40 from pot
        *** SUMMARY ***
        Total pot 40 | Rake 0
    """)
    assert_legal(
        hand, [(40, ("Dario", "Fabio"), ("Fabio",))], {"Fabio": 40}, {"Dario": -20, "Fabio": 20}
    )
    old = "Dario: shows [Qh Kd Ac 2h 3s] (high card, Ace)"
    new = "Dario: shows [Qh Kd Ac 2h 3s] (a straight, Three high)"
    v = hand.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", hand.line(old), only_one=False)


def test_rule_calatone_dealer_keeps_dealing_after_folding():
    # CA_SHORT with Dario (seat 1) as the dealer: the play is the same (his
    # ace opens 2nd street; Fabio opens 3rd), Dario folds on 3rd street and
    # the cards keep coming from the deck: dealing order Elena, Fabio, Dario;
    # 2nd street cards i and n+i; from 4th street Elena and Fabio only.
    dealer = CA_SHORT.replace(
        "Table 'Nápoles' 7-max Seat #3 is the dealer", "Table 'Nápoles' 7-max Seat #1 is the dealer"
    )
    top = "3h 4h 2h Kd Qc Ah Ks Qd 5c 7s 8d 9s Td 2c 5d 6d Jc"
    hand = dealer.insert_after("Total pot 174 | Rake 0", deck_line(top, FRENCH))
    assert_legal(
        hand,
        [(174, ("Elena", "Fabio"), ("Elena",))],
        {"Elena": 174},
        {"Dario": -58, "Elena": 116, "Fabio": -58},
    )
    # A deck that kept dealing to the folded Dario is not this hand's.
    also_dario = "3h 4h 2h Kd Qc Ah Ks Qd 5c 7s 8d Jd 9s Td 2c 5d 6d Jc"
    bad = dealer.insert_after("Total pot 174 | Rake 0", deck_line(also_dario, FRENCH))
    v = bad.judge()
    assert "DECK_ORDER" in [c for c, _ in codes(v)]
