"""The replay's conductor: it walks the hand line by line and hands each
line to the collaborator whose job it is (forced bets, dealing, betting,
showdown, payouts), moves from street to street, and at the summary has the
pots settled and the summary and Deck checked."""

from __future__ import annotations

from collections.abc import Sequence

from hh.engine import Award, Player
from hh.model import (
    SHOWDOWN,
    Action,
    Collected,
    Deal,
    Hand,
    Info,
    Line,
    Marker,
    Muck,
    Post,
    Section,
    Show,
    TopUp,
    Uncalled,
)
from hh.replay.betting import Betting
from hh.replay.dealing import Dealing
from hh.replay.deck import DeckCheck
from hh.replay.forced import ForcedBets
from hh.replay.payouts import Payouts, rake_shares
from hh.replay.seating import check_header, seat_players
from hh.replay.showdown import Showdown
from hh.replay.state import ReplayState
from hh.replay.summary import SummaryCheck
from hh.replay.trace import before_action, snapshot
from hh.replay.words import ended_how
from hh.verdict import ActionFigure, ActionFigures, LineState, PotResult, SeatStack, Verdict


class Replay:
    """One hand's replay, from its header to its verdict."""

    def __init__(
        self,
        hand: Hand,
        file: str | None,
        trace: list[LineState] | None = None,
        figures: ActionFigures | None = None,
    ) -> None:
        st = ReplayState(hand, file)
        check_header(st)
        st.engine = seat_players(st)
        self.st = st
        self.engine = st.engine
        self.trace = trace
        self.figures = figures
        self.forced = ForcedBets(st)
        self.dealing = Dealing(st)
        self.betting = Betting(st, self.dealing)
        self.showdown = Showdown(st, self.dealing)
        self.payouts = Payouts(st, self.showdown)

    def run(self) -> Verdict:
        hand = self.st.hand
        trace = self.trace
        figures = self.figures
        if figures is not None:
            figures.names = self.st.names
            self.figured_body(figures, hand.preamble)
        elif trace is None:
            self.body(hand.preamble)
        else:
            snapshot(self.st, trace, hand.line, True)
            self.traced_body(trace, hand.preamble)
        for section in hand.sections:
            self.section(section)
        self.forced.finish(hand.summary.line)
        verdict = self.summary()
        if trace is not None:
            snapshot(self.st, trace, hand.summary.line, False, verdict.payouts)
        if figures is not None:
            figures.complete = True
        return verdict

    def traced_body(self, trace: list[LineState], lines: Sequence[Line]) -> None:
        """The body loop one line at a time, a snapshot after each."""
        for i, line in enumerate(lines):
            self.body((line,))
            more_deals = i + 1 < len(lines) and isinstance(lines[i + 1], Deal)
            snapshot(self.st, trace, line.line, not more_deals)

    def figured_body(self, figures: ActionFigures, lines: Sequence[Line]) -> None:
        """The body loop with the light trace: the figures of each action,
        forced bet and uncalled bet, read before and after it is played;
        the lines between them are played in one go."""
        by_name = self.engine.by_name
        actions = figures.actions
        st = self.st
        start = 0
        for i, line in enumerate(lines):
            if isinstance(line, (Action, Post, Uncalled)):
                p = by_name.get(line.name)
                if p is not None:
                    if start < i:
                        self.body(lines[start:i])
                    pot, to_call, stack, bet = before_action(st, p)
                    self.body((line,))
                    actions[line.line] = ActionFigure(pot, to_call, stack, bet, p.bet)
                    start = i + 1
        if start < len(lines):
            self.body(lines[start:])

    def section(self, section: Section) -> None:
        marker = section.marker
        self.forced.finish(marker.line)
        if marker.street == SHOWDOWN:
            self.showdown_marker(marker)
        else:
            self.street_marker(marker)
        trace = self.trace
        figures = self.figures
        if figures is not None:
            if marker.street == SHOWDOWN:
                figures.showdown_folded = tuple(p.folded for p in self.engine.players)
            self.figured_body(figures, section.lines)
        elif trace is None:
            self.body(section.lines)
        else:
            lines = section.lines
            snapshot(self.st, trace, marker.line, not (lines and isinstance(lines[0], Deal)))
            self.traced_body(trace, lines)

    def body(self, lines: Sequence[Line]) -> None:
        """The lines between markers: the hot loop of the replay."""
        dealing = self.dealing
        betting = self.betting
        for line in lines:
            if isinstance(line, Deal):
                dealing.deal(line)
                continue
            if isinstance(line, Info):
                continue
            if not isinstance(line, Uncalled):
                if not dealing.deals_checked:
                    dealing.check_deals(line.line)
                if betting.pending_uncalled is not None:
                    betting.missing_uncalled(line.line)
            if isinstance(line, Action):
                betting.action(line)
            elif isinstance(line, Uncalled):
                betting.uncalled(line)
            elif isinstance(line, Collected):
                self.payouts.collect(line)
            elif isinstance(line, Show):
                self.showdown.show(line)
            elif isinstance(line, Muck):
                self.showdown.muck(line)
            elif isinstance(line, Post):
                self.forced.post(line)
            elif isinstance(line, TopUp):
                self.forced.top_up(line)

    # -- markers

    def street_marker(self, marker: Marker) -> None:
        st = self.st
        e = self.engine
        rules = st.rules
        k = rules.street_index.get(marker.street)
        if k is None:  # the parser only lets the game's own markers through
            st.add("STREET_ORDER", marker.line, f"{marker.street} is not a street of this game")
            return
        if e.ended == "folded" or e.ended == "checked":
            st.add(
                "HAND_OVER",
                marker.line,
                f"{marker.street} after the hand ended ({ended_how(e.ended)})",
            )
            return
        if st.in_showdown:
            st.add("STREET_ORDER", marker.line, f"{marker.street} after the showdown")
            return
        self.betting.settle_round(marker.line, f"{marker.street} starts")
        expected = e.street + 1
        if e.ended:  # the round just closed ended the hand
            st.add(
                "HAND_OVER",
                marker.line,
                f"{marker.street} after the hand ended ({ended_how(e.ended)})",
            )
            return
        if k != expected:
            want = rules.streets[expected].name if expected < len(rules.streets) else "SHOWDOWN"
            if k < expected:
                st.add(
                    "STREET_ORDER",
                    marker.line,
                    f"{marker.street} again or out of order: expected {want}",
                )
                return
            st.add(
                "STREET_ORDER",
                marker.line,
                f"{marker.street} skips {', '.join(s.name for s in rules.streets[expected:k])}",
            )
        e.start_street(k)
        self.dealing.start_street(k, marker)

    def showdown_marker(self, marker: Marker) -> None:
        st = self.st
        e = self.engine
        if e.ended == "folded":
            st.add("HAND_OVER", marker.line, "*** SHOWDOWN *** after all but one folded")
            return
        if st.in_showdown:
            st.add("STREET_ORDER", marker.line, "a second *** SHOWDOWN ***")
            return
        self.betting.settle_round(marker.line, "*** SHOWDOWN ***")
        if e.ended == "folded":
            st.add("HAND_OVER", marker.line, "*** SHOWDOWN *** after all but one folded")
            return
        streets = st.rules.streets
        last = len(streets) - 1
        if e.ended != "checked" and e.street < last:
            missing = [s.name for s in streets[e.street + 1 :]]
            st.add(
                "STREET_ORDER",
                marker.line,
                f"*** SHOWDOWN *** skips {', '.join(missing)}",
            )
        st.in_showdown = True
        if e.ended is None:
            e.ended = "showdown"
        self.showdown.early = e.street < last

    # -- the end

    def summary(self) -> Verdict:
        st = self.st
        e = self.engine
        line_no = st.hand.summary.line
        if not st.in_showdown:
            self.betting.settle_round(line_no, "*** SUMMARY ***")
        else:
            self.betting.missing_uncalled(line_no)
        self.dealing.check_deals(line_no)
        decided = True
        if e.ended == "folded":
            winner = next(p for p in e.players if not p.folded)
            self.showdown.values = {winner.index: 0}
        elif st.in_showdown:
            self.showdown.complete()
        else:
            decided = False
            st.add(
                "HAND_INCOMPLETE",
                line_no,
                "the summary comes before the hand is decided: "
                + (
                    "a round was all checked but there is no showdown"
                    if e.ended == "checked"
                    else f"after {e.street_name or 'the forced bets'} the hand needs more "
                    f"streets and a showdown"
                ),
            )
        awards, payouts, rake = self.payouts.settle(decided)
        checks = SummaryCheck(st, self.showdown)
        checks.check_board()
        DeckCheck(st, self.dealing).check()
        checks.check_seat_lines(payouts)
        return self.verdict(awards, payouts, rake)

    def verdict(self, awards: Sequence[Award], payouts: dict[int, int], rake: int) -> Verdict:
        st = self.st
        hand = st.hand
        e = self.engine
        by_seat = sorted(e.players, key=lambda q: q.seat)
        pots = tuple(_pot_result(a, by_seat) for a in awards if a.amount > 0)
        payout_names = {p.name: payouts[p.index] for p in by_seat if p.index in payouts}
        net = {p.name: payouts.get(p.index, 0) - p.put for p in by_seat}
        raked = rake_shares(rake, awards[0]) if awards else {}
        rake_paid = {p.name: raked[p.index] for p in by_seat if p.index in raked}
        ends = {p.name: p.start - p.put + payouts.get(p.index, 0) for p in e.players}
        stacks = tuple(
            SeatStack(s.seat, s.name, s.chips, ends.get(s.name, s.chips), s.line)
            for s in hand.seats
        )
        top_ups = tuple((t.name, t.amount) for t in hand.preamble if isinstance(t, TopUp))
        violations = sorted(st.violations, key=lambda v: v.line)
        h = hand.header
        return Verdict(
            file=st.file,
            line=hand.line,
            hand_id=h.hand_id,
            site=h.site,
            game=hand.game.value,
            violations=tuple(violations),
            pots=pots,
            payouts=payout_names,
            net=net,
            unchecked=tuple(st.unchecked),
            table=hand.table.name,
            table_line=hand.table.line,
            when=f"{h.date} {h.time}",
            zone=h.zone,
            dealer=hand.table.dealer,
            stacks=stacks,
            dealt_in=tuple(p.name for p in by_seat),
            top_ups=top_ups,
            rake_paid=rake_paid,
        )


def _pot_result(a: Award, by_seat: Sequence[Player]) -> PotResult:
    """An award by names: eligible players and winners in seat order, each
    winner's share beside him (the engine gives them in dealing order)."""
    share = dict(zip(a.winners, a.shares, strict=True))
    winners = [p for p in by_seat if p.index in share]
    return PotResult(
        a.amount,
        tuple(p.name for p in by_seat if p.index in a.eligible),
        tuple(p.name for p in winners),
        tuple(share[p.index] for p in winners),
    )
