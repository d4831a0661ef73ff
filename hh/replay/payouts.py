"""The money at the end: rake, pots, who the rules pay, and the log's
``Total pot`` and ``collected`` claims against them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hh.engine import Award
from hh.model import Collected
from hh.replay.showdown import Showdown
from hh.replay.state import ReplayState
from hh.replay.words import collect_words


class Payouts:
    def __init__(self, st: ReplayState, showdown: Showdown) -> None:
        self.st = st
        self.engine = st.engine
        self.showdown = showdown
        self.collected: list[Collected] = []

    def collect(self, line: Collected) -> None:
        self.collected.append(line)

    def settle(self, decided: bool) -> tuple[list[Award], dict[int, int]]:
        """The pots and what each winner takes (player index -> chips), after
        judging the summary's Total pot line and the collected lines."""
        st = self.st
        e = self.engine
        summary = st.hand.summary
        line_no = summary.line
        total = summary.total
        pots = e.pots()
        main = pots[0].amount if pots else 0
        rake = total.rake
        if rake < 0 or rake > main:
            st.add("RAKE", total.line, f"rake {rake} is not between 0 and the main pot {main}")
            rake = 0
        if decided:
            awards = e.award(self.showdown.values, rake, pots)
        else:
            awards = [
                Award(p.amount - (rake if k == 0 else 0), p.eligible, (), ())
                for k, p in enumerate(pots)
            ]
        if e.total_pot != total.total:
            st.add(
                "POT_TOTAL",
                total.line,
                f"Total pot {total.total}, but the chips put in (less uncalled bets) come "
                f"to {e.total_pot}",
            )
        self.check_side_pots(awards)
        payouts: dict[int, int] = {}
        for a in awards:
            for i, share in zip(a.winners, a.shares, strict=True):
                payouts[i] = payouts.get(i, 0) + share
        if self.showdown.undecidable:
            st.note(
                "PAYOUT",
                line_no,
                "the winners could not be decided from the cards: payouts repeat the log",
            )
            payouts = {}
            for c in self.collected:
                q = e.by_name.get(c.name)
                if q is not None:
                    payouts[q.index] = payouts.get(q.index, 0) + c.amount
        else:
            self.check_collected(awards, line_no)
        return awards, payouts

    def check_side_pots(self, awards: Sequence[Award]) -> None:
        st = self.st
        total = st.hand.summary.total
        listed = total.main is not None
        if len(awards) > 1:
            want = [a.amount for a in awards]
            if not listed:
                st.add(
                    "SIDE_POTS",
                    total.line,
                    f"there are side pots but none are listed: expected Main pot {want[0]}"
                    + "".join(f". Side pot-{k} {x}" for k, x in enumerate(want[1:], 1)),
                )
            elif [total.main, *total.side] != want:
                st.add(
                    "SIDE_POTS",
                    total.line,
                    f"pots listed as {[total.main, *total.side]}, expected {want} "
                    f"(main first, net of rake)",
                )
        elif listed:
            want_main = awards[0].amount if awards else 0
            if total.side or total.main != want_main:
                st.add(
                    "SIDE_POTS",
                    total.line,
                    f"pots listed as {[total.main, *total.side]}, but there is one pot of "
                    f"{want_main}",
                )

    def check_collected(self, awards: Sequence[Award], line_no: int) -> None:
        st = self.st
        e = self.engine
        single = len(awards) == 1
        want: Counter[tuple[str, int | None, int]] = Counter()
        for k, a in enumerate(awards):
            label = None if single else k
            for i, share in zip(a.winners, a.shares, strict=True):
                if share > 0:
                    want[(e.players[i].name, label, share)] += 1
        got: list[Collected] = []
        for c in self.collected:
            key = (c.name, c.pot, c.amount)
            if want[key] > 0:
                want[key] -= 1
            elif c.amount > 0 or c.pot is not None:
                got.append(c)
        expected = [key for key, n in want.items() for _ in range(n)]
        for c in got:
            hint = (
                "; expected " + ", ".join(collect_words(*key) for key in expected)
                if expected
                else "; nothing more is to be collected"
            )
            st.add(
                "PAYOUT",
                c.line,
                f"{collect_words(c.name, c.pot, c.amount)} is not what the rules give{hint}",
            )
        if expected and not got:
            where = self.last_collect_line() or line_no
            for key in expected:
                st.add("PAYOUT", where, f"missing '{collect_words(*key)}' before this line")

    def last_collect_line(self) -> int | None:
        if not self.collected:
            return None
        after = self.collected[-1].line
        hand = self.st.hand
        for _, line in hand.lines():
            if line.line > after:
                return line.line
        return hand.summary.line
