"""The money at the end: rake, pots, who the rules pay, and the log's
``Total pot`` and ``collected`` claims against them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hh.engine import Award, shares_of
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

    def settle(self, decided: bool) -> tuple[list[Award], dict[int, int], int]:
        """The pots, what each winner takes (player index -> chips) and the
        rake taken (the logged rake, or 0 when RAKE), after judging the
        summary's Total pot line and the collected lines.

        Chips never vanish: every pot is paid to someone, so the payouts add
        up to the total pot less the rake. A hand the summary reaches
        undecided (HAND_INCOMPLETE) has its pots split as for a tie among
        their eligible players, and its collected lines are not judged."""
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
        sd = self.showdown
        awards = e.award(sd.values if decided else {}, rake, pots)
        if e.total_pot != total.total:
            st.add(
                "POT_TOTAL",
                total.line,
                f"Total pot {total.total}, but the chips put in (less uncalled bets) come "
                f"to {e.total_pot}",
            )
        self.check_side_pots(awards)
        if decided:
            sd.check_pots(awards)
            if sd.unknown:
                awards = self.from_log(awards, line_no)
            else:
                self.check_collected(list(enumerate(awards)), self.collected, line_no)
        payouts: dict[int, int] = {}
        for a in awards:
            for i, share in zip(a.winners, a.shares, strict=True):
                payouts[i] = payouts.get(i, 0) + share
        return awards, payouts, rake

    def pot_of(self, c: Collected, n: int) -> int | None:
        """The pot a collected line names (``from pot`` only when there is one
        pot; ``main pot`` and ``side pot-k`` only when there are side pots)."""
        if n == 1:
            return 0 if c.pot is None else None
        if c.pot is None or c.pot >= n:
            return None
        return c.pot

    def from_log(self, awards: list[Award], line_no: int) -> list[Award]:
        """Hero view: a pot that a shown hand of ``??`` cards is eligible for
        cannot be decided by the rules, so its winners repeat the log's
        collected lines (FORMAT.md) as long as they are possible: only
        players eligible for that pot, adding up to exactly the pot. A claim
        beyond that is PAYOUT, and the pot is then split as for a tie among
        its players still in contention. The other pots are judged as usual."""
        st = self.st
        e = self.engine
        sd = self.showdown
        n = len(awards)
        undecided = [any(i in sd.unknown for i in a.eligible) for a in awards]
        claims: list[list[Collected]] = [[] for _ in awards]
        judged: list[Collected] = []
        for c in self.collected:
            k = self.pot_of(c, n)
            if k is not None and undecided[k]:
                claims[k].append(c)
            else:
                judged.append(c)
        out = list(awards)
        for k, a in enumerate(awards):
            if not undecided[k]:
                continue
            st.note(
                "PAYOUT",
                line_no,
                f"the winners of {_pot_name(k, n)} could not be decided from the cards: "
                f"its payouts repeat the log",
            )
            taken: dict[int, int] = {}
            fault = False
            for c in claims[k]:
                q = e.by_name.get(c.name)
                words = collect_words(c.name, c.pot, c.amount)
                if q is None or q.index not in a.eligible:
                    st.add("PAYOUT", c.line, f"{words}, but {c.name} cannot win {_pot_name(k, n)}")
                    fault = True
                elif sum(taken.values()) + c.amount > a.amount:
                    st.add(
                        "PAYOUT",
                        c.line,
                        f"{words}, but {_pot_name(k, n)} holds {a.amount} and "
                        f"{sum(taken.values())} of it is collected already",
                    )
                    fault = True
                else:
                    taken[q.index] = taken.get(q.index, 0) + c.amount
            if not fault and sum(taken.values()) != a.amount:
                where = self.last_collect_line() or line_no
                st.add(
                    "PAYOUT",
                    where,
                    f"the collected lines take {sum(taken.values())} from {_pot_name(k, n)}, "
                    f"which holds {a.amount}: all of it must be collected before this line",
                )
                fault = True
            if fault:
                alive = [i for i in a.eligible if i in sd.values or i in sd.unknown]
                winners = tuple(alive) if alive else a.eligible
                out[k] = Award(a.amount, a.eligible, winners, shares_of(a.amount, len(winners)))
            else:
                winners = tuple(sorted(taken))
                out[k] = Award(a.amount, a.eligible, winners, tuple(taken[i] for i in winners))
        decided = [(k, a) for k, a in enumerate(awards) if not undecided[k]]
        self.check_collected(decided, judged, line_no, n)
        return out

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

    def check_collected(
        self,
        awards: list[tuple[int, Award]],
        lines: list[Collected],
        line_no: int,
        n: int = 0,
    ) -> None:
        """The collected lines against what the rules give for these pots
        (pot number, award); ``n`` the number of pots (default: these)."""
        st = self.st
        e = self.engine
        single = (n or len(awards)) == 1
        want: Counter[tuple[str, int | None, int]] = Counter()
        for k, a in awards:
            label = None if single else k
            for i, share in zip(a.winners, a.shares, strict=True):
                if share > 0:
                    want[(e.players[i].name, label, share)] += 1
        got: list[Collected] = []
        for c in lines:
            key = (c.name, c.pot, c.amount)
            if want[key] > 0:
                want[key] -= 1
            elif c.amount > 0 or c.pot is not None:
                got.append(c)
        expected = [key for key, count in want.items() for _ in range(count)]
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


def rake_shares(rake: int, main: Award) -> dict[int, int]:
    """Each main-pot winner's part of the rake (player index -> chips): the
    rake is taken from the main pot (FORMAT.md), so its winners bear it, each
    the rake times his share of that pot's payout, floored; what the floors
    leave goes to the first winner in dealing order (the odd chips' order).
    A main pot that the rake took whole pays its winners nothing: they then
    bear the rake in equal parts (and its eligible players do, should the
    log's collected lines name no winner of it). The parts add up to the
    rake, which the verdict states as their sum."""
    if rake <= 0:
        return {}
    if sum(main.shares) > 0:
        bearers, weights = main.winners, main.shares
    else:
        bearers = main.winners or main.eligible
        weights = (1,) * len(bearers)
    total = sum(weights)
    out = {i: rake * w // total for i, w in zip(bearers, weights, strict=True)}
    out[bearers[0]] += rake - sum(out.values())
    return out


def _pot_name(k: int, n: int) -> str:
    return "the pot" if n == 1 else "the main pot" if k == 0 else f"side pot-{k}"
