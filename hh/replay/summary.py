"""The summary's claims after the pots: the Board line and the seat lines."""

from __future__ import annotations

from hh.cards import JOKER
from hh.engine import Player
from hh.model import Game, SeatOutcome
from hh.replay.showdown import Showdown
from hh.replay.state import ReplayState
from hh.replay.words import cards, description_category, outcome_words


class SummaryCheck:
    def __init__(self, st: ReplayState, showdown: Showdown) -> None:
        self.st = st
        self.engine = st.engine
        self.showdown = showdown

    def check_board(self) -> None:
        st = self.st
        hand = st.hand
        board = hand.summary.board
        e = self.engine
        game = hand.game
        if game is Game.CHIRIBITO:
            if board is None:
                if e.board:
                    st.add(
                        "SUMMARY",
                        hand.summary.total.line,
                        f"the summary lacks 'Board {cards(e.board)}' after Total pot",
                    )
            elif list(board.cards) != e.board:
                st.add(
                    "CARD_MISMATCH",
                    board.line,
                    f"Board {cards(board.cards)}, but the common cards dealt are "
                    f"{cards(e.board)}",
                )
        elif game is Game.ACES:
            if board is not None and board.cards != (JOKER,):
                st.add("CARD_MISMATCH", board.line, f"Board {cards(board.cards)}, expected [Jk]")
        elif board is not None:
            st.add("SUMMARY", board.line, "Calatone has no board: no Board line")

    def check_seat_lines(self, payouts: dict[int, int]) -> None:
        st = self.st
        seats = st.hand.summary.seats
        if not seats:
            return
        e = self.engine
        listed = set()
        for s in seats:
            listed.add(s.name)
            if st.seat_of.get(s.name) != s.seat:
                st.add(
                    "SUMMARY",
                    s.line,
                    f"Seat {s.seat}: {s.name}, but {s.name} "
                    + (
                        f"sits in seat {st.seat_of[s.name]}"
                        if s.name in st.seat_of
                        else "is not seated"
                    ),
                )
                continue
            p = e.by_name.get(s.name)
            if p is None:
                if s.outcome != "sat_out":
                    st.add(
                        "SUMMARY",
                        s.line,
                        f"{s.name} sat out, but the summary says {outcome_words(s)}",
                    )
                continue
            won = payouts.get(p.index, 0)
            fault = self.seat_outcome_fault(p, s, won)
            if fault is not None:
                st.add(fault[0], s.line, fault[1])
        missing = [p.name for p in sorted(e.players, key=lambda q: q.seat) if p.name not in listed]
        if missing:
            st.add(
                "SUMMARY",
                seats[-1].line,
                f"the summary lists some seats but not {', '.join(missing)}: list all "
                f"players dealt in, or none",
            )

    def seat_outcome_fault(
        self, p: Player, s: SeatOutcome, won: int
    ) -> tuple[str, str] | None:
        """(code, message) of what the seat line gets wrong: SUMMARY, or
        CARD_MISMATCH for cards other than the ones shown (FORMAT.md: a later
        mention that differs from what was dealt)."""
        o = s.outcome
        rules = self.st.rules
        sd = self.showdown
        showed = sd.shows.get(p.index) or sd.voluntary_shows.get(p.index)
        if o == "folded":
            if not p.folded:
                return "SUMMARY", f"{p.name} did not fold, but the summary says {outcome_words(s)}"
            street = rules.streets[p.folded_on].name if p.folded_on is not None else None
            if street != s.street:
                return "SUMMARY", f"{p.name} folded on {street}, not on {s.street}"
            return None
        if o == "sat_out":
            return "SUMMARY", f"{p.name} was dealt in, but the summary says {p.name} sat out"
        if p.folded:
            street = rules.streets[p.folded_on].name if p.folded_on is not None else "?"
            said = outcome_words(s)
            return "SUMMARY", f"{p.name} folded on {street}, but the summary says {said}"
        if o == "showed_won" or o == "showed_lost":
            if showed is None:
                return "SUMMARY", f"{p.name} did not show, but the summary says {outcome_words(s)}"
            if s.cards is not None and sorted(s.cards) != sorted(showed.cards):
                shown = cards(showed.cards)
                return "CARD_MISMATCH", f"{p.name} showed {shown}, not {cards(s.cards)}"
            if o == "showed_won" and s.amount != won:
                return "SUMMARY", f"{p.name} won {won}, not {s.amount}" if won else f"{p.name} lost"
            if o == "showed_lost" and won:
                return "SUMMARY", f"{p.name} won {won}, but the summary says {p.name} lost"
            if s.description is not None:
                category = sd.categories.get(p.index)
                if category is not None and description_category(s.description) != category:
                    return (
                        "SUMMARY",
                        f"{p.name}'s hand is described as '{s.description}', but it is "
                        f"{category}",
                    )
            return None
        if o == "mucked":
            if p.index in sd.shows:
                return "SUMMARY", f"{p.name} showed, but the summary says {p.name} mucked"
            if not self.st.in_showdown:
                return (
                    "SUMMARY",
                    f"{p.name} won without a showdown, but the summary says {p.name} mucked",
                )
            return None
        # won
        if self.st.in_showdown and p.index in sd.shows:
            return (
                "SUMMARY",
                f"{p.name} showed at the showdown: expected 'showed [...] and won {won}'",
            )
        if s.amount != won:
            return "SUMMARY", f"{p.name} won {won}, not {s.amount}"
        return None
