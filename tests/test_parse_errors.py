"""One test per kind of error: the line, the column and words that say what
was wrong and what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from hh.parse import HandSyntaxError, ParseError, parse_hand, parse_text

pytestmark = pytest.mark.compiled

EXAMPLE = (Path(__file__).parent / "data" / "parse" / "chiribito.txt").read_text(encoding="utf-8")
CALATONE = (Path(__file__).parent / "data" / "parse" / "calatone.txt").read_text(encoding="utf-8")


def error_of(text: str) -> ParseError:
    with pytest.raises(HandSyntaxError) as caught:
        parse_hand(text)
    return caught.value.error


def edit(text: str, line: int, new: str | None) -> str:
    """The text with line ``line`` (from 1) replaced, or deleted when None."""
    lines = text.split("\n")
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines)


def test_unknown_line() -> None:
    e = error_of(edit(EXAMPLE, 13, "The dealer spills his coffee"))
    assert (e.line, e.column, e.text) == (13, 1, "The dealer spills his coffee")
    assert e.message.startswith("unknown line")


def test_unknown_verb_lists_what_a_name_may_be_followed_by() -> None:
    e = error_of(edit(EXAMPLE, 13, "Lucía: dances"))
    assert (e.line, e.column) == (13, 8)
    assert "expected 'posts (blind <n>|ante <n>)'" in e.message
    assert "'checks', 'folds', 'bets <n>', 'calls <n>', 'raises <n> to <n>'" in e.message
    assert "'mucks hand'" in e.message and "'says \"<text>\"'" in e.message
    assert e.message.endswith("after 'Lucía: ', found 'dances'")


def test_truncated_hand_is_reported_after_its_last_line() -> None:
    text = "\n".join(EXAMPLE.split("\n")[:20])  # cut in the middle of COMMON 1
    e = error_of(text)
    assert (e.line, e.column, e.text) == (21, 1, "")
    assert e.message.startswith("the hand ends without '*** SUMMARY ***'")
    assert "after line 20" in e.message and "line after the hand's last line" in e.message


def test_truncated_hand_in_a_file_then_the_next_hand_parses() -> None:
    cut = "\n".join(EXAMPLE.split("\n")[:20])
    records = list(parse_text(cut + "\n\n" + EXAMPLE))
    assert records[0].error is not None and records[0].hand_id == "CH-1"
    assert (records[0].error.line, records[0].error.column) == (21, 1)
    assert records[1].hand is not None and records[1].line == 22


def test_missing_summary_line() -> None:
    e = error_of(edit(EXAMPLE, 41, None))
    assert (e.line, e.column, e.text) == (41, 1, "Total pot 1480 | Rake 0")
    assert e.message == "'*** SUMMARY ***' is missing before the 'Total pot <n> | Rake <n>' line"


def test_missing_total_pot_line() -> None:
    e = error_of(edit(EXAMPLE, 42, None))
    assert (e.line, e.column) == (42, 1)
    assert e.message == (
        "a 'Board [...]' line cannot come here: expected the 'Total pot <n> | Rake <n>' line"
    )
    only_summary = "\n".join(EXAMPLE.split("\n")[:41])
    e = error_of(only_summary)
    assert (e.line, e.column) == (42, 1)
    assert e.message.startswith("the hand ends without its 'Total pot <n> | Rake <n>' line")


def test_valid_line_in_the_wrong_place() -> None:
    e = error_of(edit(EXAMPLE, 13, "Seat 5: Pepe (1000 in chips)"))
    assert (e.line, e.column) == (13, 1)
    assert e.message.startswith("a seat line ('Seat <k>: <name> (<n> in chips)') cannot come here")
    assert "expected a line of play" in e.message and "or '*** SUMMARY ***'" in e.message


def test_french_card_in_a_chiribito_hand() -> None:
    e = error_of(edit(EXAMPLE, 9, "Dealt to Paco: down [Ao Ah]"))
    assert (e.line, e.column) == (9, 25)
    assert e.message.startswith("'Ah' is not a Chiribito card: Chiribito is played with Spanish")
    assert "5 6 7 S C R A" in e.message and "o c e b" in e.message


def test_spanish_card_in_a_calatone_hand() -> None:
    e = error_of(edit(CALATONE, 46, CALATONE.split("\n")[45].replace("Kd Ks", "Kd So")))
    assert e.line == 46 and e.column == CALATONE.split("\n")[45].index("Kd Ks") + 4
    assert e.message.startswith("'So' is not a Calatone card: Calatone is played with French")


def test_cards_that_exist_in_both_notations_are_fine() -> None:
    assert parse_hand(edit(EXAMPLE, 9, "Dealt to Paco: down [Ac 5c]")).sections[0].lines[0].down
    board = "Board [Ac Cc 7c Sc Re]"  # 'Cc' is Spanish only: fine in Chiribito
    assert parse_hand(edit(EXAMPLE, 43, board)).summary.board is not None


def test_card_of_no_notation() -> None:
    e = error_of(edit(EXAMPLE, 9, "Dealt to Paco: down [Ao Sh]"))
    assert (e.line, e.column) == (9, 25)
    assert e.message.startswith("'Sh' is not a card")


def test_unseen_card_outside_a_dealt_line() -> None:
    e = error_of(edit(EXAMPLE, 38, "Lucía: shows [So ??] (a straight)"))
    assert (e.line, e.column) == (38, 18)
    assert "'??'" in e.message and "only in Dealt lines" in e.message


@pytest.mark.parametrize(
    ("line", "column", "amount"),
    [("Lucía: bets 020", 13, "020"), ("Lucía: bets -5", 13, "-5"),
     ("Lucía: bets 1,000", 13, "1,000"), ("Lucía: bets 12.5", 13, "12.5"),
     ("Seat 1: Lucía (1,000 in chips)", 16, "1,000"), ("Uncalled bet (+40) returned to Lucía",
     15, "+40")],
)  # fmt: skip
def test_bad_amount(line: str, column: int, amount: str) -> None:
    e = error_of(edit(EXAMPLE, 3 if line.startswith("Seat") else 13, line))
    assert e.column == column
    assert e.message.startswith(f"bad amount {amount!r}: amounts are whole numbers written plainly")


def test_other_game_street_marker() -> None:
    e = error_of(edit(EXAMPLE, 18, "*** 3RD STREET ***"))
    assert (e.line, e.column) == (18, 5)
    assert e.message == (
        "'*** 3RD STREET ***' is not a street of Chiribito: expected HOLE CARDS, "
        "COMMON 1 to COMMON 5 or SHOWDOWN"
    )
    e = error_of(edit(CALATONE, 9, "*** HOLE CARDS ***"))
    assert (e.line, e.column) == (9, 5) and "2ND STREET to 7TH STREET" in e.message


def test_other_game_street_in_a_summary_seat_line() -> None:
    e = error_of(edit(EXAMPLE, 45, "Seat 2: Paco: folded on 4TH STREET"))
    assert (e.line, e.column) == (45, 25)
    assert e.message.startswith("'4TH STREET' is not a street of Chiribito")


def test_unknown_street_marker() -> None:
    e = error_of(edit(EXAMPLE, 18, "*** FLOP *** [7c]"))
    assert (e.line, e.column) == (18, 5)
    assert e.message.startswith("expected <street> or 'SHOWDOWN' after '*** ', found 'FLOP'")
    assert "HOLE CARDS, COMMON 1 to COMMON 5" in e.message


def test_name_with_a_colon() -> None:
    e = error_of(edit(EXAMPLE, 13, "Lu:cía: calls 20"))
    assert (e.line, e.column) == (13, 3)
    assert e.message.startswith("a name may not contain ':'")


def test_name_with_a_bracket_in_a_seat_line() -> None:
    e = error_of(edit(EXAMPLE, 3, "Seat 1: Lucía [x] (1000 in chips)"))
    assert (e.line, e.column) == (3, 15)
    assert e.message.startswith("a name may not contain '['")


def test_name_too_long() -> None:
    name = "Lucía de la Santísima Trinidad del Monte"
    e = error_of(edit(EXAMPLE, 13, f"{name}: calls 20"))
    assert (e.line, e.column) == (13, 33)
    assert e.message == "a name has at most 32 characters"


def test_run_of_lines_without_a_header() -> None:
    text = EXAMPLE + "\nLucía: checks\nÍñigo: checks\n\n" + EXAMPLE
    records = list(parse_text(text))
    assert [r.hand is not None for r in records] == [True, False, True]
    bad = records[1]
    assert (bad.line, bad.hand_id, bad.site, bad.raw) == (
        49,
        None,
        None,
        "Lucía: checks\nÍñigo: checks",
    )
    assert bad.error is not None and (bad.error.line, bad.error.column) == (49, 1)
    assert bad.error.message.startswith("lines outside a hand: a hand begins with a header line")


def test_unlisted_description_category() -> None:
    e = error_of(edit(EXAMPLE, 38, "Lucía: shows [So 7o] (a straightish, Seis to Rey)"))
    assert (e.line, e.column) == (38, 23)
    assert e.message.startswith("expected <description> after 'Lucía: shows [So 7o] ('")
    assert "beginning with its category ('high card', 'a pair'" in e.message
    e = error_of(edit(EXAMPLE, 44, "Seat 1: Lucía: showed [So 7o] and won 1480 with an escalera"))
    assert (e.line, e.column) == (44, 49)
    assert "<description>" in e.message


def test_unknown_game() -> None:
    header = "chiribito.com Hand #CH-1: Mus No Limit (blind 20) - 2026/11/29 21:14:03 CET"
    e = error_of(edit(EXAMPLE, 1, header))
    assert (e.line, e.column) == (1, 27)
    assert e.message.startswith("expected 'Chiribito No Limit (blind <n>)', 'Aces, Straights")
    assert e.message.endswith("found 'Mus'")
    record = next(parse_text(edit(EXAMPLE, 1, header)))
    assert (record.hand_id, record.site) == ("CH-1", "chiribito.com")  # best effort on error


def test_side_pots_out_of_order() -> None:
    total = "Total pot 300 Main pot 150. Side pot-2 100. Side pot-1 50. | Rake 0"
    e = error_of(edit(EXAMPLE, 42, total))
    assert (e.line, e.column) == (42, 29)
    assert e.message.startswith("expected 'Side pot-1' here")


def test_missing_amount_ends_the_line_too_early() -> None:
    e = error_of(edit(EXAMPLE, 13, "Lucía: bets"))
    assert (e.line, e.column) == (13, 12)
    assert e.message == "the line ends too early: expected 'bets <n>' after 'Lucía: '"


def test_extra_words_after_a_line() -> None:
    e = error_of(edit(EXAMPLE, 13, "Lucía: calls 20 please"))
    assert (e.line, e.column) == (13, 16)
    assert e.message == (
        "expected ' and is all-in', ' (timed out)' or the end of the line after "
        "'Lucía: calls 20', found ' please'"
    )


def test_blank_line_inside_parse_hand() -> None:
    e = error_of(edit(EXAMPLE, 20, "   "))
    assert (e.line, e.column) == (20, 1)
    assert e.message.startswith("a blank line inside the hand")


def test_text_that_is_not_a_hand() -> None:
    e = error_of("*** HOLE CARDS ***\nPaco: folds")
    assert (e.line, e.column) == (1, 1)
    assert e.message.startswith("a hand begins with a header line")


def test_the_first_wrong_line_is_reported() -> None:
    text = edit(edit(EXAMPLE, 30, "Lucía: bets 0100"), 9, "Dealt to Paco: down [Ah Rc]")
    assert error_of(text).line == 9


def test_error_keeps_the_line_as_read() -> None:
    record = next(parse_text(edit(EXAMPLE, 13, "Lucía: bets 020   ").replace("\n", "\r\n")))
    assert record.error is not None
    assert (record.error.line, record.error.column) == (13, 13)
    assert record.error.text == "Lucía: bets 020   "


@pytest.mark.timeout(120)
def test_long_lines_fail_fast() -> None:
    """A long card list that fails at its end must not backtrack through the
    ways of reading it (5c, 6c, 7c and Ac are in both notations): with
    backtracking, 1,000 cards would take longer than the universe has, so a
    hang guard of two minutes (not a speed bound: the machine may be loaded)
    is what holds it."""
    board = "Board [" + " ".join(["7c"] * 1000) + " Zz]"
    e = error_of(edit(EXAMPLE, 43, board))
    assert (e.line, e.column) == (43, len(board) - 2)
    e = error_of(edit(EXAMPLE, 43, "Board [" + " ".join(["Ac"] * 5000) + " Zz]"))
    assert (e.line, e.column) == (43, 1) and "characters) does not have the form" in e.message
