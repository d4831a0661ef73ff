"""The parser's fast path against Lark's (the grammar's authority), and the
hardening of issue 8: names that begin like another kind of line, numbers
too long for int(), byte-order marks before later hands, control characters
in the site, CR line ends. Each fault has its regression test here."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import hands

from hh.model import Game
from hh.parse import HandSyntaxError, ParseError, parse_hand, parse_stream, parse_text
from hh.parse.fast import parse_fast
from hh.parse.hands import strip_line
from hh.parse.lark import parse_lines as lark_parse_lines
from hh.parse.lines import LINE_KINDS, classify
from hh.simulate import Simulator
from hh.write import write_hand

pytestmark = pytest.mark.compiled

DATA = Path(__file__).parent / "data" / "parse"
EXAMPLE = (DATA / "chiribito.txt").read_text(encoding="utf-8")


def error_of(text: str) -> ParseError:
    with pytest.raises(HandSyntaxError) as caught:
        parse_hand(text)
    return caught.value.error


# ------------------------------------------------------------ fast path == Lark


def both_ways(text: str) -> tuple[str, str]:
    """(fast path, Lark path) as comparable text: the model's repr (line
    numbers included) or 'error'."""
    lines = [strip_line(x) for x in text.split("\n") if x.strip(" \t")]
    fast = parse_fast(lines, 1)
    try:
        lark = repr(lark_parse_lines(lines, 1))
    except HandSyntaxError:
        lark = "error"
    return ("error" if fast is None else repr(fast)), lark


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(hands())
def test_fast_path_reads_generated_hands_as_lark_does(hand) -> None:  # type: ignore[no-untyped-def]
    fast, lark = both_ways(write_hand(hand))
    assert fast == lark != "error"


# A line of each kind (Chiribito), to build hands of any order of line kinds.
KIND_LINES = {
    "HEADER_LINE": "s Hand #1: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03 CET",
    "TABLE_LINE": "Table 'T' 6-max Seat #1 is the dealer",
    "HOUSE_RULES_LINE": "House rules: La Perla wins",
    "COMMITMENT_LINE": "Shuffle commitment: " + "a" * 64,
    "SEAT_LINE": "Seat 1: Ana (100 in chips)",
    "POST_LINE": "Ana: posts blind 20",
    "TOP_UP_LINE": "Ana: adds 5 chips",
    "MARKER_LINE": "*** COMMON 1 *** [7c]",
    "DEAL_LINE": "Dealt to Ana: down [Ao Rc]",
    "ACTION_LINE": "Ana: folds",
    "UNCALLED_LINE": "Uncalled bet (5) returned to Ana",
    "COLLECTED_LINE": "Ana: collected 5 from pot",
    "SHOW_LINE": "Ana: shows [Ao Rc]",
    "MUCK_LINE": "Ana: mucks hand",
    "INFO_LINE": 'Ana: says "hola"',
    "SUMMARY_LINE": "*** SUMMARY ***",
    "TOTAL_POT_LINE": "Total pot 5 | Rake 0",
    "BOARD_LINE": "Board [7c]",
    "DECK_LINE": "Deck [7c Sc]",
    "SEAT_OUTCOME_LINE": "Seat 1: Ana: mucked",
}


def test_every_line_kind_has_a_sample_line() -> None:
    assert set(KIND_LINES) == set(LINE_KINDS)
    assert all(classify(line) == kind for kind, line in KIND_LINES.items())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINE_KINDS), min_size=1, max_size=14), st.booleans())
def test_fast_path_accepts_the_orders_of_lines_lark_accepts(kinds, headed) -> None:  # type: ignore[no-untyped-def]
    if headed:
        kinds = ["HEADER_LINE", "TABLE_LINE", *kinds]
    fast, lark = both_ways("\n".join(KIND_LINES[k] for k in kinds))
    assert fast == lark


def test_fast_path_accepts_the_shortest_and_fullest_orders() -> None:
    for kinds in (
        ["HEADER_LINE", "TABLE_LINE", "SEAT_LINE", "SUMMARY_LINE", "TOTAL_POT_LINE"],
        [*LINE_KINDS, "SEAT_OUTCOME_LINE"],
    ):
        fast, lark = both_ways("\n".join(KIND_LINES[k] for k in kinds))
        assert fast == lark != "error"


_NOISE = " :()[]\"'#*-0123456789|.,?\x1b\ufeffabcSeatDealt toBoardDeckHand"


def corrupt(text: str, rng: random.Random) -> str:
    """One random edit of the text: a character changed, inserted or
    deleted, or a line deleted, doubled or moved."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    what = rng.randrange(6)
    if what == 3:
        del lines[i]
    elif what == 4:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif what == 5:
        lines.insert(rng.randrange(len(lines)), lines.pop(i))
    else:
        line = lines[i]
        at = rng.randrange(len(line) + 1)
        char = rng.choice(_NOISE)
        if what == 0:
            line = line[:at] + char + line[at + 1 :]
        elif what == 1:
            line = line[:at] + char + line[at:]
        else:
            line = line[:at] + line[at + 1 :]
        lines[i] = line
    return "\n".join(lines)


@pytest.mark.parametrize("game", list(Game))
def test_fast_path_and_lark_agree_on_corrupted_hands(game: Game) -> None:
    rng = random.Random(8)
    texts = [write_hand(h) for h in Simulator(game, seed=9, tables=2).hands(6)]
    agreed = errors = 0
    for k in range(150):
        text = corrupt(texts[k % len(texts)], rng)
        fast, lark = both_ways(text)
        assert fast == lark, text
        agreed += 1
        errors += lark == "error"
    assert agreed == 150 and 0 < errors < 150  # both outcomes were exercised


# ------------------------------------------------------------ names (issue 8, item 5)

# Each beginning a name may not have (FORMAT.md, Settled details), and a near
# miss of it that is a legal name.
FORBIDDEN = [
    ("Seat 9x", "'Seat <n>'"),
    ("Dealt to X", "'Dealt to '"),
    ("***x", "'***'"),
    ("Uncalled bets", "'Uncalled bet'"),
    ("House rules", "'House rules'"),
    ("Shuffle commitment", "'Shuffle commitment'"),
    ("Total pots", "'Total pot'"),
    ("Board x", "'Board '"),
    ("Deck x", "'Deck '"),
    ("Table 'x", "\"Table '\""),
    ("Hand #3", "'Hand #'"),
    ("X Hand #3", "'<word> Hand #'"),
]
NEAR_MISSES = [
    "Seat Belt", "Seat", "Dealt", "Dealt toe", "Dealt to", "** x", "Uncalled be", "House rule",
    "Shuffle", "Total po", "Board", "Boardwalk", "Deck", "Decks", "Table", "Tables", "Handy",
    "Hand 3", "X Hand 3",
]  # fmt: skip


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_a_near_miss_of_a_forbidden_beginning_is_a_name_in_every_line(name: str) -> None:
    text = EXAMPLE.replace("Marta", name).replace("Íñigo", name + "2")
    hand = parse_hand(text)
    assert [s.name for s in hand.seats] == ["Lucía", "Paco", name, name + "2"]
    assert write_hand(hand) + "\n" == text  # every line naming them was read as its kind
    fast, lark = both_ways(text)
    assert fast == lark != "error"


def test_seat_belt_plays_a_whole_hand() -> None:
    # The reported fault: his first action was read as a seat line.
    hand = parse_hand(EXAMPLE.replace("Lucía", "Seat Belt"))
    assert hand.sections[0].lines[4].name == "Seat Belt"
    assert hand.summary.seats[0].name == "Seat Belt"


@pytest.mark.parametrize(("name", "rule"), FORBIDDEN)
def test_a_refused_name_says_which_rule_it_breaks(name: str, rule: str) -> None:
    e = error_of(EXAMPLE.replace("Seat 3: Marta", f"Seat 3: {name}"))
    assert (e.line, e.column) == (5, 9)
    assert e.message.startswith(f"a name may not begin with {rule} (FORMAT.md, Settled details)")


def test_a_refused_name_in_an_action_line_is_reported_at_its_start() -> None:
    e = error_of(EXAMPLE.replace("Marta: folds", "Total potato: folds"))
    assert (e.line, e.column) == (15, 1)
    assert e.message.startswith("a name may not begin with 'Total pot'")


# ------------------------------------------------------------ long numbers (item 10)


@pytest.mark.parametrize(
    ("old", "new", "line", "column"),
    [
        ("(1000 in chips)", "(1{} in chips)", 3, 16),
        ("raises 20 to 40", "raises 2{} to 40", 14, 15),
        ("6-max", "6{}-max", 2, 18),
        ("Seat 2: Paco (", "Seat 2{}: Paco (", 4, 6),
        ("Total pot 1480", "Total pot 1{}", 42, 11),
    ],
)
def test_a_number_too_long_is_a_parse_error_at_its_column(
    old: str, new: str, line: int, column: int
) -> None:
    for zeros in (18, 5000):  # past the format's 18 digits; past int()'s 4,300
        e = error_of(EXAMPLE.replace(old, new.format("0" * zeros), 1))
        assert (e.line, e.column) == (line, column)
        assert e.message == (
            f"this number has {zeros + 1:,} digits: a number in a hand has at most 18 digits"
        )


def test_eighteen_digits_are_read() -> None:
    big = 10**17 + 1
    hand = parse_hand(EXAMPLE.replace("(1000 in chips)", f"({big} in chips)", 1))
    assert hand.seats[0].chips == big


def test_a_long_number_in_a_file_does_not_stop_the_run() -> None:
    text = EXAMPLE.replace("blind 20)", "blind 2" + "0" * 5000 + ")") + "\n" + EXAMPLE
    records = list(parse_text(text))
    assert records[0].error is not None and records[0].error.column == 53
    assert records[1].hand is not None


# ------------------------------------------------------------ BOM, site, CR (items 17, 18, 21)


def test_a_bom_before_a_later_hand_is_not_part_of_its_site() -> None:
    second = EXAMPLE.replace("CH-1", "CH-2")
    joined = ("\ufeff" + EXAMPLE + "\n\ufeff" + second).encode()  # two files joined by cat
    for records in (list(parse_stream(io.BytesIO(joined))), list(parse_text(joined.decode()))):
        assert [(r.site, r.hand_id, r.error) for r in records] == [
            ("chiribito.com", "CH-1", None),
            ("chiribito.com", "CH-2", None),
        ]
    # without a blank line between them (the first file had no final blank line)
    siteless = second.replace("chiribito.com ", "")
    records = list(parse_text(EXAMPLE.rstrip("\n") + "\n\ufeff" + siteless))
    assert [(r.site, r.hand_id, r.error) for r in records] == [
        ("chiribito.com", "CH-1", None),
        (None, "CH-2", None),
    ]


def test_a_bom_is_ignored_only_before_a_header() -> None:
    # Elsewhere it is a character like any other (here, of a name).
    hand = parse_hand("\n\ufeff" + EXAMPLE.replace("Paco: posts", "\ufeffPaco: posts"))
    assert hand.header.site == "chiribito.com"
    assert hand.preamble[0].name == "\ufeffPaco"


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\x7f", "\x9b", "\ufeff"])
def test_the_site_refuses_control_characters(char: str) -> None:
    sites = [(f"chiri{char}bito.com", 6), (f"{char}chiribito.com", 1)]
    for site, column in sites[: 1 if char == "\ufeff" else 2]:  # a leading BOM is a BOM
        e = error_of(EXAMPLE.replace("chiribito.com", site, 1))
        assert (e.line, e.column) == (1, column)
        assert e.message.startswith(f"the character U+{ord(char):04X} cannot be here")


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_a_line_separator_in_the_site_makes_no_header(char: str) -> None:
    e = error_of(EXAMPLE.replace("chiribito.com", f"chiri{char}bito.com", 1))
    assert (e.line, e.column) == (1, 1)
    assert e.message.startswith("a hand begins with a header line")


def test_a_site_may_not_be_three_stars() -> None:
    # "*** Hand #..." would begin like a marker line, as a name may not.
    e = error_of(EXAMPLE.replace("chiribito.com", "***", 1))
    assert e.line == 1 and "a hand begins with a header line" in e.message
    assert parse_hand(EXAMPLE.replace("chiribito.com", "***x", 1)).header.site == "***x"


def test_cr_line_ends_are_named_plainly() -> None:
    records = list(parse_stream(io.BytesIO(EXAMPLE.replace("\n", "\r").encode())))
    assert len(records) == 1 and records[0].hand is None
    error = records[0].error
    assert error is not None and (error.line, error.column) == (1, 82)
    assert error.message.startswith("a carriage return (CR) inside a line: this file uses CR")


def test_a_stray_cr_inside_a_line_is_an_error_even_in_chat() -> None:
    e = error_of(EXAMPLE.replace("Lucía: checks", 'Lucía: says "a\rb"'))
    assert (e.line, e.column) == (24, 15)
    assert "carriage return" in e.message


def test_crlf_is_still_one_line_end() -> None:
    crlf = EXAMPLE.replace("\n", "\r\n").encode()
    records = list(parse_stream(io.BytesIO(crlf)))
    assert len(records) == 1 and records[0].hand == parse_hand(EXAMPLE)


# The first words of a line as the parser once found them, by one regex: the
# oracle of hh.parse.lines._prefix, which looks them up by first character.
_PREFIX_REGEX = re.compile(
    r"\*\*\* |Seat (?=[0-9])|Dealt to |Uncalled bet \(|Total pot |Board \[|Deck \[|House rules: "
    r"|Shuffle commitment: |Table '"
)
_WORDS = [
    "*** ", "**", "Seat ", "Seat", "Seat 1", "Seat x", "Seat \u0663", "Dealt to ", "Dealt to",
    "Deck [", "Deck", "Uncalled bet (", "Total pot ", "Table '", "Table", "Board [",
    "House rules: ", "Shuffle commitment: ", "Shuffle", "S", "D", "", " ", "Hand #",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(head=st.sampled_from(_WORDS), tail=st.text(max_size=8))
def test_first_words_are_found_as_the_regex_finds_them(head: str, tail: str) -> None:
    from hh.parse.lines import _prefix

    text = head + tail
    m = _PREFIX_REGEX.match(text)
    assert _prefix(text) == (m.group() if m else None)
