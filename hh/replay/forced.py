"""The forced bets (blind or antes) and the top-ups that come before them."""

from __future__ import annotations

from typing import Literal

from hh.model import Post, TopUp
from hh.replay.repair import repair_post
from hh.replay.state import ReplayState


class ForcedBets:
    """Posts are judged against what the engine says is due; whatever is
    still missing at the first line after them is reported and posted."""

    def __init__(self, st: ReplayState) -> None:
        self.st = st
        self.engine = st.engine
        self.done = False  # the forced bets are over (a marker or a body line came)
        self.posted: set[int] = set()
        self.due: dict[int, tuple[Literal["blind", "ante"], int]] | None = None

    def post(self, line: Post) -> None:
        st = self.st
        e = self.engine
        p = e.by_name.get(line.name)
        if p is None:
            st.player(line.name, line.line, f"posts {line.kind} {line.amount}")
            return
        if self.done:
            st.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount} after the cards were dealt",
            )
            return
        due = self.due
        if due is None:
            due = self.due = {f.player.index: (f.kind, f.amount) for f in e.forced_bets()}
        expected = due.get(p.index)
        if p.index in self.posted:
            st.add("FORCED_BET", line.line, f"{p.name} posts a second forced bet")
            return
        self.posted.add(p.index)
        if expected is None:
            blind = e.players[0].name
            st.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount}, but the only forced bet is "
                f"{blind}'s blind (the player to the dealer's right)",
            )
        elif expected[0] != line.kind or expected[1] != line.amount:
            st.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount}, expected {expected[0]} "
                f"{expected[1]}",
            )
            st.repairs[line.line] = (
                "FORCED_BET", repair_post(line, expected[0], expected[1], p.stack)
            )
        else:
            fault = e.judge_chips(p, line.amount, line.all_in, line.line)
            if fault is not None:
                st.add(fault.code, fault.line, fault.message)
                if fault.code == "ALL_IN_FLAG":
                    st.repairs[line.line] = (
                        fault.code, repair_post(line, line.kind, line.amount, p.stack)
                    )
        e.post(p, line.amount)

    def finish(self, line_no: int) -> None:
        """At the first line after the forced bets: report and post any missing."""
        if self.done:
            return
        self.done = True
        e = self.engine
        for f in e.forced_bets():
            p, kind, amount = f.player, f.kind, f.amount
            if p.index not in self.posted:
                self.st.add(
                    "FORCED_BET",
                    line_no,
                    f"{p.name}'s {kind} of {amount} is missing before this line",
                )
                e.post(p, amount)

    def top_up(self, line: TopUp) -> None:
        """A top-up belongs before the forced bets' end; its amount is judged
        across hands (STACK_CARRYOVER), where the stack it adds to is known."""
        st = self.st
        if self.done:
            st.add(
                "FORCED_BET",
                line.line,
                f"{line.name} adds chips during the hand: top-ups come right after the seat "
                f"lines",
            )
        elif line.name not in st.seat_line:
            st.add("NOT_IN_HAND", line.line, f"{line.name} adds chips but is not seated")
