"""The showdown: who shows or mucks, whether the shown cards are the cards
dealt, what each shown hand is worth, and the description it claims."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hh.cards import JOKER, UNKNOWN
from hh.engine import Award, Player
from hh.model import SHOWDOWN, Game, Info, Muck, Show
from hh.replay.dealing import Dealing
from hh.replay.state import ReplayState
from hh.replay.words import cards, description_category, plural


class Showdown:
    def __init__(self, st: ReplayState, dealing: Dealing) -> None:
        self.st = st
        self.engine = st.engine
        self.dealing = dealing
        self.shows: dict[int, Show] = {}
        self.mucks: dict[int, Muck] = {}
        self.voluntary_shows: dict[int, Show] = {}
        self.values: dict[int, int] = {}  # who can win: hand values
        self.categories: dict[int, str] = {}  # shown hands' category words
        self.unknown: set[int] = set()  # shown hands that could not be evaluated (??)
        self.early = False  # the showdown came before the last street
        self.first_after = 0  # the first line after the show and muck lines

    def show(self, line: Show) -> None:
        st = self.st
        e = self.engine
        p = st.player(line.name, line.line, "shows")
        if p is None:
            return
        if not st.in_showdown:
            if e.ended == "folded" and not p.folded:
                self.check_shown_cards(p, line, voluntary=True)
                self.voluntary_shows[p.index] = line
                return
            st.add("SHOWDOWN", line.line, f"{p.name} shows before the showdown")
            return
        if not self.may_show(p, line.line, "shows"):
            return
        self.shows[p.index] = line
        shown = self.check_shown_cards(p, line, voluntary=False)
        value = self.hand_value(p, shown, line)
        if value is not None:
            self.values[p.index] = value

    def check_shown_cards(self, p: Player, line: Show, voluntary: bool) -> list[str]:
        """Shown cards must be the cards dealt; returns the cards to judge by
        (the dealt ones; the shown ones where the log dealt ``??``)."""
        st = self.st
        dealt = [*p.down, *p.up]
        shown = list(line.cards)
        if UNKNOWN in dealt:
            known = [c for c in dealt if c != UNKNOWN]
            if not set(known) <= set(shown) or len(shown) != len(dealt):
                st.add(
                    "CARD_MISMATCH",
                    line.line,
                    f"{p.name} shows {cards(shown)}, but was dealt {cards(dealt)}",
                )
                return dealt
            st.note(
                "CARD_MISMATCH",
                line.line,
                f"{p.name}'s cards dealt as ?? could not be checked against the show",
            )
            revealed = [c for c in shown if c not in known]
            for c in revealed:
                self.dealing.dealt_card(c, line.line, f"to {p.name} (shown)")
            return shown
        if sorted(shown) != sorted(dealt):
            st.add(
                "CARD_MISMATCH",
                line.line,
                f"{p.name} shows {cards(shown)}, but was dealt {cards(dealt)}",
            )
        return dealt

    def hand_value(self, p: Player, own: list[str], line: Show) -> int | None:
        """The shown hand's value; None if it cannot win (invalid declaration)."""
        st = self.st
        e = self.engine
        game = st.hand.game
        ev = st.variant.evaluator
        declared = line.declared
        judged = own
        if game is Game.CALATONE and not self.early:
            if declared is None:
                st.add(
                    "DECLARATION",
                    line.line,
                    f"{p.name} shows without declaring five cards: the hand forfeits",
                )
                return None
            problem = None
            if len(declared) != 5:
                problem = f"declares {plural(len(declared), 'card')}, not 5"
            elif len(set(declared)) != 5:
                problem = "declares the same card twice"
            elif Counter(declared) - Counter(own):
                problem = f"declares {cards(declared)}, which are not 5 of {p.name}'s own cards"
            if problem:
                st.add("DECLARATION", line.line, f"{p.name} {problem}: the hand forfeits")
                return None
            judged = list(declared)
        elif declared is not None:
            st.add(
                "DECLARATION",
                line.line,
                f"{p.name} declares cards, but declarations come only at the showdown "
                f"after 7TH STREET",
            )
        board: tuple[str, ...] | list[str] = ()
        if game is Game.CHIRIBITO:
            board = e.board
        elif game is Game.ACES:
            board = (JOKER,)
        try:
            if UNKNOWN in judged:
                raise ValueError("unknown cards")
            value = ev.value(judged, board)
        except (ValueError, KeyError, IndexError):
            self.unknown.add(p.index)
            st.note(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name}'s hand {cards(judged)} cannot be evaluated",
            )
            return None
        stated = description_category(line.description)
        actual = ev.category(value).value
        if line.description is None:
            description = ev.evaluate(judged, board).description
            st.add(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name} shows without a description: expected ({description})",
            )
        elif stated != actual:
            st.add(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name}'s hand is described as '{line.description}', but "
                f"{cards(judged)} make {actual}",
            )
        self.categories[p.index] = actual
        return value

    def muck(self, line: Muck) -> None:
        st = self.st
        p = st.player(line.name, line.line, "mucks")
        if p is None:
            return
        if not st.in_showdown:
            st.add("SHOWDOWN", line.line, f"{p.name} mucks before the showdown")
            return
        if not self.may_show(p, line.line, "mucks"):
            return
        self.mucks[p.index] = line

    def may_show(self, p: Player, line_no: int, verb: str) -> bool:
        """At the showdown: is ``p`` in it, and showing or mucking for the first time?"""
        if p.folded:
            self.st.add("SHOWDOWN", line_no, f"{p.name} folded and is not in the showdown")
            return False
        if p.index in self.shows or p.index in self.mucks:
            self.st.add(
                "SHOWDOWN", line_no, f"{p.name} {verb} after already showing or mucking"
            )
            return False
        return True

    def complete(self) -> None:
        """At the summary: everyone in the showdown showed or mucked, and
        someone showed."""
        e = self.engine
        missing = [
            p for p in e.players
            if not p.folded and p.index not in self.shows and p.index not in self.mucks
        ]
        self.first_after = first_after = self.first_line_after_shows()
        for p in missing:
            self.st.add(
                "SHOWDOWN",
                first_after,
                f"{p.name} is in the showdown but neither shows nor mucks before this line",
            )
        if not self.shows:
            self.st.add(
                "SHOWDOWN", first_after, "nobody shows at the showdown: at least one must"
            )

    def first_line_after_shows(self) -> int:
        """The first line after the showdown's show and muck lines."""
        hand = self.st.hand
        for section in hand.sections:
            if section.marker.street != SHOWDOWN:
                continue
            for line in section.lines:
                if not isinstance(line, (Show, Muck, Info)):
                    return line.line
        return hand.summary.line

    def check_pots(self, awards: Sequence[Award]) -> None:
        """A contested pot whose eligible players all mucked: a SHOWDOWN
        fault (RULES.md, "Chips never vanish"); the engine splits it among
        them as for a tie. When nobody showed at all, the fault is already
        reported once for the whole showdown."""
        if not self.st.in_showdown or not self.shows:
            return
        e = self.engine
        single = len(awards) == 1
        for k, a in enumerate(awards):
            if len(a.eligible) < 2 or a.amount <= 0:
                continue
            if all(i in self.mucks for i in a.eligible):
                names = [e.players[i].name for i in a.eligible]
                where = "the pot" if single else "the main pot" if k == 0 else f"side pot-{k}"
                self.st.add(
                    "SHOWDOWN",
                    self.first_after,
                    f"{', '.join(names[:-1])} and {names[-1]}, the only players who can win "
                    f"{where}, {'both' if len(names) == 2 else 'all'} muck: one must show; the pot "
                    f"is split among them",
                )
