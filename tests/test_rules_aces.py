"""RULES.md section 2, Aces, Straights and Flushes: every rule with a legal
hand (valid, exact pots, payouts, net worked out by hand) and an illegal
variant (exact code at the exact line). Hands and arithmetic: ``handtext``."""

from __future__ import annotations

import pytest
from handtext import (
    AS_ACES_FULL,
    AS_BUG,
    AS_CAP,
    AS_FIVE_ACES,
    AS_NOT_REOPENED,
    AS_ODD,
    AS_OPEN,
    AS_SHORT_ANTE,
    AS_SHORT_CAP,
    EX_ACES,
    FRENCH,
    HandText,
    assert_legal,
    assert_line,
    assert_only,
    codes,
    deck_line,
    judge_run,
)

pytestmark = pytest.mark.compiled

OPEN_POTS = [(20, ("Anna", "Carla"), ("Carla",))]
OPEN_NET = {"Anna": -8, "Ben": -4, "Carla": 12}


# ------------------------------------------------------------------ antes


def test_rule_asf_everyone_antes():
    assert_legal(AS_OPEN, OPEN_POTS, {"Carla": 20}, OPEN_NET)
    big = AS_OPEN.replace("Ben: posts ante 1", "Ben: posts ante 2")
    v = big.judge()
    assert_line(v, "FORCED_BET", big.line("Ben: posts ante 2"), "1", only_one=False)


def test_rule_asf_order_of_ante_lines_is_not_judged():
    shuffled = AS_OPEN.replace("Anna: posts ante 1", "Carla: posts ante 1").replace(
        "Carla: posts ante 1", "Anna: posts ante 1", nth=2
    )
    assert shuffled.lines[5:8] == ("Carla: posts ante 1", "Ben: posts ante 1", "Anna: posts ante 1")
    assert_legal(shuffled, OPEN_POTS, {"Carla": 20}, OPEN_NET)


def test_rule_asf_short_ante_posts_all_and_is_all_in():
    # Anna antes her single chip: main 3 x 1 (Anna's five aces), side 2 x 1
    # (Carla's eights over Ben's sevens).
    assert_legal(
        AS_SHORT_ANTE,
        [(3, ("Anna", "Ben", "Carla"), ("Anna",)), (2, ("Ben", "Carla"), ("Carla",))],
        {"Anna": 3, "Carla": 2},
        {"Anna": 2, "Ben": -2, "Carla": 0},
    )
    unmarked = AS_SHORT_ANTE.replace("Anna: posts ante 1 and is all-in", "Anna: posts ante 1")
    v = unmarked.judge()
    assert_line(v, "ALL_IN_FLAG", unmarked.line("Anna: posts ante 1"))


def test_rule_asf_no_bring_in_first_player_may_check():
    # Every round of AS_SHORT_ANTE is checked through: legal.
    assert AS_SHORT_ANTE.judge().valid


# -------------------------------------------------------------------- the deal


def test_rule_asf_third_street_two_down_one_up():
    new = "Dealt to Carla: down [6c] up [7d 9s]"
    bad = AS_OPEN.replace("Dealt to Carla: down [6c 7d] up [9s]", new)
    v = bad.judge()
    assert_line(v, "CARD_COUNT", bad.line(new), only_one=False)


def test_rule_asf_fourth_and_fifth_street_one_up():
    down = AS_OPEN.replace("Dealt to Carla: up [9h]", "Dealt to Carla: down [9h]")
    v = down.judge()
    assert_line(v, "CARD_COUNT", down.line("Dealt to Carla: down [9h]"), only_one=False)
    two = AS_OPEN.replace("Dealt to Carla: up [9c]", "Dealt to Carla: up [9c 8c]")
    v = two.judge()
    assert_line(v, "CARD_COUNT", two.line("Dealt to Carla: up [9c 8c]"), only_one=False)


def test_rule_asf_sixth_street_one_down():
    up = AS_OPEN.replace("Dealt to Carla: down [Th]", "Dealt to Carla: up [Th]")
    v = up.judge()
    assert_line(v, "CARD_COUNT", up.line("Dealt to Carla: up [Th]"), only_one=False)


def test_rule_asf_folded_player_gets_no_more_cards():
    # Ben folded on 5th street: no 6th card for him.
    dealt = AS_OPEN.insert_after("Dealt to Carla: down [Th]", "Dealt to Ben: down [2d]")
    v = dealt.judge()
    assert not v.valid
    assert_line(v, "CARD_COUNT", dealt.line("Dealt to Ben: down [2d]"), "Ben", only_one=False)


def test_rule_asf_joker_is_not_dealt():
    new = "Dealt to Anna: down [2c Jk] up [Kd]"
    jk = AS_OPEN.replace("Dealt to Anna: down [2c 3c] up [Kd]", new)
    v = jk.judge()
    assert_line(v, "CARD_UNKNOWN", jk.line(new), "Jk", only_one=False)


def test_rule_asf_cards_dealt_clockwise_from_the_dealers_left_one_at_a_time():
    # Dealer Ben (2): Anna first. Round of first down cards, second down
    # cards, up cards; then one card each per street.
    deck = deck_line("Ac 2h Ad 3h Kh 5h Ks 9h 2c Jh 7d 4s", FRENCH)
    ok = AS_ACES_FULL.insert_after("Board [Jk]", deck)
    assert_legal(ok, [(2, ("Anna", "Ben"), ("Anna",))], {"Anna": 2}, {"Anna": 1, "Ben": -1})
    # Each player's three cards in a row is not the dealing order.
    by_player = deck_line("Ac Ad Kh 2h 3h 5h Ks 9h 2c Jh 7d 4s", FRENCH)
    bad = AS_ACES_FULL.insert_after("Board [Jk]", by_player)
    v = bad.judge()
    assert "DECK_ORDER" in [c for c, _ in codes(v)]


def test_rule_asf_joker_is_not_in_the_deck():
    # The joker is out before the shuffle: a Deck of 53 with Jk is not this
    # hand's deck.
    deck = deck_line("Ac 2h Ad 3h Kh 5h Ks 9h 2c Jh 7d 4s", [*FRENCH, "Jk"])
    bad = AS_ACES_FULL.insert_after("Board [Jk]", deck)
    v = bad.judge()
    assert_line(v, "DECK_ORDER", bad.line(deck), "Jk", only_one=False)


# ----------------------------------------------------------------- fixed limit


def test_rule_asf_small_bet_in_rounds_one_and_two():
    bet2 = AS_OPEN.replace("Anna: bets 1", "Anna: bets 2")
    v = bet2.judge()
    assert_line(v, "BET_SIZE", bet2.line("Anna: bets 2"), "1")
    raise2 = AS_OPEN.replace("Carla: raises 1 to 2", "Carla: raises 2 to 3")
    v = raise2.judge()
    assert_line(v, "RAISE_SIZE", raise2.line("Carla: raises 2 to 3"), "2")


def test_rule_asf_big_bet_in_rounds_three_and_four():
    bet1 = AS_OPEN.replace("Carla: bets 2", "Carla: bets 1")
    bet1 = bet1.replace("Anna: calls 2", "Anna: calls 1", nth=2)
    v = bet1.judge()
    assert_line(v, "BET_SIZE", bet1.line("Carla: bets 1"), "2")
    bet1 = AS_OPEN.replace("Anna: bets 2", "Anna: bets 1")
    bet1 = bet1.replace("Carla: calls 2", "Carla: calls 1")
    v = bet1.judge()
    assert_line(v, "BET_SIZE", bet1.line("Anna: bets 1", nth=2), "2")


def test_rule_asf_cap_one_bet_three_raises():
    # Ben bets 1, Anna 2, Ben 3, Anna 4: the cap; Ben may only call.
    assert_legal(AS_CAP, [(10, ("Anna", "Ben"), ("Anna",))], {"Anna": 10}, {"Anna": 5, "Ben": -5})
    fifth = AS_CAP.replace("Ben: calls 1", "Ben: raises 1 to 5")
    v = fifth.judge()
    assert_line(v, "RAISE_CAP", fifth.line("Ben: raises 1 to 5"), "Ben")


def test_rule_asf_check_raise_allowed():
    # AS_CAP: Anna checks, then raises Ben's bet.
    v = AS_CAP.judge()
    assert v.valid
    assert AS_CAP.lines[AS_CAP.line("Anna: checks") - 1 + 2] == "Anna: raises 1 to 2"


def test_rule_asf_short_all_in_does_not_count_toward_the_cap():
    # Bet 2, raise 4, Carla all-in 5 (short), raise 7, raise 9: the cap is
    # reached only at 9. Main 4 x 6 = 24, side 3 x 4 = 12.
    assert_legal(
        AS_SHORT_CAP,
        [
            (24, ("Anna", "Ben", "Carla", "Dora"), ("Carla",)),
            (12, ("Anna", "Ben", "Dora"), ("Anna",)),
        ],
        {"Carla": 24, "Anna": 12},
        {"Anna": 2, "Ben": -10, "Carla": 18, "Dora": -10},
    )
    over = AS_SHORT_CAP.replace("Ben: calls 5", "Ben: raises 2 to 11")
    v = over.judge()
    assert_line(v, "RAISE_CAP", over.line("Ben: raises 2 to 11"), "Ben")


def test_rule_asf_next_raise_is_all_in_total_plus_fixed_amount():
    # Carla all-in to 5: Dora's raise makes 5 + 2 = 7, not 6.
    six = AS_SHORT_CAP.replace("Dora: raises 2 to 7", "Dora: raises 1 to 6")
    v = six.judge()
    assert_line(v, "RAISE_SIZE", six.line("Dora: raises 1 to 6"), "7")


AS_SHORT_BET = HandText.of("""
    Hand #T-AS-SB: Aces, Straights and Flushes Limit (ante 1, bets 2/4) - 2026/11/30 03:20:00 UTC
    Table 'Pagat' 7-max Seat #4 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 3: Carla (2 in chips)
    Seat 4: Dora (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    Dora: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [2c 3d] up [Qh]
    Dealt to Ben: down [4c 5d] up [Kh]
    Dealt to Carla: down [6c 7d] up [Ah]
    Dealt to Dora: down [8c 9d] up [Jh]
    Carla: bets 1 and is all-in
    Dora: raises 2 to 3
    Anna: raises 2 to 5
    Ben: raises 2 to 7
    Dora: raises 2 to 9
    Anna: calls 4
    Ben: calls 2
    *** 4TH STREET ***
    Dealt to Anna: up [Tc]
    Dealt to Ben: up [Kd]
    Dealt to Carla: up [Qd]
    Dealt to Dora: up [2h]
    Ben: checks
    Dora: checks
    Anna: checks
    *** 5TH STREET ***
    Dealt to Anna: up [Ts]
    Dealt to Ben: up [3h]
    Dealt to Carla: up [Qs]
    Dealt to Dora: up [2s]
    Ben: checks
    Dora: checks
    Anna: checks
    *** 6TH STREET ***
    Dealt to Anna: down [4d]
    Dealt to Ben: down [5c]
    Dealt to Carla: down [6d]
    Dealt to Dora: down [8d]
    Ben: checks
    Dora: checks
    Anna: checks
    *** SHOWDOWN ***
    Anna: shows [2c 3d Qh Tc Ts 4d] (a pair, Tens)
    Ben: shows [4c 5d Kh Kd 3h 5c] (two pair, Kings and Fives)
    Carla: shows [6c 7d Ah Qd Qs 6d] (two pair, Aces and Queens)
    Dora: shows [8c 9d Jh 2h 2s 8d] (two pair, Eights and Twos)
    Carla: collected 8 from main pot
    Ben: collected 24 from side pot-1
    *** SUMMARY ***
    Total pot 32 Main pot 8. Side pot-1 24. | Rake 0
""")


def test_rule_asf_short_all_in_bet_then_raise_to_all_in_plus_fixed_and_cap():
    # Carla's ace opens; she bets her last chip (short). Dora's raise makes
    # 1 + 2 = 3, the first bet that counts; 5, 7, 9 are the three raises.
    # Carla's Ah + joker pair her aces: aces and queens. Main 4 x 2 = 8
    # (Carla), side 3 x 8 = 24 (Ben's kings and fives).
    assert_legal(
        AS_SHORT_BET,
        [
            (8, ("Anna", "Ben", "Carla", "Dora"), ("Carla",)),
            (24, ("Anna", "Ben", "Dora"), ("Ben",)),
        ],
        {"Carla": 8, "Ben": 24},
        {"Anna": -10, "Ben": 14, "Carla": 6, "Dora": -10},
    )
    two = AS_SHORT_BET.replace("Dora: raises 2 to 3", "Dora: raises 1 to 2")
    v = two.judge()
    assert_line(v, "RAISE_SIZE", two.line("Dora: raises 1 to 2"), "3")
    over = AS_SHORT_BET.replace("Anna: calls 4", "Anna: raises 2 to 11")
    v = over.judge()
    assert_line(v, "RAISE_CAP", over.line("Anna: raises 2 to 11"), "Anna")


def test_rule_asf_short_all_in_does_not_reopen():
    assert_legal(
        AS_NOT_REOPENED,
        [(16, ("Anna", "Ben", "Carla", "Dora"), ("Carla",))],
        {"Carla": 16},
        {"Anna": -4, "Ben": -4, "Carla": 12, "Dora": -4},
    )
    reraise = AS_NOT_REOPENED.replace("Anna: calls 1", "Anna: raises 2 to 5")
    v = reraise.judge()
    assert_line(v, "NOT_REOPENED", reraise.line("Anna: raises 2 to 5"), "Anna")


def test_rule_asf_bet_when_already_bet_must_raise():
    bet = AS_OPEN.replace("Ben: calls 1", "Ben: bets 1")
    v = bet.judge()
    assert_line(v, "ILLEGAL_BET", bet.line("Ben: bets 1"))


# ------------------------------------------------------------------ who opens


def test_rule_asf_opener_tie_goes_to_first_clockwise_after_dealer():
    # 3rd street: Anna's Kd and Ben's Kh tie; Anna (seat 1) follows the dealer.
    early = AS_OPEN.insert_before("Anna: bets 1", "Ben: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Ben: checks"), "Ben")


def test_rule_asf_opener_ignores_the_joker():
    # 4th street: Anna K-A would be a pair of aces with the joker; only her
    # own up cards count, and Ben's pair of kings opens.
    early = AS_OPEN.insert_before("Ben: bets 1", "Anna: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Anna: checks"), "Anna")


def test_rule_asf_opener_pairs_and_trips_beat_high_cards():
    # 5th street: Carla's exposed trips nines beat Anna's pair of aces.
    early = AS_OPEN.insert_before("Carla: bets 2", "Anna: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Anna: checks"), "Anna")


def test_rule_asf_opener_all_in_passes_to_next_active_clockwise():
    # Anna (all-in) shows the best up cards; Ben, next clockwise from her,
    # opens, although Carla's up cards beat Ben's.
    early = AS_SHORT_ANTE.insert_before("Ben: checks", "Carla: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("*** 3RD STREET ***") + 4, "Carla")
    # AS_SHORT_CAP 5th street: Carla's trips are all-in, Dora opens.
    anchor = "Dealt to Dora: up [2s]"
    early = AS_SHORT_CAP.insert_after(anchor, "Ben: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line(anchor) + 1, "Ben")


def test_rule_asf_play_goes_clockwise():
    # 4th street of AS_OPEN: after Ben comes Carla (5), then Anna (1).
    swapped = AS_OPEN.insert_after("Ben: bets 1", "Anna: calls 1")
    v = swapped.judge()
    assert_line(v, "OUT_OF_TURN", swapped.line("Ben: bets 1") + 1, "Anna")


def test_rule_asf_odd_chip_first_tied_clockwise_after_dealer():
    # Dealer Ben (2): Carla (5) then Anna (1). Pot 3: Carla 2, Anna 1.
    assert_legal(
        AS_ODD,
        [(3, ("Anna", "Ben", "Carla"), ("Anna", "Carla"))],
        {"Carla": 2, "Anna": 1},
        {"Anna": 0, "Ben": -1, "Carla": 1},
    )
    early = AS_ODD.insert_after("Dealt to Ben: down [3c 5d] up [6h]", "Anna: checks")
    v = early.judge()
    assert_line(v, "OUT_OF_TURN", early.line("Dealt to Ben: down [3c 5d] up [6h]") + 1, "Anna")
    wrong = AS_ODD.replace("Carla: collected 2 from pot", "Carla: collected 1 from pot")
    wrong = wrong.replace("Anna: collected 1 from pot", "Anna: collected 2 from pot")
    v = wrong.judge()
    assert_line(v, "PAYOUT", wrong.line("Carla: collected 1 from pot"), "2", only_one=False)


# ------------------------------------------------------------------ the joker


def test_rule_asf_joker_makes_a_flush_seed_example():
    # FORMAT.md's AS-1 is the seed example: Anna's spade flush A-K-Q-J-7 beats
    # Ben's nines and fives with an ace kicker. Anna 22 (+12), Ben -10, Carla -2.
    example = EX_ACES
    assert_legal(
        example,
        [(22, ("Anna", "Ben"), ("Anna",))],
        {"Anna": 22},
        {"Anna": 12, "Ben": -10, "Carla": -2},
    )
    royal = example.replace(
        "Anna: shows [As Ks Qs 7s 9d 2c] (a flush, Ace high)",
        "Anna: shows [As Ks Qs 7s 9d 2c] (a straight flush, Royal)",
    )
    v = royal.judge()
    assert_line(
        v,
        "HAND_DESCRIPTION",
        royal.line("Anna: shows [As Ks Qs 7s 9d 2c] (a straight flush, Royal)"),
        only_one=False,
    )


def test_rule_asf_joker_pair_of_kings_is_not_trips():
    assert_legal(
        AS_BUG,
        [(3, ("Anna", "Ben", "Carla"), ("Carla",))],
        {"Carla": 3},
        {"Anna": -1, "Ben": -1, "Carla": 2},
    )
    old = "Anna: shows [Kc Kd 9h 7s 4c 2d] (a pair, Kings)"
    new = "Anna: shows [Kc Kd 9h 7s 4c 2d] (three of a kind, Kings)"
    v = AS_BUG.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", AS_BUG.line(old), only_one=False)


def test_rule_asf_joker_two_pair_is_not_a_full_house():
    old = "Ben: shows [8c 8d 5h 5s Kh 2c] (two pair, Eights and Fives)"
    new = "Ben: shows [8c 8d 5h 5s Kh 2c] (a full house, Eights full of Fives)"
    v = AS_BUG.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", AS_BUG.line(old), only_one=False)


def test_rule_asf_joker_aces_and_kings_is_aces_full():
    assert_legal(
        AS_ACES_FULL, [(2, ("Anna", "Ben"), ("Anna",))], {"Anna": 2}, {"Anna": 1, "Ben": -1}
    )
    old = "Anna: shows [Ac Ad Kh Ks 2c 7d] (a full house, Aces full of Kings)"
    new = "Anna: shows [Ac Ad Kh Ks 2c 7d] (two pair, Aces and Kings)"
    v = AS_ACES_FULL.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", AS_ACES_FULL.line(old), only_one=False)


def test_rule_asf_five_aces_is_the_top_hand():
    # Four natural aces + joker beat Ben's straight flush. 2 x 9 = 18.
    assert_legal(
        AS_FIVE_ACES, [(18, ("Anna", "Ben"), ("Anna",))], {"Anna": 18}, {"Anna": 9, "Ben": -9}
    )
    old = "Anna: shows [Ac Ad 2c Ah As 4s] (five aces)"
    new = "Anna: shows [Ac Ad 2c Ah As 4s] (four of a kind, Aces)"
    v = AS_FIVE_ACES.replace(old, new).judge()
    assert_line(v, "HAND_DESCRIPTION", AS_FIVE_ACES.line(old), only_one=False)
    wrong = AS_FIVE_ACES.replace("Anna: collected 18 from pot", "Ben: collected 18 from pot")
    v = wrong.judge()
    assert_line(v, "PAYOUT", wrong.line("Ben: collected 18 from pot"), only_one=False)


def test_rule_asf_ace_to_five_straight_with_the_joker():
    # AS_SHORT_CAP: Anna's A-2-3-4 + joker is a five-high straight; it wins
    # the side pot over two pair (the legal hand is valid with Anna 12).
    v = AS_SHORT_CAP.judge()
    assert v.valid and v.payouts is not None and v.payouts.get("Anna") == 12


# --------------------------------------------------------------- between hands


AS_CAP_NEXT = HandText.of("""
    Hand #T-AS-CAP2: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 22:15:00 UTC
    Table 'Pagat' 7-max Seat #1 is the dealer
    Seat 1: Anna (55 in chips)
    Seat 2: Ben (45 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    *** 3RD STREET ***
    Dealt to Ben: down [2c 3c] up [Kd]
    Dealt to Anna: down [4c 5c] up [7h]
    Ben: bets 1
    Anna: folds
    Uncalled bet (1) returned to Ben
    Ben: collected 2 from pot
    *** SUMMARY ***
    Total pot 2 | Rake 0
""")


def test_rule_asf_deal_passes_clockwise_and_stacks_carry_over():
    first, second = judge_run(AS_CAP, AS_CAP_NEXT)
    assert first.valid and second.valid, (codes(first), codes(second))
    assert second.net == {"Anna": -1, "Ben": 1}


def test_rule_asf_deal_does_not_stay():
    same = AS_CAP_NEXT.replace(
        "Table 'Pagat' 7-max Seat #1 is the dealer", "Table 'Pagat' 7-max Seat #2 is the dealer"
    )
    assert same.judge().valid
    _, second = judge_run(AS_CAP, same)
    offset = len(AS_CAP.lines) + 1
    assert_only(second, [("DEALER_ROTATION", offset + 2)])


def test_rule_asf_two_to_seven_players():
    # Eight players at a 9-max table: too many. Everybody folds to a bet.
    names = [f"P{k}" for k in range(1, 9)]
    ranks = "23456789TJQKA"
    lines = [
        "Hand #T-AS-8P: Aces, Straights and Flushes Limit (ante 1, bets 1/2)"
        " - 2026/11/30 03:00:00 UTC",
        "Table 'Pagat' 9-max Seat #8 is the dealer",
        *[f"Seat {k}: P{k} (50 in chips)" for k in range(1, 9)],
        *[f"{n}: posts ante 1" for n in names],
        "*** 3RD STREET ***",
        # P1 gets the ace up and opens.
        *[
            f"Dealt to P{k}: down [{ranks[k - 1]}c {ranks[k - 1]}d] up [{ranks[13 - k]}h]"
            for k in range(1, 9)
        ],
        "P1: bets 1",
        *[f"P{k}: folds" for k in range(2, 9)],
        "Uncalled bet (1) returned to P1",
        "P1: collected 8 from pot",
        "*** SUMMARY ***",
        "Total pot 8 | Rake 0",
    ]
    hand = HandText(tuple(lines))
    v = hand.judge()
    seats = [line for code, line in codes(v) if code == "SEATS"]
    assert seats, codes(v)
    assert seats[0] in (2, hand.line("Seat 8: P8 (50 in chips)"))
    # Seven are fine.
    seven = HandText(
        tuple(
            line.replace("collected 8", "collected 7").replace("pot 8 ", "pot 7 ")
            for line in lines
            if "P8" not in line
        )
    ).replace(
        "Table 'Pagat' 9-max Seat #8 is the dealer", "Table 'Pagat' 9-max Seat #7 is the dealer"
    )
    net = {f"P{k}": -1 for k in range(2, 8)} | {"P1": 6}
    assert_legal(seven, [(7, ("P1",), ("P1",))], {"P1": 7}, net)


def test_rule_asf_joker_in_a_flush_is_the_highest_missing_card():
    # Anna As Ks 9s 7s + Jk = Qs: A-K-Q-9-7. Ben Ah Qh 9h 7h + Jk = Kh:
    # A-K-Q-9-7. Equal (no double ace): the antes are split, 1 each.
    hand = HandText.of("""
        Hand #AS-FL: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/30 03:10:00 UTC
        Table 'Pagat' 7-max Seat #2 is the dealer
        Seat 1: Anna (50 in chips)
        Seat 2: Ben (50 in chips)
        Anna: posts ante 1
        Ben: posts ante 1
        *** 3RD STREET ***
        Dealt to Anna: down [As 3d] up [9s]
        Dealt to Ben: down [Ah 3c] up [9h]
        Anna: checks
        Ben: checks
        *** 4TH STREET ***
        Dealt to Anna: up [7s]
        Dealt to Ben: up [7h]
        Anna: checks
        Ben: checks
        *** 5TH STREET ***
        Dealt to Anna: up [4c]
        Dealt to Ben: up [4d]
        Anna: checks
        Ben: checks
        *** 6TH STREET ***
        Dealt to Anna: down [Ks]
        Dealt to Ben: down [Qh]
        Anna: checks
        Ben: checks
        *** SHOWDOWN ***
        Anna: shows [As 3d 9s 7s 4c Ks] (a flush, Ace high)
        Ben: shows [Ah 3c 9h 7h 4d Qh] (a flush, Ace high)
        Anna: collected 1 from pot
        Ben: collected 1 from pot
        *** SUMMARY ***
        Total pot 2 | Rake 0
    """)
    assert_legal(
        hand, [(2, ("Anna", "Ben"), ("Anna", "Ben"))], {"Anna": 1, "Ben": 1}, {"Anna": 0, "Ben": 0}
    )
