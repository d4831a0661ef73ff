# ruff: noqa: E501  (hand texts are written out line by line, as in the log format)
"""A violation's ``follows``: the line of the earlier fault it only follows
from (FORMAT.md, Validation results; docs/decisions.md, "Which violations
follow from an earlier one").

Expected violations and their causes are worked out by hand from the hand
texts; line numbers are found in the text (``HandText.line``), never taken
from the validator. The mutation tests rest on an argument, not on the code
under test: a corruption whose nearest legal line is the original line
(a call's amount is fixed by the state, so the nearest legal call is the
original one) is repaired into the valid original, so every other
violation of the mutant follows from the corrupted line.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from handtext import EX_CHIRIBITO, HandText
from rich.console import Console
from typer.testing import CliRunner

import hh.replay.follows
from hh.cli import app
from hh.model import Game
from hh.parse import HandSyntaxError, parse_hand
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import Verdict, validate
from hh.write import write_hand
from reports.show.explain import explain, hand_meta
from reports.show.terminal import render

pytestmark = pytest.mark.compiled

runner = CliRunner()

# A call one chip short of an all-in: Íñigo had 480 behind and called 479
# "and is all-in", so as written he keeps one chip and the engine still
# expects him (and then Paco) to act on every later street.
SHORT_CALL = HandText.of("""
    chiribito.com Hand #CH-479: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03 CET
    Table 'Mérida 2' 6-max Seat #3 is the dealer
    Seat 1: Lucía (2000 in chips)
    Seat 2: Paco (2000 in chips)
    Seat 3: Marta (2000 in chips)
    Seat 4: Íñigo (520 in chips)
    Paco: posts blind 20
    *** HOLE CARDS ***
    Dealt to Paco: down [5o Rc]
    Dealt to Lucía: down [So 7o]
    Dealt to Íñigo: down [5c 5e]
    Dealt to Marta: down [Cb 6b]
    Lucía: calls 20
    Íñigo: raises 20 to 40
    Marta: folds
    Paco: calls 20
    Lucía: calls 20
    *** COMMON 1 *** [7c]
    Íñigo: checks
    Paco: bets 480
    Lucía: folds
    Íñigo: calls 480 and is all-in
    *** COMMON 2 *** [7c] [Sc]
    *** COMMON 3 *** [7c Sc] [Re]
    *** COMMON 4 *** [7c Sc Re] [Ae]
    *** COMMON 5 *** [7c Sc Re Ae] [6o]
    *** SHOWDOWN ***
    Paco: shows [5o Rc] (a pair, Reyes)
    Íñigo: shows [5c 5e] (a pair, Cincos)
    Paco: collected 1080 from pot
    *** SUMMARY ***
    Total pot 1080 | Rake 0
    Board [7c Sc Re Ae 6o]
    Seat 1: Lucía: folded on COMMON 1
    Seat 2: Paco: showed [5o Rc] and won 1080 with a pair
    Seat 3: Marta: folded on HOLE CARDS
    Seat 4: Íñigo: showed [5c 5e] and lost with a pair
""")
BAD_CALL = "Íñigo: calls 479 and is all-in"
SHORT = SHORT_CALL.replace("Íñigo: calls 480 and is all-in", BAD_CALL)
# the lines of the violations that follow from the short call
LATER = (
    "*** COMMON 2 *** [7c] [Sc]",
    "*** COMMON 3 *** [7c Sc] [Re]",
    "*** COMMON 4 *** [7c Sc Re] [Ae]",
    "*** COMMON 5 *** [7c Sc Re Ae] [6o]",
    "*** SHOWDOWN ***",
    "Paco: collected 1080 from pot",
    "Total pot 1080 | Rake 0",
    "Seat 2: Paco: showed [5o Rc] and won 1080 with a pair",
)


def _triples(v: Verdict) -> list[tuple[str, int, int | None]]:
    return [(x.code, x.line, x.follows) for x in v.violations]


def test_the_legal_hand_is_valid() -> None:
    v = SHORT_CALL.judge()
    assert v.valid
    assert v.payouts == {"Paco": 1080}


def test_a_call_one_chip_short_is_the_cause_of_everything_after_it() -> None:
    h = SHORT
    call = h.line(BAD_CALL)
    assert _triples(h.judge()) == [
        ("CALL_AMOUNT", call, None),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 2 *** [7c] [Sc]"), call),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 3 *** [7c Sc] [Re]"), call),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 4 *** [7c Sc Re] [Ae]"), call),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 5 *** [7c Sc Re Ae] [6o]"), call),
        ("ROUND_NOT_CLOSED", h.line("*** SHOWDOWN ***"), call),
        ("PAYOUT", h.line("Paco: collected 1080 from pot"), call),
        ("POT_TOTAL", h.line("Total pot 1080 | Rake 0"), call),
        ("SUMMARY", h.line("Seat 2: Paco: showed [5o Rc] and won 1080 with a pair"), call),
    ]


def test_two_independent_faults_follow_from_nothing() -> None:
    # a raise's <by> off (chips unchanged: nothing follows from it) and a
    # call one chip short on common 5 (the rest follows from that call)
    h = EX_CHIRIBITO.replace("Íñigo: raises 20 to 40", "Íñigo: raises 25 to 40")
    h = h.replace("Íñigo: calls 300", "Íñigo: calls 299")
    call = h.line("Íñigo: calls 299")
    assert _triples(h.judge()) == [
        ("AMOUNT_MISMATCH", h.line("Íñigo: raises 25 to 40"), None),
        ("CALL_AMOUNT", call, None),
        ("ROUND_NOT_CLOSED", h.line("*** SHOWDOWN ***"), call),
        ("PAYOUT", h.line("Lucía: collected 1480 from pot"), call),
        ("POT_TOTAL", h.line("Total pot 1480 | Rake 0"), call),
        ("SUMMARY", h.line("Seat 1: Lucía: showed [So 7o] and won 1480 with a straight"), call),
    ]


def test_what_two_faults_cause_together_follows_from_neither() -> None:
    # two short calls: each leaves its own round open, but the pot is short
    # by both, so repairing either alone leaves the pot's faults in place
    h = EX_CHIRIBITO.replace("Íñigo: calls 40", "Íñigo: calls 39")
    h = h.replace("Íñigo: calls 300", "Íñigo: calls 299")
    first, second = h.line("Íñigo: calls 39"), h.line("Íñigo: calls 299")
    assert _triples(h.judge()) == [
        ("CALL_AMOUNT", first, None),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 2 *** [7c] [Sc]"), first),
        ("CALL_AMOUNT", second, None),
        ("ROUND_NOT_CLOSED", h.line("*** SHOWDOWN ***"), second),
        ("PAYOUT", h.line("Lucía: collected 1480 from pot"), None),
        ("POT_TOTAL", h.line("Total pot 1480 | Rake 0"), None),
        ("SUMMARY", h.line("Seat 1: Lucía: showed [So 7o] and won 1480 with a straight"), None),
    ]


def test_a_blind_of_the_wrong_size_is_the_cause_of_the_calls_after_it() -> None:
    h = EX_CHIRIBITO.replace("Paco: posts blind 20", "Paco: posts blind 25")
    post = h.line("Paco: posts blind 25")
    assert _triples(h.judge()) == [
        ("FORCED_BET", post, None),
        ("CALL_AMOUNT", h.line("Paco: calls 20"), post),
        ("CALL_AMOUNT", h.line("Lucía: calls 20", 2), post),
        ("ROUND_NOT_CLOSED", h.line("*** COMMON 1 *** [7c]"), post),
        ("OUT_OF_TURN", h.line("Íñigo: bets 40"), post),
    ]


def test_a_check_facing_a_bet_has_no_obvious_repair_so_nothing_is_claimed() -> None:
    # checking where 100 is owed: a call or a fold? No claim is made for it.
    h = EX_CHIRIBITO.replace("Íñigo: calls 100", "Íñigo: checks")
    v = h.judge()
    assert v.violations[0].code == "ILLEGAL_CHECK"
    assert v.violations[0].line == h.line("Íñigo: checks", 2)
    assert all(x.follows is None or x.follows > h.line("Íñigo: checks", 2) for x in v.violations)
    assert all(x.follows != h.line("Íñigo: checks", 2) for x in v.violations)


def test_the_replays_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    # with one repaired replay allowed, only the first cause is tried
    monkeypatch.setattr(hh.replay.follows, "MAX_REPLAYS", 1)
    h = EX_CHIRIBITO.replace("Íñigo: calls 40", "Íñigo: calls 39")
    h = h.replace("Íñigo: calls 300", "Íñigo: calls 299")
    first = h.line("Íñigo: calls 39")
    assert [(x.line, x.follows) for x in h.judge().violations if x.follows is not None] == [
        (h.line("*** COMMON 2 *** [7c] [Sc]"), first)
    ]


# ------------------------------------------------------------------ output


def test_validate_text_says_which_line_a_violation_follows_from(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(SHORT.text, "utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    call = SHORT.line(BAD_CALL)
    p = str(path)
    assert result.output == (
        f"{p}:1: #CH-479 chiribito: INVALID, 9 violations\n"
        f"  {p}:{call}: CALL_AMOUNT: Íñigo calls 479, but the call is 480 (the bet is 480, Íñigo has 0 in)\n"
        f"      {BAD_CALL}\n"
        f"  {p}:23: ROUND_NOT_CLOSED: COMMON 2 starts while Íñigo still faces a bet of 1 on COMMON 1 (follows from line {call})\n"
        f"      *** COMMON 2 *** [7c] [Sc]\n"
        f"  {p}:24: ROUND_NOT_CLOSED: COMMON 3 starts while Paco still has not acted on COMMON 2 (follows from line {call})\n"
        f"      *** COMMON 3 *** [7c Sc] [Re]\n"
        f"  {p}:25: ROUND_NOT_CLOSED: COMMON 4 starts while Paco still has not acted on COMMON 3 (follows from line {call})\n"
        f"      *** COMMON 4 *** [7c Sc Re] [Ae]\n"
        f"  {p}:26: ROUND_NOT_CLOSED: COMMON 5 starts while Paco still has not acted on COMMON 4 (follows from line {call})\n"
        f"      *** COMMON 5 *** [7c Sc Re Ae] [6o]\n"
        f"  {p}:27: ROUND_NOT_CLOSED: *** SHOWDOWN *** while Paco still has not acted on COMMON 5 (follows from line {call})\n"
        f"      *** SHOWDOWN ***\n"
        f"  {p}:30: PAYOUT: Paco: collected 1080 from pot is not what the rules give; expected Paco: collected 1078 from pot (follows from line {call})\n"
        f"      Paco: collected 1080 from pot\n"
        f"  {p}:32: POT_TOTAL: Total pot 1080, but the chips put in (less uncalled bets) come to 1078 (follows from line {call})\n"
        f"      Total pot 1080 | Rake 0\n"
        f"  {p}:35: SUMMARY: Paco won 1078, not 1080 (follows from line {call})\n"
        f"      Seat 2: Paco: showed [5o Rc] and won 1080 with a pair\n"
        f"1 hand: 0 valid, 1 invalid\n"
    )


def test_validate_text_of_a_hand_without_consequences_is_unchanged(tmp_path: Path) -> None:
    # two faults, nothing following from either: the text as it always was
    h = EX_CHIRIBITO.replace("Íñigo: raises 20 to 40", "Íñigo: raises 25 to 40")
    h = h.replace("Íñigo: shows [5c 5e] (a pair, Cincos)", "Íñigo: shows [5c 5e] (two pair, Cincos)")
    path = tmp_path / "h.txt"
    path.write_text(h.text, "utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    p = str(path)
    assert result.output == (
        f"{p}:1: #CH-1 chiribito: INVALID, 2 violations\n"
        f"  {p}:14: AMOUNT_MISMATCH: Íñigo raises 25 to 40, but from a bet of 20 to 40 is a raise of 20\n"
        f"      Íñigo: raises 25 to 40\n"
        f"  {p}:39: HAND_DESCRIPTION: Íñigo's hand is described as 'two pair, Cincos', but [5c 5e] make a pair\n"
        f"      Íñigo: shows [5c 5e] (two pair, Cincos)\n"
        f"1 hand: 0 valid, 1 invalid\n"
    )


def test_validate_json_follows_key_only_on_consequences(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(SHORT.text, "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    (obj,) = [json.loads(x) for x in result.output.splitlines()]
    call = SHORT.line(BAD_CALL)
    violations = obj["violations"]
    # FORMAT.md: {"code", "line", "message"}, and "follows" on a consequence only
    assert list(violations[0]) == ["code", "line", "message"]
    assert violations[0] == {
        "code": "CALL_AMOUNT",
        "line": call,
        "message": "Íñigo calls 479, but the call is 480 (the bet is 480, Íñigo has 0 in)",
    }
    for v in violations[1:]:
        assert list(v) == ["code", "line", "message", "follows"]
        assert v["follows"] == call
    assert violations[1] == {
        "code": "ROUND_NOT_CLOSED",
        "line": SHORT.line("*** COMMON 2 *** [7c] [Sc]"),
        "message": "COMMON 2 starts while Íñigo still faces a bet of 1 on COMMON 1",
        "follows": call,
    }
    # the rest of the object keeps FORMAT.md's keys, in its order
    assert list(obj) == ["file", "line", "hand_id", "site", "game", "valid", "violations",
                         "pots", "payouts", "net"]  # fmt: skip
    assert obj["payouts"] == {"Paco": 1078}


# ---------------------------------------------------------------- hh show


def _explained(h: HandText) -> tuple[list[dict], dict]:
    hand = parse_hand(h.text)
    trace: list = []
    verdict = validate(hand, None, trace)
    return explain(hand, verdict, trace, h.text), hand_meta(hand, verdict)


def test_show_json_puts_the_consequences_beside_their_cause() -> None:
    rows, meta = _explained(SHORT)
    by_line = {r["line"]: r for r in rows}
    call = SHORT.line(BAD_CALL)
    later = [SHORT.line(x) for x in LATER]
    assert by_line[call]["faults"] == [{
        "code": "CALL_AMOUNT",
        "message": "Íñigo calls 479, but the call is 480 (the bet is 480, Íñigo has 0 in)",
        "consequences": later,
    }]  # fmt: skip
    for n in later:
        (fault,) = by_line[n]["faults"]
        assert fault["follows"] == call
        assert "consequences" not in fault
    assert [v.get("follows") for v in meta["violations"]] == [None] + [call] * 8


def test_show_terminal_subdues_the_consequences() -> None:
    rows, meta = _explained(SHORT)
    console = Console(file=None, width=200, record=True, soft_wrap=True)
    with console.capture() as cap:
        render(rows, meta, console)
    out = cap.get()
    call = SHORT.line(BAD_CALL)
    assert "INVALID, 9 violations (8 follow from earlier ones)" in out
    assert ("✗ CALL_AMOUNT: Íñigo calls 479, but the call is 480 (the bet is 480, Íñigo has 0 in)"
            in out)  # fmt: skip
    lines = ", ".join(str(SHORT.line(x)) for x in LATER)
    assert f"8 later violations follow from this line: lines {lines}" in out
    assert (f"↳ ROUND_NOT_CLOSED: COMMON 2 starts while Íñigo still faces a bet of 1 on COMMON 1 "
            f"(follows from line {call})") in out  # fmt: skip
    assert out.count("✗ ") == 1 and out.count("↳ ") == 8


def test_show_terminal_of_a_hand_without_consequences_says_nothing_of_them() -> None:
    rows, meta = _explained(EX_CHIRIBITO.replace("Íñigo: raises 20 to 40", "Íñigo: raises 25 to 40"))
    console = Console(file=None, width=200, record=True, soft_wrap=True)
    with console.capture() as cap:
        render(rows, meta, console)
    out = cap.get()
    assert "INVALID, 1 violation\n" in out
    assert "follow" not in out and "↳" not in out


# ------------------------------------------------------------ mutations

# The corruptions whose nearest legal line is the original line: a call's
# amount is fixed by the state (call_amount); <by> is the rise, <total>
# kept (raise_by); the all-in mark is fixed by the chips left
# (removed_all_in); a forced bet is fixed by the rules (wrong_post).
RESTORED = ("call_amount", "raise_by", "removed_all_in", "wrong_post")


def _mutants(kinds: list[str], n: int, seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    for game in Game:
        for hand in Simulator(game, seed=seed, tables=2).hands(n):
            for kind in kinds:
                m = mutate(hand, kind, rng)
                if m is None:
                    continue
                before, after = write_hand(hand).split("\n"), write_hand(m).split("\n")
                try:
                    parsed = parse_hand(write_hand(m))
                except HandSyntaxError:
                    continue
                yield kind, before, after, validate(parsed)


def test_a_corruption_repaired_into_the_original_is_the_root_of_all_the_rest() -> None:
    seen: Counter[str] = Counter()
    followed = 0
    for kind, before, after, v in _mutants(list(RESTORED), 60, seed=41):
        assert len(before) == len(after)
        (changed,) = [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        roots = [x for x in v.violations if x.follows is None]
        assert [x.line for x in roots] == [changed], (kind, "\n".join(after))
        assert all(x.follows == changed for x in v.violations if x is not roots[0])
        seen[kind] += 1
        followed += len(v.violations) - 1
    assert all(seen[k] > 20 for k in RESTORED), seen
    assert followed > 200  # the corruptions above do drag consequences


def test_every_follows_names_an_earlier_root_cause() -> None:
    n = 0
    for kind, _, _, v in _mutants(sorted(KINDS), 8, seed=42):
        roots = {x.line for x in v.violations if x.follows is None}
        for x in v.violations:
            if x.follows is not None:
                assert x.follows < x.line and x.follows in roots, (kind, x)
                n += 1
    assert n > 100


def test_valid_simulated_sessions_print_as_before(tmp_path: Path) -> None:
    for game in Game:
        texts = [write_hand(h) for h in Simulator(game, seed=9, tables=2).hands(40)]
        path = tmp_path / f"{game.value}.txt"
        path.write_text("\n".join(texts), "utf-8")
        result = runner.invoke(app, ["validate", str(path)])
        assert result.exit_code == 0
        expected, first = [], 1
        for t in texts:
            hand_id = t.split("#", 1)[1].split(":", 1)[0]
            expected.append(f"{path}:{first}: #{hand_id} {game.value}: valid")
            first += t.count("\n") + 1  # its lines and the blank line after it
        expected.append(f"{len(texts)} hands: {len(texts)} valid, 0 invalid")
        assert result.output == "\n".join(expected) + "\n"
