"""The betting: actions judged by the engine, uncalled bets, and rounds that
must be closed before the hand moves on."""

from __future__ import annotations

from hh.engine import Player, Returned
from hh.model import Action, Uncalled
from hh.replay.dealing import Dealing
from hh.replay.repair import repair_action
from hh.replay.state import ReplayState
from hh.replay.words import action_words, ended_how


class Betting:
    def __init__(self, st: ReplayState, dealing: Dealing) -> None:
        self.st = st
        self.engine = st.engine
        self.dealing = dealing
        # the uncalled bet the rules return at the end of the last round,
        # until its line comes (or does not)
        self.pending_uncalled: Returned | None = None

    def action(self, line: Action) -> None:
        """One action line: the hot path of the replay."""
        e = self.engine
        p = e.by_name.get(line.name)
        if (
            p is None
            or p.folded
            or p.all_in
            or e.ended is not None
            or e.street < 0
            or self.st.in_showdown
        ):
            self.misplaced_action(line, p)
            return
        if e.phase == "deal":
            e.begin_betting()
        to_act = e.to_act
        if to_act is None:
            self.st.add(
                "OUT_OF_TURN",
                line.line,
                f"{p.name} {action_words(line)}, but no one is to act: the betting on "
                f"{e.street_name} is over",
            )
            return
        verb = line.verb
        if p.index != to_act:
            self.st.add(
                "OUT_OF_TURN",
                line.line,
                f"{p.name} {action_words(line)}, but it is {e.players[to_act].name}'s turn",
            )
        else:
            fault = e.judge(
                p, verb, line.amount, line.total, line.all_in, line.timed_out, line.line
            )
            if fault is not None:
                self.st.add(fault.code, fault.line, fault.message)
                fixed = repair_action(e, p, line, fault.code)
                if fixed is not None:
                    self.st.repairs[line.line] = (fault.code, fixed)
        if verb == "bets" or verb == "calls":
            added = line.amount or 0
        elif verb == "raises":
            added = (line.total or 0) - p.bet
        else:
            added = 0
        e.act(p, verb, added)
        if e.to_act is None:
            self.pending_uncalled = e.close_round()

    def misplaced_action(self, line: Action, p: Player | None) -> None:
        """An action by someone who cannot act, or where no betting can be."""
        st = self.st
        e = self.engine
        words = action_words(line)
        if e.ended == "folded" or e.ended == "checked":
            st.add("HAND_OVER", line.line, f"{line.name} {words} after the hand ended "
                   f"({ended_how(e.ended)})")
        elif p is None:
            st.player(line.name, line.line, words)
        elif p.folded:
            st.add("NOT_IN_HAND", line.line, f"{p.name} has folded and {words}")
        elif p.all_in:
            st.add("NOT_IN_HAND", line.line, f"{p.name} is all-in and {words}")
        else:
            st.add("OUT_OF_TURN", line.line, f"{p.name} {words} outside a betting round")

    def missing_uncalled(self, line_no: int) -> None:
        pending = self.pending_uncalled
        if pending is None:
            return
        p, amount = pending.player, pending.amount
        self.pending_uncalled = None
        self.st.add(
            "UNCALLED_BET",
            line_no,
            f"missing 'Uncalled bet ({amount}) returned to {p.name}' before this line",
        )

    def uncalled(self, line: Uncalled) -> None:
        want = self.pending_uncalled
        self.pending_uncalled = None
        if want is None:
            self.st.add(
                "UNCALLED_BET",
                line.line,
                f"no bet is uncalled here, but {line.amount} is returned to {line.name}",
            )
            return
        p, amount = want.player, want.amount
        if p.name != line.name or amount != line.amount:
            self.st.add(
                "UNCALLED_BET",
                line.line,
                f"{line.amount} returned to {line.name}, expected {amount} returned to {p.name}",
            )

    def settle_round(self, line_no: int, what: str) -> None:
        """Before a marker, the showdown or the summary: the round must be over."""
        e = self.engine
        self.dealing.check_deals(line_no)
        self.missing_uncalled(line_no)
        if e.street < 0 or e.ended == "folded":
            return
        e.begin_betting()
        if e.to_act is not None:
            p = e.players[e.to_act]
            owe = e.current_bet - p.bet
            why = f"faces a bet of {owe}" if owe > 0 else "has not acted"
            self.st.add(
                "ROUND_NOT_CLOSED",
                line_no,
                f"{what} while {p.name} still {why} on {e.street_name}",
            )
            # the round is cut short: no uncalled bet or all-checked ending follows
            e.close_round(natural=False)
        elif e.betting:
            e.close_round()
