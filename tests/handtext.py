# ruff: noqa: E501  (hand texts are written out line by line, as in the log format)
"""Hand texts for the rules tests (RULES.md, FORMAT.md), and small helpers to
edit and judge them.

Every hand below is written out line by line, and every expected pot, payout
and net in the tests is worked out by hand from the rules; nothing here is
generated from the code under test. A test takes a legal hand, checks it is
valid with the exact pots, then edits one line to make it illegal and checks
the code at the line. Line numbers are found in the text (``HandText.line``),
never taken from the validator.
"""

from __future__ import annotations

import hashlib
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hh.parse import parse_hand, parse_text
from hh.validate import Verdict, cross_check, validate

SPANISH = [r + s for s in "oceb" for r in "567SCRA"]
FRENCH = [r + s for s in "cdhs" for r in "23456789TJQKA"]


@dataclass(frozen=True)
class HandText:
    """A hand as its lines (no line ends); edits return a new HandText."""

    lines: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> HandText:
        return cls(tuple(textwrap.dedent(text).strip("\n").splitlines()))

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def _index(self, content: str, nth: int = 1) -> int:
        seen = 0
        for i, line in enumerate(self.lines):
            if line == content:
                seen += 1
                if seen == nth:
                    return i
        raise AssertionError(f"line {content!r} (occurrence {nth}) not in the hand")

    def line(self, content: str, nth: int = 1) -> int:
        """The 1-based line number of the nth line equal to ``content``."""
        return self._index(content, nth) + 1

    def replace(self, old: str, *new: str, nth: int = 1) -> HandText:
        i = self._index(old, nth)
        return HandText(self.lines[:i] + tuple(new) + self.lines[i + 1 :])

    def delete(self, old: str, nth: int = 1) -> HandText:
        return self.replace(old, nth=nth)

    def insert_after(self, anchor: str, *new: str, nth: int = 1) -> HandText:
        i = self._index(anchor, nth)
        return HandText(self.lines[: i + 1] + tuple(new) + self.lines[i + 1 :])

    def insert_before(self, anchor: str, *new: str, nth: int = 1) -> HandText:
        i = self._index(anchor, nth)
        return HandText(self.lines[:i] + tuple(new) + self.lines[i:])

    def judge(self) -> Verdict:
        return validate(parse_hand(self.text))


# ------------------------------------------------------------------ judging


def codes(verdict: Verdict) -> list[tuple[str, int]]:
    return [(v.code, v.line) for v in verdict.violations]


def codes_at(verdict: Verdict, line: int) -> list[str]:
    return [v.code for v in verdict.violations if v.line == line]


def pots(verdict: Verdict) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    assert verdict.pots is not None
    return [(p.amount, tuple(p.eligible), tuple(p.winners)) for p in verdict.pots]


def assert_legal(
    hand: HandText,
    expected_pots: Sequence[tuple[int, Sequence[str], Sequence[str]]],
    payouts: Mapping[str, int],
    net: Mapping[str, int],
    rake: int = 0,
) -> Verdict:
    """The hand is valid and the rules give exactly these pots, payouts, net."""
    # The expectations themselves add up: pots are paid out in full, and the
    # players' nets sum to minus the rake.
    assert sum(payouts.values()) == sum(a for a, _, _ in expected_pots)
    assert sum(net.values()) == -rake
    v = hand.judge()
    assert codes(v) == [], [f"{x.code}@{x.line}: {x.message}" for x in v.violations]
    assert v.valid
    assert pots(v) == [(a, tuple(e), tuple(w)) for a, e, w in expected_pots]
    assert {k: x for k, x in (v.payouts or {}).items() if x} == dict(payouts)
    assert v.net == dict(net)
    return v


def assert_line(
    verdict: Verdict, code: str, line: int, *fragments: str, only_one: bool = True
) -> None:
    """``code`` is reported at ``line`` (and, for an action line, nothing else is),
    its message mentioning each fragment."""
    found = [v for v in verdict.violations if v.line == line]
    where = [f"{x.code}@{x.line}: {x.message}" for x in verdict.violations]
    if only_one:
        assert [v.code for v in found] == [code], where
    else:
        assert code in [v.code for v in found], where
    message = next(v.message for v in found if v.code == code)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def assert_only(verdict: Verdict, expected: Iterable[tuple[str, int]]) -> None:
    """Exactly these (code, line) violations, in any order."""
    where = [f"{x.code}@{x.line}: {x.message}" for x in verdict.violations]
    assert sorted(codes(verdict)) == sorted(expected), where


def judge_run(*hands: HandText) -> list[Verdict]:
    """Several hands in one text (blank line between), validated and cross-checked."""
    text = "\n".join(h.text for h in hands)
    verdicts = []
    for record in parse_text(text):
        assert record.error is None, record.error
        assert record.hand is not None
        verdicts.append(validate(record.hand))
    return cross_check(verdicts)


def deck_line(first: str, full: Sequence[str], salt: str | None = None) -> str:
    """`Deck [...]` with the cards in ``first`` on top, then the rest of ``full``
    in its own order (which is never dealt)."""
    top = first.split()
    rest = [c for c in full if c not in top]
    cards = top + rest
    assert len(cards) == len(full) and len(set(cards)) == len(full)
    tail = f" salt {salt}" if salt is not None else ""
    return "Deck [" + " ".join(cards) + "]" + tail


def deck_cards(line: str) -> list[str]:
    inside = line[line.index("[") + 1 : line.index("]")]
    return inside.split()


def commitment(line: str, salt: str) -> str:
    """FORMAT.md: SHA-256 of the deck's cards joined by single spaces, a space,
    then the salt."""
    return hashlib.sha256((" ".join(deck_cards(line)) + " " + salt).encode()).hexdigest()


# =================================================================== Chiribito
# Counter-clockwise: play goes to lower seat numbers. The blind sits at the
# dealer's right (the next occupied seat counter-clockwise).

# Dealer 3, blind Blas (2). Round 1: Ana, Ceci; nobody raises, so Blas never
# acts. Nobody bet at all: the blind opens every common round.
# Ana 5e 6b + 7c Sc Cb = straight 5..C; Blas pair of aces; Ceci pair of kings.
CH_THREE = HandText.of("""
    chiribito.com Hand #T-CH-3: Chiribito No Limit (blind 20) - 2026/11/29 21:00:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [5e 6b]
    Dealt to Ceci: down [Re Rb]
    Ana: calls 20
    Ceci: calls 20
    *** COMMON 1 *** [7c]
    Blas: checks
    Ana: checks
    Ceci: checks
    *** COMMON 2 *** [7c] [Sc]
    Blas: checks
    Ana: checks
    Ceci: checks
    *** COMMON 3 *** [7c Sc] [Cb]
    Blas: checks
    Ana: checks
    Ceci: checks
    *** COMMON 4 *** [7c Sc Cb] [5o]
    Blas: checks
    Ana: checks
    Ceci: checks
    *** COMMON 5 *** [7c Sc Cb 5o] [6o]
    Blas: checks
    Ana: checks
    Ceci: checks
    *** SHOWDOWN ***
    Blas: shows [Ao Ac] (a pair, Ases)
    Ana: shows [5e 6b] (a straight, Cinco to Caballo)
    Ceci: shows [Re Rb] (a pair, Reyes)
    Ana: collected 60 from pot
    *** SUMMARY ***
    Total pot 60 | Rake 0
    Board [7c Sc Cb 5o 6o]
""")

# The next hand at the same table: the deal passed to the right (Blas), Ana
# posts the blind; stacks carried over from CH_THREE.
CH_THREE_NEXT = HandText.of("""
    chiribito.com Hand #T-CH-3b: Chiribito No Limit (blind 20) - 2026/11/29 21:05:00 CET
    Table 'Mérida' 6-max Seat #2 is the dealer
    Seat 1: Ana (1040 in chips)
    Seat 2: Blas (980 in chips)
    Seat 3: Ceci (980 in chips)
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


# Dealer 1: the blind is seat 6 (wrapping); Blas (seat 2) sits out and is
# skipped: round 1 goes Dani (4), Ana (1). Dani raised last, opens common 1.
CH_WRAP = HandText.of("""
    chiribito.com Hand #T-CH-WRAP: Chiribito No Limit (blind 20) - 2026/11/29 21:10:00 CET
    Table 'Mérida' 6-max Seat #1 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips) is sitting out
    Seat 4: Dani (1000 in chips)
    Seat 6: Fede (1000 in chips)
    Fede: posts blind 20
    *** HOLE CARDS ***
    Dealt to Fede: down [Ao Ac]
    Dealt to Dani: down [Re Rb]
    Dealt to Ana: down [5e 6b]
    Dani: raises 20 to 40
    Ana: folds
    Fede: calls 20
    *** COMMON 1 *** [7c]
    Dani: bets 60
    Fede: folds
    Uncalled bet (60) returned to Dani
    Dani: collected 80 from pot
    *** SUMMARY ***
    Total pot 80 | Rake 0
    Board [7c]
""")

# Short blind: Blas posts 15 of the 20 blind; Ana and Ceci owe the full 20.
# Main 3 x 15 = 45 (Blas trips aces), side 2 x 5 = 10 (Ana trips kings).
# Nobody bets or raises: the blind would open, he is all-in, so the next
# counter-clockwise from seat 2 who can act (Ana, seat 1) opens.
CH_SHORT_BLIND = HandText.of("""
    chiribito.com Hand #T-CH-SB: Chiribito No Limit (blind 20) - 2026/11/29 21:20:00 CET
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
    Ceci: checks
    *** COMMON 2 *** [5o] [7c]
    Ana: checks
    Ceci: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Ana: checks
    Ceci: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Ana: checks
    Ceci: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Ana: checks
    Ceci: checks
    *** SHOWDOWN ***
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ana: shows [Re Rb] (three of a kind, Reyes)
    Ceci: shows [Se Sb] (a pair, Sotas)
    Blas: collected 45 from main pot
    Ana: collected 10 from side pot-1
    *** SUMMARY ***
    Total pot 55 Main pot 45. Side pot-1 10. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Raise to at least double (20 -> 40); Ceci's all-in to 70 is below the
# minimum 80 (allowed); Blas has not acted (the post is not acting) and calls;
# Ana put in 40 and faces 70 < 80: call only. Ceci, the last raiser, is
# all-in: Blas (next counter-clockwise from seat 3) opens common 1. Ana raised
# last there and opens common 2 and, nobody betting in common 2, common 3.
# Ceci 6e 7b + Sc Cb Ro = straight to Rey; Blas trips aces; Ana trips kings.
# Ceci 70, Ana 40+30+200+20 = 290, Blas 20+50+200+20 = 290.
CH_MIN_RAISE = HandText.of("""
    chiribito.com Hand #T-CH-MR: Chiribito No Limit (blind 20) - 2026/11/29 21:30:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (70 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [Re Rb]
    Dealt to Ceci: down [6e 7b]
    Ana: raises 20 to 40
    Ceci: raises 30 to 70 and is all-in
    Blas: calls 50
    Ana: calls 30
    *** COMMON 1 *** [5o]
    Blas: bets 100
    Ana: raises 100 to 200
    Blas: calls 100
    *** COMMON 2 *** [5o] [Sc]
    Ana: checks
    Blas: checks
    *** COMMON 3 *** [5o Sc] [Cb]
    Ana: bets 20
    Blas: calls 20
    *** COMMON 4 *** [5o Sc Cb] [Ab]
    Ana: checks
    Blas: checks
    *** COMMON 5 *** [5o Sc Cb Ab] [Ro]
    Ana: checks
    Blas: checks
    *** SHOWDOWN ***
    Ceci: shows [6e 7b] (a straight, Seis to Rey)
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ana: shows [Re Rb] (three of a kind, Reyes)
    Ceci: collected 210 from main pot
    Blas: collected 440 from side pot-1
    *** SUMMARY ***
    Total pot 650 Main pot 210. Side pot-1 440. | Rake 0
    Board [5o Sc Cb Ab Ro]
""")

# Two short all-ins that add up to a full raise reopen: in common 1 Blas bet
# 100, Dani all-in to 150, Ceci all-in to 200; Blas faces 200 >= 2 x 100 and
# may raise (to at least 400). Three levels: Dani 170, Ceci 220, Ana/Blas 420.
# Main 4 x 170 = 680 (Dani, straight), side-1 3 x 50 = 150 (Ceci, trips aces),
# side-2 2 x 200 = 400 (Ana trips kings over Blas pair of sotas).
CH_REOPEN = HandText.of("""
    chiribito.com Hand #T-CH-RO: Chiribito No Limit (blind 20) - 2026/11/29 21:40:00 CET
    Table 'Mérida' 6-max Seat #1 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (220 in chips)
    Seat 4: Dani (170 in chips)
    Dani: posts blind 20
    *** HOLE CARDS ***
    Dealt to Dani: down [6e Sb]
    Dealt to Ceci: down [Ao Ac]
    Dealt to Blas: down [So Sc]
    Dealt to Ana: down [Re Rb]
    Ceci: calls 20
    Blas: calls 20
    Ana: calls 20
    *** COMMON 1 *** [5o]
    Dani: checks
    Ceci: checks
    Blas: bets 100
    Ana: calls 100
    Dani: raises 50 to 150 and is all-in
    Ceci: raises 50 to 200 and is all-in
    Blas: raises 200 to 400
    Ana: calls 300
    *** COMMON 2 *** [5o] [7c]
    Blas: checks
    Ana: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Blas: checks
    Ana: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Blas: checks
    Ana: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Blas: checks
    Ana: checks
    *** SHOWDOWN ***
    Dani: shows [6e Sb] (a straight, Seis to Rey)
    Ceci: shows [Ao Ac] (three of a kind, Ases)
    Blas: shows [So Sc] (a pair, Sotas)
    Ana: shows [Re Rb] (three of a kind, Reyes)
    Dani: collected 680 from main pot
    Ceci: collected 150 from side pot-1
    Ana: collected 400 from side pot-2
    *** SUMMARY ***
    Total pot 1230 Main pot 680. Side pot-1 150. Side pot-2 400. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Blas (seat 2) raised last in round 1, opens common 1 and folds there (a fold
# at any turn). Common 2: the last aggressor is Blas, folded: the next
# counter-clockwise from seat 2 who can act, Ana (seat 1), opens; again in
# common 3 since nobody bet in common 2.
CH_FOLDED_OPENER = HandText.of("""
    chiribito.com Hand #T-CH-FO: Chiribito No Limit (blind 20) - 2026/11/29 21:50:00 CET
    Table 'Mérida' 6-max Seat #4 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Seat 4: Dani (1000 in chips)
    Ceci: posts blind 20
    *** HOLE CARDS ***
    Dealt to Ceci: down [Re Rb]
    Dealt to Blas: down [So Sc]
    Dealt to Ana: down [6e Sb]
    Dealt to Dani: down [Ao Ac]
    Blas: raises 20 to 40
    Ana: calls 40
    Dani: calls 40
    Ceci: calls 20
    *** COMMON 1 *** [5o]
    Blas: folds
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 2 *** [5o] [7c]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Ana: bets 50
    Dani: calls 50
    Ceci: folds
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Ana: checks
    Dani: bets 100
    Ana: calls 100
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Dani: checks
    Ana: checks
    *** SHOWDOWN ***
    Dani: shows [Ao Ac] (three of a kind, Ases)
    Ana: shows [6e Sb] (a straight, Seis to Rey)
    Ana: collected 460 from pot
    *** SUMMARY ***
    Total pot 460 | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Dani's short all-in raise (40 -> 60, below 80) is the last raise of the
# hand: he is all-in, so Ceci (next counter-clockwise from seat 4) opens
# common 1 and, nobody betting there, common 2. Ana raised to 40 and faces 60
# < 80: she may only call. Main 4 x 60 = 240 (Dani), side 2 x 100 (Blas).
CH_ALLIN_OPENER = HandText.of("""
    chiribito.com Hand #T-CH-AO: Chiribito No Limit (blind 20) - 2026/11/29 22:00:00 CET
    Table 'Mérida' 6-max Seat #4 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Seat 4: Dani (60 in chips)
    Ceci: posts blind 20
    *** HOLE CARDS ***
    Dealt to Ceci: down [Re Rb]
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [So Sc]
    Dealt to Dani: down [6e Sb]
    Blas: calls 20
    Ana: raises 20 to 40
    Dani: raises 20 to 60 and is all-in
    Ceci: calls 40
    Blas: calls 40
    Ana: calls 20
    *** COMMON 1 *** [5o]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** COMMON 2 *** [5o] [7c]
    Ceci: checks
    Blas: bets 100
    Ana: folds
    Ceci: calls 100
    *** COMMON 3 *** [5o 7c] [Ce]
    Blas: checks
    Ceci: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Blas: checks
    Ceci: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Blas: checks
    Ceci: checks
    *** SHOWDOWN ***
    Dani: shows [6e Sb] (a straight, Seis to Rey)
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ceci: shows [Re Rb] (three of a kind, Reyes)
    Dani: collected 240 from main pot
    Blas: collected 200 from side pot-1
    *** SUMMARY ***
    Total pot 440 Main pot 240. Side pot-1 200. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")


def ch_heads_up(
    hand_id: str,
    blas: str,
    ana: str,
    board: Sequence[str],
    shows: Sequence[str],
    winner_lines: Sequence[str],
    house: str | None = None,
) -> HandText:
    """Heads-up, dealer Ana (seat 1), blind Blas (seat 2); Ana calls 20, both
    check down: pot 40. Only the cards, the showdown lines and the collected
    lines vary (all written by the caller)."""
    b = list(board)
    lines = [
        f"chiribito.com Hand #{hand_id}: Chiribito No Limit (blind 20) - 2026/11/30 10:00:00 CET",
        "Table 'Mérida' 6-max Seat #1 is the dealer",
        *([f"House rules: {house}"] if house else []),
        "Seat 1: Ana (1000 in chips)",
        "Seat 2: Blas (1000 in chips)",
        "Blas: posts blind 20",
        "*** HOLE CARDS ***",
        f"Dealt to Blas: down [{blas}]",
        f"Dealt to Ana: down [{ana}]",
        "Ana: calls 20",
        f"*** COMMON 1 *** [{b[0]}]",
        "Blas: checks",
        "Ana: checks",
        f"*** COMMON 2 *** [{b[0]}] [{b[1]}]",
        "Blas: checks",
        "Ana: checks",
        f"*** COMMON 3 *** [{' '.join(b[:2])}] [{b[2]}]",
        "Blas: checks",
        "Ana: checks",
        f"*** COMMON 4 *** [{' '.join(b[:3])}] [{b[3]}]",
        "Blas: checks",
        "Ana: checks",
        f"*** COMMON 5 *** [{' '.join(b[:4])}] [{b[4]}]",
        "Blas: checks",
        "Ana: checks",
        "*** SHOWDOWN ***",
        *shows,
        *winner_lines,
        "*** SUMMARY ***",
        "Total pot 40 | Rake 0",
        f"Board [{' '.join(b)}]",
    ]
    return HandText(tuple(lines))


# Odd chips: blind 25, dealer Blas (2), blind Ana (1). Round 1: Dani (4),
# Ceci (3), Blas (2) folds. Pot 75; Dani and Ceci tie with 6-7-S-C-R: the
# odd chip goes first counter-clockwise from the blind: Ana, Dani, Ceci -> Dani.
CH_ODD = HandText.of("""
    chiribito.com Hand #T-CH-ODD: Chiribito No Limit (blind 25) - 2026/11/29 22:10:00 CET
    Table 'Mérida' 6-max Seat #2 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Seat 4: Dani (1000 in chips)
    Ana: posts blind 25
    *** HOLE CARDS ***
    Dealt to Ana: down [Ab 5e]
    Dealt to Dani: down [Ro 6c]
    Dealt to Ceci: down [Rc 6e]
    Dealt to Blas: down [Se Co]
    Dani: calls 25
    Ceci: calls 25
    Blas: folds
    *** COMMON 1 *** [5b]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 2 *** [5b] [7b]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 3 *** [5b 7b] [Ae]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 4 *** [5b 7b Ae] [Sb]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** COMMON 5 *** [5b 7b Ae Sb] [Cc]
    Ana: checks
    Dani: checks
    Ceci: checks
    *** SHOWDOWN ***
    Ana: shows [Ab 5e] (two pair, Ases y Cincos)
    Dani: shows [Ro 6c] (a straight, Seis to Rey)
    Ceci: shows [Rc 6e] (a straight, Seis to Rey)
    Dani: collected 38 from pot
    Ceci: collected 37 from pot
    *** SUMMARY ***
    Total pot 75 | Rake 0
    Board [5b 7b Ae Sb Cc]
""")

# La Perla (Sota and 7 of one suit), blind 25, dealer Ana (1), blind Ceci (3).
# Round 1: Blas (2), Ana (1). Board Ac Ae Rb Re 5b: Blas Ab Rc = aces full;
# a La Perla makes only a pair of aces there.
CH_PERLA_HEAD = """
    chiribito.com Hand #{id}: Chiribito No Limit (blind 25) - 2026/11/29 22:20:00 CET
    Table 'Mérida' 6-max Seat #1 is the dealer
"""
CH_PERLA_BODY = """
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Ceci: posts blind 25
    *** HOLE CARDS ***
    Dealt to Ceci: down [{ceci}]
    Dealt to Blas: down [Ab Rc]
    Dealt to Ana: down [So 7o]
    Blas: calls 25
    Ana: calls 25
    *** COMMON 1 *** [Ac]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** COMMON 2 *** [Ac] [Ae]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** COMMON 3 *** [Ac Ae] [Rb]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** COMMON 4 *** [Ac Ae Rb] [Re]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** COMMON 5 *** [Ac Ae Rb Re] [5b]
    Ceci: checks
    Blas: checks
    Ana: checks
    *** SHOWDOWN ***
    Ceci: shows [{ceci}] ({ceci_desc})
    Blas: shows [Ab Rc] (a full house, Ases full of Reyes)
    Ana: shows [So 7o] ({ana_desc})
{collected}
    *** SUMMARY ***
    Total pot 75 | Rake 0
    Board [Ac Ae Rb Re 5b]
"""


def ch_perla(
    hand_id: str, *, rule: bool, ceci: str, ceci_desc: str, ana_desc: str, collected: Sequence[str]
) -> HandText:
    head = textwrap.dedent(CH_PERLA_HEAD.format(id=hand_id)).strip("\n").splitlines()
    body = CH_PERLA_BODY.format(
        ceci=ceci,
        ceci_desc=ceci_desc,
        ana_desc=ana_desc,
        collected="\n".join("    " + c for c in collected),
    )
    rest = textwrap.dedent(body).strip("\n").splitlines()
    house = ["House rules: La Perla wins"] if rule else []
    return HandText(tuple(head + house + rest))


# =========================================================== Aces, Straights and Flushes
# Clockwise from the dealer's left. The joker lies in the centre.

# Dealer 5: order Anna (1), Ben (2), Carla (5). 3rd: Kd and Kh tie: Anna, the
# first clockwise after the dealer, opens. 4th: Ben's exposed pair of kings
# beats Anna's K-A (her A with the joker would be a pair of aces: the joker
# does not count). 5th, 6th: Carla's exposed trips.
# Anna 8 = 1+1+2+2+2, Ben 4 = 1+1+2, Carla 8: pot 20 to Carla (6-7-Jk-9-T).
AS_OPEN = HandText.of("""
    Hand #T-AS-OPEN: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 22:00:00 UTC
    Table 'Pagat' 7-max Seat #5 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 5: Carla (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [2c 3c] up [Kd]
    Dealt to Ben: down [4c 5c] up [Kh]
    Dealt to Carla: down [6c 7d] up [9s]
    Anna: bets 1
    Ben: calls 1
    Carla: calls 1
    *** 4TH STREET ***
    Dealt to Anna: up [Ad]
    Dealt to Ben: up [Ks]
    Dealt to Carla: up [9h]
    Ben: bets 1
    Carla: raises 1 to 2
    Anna: calls 2
    Ben: calls 1
    *** 5TH STREET ***
    Dealt to Anna: up [Ac]
    Dealt to Ben: up [8d]
    Dealt to Carla: up [9c]
    Carla: bets 2
    Anna: calls 2
    Ben: folds
    *** 6TH STREET ***
    Dealt to Anna: down [Qh]
    Dealt to Carla: down [Th]
    Carla: checks
    Anna: bets 2
    Carla: calls 2
    *** SHOWDOWN ***
    Anna: shows [2c 3c Kd Ad Ac Qh] (three of a kind, Aces)
    Carla: shows [6c 7d 9s 9h 9c Th] (a straight, Ten high)
    Carla: collected 20 from pot
    *** SUMMARY ***
    Total pot 20 | Rake 0
    Board [Jk]
""")

# Heads-up, dealer Ben (2): Anna first. Check-raise, then the cap: one bet and
# three raises (1, 2, 3, 4). Anna A-K-Q-J + joker = ace-high straight; Ben
# 5-Jk-7-8-9. Pot 2 x (1 + 4) = 10.
AS_CAP = HandText.of("""
    Hand #T-AS-CAP: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 22:10:00 UTC
    Table 'Pagat' 7-max Seat #2 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [Ah Qc] up [Kd]
    Dealt to Ben: down [2s 3s] up [5h]
    Anna: checks
    Ben: bets 1
    Anna: raises 1 to 2
    Ben: raises 1 to 3
    Anna: raises 1 to 4
    Ben: calls 1
    *** 4TH STREET ***
    Dealt to Anna: up [Jc]
    Dealt to Ben: up [7d]
    Anna: checks
    Ben: checks
    *** 5TH STREET ***
    Dealt to Anna: up [4h]
    Dealt to Ben: up [8c]
    Anna: checks
    Ben: checks
    *** 6TH STREET ***
    Dealt to Anna: down [6c]
    Dealt to Ben: down [9d]
    Anna: checks
    Ben: checks
    *** SHOWDOWN ***
    Anna: shows [Ah Qc Kd Jc 4h 6c] (a straight, Ace high)
    Ben: shows [2s 3s 5h 7d 8c 9d] (a straight, Nine high)
    Anna: collected 10 from pot
    *** SUMMARY ***
    Total pot 10 | Rake 0
""")

# bets 2/4, dealer Dora (4): order Anna, Ben, Carla, Dora. 3rd street: Anna
# bets 2, Ben raises to 4, Carla all-in to 5 (short: not a raise for the cap,
# does not reopen), Dora's raise makes 5 + 2 = 7 (raise 2), Anna raises to 9
# (raise 3: the cap). 4th: Ben's exposed kings open; 5th and 6th: Carla's
# exposed trips, all-in, pass the opening to Dora (next clockwise).
# Main 4 x 6 = 24 (Carla, queens full), side 3 x 4 = 12 (Anna, A-2-3-4-Jk).
AS_SHORT_CAP = HandText.of("""
    Hand #T-AS-SC: Aces, Straights and Flushes Limit (ante 1, bets 2/4) - 2026/11/29 22:20:00 UTC
    Table 'Pagat' 7-max Seat #4 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 3: Carla (6 in chips)
    Seat 4: Dora (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    Dora: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [2c 3d] up [Ah]
    Dealt to Ben: down [4c 5d] up [Kh]
    Dealt to Carla: down [6c 7d] up [Qh]
    Dealt to Dora: down [8c 9d] up [Jh]
    Anna: bets 2
    Ben: raises 2 to 4
    Carla: raises 1 to 5 and is all-in
    Dora: raises 2 to 7
    Anna: raises 2 to 9
    Ben: calls 5
    Dora: calls 2
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
    Dora: checks
    Anna: checks
    Ben: checks
    *** 6TH STREET ***
    Dealt to Anna: down [4d]
    Dealt to Ben: down [5c]
    Dealt to Carla: down [6d]
    Dealt to Dora: down [8d]
    Dora: checks
    Anna: checks
    Ben: checks
    *** SHOWDOWN ***
    Anna: shows [2c 3d Ah Tc Ts 4d] (a straight, Five high)
    Ben: shows [4c 5d Kh Kd 3h 5c] (two pair, Kings and Fives)
    Carla: shows [6c 7d Qh Qd Qs 6d] (a full house, Queens full of Sixes)
    Dora: shows [8c 9d Jh 2h 2s 8d] (two pair, Eights and Twos)
    Carla: collected 24 from main pot
    Anna: collected 12 from side pot-1
    *** SUMMARY ***
    Total pot 36 Main pot 24. Side pot-1 12. | Rake 0
""")

# Same table; Carla has 4: her all-in raise to 3 is short, so Anna and Ben,
# who acted already, may only call. Everybody ends with 4 in: one pot of 16.
AS_NOT_REOPENED = HandText.of("""
    Hand #T-AS-NR: Aces, Straights and Flushes Limit (ante 1, bets 2/4) - 2026/11/29 22:30:00 UTC
    Table 'Pagat' 7-max Seat #4 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 3: Carla (4 in chips)
    Seat 4: Dora (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    Dora: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [2c 3d] up [Ah]
    Dealt to Ben: down [4c 5d] up [Kh]
    Dealt to Carla: down [6c 7d] up [Qh]
    Dealt to Dora: down [8c 9d] up [Jh]
    Anna: bets 2
    Ben: calls 2
    Carla: raises 1 to 3 and is all-in
    Dora: calls 3
    Anna: calls 1
    Ben: calls 1
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
    Dora: checks
    Anna: checks
    Ben: checks
    *** 6TH STREET ***
    Dealt to Anna: down [4d]
    Dealt to Ben: down [5c]
    Dealt to Carla: down [6d]
    Dealt to Dora: down [8d]
    Dora: checks
    Anna: checks
    Ben: checks
    *** SHOWDOWN ***
    Anna: shows [2c 3d Ah Tc Ts 4d] (a straight, Five high)
    Ben: shows [4c 5d Kh Kd 3h 5c] (two pair, Kings and Fives)
    Carla: shows [6c 7d Qh Qd Qs 6d] (a full house, Queens full of Sixes)
    Dora: shows [8c 9d Jh 2h 2s 8d] (two pair, Eights and Twos)
    Carla: collected 16 from pot
    *** SUMMARY ***
    Total pot 16 | Rake 0
""")

# ante 2: Anna has 1, posts it all-in. Her exposed ace (then aces) is the best
# exposed hand every street but she is all-in: the next active player
# clockwise from her, Ben, opens (although Carla's exposed cards beat Ben's).
# Anna: four aces + joker = five aces. Main 3 x 1 = 3 (Anna), side 2 x 1 = 2
# (Carla's eights over Ben's sevens).
AS_SHORT_ANTE = HandText.of("""
    Hand #T-AS-ANTE: Aces, Straights and Flushes Limit (ante 2, bets 2/4) - 2026/11/29 22:40:00 UTC
    Table 'Pagat' 7-max Seat #3 is the dealer
    Seat 1: Anna (1 in chips)
    Seat 2: Ben (50 in chips)
    Seat 3: Carla (50 in chips)
    Anna: posts ante 1 and is all-in
    Ben: posts ante 2
    Carla: posts ante 2
    *** 3RD STREET ***
    Dealt to Anna: down [Ac Ad] up [Ah]
    Dealt to Ben: down [2c 3d] up [Qh]
    Dealt to Carla: down [4c 5d] up [Kh]
    Ben: checks
    Carla: checks
    *** 4TH STREET ***
    Dealt to Anna: up [As]
    Dealt to Ben: up [7h]
    Dealt to Carla: up [8h]
    Ben: checks
    Carla: checks
    *** 5TH STREET ***
    Dealt to Anna: up [2s]
    Dealt to Ben: up [7c]
    Dealt to Carla: up [8c]
    Ben: checks
    Carla: checks
    *** 6TH STREET ***
    Dealt to Anna: down [3s]
    Dealt to Ben: down [9c]
    Dealt to Carla: down [Tc]
    Ben: checks
    Carla: checks
    *** SHOWDOWN ***
    Anna: shows [Ac Ad Ah As 2s 3s] (five aces)
    Ben: shows [2c 3d Qh 7h 7c 9c] (a pair, Sevens)
    Carla: shows [4c 5d Kh 8h 8c Tc] (a pair, Eights)
    Anna: collected 3 from main pot
    Carla: collected 2 from side pot-1
    *** SUMMARY ***
    Total pot 5 Main pot 3. Side pot-1 2. | Rake 0
""")

# Five aces beat a straight flush. 3rd: Ben's 3 beats Anna's 2 and opens.
# Then Anna (A high, then a pair of aces). Pot 2 x (1 + 2 + 6) = 18.
AS_FIVE_ACES = HandText.of("""
    Hand #T-AS-5A: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 22:50:00 UTC
    Table 'Pagat' 7-max Seat #2 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [Ac Ad] up [2c]
    Dealt to Ben: down [9h Th] up [3d]
    Ben: checks
    Anna: checks
    *** 4TH STREET ***
    Dealt to Anna: up [Ah]
    Dealt to Ben: up [Jh]
    Anna: checks
    Ben: checks
    *** 5TH STREET ***
    Dealt to Anna: up [As]
    Dealt to Ben: up [Qh]
    Anna: bets 2
    Ben: calls 2
    *** 6TH STREET ***
    Dealt to Anna: down [4s]
    Dealt to Ben: down [Kh]
    Anna: bets 2
    Ben: raises 2 to 4
    Anna: raises 2 to 6
    Ben: calls 2
    *** SHOWDOWN ***
    Anna: shows [Ac Ad 2c Ah As 4s] (five aces)
    Ben: shows [9h Th 3d Jh Qh Kh] (a straight flush, Ace high)
    Anna: collected 18 from pot
    *** SUMMARY ***
    Total pot 18 | Rake 0
    Board [Jk]
""")

# The joker never pairs anything but aces: Anna K-K + Jk = a pair of kings (ace
# kicker), Ben 8-8-5-5 + Jk = two pair (ace kicker), Carla trips fours wins.
# 3rd: Carla's ten opens; 4th to 6th: Ben's exposed pair of fives.
AS_BUG = HandText.of("""
    Hand #T-AS-BUG: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 23:00:00 UTC
    Table 'Pagat' 7-max Seat #3 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 3: Carla (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [Kc Kd] up [9h]
    Dealt to Ben: down [8c 8d] up [5h]
    Dealt to Carla: down [4h 4d] up [Ts]
    Carla: checks
    Anna: checks
    Ben: checks
    *** 4TH STREET ***
    Dealt to Anna: up [7s]
    Dealt to Ben: up [5s]
    Dealt to Carla: up [4s]
    Ben: checks
    Carla: checks
    Anna: checks
    *** 5TH STREET ***
    Dealt to Anna: up [4c]
    Dealt to Ben: up [Kh]
    Dealt to Carla: up [9s]
    Ben: checks
    Carla: checks
    Anna: checks
    *** 6TH STREET ***
    Dealt to Anna: down [2d]
    Dealt to Ben: down [2c]
    Dealt to Carla: down [Qd]
    Ben: checks
    Carla: checks
    Anna: checks
    *** SHOWDOWN ***
    Anna: shows [Kc Kd 9h 7s 4c 2d] (a pair, Kings)
    Ben: shows [8c 8d 5h 5s Kh 2c] (two pair, Eights and Fives)
    Carla: shows [4h 4d Ts 4s 9s Qd] (three of a kind, Fours)
    Carla: collected 3 from pot
    *** SUMMARY ***
    Total pot 3 | Rake 0
""")

# A-A-K-K + joker = aces full (the joker is an ace), beating Ben's flush.
AS_ACES_FULL = HandText.of("""
    Hand #T-AS-AF: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 23:10:00 UTC
    Table 'Pagat' 7-max Seat #2 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [Ac Ad] up [Kh]
    Dealt to Ben: down [2h 3h] up [5h]
    Anna: checks
    Ben: checks
    *** 4TH STREET ***
    Dealt to Anna: up [Ks]
    Dealt to Ben: up [9h]
    Anna: checks
    Ben: checks
    *** 5TH STREET ***
    Dealt to Anna: up [2c]
    Dealt to Ben: up [Jh]
    Anna: checks
    Ben: checks
    *** 6TH STREET ***
    Dealt to Anna: down [7d]
    Dealt to Ben: down [4s]
    Anna: checks
    Ben: checks
    *** SHOWDOWN ***
    Anna: shows [Ac Ad Kh Ks 2c 7d] (a full house, Aces full of Kings)
    Ben: shows [2h 3h 5h 9h Jh 4s] (a flush, Ace high)
    Anna: collected 2 from pot
    *** SUMMARY ***
    Total pot 2 | Rake 0
    Board [Jk]
""")

# Dealer Ben (2): clockwise after him Carla (5), Anna (1), Ben (2). Anna and
# Carla show the same exposed cards (Carla opens every street as the first
# clockwise after the dealer) and tie with Jk-K-J-9-7: pot 3, the odd chip
# to Carla.
AS_ODD = HandText.of("""
    Hand #T-AS-ODD: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 23:20:00 UTC
    Table 'Pagat' 7-max Seat #2 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 5: Carla (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    *** 3RD STREET ***
    Dealt to Carla: down [2d 4h] up [7c]
    Dealt to Anna: down [2c 4d] up [7h]
    Dealt to Ben: down [3c 5d] up [6h]
    Carla: checks
    Anna: checks
    Ben: checks
    *** 4TH STREET ***
    Dealt to Carla: up [9c]
    Dealt to Anna: up [9s]
    Dealt to Ben: up [8s]
    Carla: checks
    Anna: checks
    Ben: checks
    *** 5TH STREET ***
    Dealt to Carla: up [Jd]
    Dealt to Anna: up [Jc]
    Dealt to Ben: up [Th]
    Carla: checks
    Anna: checks
    Ben: checks
    *** 6TH STREET ***
    Dealt to Carla: down [Ks]
    Dealt to Anna: down [Kd]
    Dealt to Ben: down [Qc]
    Carla: checks
    Anna: checks
    Ben: checks
    *** SHOWDOWN ***
    Anna: shows [2c 4d 7h 9s Jc Kd] (high card, Ace)
    Ben: shows [3c 5d 6h 8s Th Qc] (high card, Ace)
    Carla: shows [2d 4h 7c 9c Jd Ks] (high card, Ace)
    Carla: collected 2 from pot
    Anna: collected 1 from pot
    *** SUMMARY ***
    Total pot 3 | Rake 0
""")

# ===================================================================== Calatone
# Clockwise from the dealer's left; spread limit 5-50.

# Round 1: Elena's Jc is the highest exposed card. All three check: the hand
# ends at once and the best two cards (hidden card included) win: Fabio 9-9.
CA_CHECK2 = HandText.of("""
    Hand #T-CA-C2: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:00:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 2: Elena (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Kh] up [7c]
    Dealt to Elena: down [2d] up [Jc]
    Dealt to Fabio: down [9s] up [9d]
    Elena: checks
    Fabio: checks
    Dario: checks
    *** SHOWDOWN ***
    Dario: shows [Kh 7c] (high card, King)
    Elena: shows [2d Jc] (high card, Jack)
    Fabio: shows [9s 9d] (a pair, Nines)
    Fabio: collected 15 from pot
    *** SUMMARY ***
    Total pot 15 | Rake 0
""")

# Jc and Js tie on 2nd street: Elena, first in dealing order, opens. 5th
# street: both check, the hand ends; Fabio's five cards (hidden 4s) make a
# spade flush, beating Dario's kings. Dario 45, Elena 15, Fabio 45.
CA_CHECK5 = HandText.of("""
    Hand #T-CA-C5: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:10:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 2: Elena (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Kh] up [7c]
    Dealt to Elena: down [Qd] up [Jc]
    Dealt to Fabio: down [4s] up [Js]
    Elena: bets 10
    Fabio: calls 10
    Dario: calls 10
    *** 3RD STREET ***
    Dealt to Dario: up [Kd]
    Dealt to Elena: up [3h]
    Dealt to Fabio: up [8s]
    Dario: bets 20
    Elena: folds
    Fabio: calls 20
    *** 4TH STREET ***
    Dealt to Dario: up [Ks]
    Dealt to Fabio: up [2s]
    Dario: bets 10
    Fabio: calls 10
    *** 5TH STREET ***
    Dealt to Dario: up [9h]
    Dealt to Fabio: up [5s]
    Dario: checks
    Fabio: checks
    *** SHOWDOWN ***
    Dario: shows [Kh 7c Kd Ks 9h] (three of a kind, Kings)
    Fabio: shows [4s Js 8s 2s 5s] (a flush, Jack high)
    Fabio: collected 105 from pot
    *** SUMMARY ***
    Total pot 105 | Rake 0
""")

# Dealer 4: Dario (2) then Elena (4). All check 7th street: the normal
# showdown with declarations follows. Elena's kings beat Dario's twos: 60.
CA_CHECK7 = HandText.of("""
    Hand #T-CA-C7: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:20:00 CET
    Table 'Nápoles' 7-max Seat #4 is the dealer
    Seat 2: Dario (500 in chips)
    Seat 4: Elena (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Ah] up [2c]
    Dealt to Elena: down [3d] up [Kc]
    Elena: bets 5
    Dario: calls 5
    *** 3RD STREET ***
    Dealt to Dario: up [2d]
    Dealt to Elena: up [4h]
    Dario: bets 5
    Elena: calls 5
    *** 4TH STREET ***
    Dealt to Dario: up [7s]
    Dealt to Elena: up [Kd]
    Elena: bets 5
    Dario: calls 5
    *** 5TH STREET ***
    Dealt to Dario: up [9c]
    Dealt to Elena: up [5s]
    Elena: bets 5
    Dario: calls 5
    *** 6TH STREET ***
    Dealt to Dario: up [Ts]
    Dealt to Elena: up [6c]
    Elena: bets 5
    Dario: calls 5
    *** 7TH STREET ***
    Dealt to Dario: up [Jh]
    Dealt to Elena: up [8h]
    Elena: checks
    Dario: checks
    *** SHOWDOWN ***
    Dario: shows [Ah 2c 2d 7s 9c Ts Jh] and declares [2c 2d Ah Jh Ts] (a pair, Twos)
    Elena: shows [3d Kc 4h Kd 5s 6c 8h] and declares [Kc Kd 8h 6c 5s] (a pair, Kings)
    Elena: collected 60 from pot
    *** SUMMARY ***
    Total pot 60 | Rake 0
""")

# Dario holds queens full (Qh Qs Qd 7d 7c) but declares two pair: he is held
# to it, and Elena's trips eights win the 70.
CA_UNDER = HandText.of("""
    Hand #T-CA-UD: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:30:00 CET
    Table 'Nápoles' 7-max Seat #4 is the dealer
    Seat 2: Dario (500 in chips)
    Seat 4: Elena (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Qh] up [Qs]
    Dealt to Elena: down [8c] up [8d]
    Dario: bets 5
    Elena: calls 5
    *** 3RD STREET ***
    Dealt to Dario: up [7d]
    Dealt to Elena: up [8s]
    Elena: bets 5
    Dario: calls 5
    *** 4TH STREET ***
    Dealt to Dario: up [7c]
    Dealt to Elena: up [Ad]
    Elena: bets 5
    Dario: calls 5
    *** 5TH STREET ***
    Dealt to Dario: up [Qd]
    Dealt to Elena: up [5c]
    Dario: bets 5
    Elena: calls 5
    *** 6TH STREET ***
    Dealt to Dario: up [3h]
    Dealt to Elena: up [2h]
    Dario: bets 5
    Elena: calls 5
    *** 7TH STREET ***
    Dealt to Dario: up [9h]
    Dealt to Elena: up [Jd]
    Dario: bets 5
    Elena: calls 5
    *** SHOWDOWN ***
    Dario: shows [Qh Qs 7d 7c Qd 3h 9h] and declares [Qh Qs 7d 7c 9h] (two pair, Queens and Sevens)
    Elena: shows [8c 8d 8s Ad 5c 2h Jd] and declares [8c 8d 8s Ad Jd] (three of a kind, Eights)
    Elena: collected 70 from pot
    *** SUMMARY ***
    Total pot 70 | Rake 0
""")

# Spread limit: a bet of 7, raises of 5, 50, 13 and 25: four raises, no cap.
CA_SPREAD = HandText.of("""
    Hand #T-CA-SP: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:40:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [2h] up [Ah]
    Dealt to Fabio: down [4h] up [Qc]
    Dario: bets 7
    Fabio: raises 5 to 12
    Dario: raises 50 to 62
    Fabio: raises 13 to 75
    Dario: raises 25 to 100
    Fabio: calls 25
    *** 3RD STREET ***
    Dealt to Dario: up [5c]
    Dealt to Fabio: up [Qd]
    Fabio: bets 50
    Dario: folds
    Uncalled bet (50) returned to Fabio
    Fabio: collected 210 from pot
    *** SUMMARY ***
    Total pot 210 | Rake 0
""")

# Elena's all-in raise of 3 (below the minimum 5) reopens nothing for Dario;
# a raise by Fabio would count from 53. 3rd street: Elena's exposed kings are
# best but she is all-in: Fabio (next clockwise) opens; Dario folds. Then
# only Fabio can act: no more betting, the cards keep coming (no round is
# "all checked"), and the normal showdown decides. One pot of 3 x 58.
CA_SHORT = HandText.of("""
    Hand #T-CA-SH: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:50:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 2: Elena (58 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [2h] up [Ah]
    Dealt to Elena: down [3h] up [Kd]
    Dealt to Fabio: down [4h] up [Qc]
    Dario: bets 50
    Elena: raises 3 to 53 and is all-in
    Fabio: calls 53
    Dario: calls 3
    *** 3RD STREET ***
    Dealt to Dario: up [5c]
    Dealt to Elena: up [Ks]
    Dealt to Fabio: up [Qd]
    Fabio: bets 10
    Dario: folds
    Uncalled bet (10) returned to Fabio
    *** 4TH STREET ***
    Dealt to Elena: up [7s]
    Dealt to Fabio: up [8d]
    *** 5TH STREET ***
    Dealt to Elena: up [9s]
    Dealt to Fabio: up [Td]
    *** 6TH STREET ***
    Dealt to Elena: up [2c]
    Dealt to Fabio: up [5d]
    *** 7TH STREET ***
    Dealt to Elena: up [6d]
    Dealt to Fabio: up [Jc]
    *** SHOWDOWN ***
    Elena: shows [3h Kd Ks 7s 9s 2c 6d] and declares [Kd Ks 9s 7s 6d] (a pair, Kings)
    Fabio: shows [4h Qc Qd 8d Td 5d Jc] and declares [Qc Qd Jc Td 8d] (a pair, Queens)
    Elena: collected 174 from pot
    *** SUMMARY ***
    Total pot 174 | Rake 0
""")

# Dealer 1: dealing order Elena (2), Fabio (3), Dario (1). Fabio's Kh and
# Dario's Kd tie: Fabio, first in dealing order, opens. 3rd: Dario's K-T
# beats Fabio's K-9.
CA_TIE = HandText.of("""
    Hand #T-CA-TIE: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 00:00:00 CET
    Table 'Nápoles' 7-max Seat #1 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 2: Elena (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Elena: down [2d] up [5c]
    Dealt to Fabio: down [3s] up [Kh]
    Dealt to Dario: down [4c] up [Kd]
    Fabio: bets 5
    Dario: calls 5
    Elena: folds
    *** 3RD STREET ***
    Dealt to Fabio: up [9h]
    Dealt to Dario: up [Ts]
    Dario: bets 5
    Fabio: folds
    Uncalled bet (5) returned to Dario
    Dario: collected 25 from pot
    *** SUMMARY ***
    Total pot 25 | Rake 0
""")

# Best exposed hand: Fabio's kings (then kings and queens) open 2nd to 5th
# street; on 6th street Dario's five up cards 5-6-7-8-9 are a straight, which
# now counts, and beat Fabio's two pair.
CA_EXPOSED5 = HandText.of("""
    Hand #T-CA-X5: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 00:10:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [2h] up [5c]
    Dealt to Fabio: down [3h] up [Kd]
    Fabio: bets 5
    Dario: calls 5
    *** 3RD STREET ***
    Dealt to Dario: up [6d]
    Dealt to Fabio: up [Ks]
    Fabio: bets 5
    Dario: calls 5
    *** 4TH STREET ***
    Dealt to Dario: up [7h]
    Dealt to Fabio: up [Qc]
    Fabio: bets 5
    Dario: calls 5
    *** 5TH STREET ***
    Dealt to Dario: up [8s]
    Dealt to Fabio: up [Qh]
    Fabio: bets 5
    Dario: calls 5
    *** 6TH STREET ***
    Dealt to Dario: up [9c]
    Dealt to Fabio: up [Ad]
    Dario: bets 5
    Fabio: calls 5
    *** 7TH STREET ***
    Dealt to Dario: up [Js]
    Dealt to Fabio: up [Jh]
    Dario: bets 5
    Fabio: folds
    Uncalled bet (5) returned to Dario
    Dario: collected 60 from pot
    *** SUMMARY ***
    Total pot 60 | Rake 0
""")

# `Deck from 7`: 7..A, the ace also low: A-7-8-9-T is a straight and beats
# Fabio's trips. Fabio opens 2nd to 6th street, Dario's kings open 7th.
CA_DECK7 = HandText.of("""
    Hand #T-CA-D7: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 00:20:00 CET
    Table 'Nápoles' 7-max Seat #3 is the dealer
    House rules: Deck from 7
    Seat 1: Dario (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Ah] up [7c]
    Dealt to Fabio: down [Qs] up [Qd]
    Fabio: bets 5
    Dario: calls 5
    *** 3RD STREET ***
    Dealt to Dario: up [8d]
    Dealt to Fabio: up [Qh]
    Fabio: bets 5
    Dario: calls 5
    *** 4TH STREET ***
    Dealt to Dario: up [9s]
    Dealt to Fabio: up [Jc]
    Fabio: bets 5
    Dario: calls 5
    *** 5TH STREET ***
    Dealt to Dario: up [Th]
    Dealt to Fabio: up [7d]
    Fabio: bets 5
    Dario: calls 5
    *** 6TH STREET ***
    Dealt to Dario: up [Kc]
    Dealt to Fabio: up [8c]
    Fabio: bets 5
    Dario: calls 5
    *** 7TH STREET ***
    Dealt to Dario: up [Kd]
    Dealt to Fabio: up [9c]
    Dario: bets 5
    Fabio: calls 5
    *** SHOWDOWN ***
    Dario: shows [Ah 7c 8d 9s Th Kc Kd] and declares [Ah 7c 8d 9s Th] (a straight, Ten high)
    Fabio: shows [Qs Qd Qh Jc 7d 8c 9c] and declares [Qs Qd Qh Jc 9c] (three of a kind, Queens)
    Dario: collected 70 from pot
    *** SUMMARY ***
    Total pot 70 | Rake 0
""")


def ca_flush_full(rule: bool, *, dario: str, fabio: str, collected: str) -> HandText:
    """Dario's heart flush against Fabio's queens full; Fabio's exposed cards
    open every street. The caller states the descriptions and the winner."""
    house = ["House rules: Flush beats full house"] if rule else []
    head = [
        "Hand #T-CA-FF: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 00:30:00 CET",
        "Table 'Nápoles' 7-max Seat #3 is the dealer",
    ]
    body = HandText.of("""
        Seat 1: Dario (500 in chips)
        Seat 3: Fabio (500 in chips)
        Dario: posts ante 5
        Fabio: posts ante 5
        *** 2ND STREET ***
        Dealt to Dario: down [2h] up [5h]
        Dealt to Fabio: down [Qs] up [Qd]
        Fabio: bets 5
        Dario: calls 5
        *** 3RD STREET ***
        Dealt to Dario: up [9h]
        Dealt to Fabio: up [8c]
        Fabio: bets 5
        Dario: calls 5
        *** 4TH STREET ***
        Dealt to Dario: up [Jh]
        Dealt to Fabio: up [8s]
        Fabio: bets 5
        Dario: calls 5
        *** 5TH STREET ***
        Dealt to Dario: up [Kh]
        Dealt to Fabio: up [Qc]
        Fabio: bets 5
        Dario: calls 5
        *** 6TH STREET ***
        Dealt to Dario: up [3c]
        Dealt to Fabio: up [7d]
        Fabio: bets 5
        Dario: calls 5
        *** 7TH STREET ***
        Dealt to Dario: up [4d]
        Dealt to Fabio: up [Tc]
        Fabio: bets 5
        Dario: calls 5
        *** SHOWDOWN ***
    """).lines
    tail = (
        f"Dario: shows [2h 5h 9h Jh Kh 3c 4d] and declares [2h 5h 9h Jh Kh] ({dario})",
        f"Fabio: shows [Qs Qd 8c 8s Qc 7d Tc] and declares [Qs Qd Qc 8c 8s] ({fabio})",
        collected,
        "*** SUMMARY ***",
        "Total pot 70 | Rake 0",
    )
    return HandText(tuple(head + house) + body + tail)


# Dealer 1: dealing order Elena, Fabio, Dario. All check 2nd street; Fabio
# (7s Kd) and Dario (Kh 7c) tie: pot 15, the odd chip to Fabio, who comes
# first in dealing order.
CA_ODD = HandText.of("""
    Hand #T-CA-ODD: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/30 00:40:00 CET
    Table 'Nápoles' 7-max Seat #1 is the dealer
    Seat 1: Dario (500 in chips)
    Seat 2: Elena (500 in chips)
    Seat 3: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Elena: down [2d] up [3c]
    Dealt to Fabio: down [7s] up [Kd]
    Dealt to Dario: down [Kh] up [7c]
    Fabio: checks
    Dario: checks
    Elena: checks
    *** SHOWDOWN ***
    Elena: shows [2d 3c] (high card, Three)
    Fabio: shows [7s Kd] (high card, King)
    Dario: shows [Kh 7c] (high card, King)
    Fabio: collected 8 from pot
    Dario: collected 7 from pot
    *** SUMMARY ***
    Total pot 15 | Rake 0
""")


# ======================================================= common rules (Chiribito)

# Blas bets all-in; nobody else could act afterwards, but Ana faces the bet and
# must still act. Then no more betting: the common cards are dealt, showdown.
CH_FACING = HandText.of("""
    chiribito.com Hand #T-CH-FB: Chiribito No Limit (blind 20) - 2026/11/30 01:00:00 CET
    Table 'Mérida' 6-max Seat #1 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (300 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Re Rb]
    Dealt to Ana: down [Ao Ac]
    Ana: calls 20
    *** COMMON 1 *** [5o]
    Blas: bets 280 and is all-in
    Ana: calls 280
    *** COMMON 2 *** [5o] [7c]
    *** COMMON 3 *** [5o 7c] [Ce]
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    *** SHOWDOWN ***
    Blas: shows [Re Rb] (three of a kind, Reyes)
    Ana: shows [Ao Ac] (three of a kind, Ases)
    Ana: collected 600 from pot
    *** SUMMARY ***
    Total pot 600 | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Ceci times out facing the blind (folded); Blas times out with checking free
# (checked). Pot 40 to Ana after her uncalled 40 comes back.
CH_TIMEOUT = HandText.of("""
    chiribito.com Hand #T-CH-TO: Chiribito No Limit (blind 20) - 2026/11/30 01:10:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [5e 6b]
    Dealt to Ceci: down [Re Rb]
    Ana: calls 20
    Ceci: folds (timed out)
    *** COMMON 1 *** [7c]
    Blas: checks (timed out)
    Ana: bets 40
    Blas: folds
    Uncalled bet (40) returned to Ana
    Ana: collected 40 from pot
    *** SUMMARY ***
    Total pot 40 | Rake 0
    Board [7c]
""")

# Everybody folds to the blind: it comes back whole, the pot is 0, no
# collected line.
CH_WALK = HandText.of("""
    chiribito.com Hand #T-CH-WALK: Chiribito No Limit (blind 20) - 2026/11/30 01:20:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (1000 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [5e 6b]
    Dealt to Ceci: down [Re Rb]
    Ana: folds
    Ceci: folds
    Uncalled bet (20) returned to Blas
    *** SUMMARY ***
    Total pot 0 | Rake 0
""")

# Ana all-in for 500, Blas calls all-in for 300: 200 (beyond the second
# highest total) comes back to Ana at the end of the round.
CH_UNCALLED_ALLIN = HandText.of("""
    chiribito.com Hand #T-CH-UA: Chiribito No Limit (blind 20) - 2026/11/30 01:30:00 CET
    Table 'Mérida' 6-max Seat #1 is the dealer
    Seat 1: Ana (500 in chips)
    Seat 2: Blas (300 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Re Rb]
    Dealt to Ana: down [Ao Ac]
    Ana: raises 480 to 500 and is all-in
    Blas: calls 280 and is all-in
    Uncalled bet (200) returned to Ana
    *** COMMON 1 *** [5o]
    *** COMMON 2 *** [5o] [7c]
    *** COMMON 3 *** [5o 7c] [Ce]
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    *** SHOWDOWN ***
    Blas: shows [Re Rb] (three of a kind, Reyes)
    Ana: shows [Ao Ac] (three of a kind, Ases)
    Ana: collected 600 from pot
    *** SUMMARY ***
    Total pot 600 | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Three all-in levels (Ana 100, Blas 200, Ceci 300) below Dani and Eva, who
# bet on: 100, 200, 300, 500. Dealer Eva (5), blind Dani (4); round 1 goes
# Ceci, Blas, Ana, Eva, Dani. Ceci raised last and is all-in, as are Blas and
# Ana: Eva (next counter-clockwise from seat 3 who can act) opens common 1.
# Main 5 x 100 = 500 (Ana, straight), side-1 4 x 100 = 400 (Blas, trips
# aces), side-2 3 x 100 = 300 (Ceci, trips kings), side-3 2 x 200 = 400
# (Dani, two pair, over Eva's pair).
CH_LEVELS3 = HandText.of("""
    chiribito.com Hand #T-CH-L3: Chiribito No Limit (blind 20) - 2026/11/30 01:40:00 CET
    Table 'Mérida' 6-max Seat #5 is the dealer
    Seat 1: Ana (100 in chips)
    Seat 2: Blas (200 in chips)
    Seat 3: Ceci (300 in chips)
    Seat 4: Dani (1000 in chips)
    Seat 5: Eva (1000 in chips)
    Dani: posts blind 20
    *** HOLE CARDS ***
    Dealt to Dani: down [Cc 5e]
    Dealt to Ceci: down [Re Rb]
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [6e Sb]
    Dealt to Eva: down [7e 6c]
    Ceci: raises 280 to 300 and is all-in
    Blas: calls 200 and is all-in
    Ana: calls 100 and is all-in
    Eva: calls 300
    Dani: calls 280
    *** COMMON 1 *** [5o]
    Eva: bets 200
    Dani: calls 200
    *** COMMON 2 *** [5o] [7c]
    Eva: checks
    Dani: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Eva: checks
    Dani: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Eva: checks
    Dani: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Eva: checks
    Dani: checks
    *** SHOWDOWN ***
    Dani: shows [Cc 5e] (two pair, Caballos y Cincos)
    Ceci: shows [Re Rb] (three of a kind, Reyes)
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ana: shows [6e Sb] (a straight, Seis to Rey)
    Eva: shows [7e 6c] (a pair, Sietes)
    Ana: collected 500 from main pot
    Blas: collected 400 from side pot-1
    Ceci: collected 300 from side pot-2
    Dani: collected 400 from side pot-3
    *** SUMMARY ***
    Total pot 1600 Main pot 500. Side pot-1 400. Side pot-2 300. Side pot-3 400. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Four all-in levels (100, 200, 300, 400) below Eva and Fede (500 each).
# Dealer Fede (6), blind Eva (5); round 1 Dani, Ceci, Blas, Ana, Fede, Eva.
# Main 6 x 100 = 600 (Ana), side-1 5 x 100 = 500, side-2 4 x 100 = 400,
# side-3 3 x 100 = 300 (all Dani, trips aces), side-4 2 x 100 = 200 (Fede,
# trips kings, over Eva's two pair).
CH_LEVELS4 = HandText.of("""
    chiribito.com Hand #T-CH-L4: Chiribito No Limit (blind 20) - 2026/11/30 01:50:00 CET
    Table 'Mérida' 6-max Seat #6 is the dealer
    Seat 1: Ana (100 in chips)
    Seat 2: Blas (200 in chips)
    Seat 3: Ceci (300 in chips)
    Seat 4: Dani (400 in chips)
    Seat 5: Eva (1000 in chips)
    Seat 6: Fede (1000 in chips)
    Eva: posts blind 20
    *** HOLE CARDS ***
    Dealt to Eva: down [Cc 5e]
    Dealt to Dani: down [Ao Ac]
    Dealt to Ceci: down [So Se]
    Dealt to Blas: down [7e 6c]
    Dealt to Ana: down [6e Sb]
    Dealt to Fede: down [Re Rb]
    Dani: raises 380 to 400 and is all-in
    Ceci: calls 300 and is all-in
    Blas: calls 200 and is all-in
    Ana: calls 100 and is all-in
    Fede: calls 400
    Eva: calls 380
    *** COMMON 1 *** [5o]
    Fede: bets 100
    Eva: calls 100
    *** COMMON 2 *** [5o] [7c]
    Fede: checks
    Eva: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Fede: checks
    Eva: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Fede: checks
    Eva: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Fede: checks
    Eva: checks
    *** SHOWDOWN ***
    Eva: shows [Cc 5e] (two pair, Caballos y Cincos)
    Dani: shows [Ao Ac] (three of a kind, Ases)
    Ceci: shows [So Se] (a pair, Sotas)
    Blas: shows [7e 6c] (a pair, Sietes)
    Ana: shows [6e Sb] (a straight, Seis to Rey)
    Fede: shows [Re Rb] (three of a kind, Reyes)
    Ana: collected 600 from main pot
    Dani: collected 500 from side pot-1
    Dani: collected 400 from side pot-2
    Dani: collected 300 from side pot-3
    Fede: collected 200 from side pot-4
    *** SUMMARY ***
    Total pot 2000 Main pot 600. Side pot-1 500. Side pot-2 400. Side pot-3 300. Side pot-4 200. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Ana and Blas are both all-in for 200: one level, one main pot of 4 x 200,
# which they split (two straights to Rey); Ceci wins the side pot 2 x 100.
# Dealer Dani (4), blind Ceci (3): the odd-chip order from the blind is Ceci,
# Blas, Ana, Dani, so Blas collects first.
CH_MERGE = HandText.of("""
    chiribito.com Hand #T-CH-MG: Chiribito No Limit (blind 20) - 2026/11/30 02:00:00 CET
    Table 'Mérida' 6-max Seat #4 is the dealer
    Seat 1: Ana (200 in chips)
    Seat 2: Blas (200 in chips)
    Seat 3: Ceci (1000 in chips)
    Seat 4: Dani (1000 in chips)
    Ceci: posts blind 20
    *** HOLE CARDS ***
    Dealt to Ceci: down [Ao Ac]
    Dealt to Blas: down [6b Sc]
    Dealt to Ana: down [6e Sb]
    Dealt to Dani: down [Re Rb]
    Blas: raises 180 to 200 and is all-in
    Ana: calls 200 and is all-in
    Dani: calls 200
    Ceci: calls 180
    *** COMMON 1 *** [5o]
    Dani: bets 100
    Ceci: calls 100
    *** COMMON 2 *** [5o] [7c]
    Dani: checks
    Ceci: checks
    *** COMMON 3 *** [5o 7c] [Ce]
    Dani: checks
    Ceci: checks
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    Dani: checks
    Ceci: checks
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    Dani: checks
    Ceci: checks
    *** SHOWDOWN ***
    Ceci: shows [Ao Ac] (three of a kind, Ases)
    Blas: shows [6b Sc] (a straight, Seis to Rey)
    Ana: shows [6e Sb] (a straight, Seis to Rey)
    Dani: shows [Re Rb] (three of a kind, Reyes)
    Blas: collected 400 from main pot
    Ana: collected 400 from main pot
    Ceci: collected 200 from side pot-1
    *** SUMMARY ***
    Total pot 1000 Main pot 800. Side pot-1 200. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")

# Ana all-in for 100 in round 1; Ceci later folds to Blas's bet: the side
# pot (2 x 200) has one eligible player, Blas, and is still a pot. Main
# 3 x 100 = 300 to Ana.
CH_ONE_WINNER = HandText.of("""
    chiribito.com Hand #T-CH-1W: Chiribito No Limit (blind 20) - 2026/11/30 02:10:00 CET
    Table 'Mérida' 6-max Seat #3 is the dealer
    Seat 1: Ana (100 in chips)
    Seat 2: Blas (1000 in chips)
    Seat 3: Ceci (1000 in chips)
    Blas: posts blind 20
    *** HOLE CARDS ***
    Dealt to Blas: down [Ao Ac]
    Dealt to Ana: down [6e Sb]
    Dealt to Ceci: down [Re Rb]
    Ana: raises 80 to 100 and is all-in
    Ceci: calls 100
    Blas: calls 80
    *** COMMON 1 *** [5o]
    Ceci: bets 200
    Blas: calls 200
    *** COMMON 2 *** [5o] [7c]
    Ceci: checks
    Blas: bets 300
    Ceci: folds
    Uncalled bet (300) returned to Blas
    *** COMMON 3 *** [5o 7c] [Ce]
    *** COMMON 4 *** [5o 7c Ce] [Ab]
    *** COMMON 5 *** [5o 7c Ce Ab] [Ro]
    *** SHOWDOWN ***
    Blas: shows [Ao Ac] (three of a kind, Ases)
    Ana: shows [6e Sb] (a straight, Seis to Rey)
    Ana: collected 300 from main pot
    Blas: collected 400 from side pot-1
    *** SUMMARY ***
    Total pot 700 Main pot 300. Side pot-1 400. | Rake 0
    Board [5o 7c Ce Ab Ro]
""")


# ============================================ FORMAT.md's three examples, verbatim

EX_CHIRIBITO = HandText.of("""
    chiribito.com Hand #CH-1: Chiribito No Limit (blind 20) - 2026/11/29 21:14:03 CET
    Table 'Mérida 2' 6-max Seat #3 is the dealer
    Seat 1: Lucía (1000 in chips)
    Seat 2: Paco (1000 in chips)
    Seat 3: Marta (1000 in chips)
    Seat 4: Íñigo (1000 in chips)
    Paco: posts blind 20
    *** HOLE CARDS ***
    Dealt to Paco: down [Ao Rc]
    Dealt to Lucía: down [So 7o]
    Dealt to Íñigo: down [5c 5e]
    Dealt to Marta: down [Cb 6b]
    Lucía: calls 20
    Íñigo: raises 20 to 40
    Marta: folds
    Paco: calls 20
    Lucía: calls 20
    *** COMMON 1 *** [7c]
    Íñigo: bets 40
    Paco: folds
    Lucía: raises 40 to 80
    Íñigo: calls 40
    *** COMMON 2 *** [7c] [Sc]
    Lucía: checks
    Íñigo: checks
    *** COMMON 3 *** [7c Sc] [Re]
    Lucía: bets 100
    Íñigo: calls 100
    *** COMMON 4 *** [7c Sc Re] [Cc]
    Lucía: checks
    Íñigo: bets 200
    Lucía: calls 200
    *** COMMON 5 *** [7c Sc Re Cc] [6o]
    Íñigo: checks
    Lucía: bets 300
    Íñigo: calls 300
    *** SHOWDOWN ***
    Lucía: shows [So 7o] (a straight, Seis to Rey)
    Íñigo: shows [5c 5e] (a pair, Cincos)
    Lucía: collected 1480 from pot
    *** SUMMARY ***
    Total pot 1480 | Rake 0
    Board [7c Sc Re Cc 6o]
    Seat 1: Lucía: showed [So 7o] and won 1480 with a straight
    Seat 2: Paco: folded on COMMON 1
    Seat 3: Marta: folded on HOLE CARDS
    Seat 4: Íñigo: showed [5c 5e] and lost with a pair
""")

EX_ACES = HandText.of("""
    Hand #AS-1: Aces, Straights and Flushes Limit (ante 1, bets 1/2) - 2026/11/29 22:01:00 UTC
    Table 'Pagat' 7-max Seat #5 is the dealer
    Seat 1: Anna (50 in chips)
    Seat 2: Ben (50 in chips)
    Seat 5: Carla (50 in chips)
    Anna: posts ante 1
    Ben: posts ante 1
    Carla: posts ante 1
    *** 3RD STREET ***
    Dealt to Anna: down [As Ks] up [Qs]
    Dealt to Ben: down [9c 9h] up [5c]
    Dealt to Carla: down [Tc Th] up [2d]
    Anna: bets 1
    Ben: calls 1
    Carla: calls 1
    *** 4TH STREET ***
    Dealt to Anna: up [7s]
    Dealt to Ben: up [5d]
    Dealt to Carla: up [8h]
    Ben: bets 1
    Carla: folds
    Anna: raises 1 to 2
    Ben: calls 1
    *** 5TH STREET ***
    Dealt to Anna: up [9d]
    Dealt to Ben: up [Kd]
    Ben: checks
    Anna: bets 2
    Ben: raises 2 to 4
    Anna: calls 2
    *** 6TH STREET ***
    Dealt to Anna: down [2c]
    Dealt to Ben: down [3h]
    Ben: bets 2
    Anna: calls 2
    *** SHOWDOWN ***
    Anna: shows [As Ks Qs 7s 9d 2c] (a flush, Ace high)
    Ben: shows [9c 9h 5c 5d Kd 3h] (two pair, Nines and Fives)
    Anna: collected 22 from pot
    *** SUMMARY ***
    Total pot 22 | Rake 0
    Board [Jk]
""")

EX_CALATONE = HandText.of("""
    Hand #CA-1: Calatone Spread Limit (ante 5, bets 5-50) - 2026/11/29 23:30:00 CET
    Table 'Nápoles' 7-max Seat #6 is the dealer
    Seat 2: Dario (500 in chips)
    Seat 4: Elena (500 in chips)
    Seat 6: Fabio (500 in chips)
    Dario: posts ante 5
    Elena: posts ante 5
    Fabio: posts ante 5
    *** 2ND STREET ***
    Dealt to Dario: down [Kh] up [7c]
    Dealt to Elena: down [Qd] up [Jc]
    Dealt to Fabio: down [4s] up [Js]
    Elena: bets 10
    Fabio: calls 10
    Dario: calls 10
    *** 3RD STREET ***
    Dealt to Dario: up [Kd]
    Dealt to Elena: up [3h]
    Dealt to Fabio: up [Jd]
    Fabio: bets 20
    Dario: raises 30 to 50
    Elena: folds
    Fabio: calls 30
    *** 4TH STREET ***
    Dealt to Dario: up [Ks]
    Dealt to Fabio: up [2c]
    Dario: bets 10
    Fabio: calls 10
    *** 5TH STREET ***
    Dealt to Dario: up [9h]
    Dealt to Fabio: up [Jh]
    Fabio: bets 50
    Dario: calls 50
    *** 6TH STREET ***
    Dealt to Dario: up [7d]
    Dealt to Fabio: up [2s]
    Fabio: bets 50
    Dario: calls 50
    *** 7TH STREET ***
    Dealt to Dario: up [Kc]
    Dealt to Fabio: up [5d]
    Dario: bets 50
    Fabio: raises 50 to 100
    Dario: calls 50
    *** SHOWDOWN ***
    Dario: shows [Kh 7c Kd Ks 9h 7d Kc] and declares [Kh Kd Ks Kc 9h] (four of a kind, Kings)
    Fabio: shows [4s Js Jd 2c Jh 2s 5d] and declares [Js Jd Jh 2c 2s] (a full house, Jacks full of Twos)
    Dario: collected 565 from pot
    *** SUMMARY ***
    Total pot 565 | Rake 0
""")
