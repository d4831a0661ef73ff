"""Every violation code of FORMAT.md, produced from a legal hand by one edit:
the code, the line, and for action lines that it is the only violation there
(FORMAT.md: at most one per action line, the first in its stated order). The
messages must say what was expected and what was found: a fragment of each
(a number, a name) is checked."""

from __future__ import annotations

import json

import pytest
from handtext import (
    AS_CAP,
    AS_OPEN,
    CA_CHECK2,
    CA_CHECK7,
    CA_DECK7,
    CA_SPREAD,
    CA_UNDER,
    CH_FACING,
    CH_FOLDED_OPENER,
    CH_MIN_RAISE,
    CH_ODD,
    CH_SHORT_BLIND,
    CH_THREE,
    CH_THREE_NEXT,
    CH_TIMEOUT,
    CH_WRAP,
    EX_CHIRIBITO,
    SPANISH,
    HandText,
    assert_line,
    codes,
    commitment,
    deck_line,
    judge_run,
)
from typer.testing import CliRunner

from hh.cli import app
from hh.parse import HandSyntaxError, parse_hand, parse_text

pytestmark = pytest.mark.compiled


def lines_with(verdict, code: str) -> list[int]:
    return [line for c, line in codes(verdict) if c == code]


# ----------------------------------------------------------------- PARSE_ERROR

PARSE_CASES = {
    "unknown action": ("Ana: calls 20", "Ana: calls twenty"),
    "French card in Chiribito": ("Dealt to Ana: down [5e 6b]", "Dealt to Ana: down [5e 6h]"),
    "another game's street marker": ("*** COMMON 1 *** [7c]", "*** 3RD STREET ***"),
    "unlisted category word": (
        "Ana: shows [5e 6b] (a straight, Cinco to Caballo)",
        "Ana: shows [5e 6b] (a royal, Cinco to Caballo)",
    ),
    "unknown game": (
        CH_THREE.lines[0],
        "chiribito.com Hand #T-CH-3: Mus No Limit (blind 20) - 2026/11/29 21:00:00 CET",
    ),
}


@pytest.mark.parametrize("case", sorted(PARSE_CASES))
def test_code_parse_error(case):
    old, new = PARSE_CASES[case]
    bad = CH_THREE.replace(old, new)
    (record,) = list(parse_text(bad.text))
    assert record.hand is None
    assert record.error is not None
    assert record.error.line == bad.line(new)
    assert record.error.column >= 1
    with pytest.raises(HandSyntaxError) as caught:
        parse_hand(bad.text)
    assert caught.value.error.line == bad.line(new)


def test_code_parse_error_missing_summary():
    bad = CH_THREE.delete("*** SUMMARY ***")
    (record,) = list(parse_text(bad.text))
    assert record.error is not None
    assert record.error.line == bad.line("Total pot 60 | Rake 0")


def test_code_parse_error_in_the_json(tmp_path):
    bad = CH_THREE.replace("Ana: calls 20", "Ana: calls twenty")
    path = tmp_path / "bad.txt"
    path.write_text(bad.text, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    (out,) = [json.loads(x) for x in result.stdout.splitlines() if x.strip()]
    assert out["valid"] is False
    assert out["hand_id"] == "T-CH-3"
    assert [v["code"] for v in out["violations"]] == ["PARSE_ERROR"]
    assert out["violations"][0]["line"] == bad.line("Ana: calls twenty")
    assert out["violations"][0]["column"] >= 1
    assert out["pots"] is None and out["payouts"] is None and out["net"] is None


# ---------------------------------------------------------------------- HEADER

HEADER_CASES = {
    "blind 0": (CH_THREE, "(blind 20)", "(blind 0)", "0"),
    "impossible date": (CH_THREE, "2026/11/29", "2026/02/30", "2026/02/30"),
    "small bet over big bet": (AS_OPEN, "(ante 1, bets 1/2)", "(ante 1, bets 2/1)", "2"),
    "minimum over maximum": (CA_CHECK2, "(ante 5, bets 5-50)", "(ante 5, bets 50-5)", "50"),
    "ante 0": (CA_CHECK2, "(ante 5, bets 5-50)", "(ante 0, bets 5-50)", "0"),
}


@pytest.mark.parametrize("case", sorted(HEADER_CASES))
def test_code_header(case):
    hand, old, new, fragment = HEADER_CASES[case]
    bad = HandText((hand.lines[0].replace(old, new), *hand.lines[1:]))
    v = bad.judge()
    assert 1 in lines_with(v, "HEADER"), codes(v)
    assert_line(v, "HEADER", 1, fragment, only_one=False)


def test_code_header_site_and_id_seen_twice():
    again = CH_THREE.replace(CH_THREE.lines[0], CH_THREE.lines[0].replace("21:00:00", "21:30:00"))
    first, second = judge_run(CH_THREE, again)
    offset = len(CH_THREE.lines) + 1
    assert "HEADER" not in [c for c, _ in codes(first)]
    assert offset + 1 in lines_with(second, "HEADER"), codes(second)
    message = next(x.message for x in second.violations if x.code == "HEADER")
    assert "T-CH-3" in message


# ----------------------------------------------------------------------- SEATS


def test_code_seats_dealer_seat_empty():
    bad = CH_THREE.replace(
        "Table 'Mérida' 6-max Seat #3 is the dealer", "Table 'Mérida' 6-max Seat #5 is the dealer"
    )
    v = bad.judge()
    assert 2 in lines_with(v, "SEATS"), codes(v)
    assert_line(v, "SEATS", 2, "5", only_one=False)


def test_code_seats_seat_over_the_maximum():
    bad = CH_ODD.replace(
        "Table 'Mérida' 6-max Seat #2 is the dealer", "Table 'Mérida' 3-max Seat #2 is the dealer"
    )
    v = bad.judge()
    assert_line(v, "SEATS", bad.line("Seat 4: Dani (1000 in chips)"), "4", only_one=False)


def test_code_seats_duplicate_name():
    bad = CH_THREE.insert_after(
        "Seat 3: Ceci (1000 in chips)", "Seat 4: Ana (1000 in chips) is sitting out"
    )
    v = bad.judge()
    assert_line(
        v, "SEATS", bad.line("Seat 4: Ana (1000 in chips) is sitting out"), "Ana", only_one=False
    )


def test_code_seats_duplicate_seat():
    bad = CH_THREE.insert_after(
        "Seat 3: Ceci (1000 in chips)", "Seat 3: Zoe (1000 in chips) is sitting out"
    )
    record = next(parse_text(bad.text))
    if record.error is not None:  # the format's "by seat number" may refuse it
        assert record.error.line == bad.line("Seat 3: Zoe (1000 in chips) is sitting out")
        return
    v = bad.judge()
    assert bad.line("Seat 3: Zoe (1000 in chips) is sitting out") in lines_with(v, "SEATS")


# ------------------------------------------------------------------ FORCED_BET


def test_code_forced_bet_wrong_size():
    bad = CH_THREE.replace("Blas: posts blind 20", "Blas: posts blind 10")
    v = bad.judge()
    assert_line(v, "FORCED_BET", bad.line("Blas: posts blind 10"), "20", "10")


def test_code_forced_bet_wrong_player():
    bad = CH_THREE.replace("Blas: posts blind 20", "Ana: posts blind 20")
    v = bad.judge()
    assert_line(v, "FORCED_BET", bad.line("Ana: posts blind 20"), "Blas", only_one=False)


def test_code_forced_bet_missing_at_the_next_line():
    bad = CH_THREE.delete("Blas: posts blind 20")
    v = bad.judge()
    assert_line(v, "FORCED_BET", bad.line("*** HOLE CARDS ***"), "Blas", only_one=False)


# ------------------------------------------------------------------ the cards


def test_code_card_unknown_joker_dealt():
    new = "Dealt to Anna: down [2c Jk] up [Kd]"
    bad = AS_OPEN.replace("Dealt to Anna: down [2c 3c] up [Kd]", new)
    v = bad.judge()
    assert_line(v, "CARD_UNKNOWN", bad.line(new), "Jk", only_one=False)


def test_code_card_unknown_stripped_deck():
    new = "Dealt to Fabio: down [5s] up [Qd]"
    bad = CA_DECK7.replace("Dealt to Fabio: down [Qs] up [Qd]", new)
    v = bad.judge()
    assert_line(v, "CARD_UNKNOWN", bad.line(new), "5s", only_one=False)


def test_code_card_duplicate_in_deal_lines():
    new = "Dealt to Ceci: down [Re Ao]"
    bad = CH_THREE.replace("Dealt to Ceci: down [Re Rb]", new)
    v = bad.judge()
    assert_line(v, "CARD_DUPLICATE", bad.line(new), "Ao", only_one=False)


def test_code_card_duplicate_on_the_board():
    new = "*** COMMON 1 *** [Ao]"
    bad = CH_THREE.replace("*** COMMON 1 *** [7c]", new)
    v = bad.judge()
    assert_line(v, "CARD_DUPLICATE", bad.line(new), "Ao", only_one=False)


def test_code_card_count():
    new = "Dealt to Ana: down [5e 6b 7b]"
    bad = CH_THREE.replace("Dealt to Ana: down [5e 6b]", new)
    v = bad.judge()
    assert_line(v, "CARD_COUNT", bad.line(new), "Ana", "2", only_one=False)


CARD_MISMATCH_CASES = {
    "show": ("Ceci: shows [Re Rb] (a pair, Reyes)", "Ceci: shows [Re Ro] (a pair, Reyes)", "Ro"),
    "board repeated in a marker": (
        "*** COMMON 2 *** [7c] [Sc]",
        "*** COMMON 2 *** [7e] [Sc]",
        "7e",
    ),
    "summary board": ("Board [7c Sc Cb 5o 6o]", "Board [7c Sc Cb 5o 5e]", "5e"),
}


@pytest.mark.parametrize("case", sorted(CARD_MISMATCH_CASES))
def test_code_card_mismatch(case):
    old, new, found = CARD_MISMATCH_CASES[case]
    bad = CH_THREE.replace(old, new)
    v = bad.judge()
    assert_line(v, "CARD_MISMATCH", bad.line(new), found, only_one=False)


# --------------------------------------------------------------- action lines


def test_code_out_of_turn():
    # Round 1 after the blind (seat 2) is Ana (seat 1), not Ceci.
    bad = CH_THREE.insert_before("Ana: calls 20", "Ceci: calls 20")
    v = bad.judge()
    assert_line(v, "OUT_OF_TURN", bad.line("Ana: calls 20") - 1, "Ceci", "Ana")


NOT_IN_HAND_CASES = {
    "unknown": (CH_THREE, "Ana: calls 20", "Zoe: calls 20", "Zoe"),
    "folded": (CH_TIMEOUT, "Blas: checks (timed out)", "Ceci: checks", "Ceci"),
    "all-in": (CH_FACING, "*** COMMON 2 *** [5o] [7c]", "Blas: checks", "Blas"),
    "sitting out": (CH_WRAP, "Dani: raises 20 to 40", "Blas: folds", "Blas"),
}


@pytest.mark.parametrize("case", sorted(NOT_IN_HAND_CASES))
def test_code_not_in_hand(case):
    hand, anchor, new, name = NOT_IN_HAND_CASES[case]
    bad = hand.insert_after(anchor, new)
    v = bad.judge()
    assert_line(v, "NOT_IN_HAND", bad.line(anchor) + 1, name)


def test_code_illegal_check():
    bad = CH_THREE.replace("Ana: calls 20", "Ana: checks")
    v = bad.judge()
    assert_line(v, "ILLEGAL_CHECK", bad.line("Ana: checks"), "20")


def test_code_illegal_bet_when_there_is_a_bet():
    bad = CH_THREE.replace("Ana: calls 20", "Ana: bets 40")
    v = bad.judge()
    assert_line(v, "ILLEGAL_BET", bad.line("Ana: bets 40"), "Ana")


def test_code_illegal_bet_raise_with_nothing_to_raise():
    bad = CH_THREE.replace("Blas: checks", "Blas: raises 40 to 40")
    v = bad.judge()
    assert_line(v, "ILLEGAL_BET", bad.line("Blas: raises 40 to 40"), "Blas")


BET_SIZE_CASES = {
    "Chiribito below the blind": (CH_THREE, "Blas: checks", "Blas: bets 10", "20"),
    "ASF not the small bet": (AS_OPEN, "Anna: bets 1", "Anna: bets 2", "1"),
    "Calatone above the maximum": (CA_SPREAD, "Dario: bets 7", "Dario: bets 60", "50"),
}


@pytest.mark.parametrize("case", sorted(BET_SIZE_CASES))
def test_code_bet_size(case):
    hand, old, new, fragment = BET_SIZE_CASES[case]
    bad = hand.replace(old, new)
    v = bad.judge()
    assert_line(v, "BET_SIZE", bad.line(new), fragment)


RAISE_SIZE_CASES = {
    "Chiribito below double": (CH_MIN_RAISE, "Ana: raises 20 to 40", "Ana: raises 10 to 30", "40"),
    "ASF not the fixed amount": (AS_OPEN, "Carla: raises 1 to 2", "Carla: raises 2 to 3", "2"),
    "Calatone below the minimum": (
        CA_SPREAD,
        "Fabio: raises 5 to 12",
        "Fabio: raises 3 to 10",
        "12",
    ),
}


@pytest.mark.parametrize("case", sorted(RAISE_SIZE_CASES))
def test_code_raise_size(case):
    hand, old, new, fragment = RAISE_SIZE_CASES[case]
    bad = hand.replace(old, new)
    v = bad.judge()
    assert_line(v, "RAISE_SIZE", bad.line(new), fragment)


def test_code_raise_cap():
    bad = AS_CAP.replace("Ben: calls 1", "Ben: raises 1 to 5")
    v = bad.judge()
    assert_line(v, "RAISE_CAP", bad.line("Ben: raises 1 to 5"), "Ben")


def test_code_call_amount():
    bad = CH_THREE.replace("Ana: calls 20", "Ana: calls 10")
    v = bad.judge()
    assert_line(v, "CALL_AMOUNT", bad.line("Ana: calls 10"), "20", "10")


def test_code_amount_mismatch():
    # raises <by> to <total>: from 20 to 40 rises by 20, not 30.
    bad = CH_MIN_RAISE.replace("Ana: raises 20 to 40", "Ana: raises 30 to 40")
    v = bad.judge()
    assert_line(v, "AMOUNT_MISMATCH", bad.line("Ana: raises 30 to 40"), "20", "30")


def test_code_amount_mismatch_comes_before_raise_size():
    # Both faults: by 15 != 10, and 30 < 40: only the first in the order.
    bad = CH_SHORT_BLIND.replace("Ana: calls 20", "Ana: raises 15 to 30")
    v = bad.judge()
    assert_line(v, "AMOUNT_MISMATCH", bad.line("Ana: raises 15 to 30"))


def test_code_stack_exceeded():
    bad = CH_FACING.replace("Blas: bets 280 and is all-in", "Blas: bets 300 and is all-in")
    v = bad.judge()
    assert_line(v, "STACK_EXCEEDED", bad.line("Blas: bets 300 and is all-in"), "280")


def test_code_all_in_flag_missing_mark():
    bad = CH_FACING.replace("Blas: bets 280 and is all-in", "Blas: bets 280")
    v = bad.judge()
    assert_line(v, "ALL_IN_FLAG", bad.line("Blas: bets 280"), "Blas")


def test_code_all_in_flag_with_chips_left():
    bad = CH_FACING.replace("Ana: calls 280", "Ana: calls 280 and is all-in")
    v = bad.judge()
    assert_line(v, "ALL_IN_FLAG", bad.line("Ana: calls 280 and is all-in"), "Ana")


def test_code_not_reopened():
    bad = CH_MIN_RAISE.replace("Ana: calls 30", "Ana: raises 70 to 140")
    v = bad.judge()
    assert_line(v, "NOT_REOPENED", bad.line("Ana: raises 70 to 140"), "Ana")


def test_code_timeout_action():
    bad = CH_TIMEOUT.replace("Blas: checks (timed out)", "Blas: folds (timed out)")
    v = bad.judge()
    assert_line(v, "TIMEOUT_ACTION", bad.line("Blas: folds (timed out)"), "Blas")


# ----------------------------------------------------------- streets, hand end


def test_code_street_order_skipped():
    bad = CA_CHECK7.replace("*** 4TH STREET ***", "*** 5TH STREET ***")
    v = bad.judge()
    assert bad.line("*** 5TH STREET ***") in lines_with(v, "STREET_ORDER"), codes(v)
    assert_line(v, "STREET_ORDER", bad.line("*** 5TH STREET ***"), "4TH", only_one=False)


def test_code_street_order_repeated():
    bad = CA_CHECK7.replace("*** 5TH STREET ***", "*** 4TH STREET ***")
    v = bad.judge()
    assert bad.line("*** 4TH STREET ***", nth=2) in lines_with(v, "STREET_ORDER"), codes(v)


def test_code_round_not_closed():
    bad = CH_FACING.delete("Ana: calls 280")
    v = bad.judge()
    assert_line(
        v, "ROUND_NOT_CLOSED", bad.line("*** COMMON 2 *** [5o] [7c]"), "Ana", only_one=False
    )


def test_code_hand_over_after_all_folded():
    anchor = "Uncalled bet (60) returned to Dani"
    bad = CH_WRAP.insert_after(anchor, "*** COMMON 2 *** [7c] [Sc]")
    record = next(parse_text(bad.text))
    assert record.error is None, record.error
    v = bad.judge()
    assert bad.line(anchor) + 1 in lines_with(v, "HAND_OVER"), codes(v)


def test_code_hand_over_after_a_calatone_round_all_checked():
    bad = CA_CHECK2.insert_after(
        "Dario: checks", "*** 3RD STREET ***", "Dealt to Dario: up [2c]",
        "Dealt to Elena: up [3c]", "Dealt to Fabio: up [4c]",
    )  # fmt: skip
    v = bad.judge()
    assert bad.line("*** 3RD STREET ***") in lines_with(v, "HAND_OVER"), codes(v)


def test_code_hand_incomplete():
    cut = CH_THREE.line("*** COMMON 4 *** [7c Sc Cb] [5o]")
    bad = HandText(
        (*CH_THREE.lines[: cut - 1], "*** SUMMARY ***", "Total pot 60 | Rake 0", "Board [7c Sc Cb]")
    )
    v = bad.judge()
    assert bad.line("*** SUMMARY ***") in lines_with(v, "HAND_INCOMPLETE"), codes(v)


def test_code_uncalled_bet():
    bad = CH_WRAP.delete("Uncalled bet (60) returned to Dani")
    v = bad.judge()
    assert_line(v, "UNCALLED_BET", bad.line("Dani: collected 80 from pot"), "60", only_one=False)


# ------------------------------------------------------------------ showdown


def test_code_showdown_player_missing():
    bad = CH_THREE.delete("Ceci: shows [Re Rb] (a pair, Reyes)")
    v = bad.judge()
    assert_line(v, "SHOWDOWN", bad.line("Ana: collected 60 from pot"), "Ceci", only_one=False)


def test_code_showdown_player_not_in_it():
    # Blas folded on common 1: he is not in the showdown.
    new = "Blas: shows [So Sc] (a pair, Sotas)"
    bad = CH_FOLDED_OPENER.insert_after("*** SHOWDOWN ***", new)
    v = bad.judge()
    assert_line(v, "SHOWDOWN", bad.line(new), "Blas", only_one=False)


def test_code_hand_description():
    new = "Ana: shows [5e 6b] (a flush)"
    bad = CH_THREE.replace("Ana: shows [5e 6b] (a straight, Cinco to Caballo)", new)
    v = bad.judge()
    assert_line(v, "HAND_DESCRIPTION", bad.line(new), "straight", only_one=False)


def test_code_declaration_not_own_cards():
    old = (
        "Elena: shows [8c 8d 8s Ad 5c 2h Jd] and declares [8c 8d 8s Ad Jd] "
        "(three of a kind, Eights)"
    )
    new = old.replace("Ad Jd]", "Ad Qd]")
    bad = CA_UNDER.replace(old, new)
    v = bad.judge()
    assert_line(v, "DECLARATION", bad.line(new), "Qd", only_one=False)


def test_code_declaration_missing():
    old = "Elena: shows [3d Kc 4h Kd 5s 6c 8h] and declares [Kc Kd 8h 6c 5s] (a pair, Kings)"
    new = "Elena: shows [3d Kc 4h Kd 5s 6c 8h] (a pair, Kings)"
    bad = CA_CHECK7.replace(old, new)
    v = bad.judge()
    assert_line(v, "DECLARATION", bad.line(new), "Elena", only_one=False)


# ------------------------------------------------------------- summary claims


def test_code_pot_total():
    bad = CH_THREE.replace("Total pot 60 | Rake 0", "Total pot 70 | Rake 0")
    v = bad.judge()
    assert_line(v, "POT_TOTAL", bad.line("Total pot 70 | Rake 0"), "60", "70", only_one=False)


def test_code_side_pots_wrong_split():
    new = "Total pot 55 Main pot 50. Side pot-1 5. | Rake 0"
    bad = CH_SHORT_BLIND.replace("Total pot 55 Main pot 45. Side pot-1 10. | Rake 0", new)
    v = bad.judge()
    assert_line(v, "SIDE_POTS", bad.line(new), "45", only_one=False)


def test_code_side_pots_listed_where_there_are_none():
    new = "Total pot 60 Main pot 50. Side pot-1 10. | Rake 0"
    bad = CH_THREE.replace("Total pot 60 | Rake 0", new)
    v = bad.judge()
    assert_line(v, "SIDE_POTS", bad.line(new), only_one=False)


def test_code_payout_amount():
    bad = CH_THREE.replace("Ana: collected 60 from pot", "Ana: collected 50 from pot")
    v = bad.judge()
    assert_line(v, "PAYOUT", bad.line("Ana: collected 50 from pot"), "60", only_one=False)


def test_code_payout_winner():
    bad = CH_THREE.replace("Ana: collected 60 from pot", "Blas: collected 60 from pot")
    v = bad.judge()
    assert_line(v, "PAYOUT", bad.line("Blas: collected 60 from pot"), "Ana", only_one=False)


def test_code_rake():
    bad = CH_THREE.replace("Total pot 60 | Rake 0", "Total pot 60 | Rake 61")
    v = bad.judge()
    assert_line(v, "RAKE", bad.line("Total pot 60 | Rake 61"), "61", only_one=False)


def test_code_summary():
    ch = EX_CHIRIBITO
    new = "Seat 3: Marta: folded on COMMON 1"
    bad = ch.replace("Seat 3: Marta: folded on HOLE CARDS", new)
    v = bad.judge()
    assert_line(v, "SUMMARY", bad.line(new), "HOLE CARDS", only_one=False)


# ----------------------------------------------------------------------- deck

DEALT = "Ao 5e Re Ac 6b Rb 7c Sc Cb 5o 6o"


def test_code_deck_order_wrong_order():
    # Blas's and Ana's first cards swapped: Ana would get Ao.
    deck = deck_line("5e Ao Re Ac 6b Rb 7c Sc Cb 5o 6o", SPANISH)
    bad = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck)
    v = bad.judge()
    found = lines_with(v, "DECK_ORDER")
    assert found, codes(v)
    assert found[0] in (bad.line(deck), bad.line("Dealt to Blas: down [Ao Ac]"))


def test_code_deck_order_not_the_whole_deck():
    full = deck_line(DEALT, SPANISH)
    short = full.replace(" Ab]", "]")
    bad = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", short)
    v = bad.judge()
    assert_line(v, "DECK_ORDER", bad.line(short), "Ab", only_one=False)


def test_code_shuffle_commitment():
    deck = deck_line(DEALT, SPANISH, salt="5eed")
    wrong = commitment(deck, "5eee")
    bad = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck).insert_after(
        "Table 'Mérida' 6-max Seat #3 is the dealer", f"Shuffle commitment: {wrong}"
    )
    v = bad.judge()
    found = lines_with(v, "SHUFFLE_COMMITMENT")
    assert found, codes(v)
    assert found[0] in (bad.line(deck), bad.line(f"Shuffle commitment: {wrong}"))
    right = commitment(deck, "5eed")
    good = CH_THREE.insert_after("Board [7c Sc Cb 5o 6o]", deck).insert_after(
        "Table 'Mérida' 6-max Seat #3 is the dealer", f"Shuffle commitment: {right}"
    )
    assert good.judge().valid


# -------------------------------------------------------------- across hands



def test_code_stack_carryover():
    bad = CH_THREE_NEXT.replace("Seat 3: Ceci (980 in chips)", "Seat 3: Ceci (990 in chips)")
    _, second = judge_run(CH_THREE, bad)
    offset = len(CH_THREE.lines) + 1
    assert [(c, line) for c, line in codes(second)] == [
        ("STACK_CARRYOVER", offset + bad.line("Seat 3: Ceci (990 in chips)"))
    ]
    assert "980" in second.violations[0].message and "990" in second.violations[0].message


def test_code_dealer_rotation():
    # The deal passes to the right in Chiribito: after dealer 3 (blind 2) the
    # dealer is 2; dealer 3 again is wrong.
    bad = (
        CH_THREE_NEXT.replace(
            "Table 'Mérida' 6-max Seat #2 is the dealer",
            "Table 'Mérida' 6-max Seat #3 is the dealer",
        )
        .replace("Ana: posts blind 20", "Blas: posts blind 20")
        .replace("Dealt to Ana: down [Ao Ac]", "Dealt to Blas: down [Ao Ac]")
        .replace("Dealt to Blas: down [Re Rb]", "Dealt to Ana: down [Re Rb]")
        .replace("Ceci: folds", "Ana: folds")
        .replace("Blas: folds", "Ceci: folds")
        .replace("Uncalled bet (20) returned to Ana", "Uncalled bet (20) returned to Blas")
    )
    assert bad.judge().valid, codes(bad.judge())
    _, second = judge_run(CH_THREE, bad)
    offset = len(CH_THREE.lines) + 1
    assert codes(second) == [("DEALER_ROTATION", offset + 2)]


# ------------------------------------------- one code per action line, in order


def test_order_timeout_action_before_illegal_check():
    # A timed-out player facing the blind is folded; a check there is both a
    # wrong timeout action and an illegal check: TIMEOUT_ACTION comes first.
    bad = CH_TIMEOUT.replace("Ceci: folds (timed out)", "Ceci: checks (timed out)")
    v = bad.judge()
    assert_line(v, "TIMEOUT_ACTION", bad.line("Ceci: checks (timed out)"), "Ceci")


def test_order_raise_cap_before_amount_mismatch():
    bad = AS_CAP.replace("Ben: calls 1", "Ben: raises 2 to 5")
    v = bad.judge()
    assert_line(v, "RAISE_CAP", bad.line("Ben: raises 2 to 5"))


def test_order_not_in_hand_before_out_of_turn():
    # Ceci folded in round 1; she acts before Ana's turn in common 1.
    anchor = "*** COMMON 1 *** [7c]"
    bad = CH_TIMEOUT.insert_after(anchor, "Ceci: bets 40")
    v = bad.judge()
    assert_line(v, "NOT_IN_HAND", bad.line(anchor) + 1, "Ceci")


def test_order_out_of_turn_before_bet_size():
    anchor = "*** COMMON 1 *** [7c]"
    bad = CH_THREE.insert_after(anchor, "Ceci: bets 5")
    v = bad.judge()
    assert_line(v, "OUT_OF_TURN", bad.line(anchor) + 1, "Ceci")


def test_hero_view_still_counts_cards():
    hero = CH_THREE.replace("Dealt to Blas: down [Ao Ac]", "Dealt to Blas: down [??]").replace(
        "Dealt to Ceci: down [Re Rb]", "Dealt to Ceci: down [?? ??]"
    )
    v = hero.judge()
    assert_line(v, "CARD_COUNT", hero.line("Dealt to Blas: down [??]"), "Blas", only_one=False)
