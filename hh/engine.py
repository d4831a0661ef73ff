"""The rules engine: one state machine for the three games, and the pots.

The same object judges a logged hand and plays a simulated one. Each betting
operation comes as a pair in the manner of pokerkit's ``verify_*``/do: the
validator calls :meth:`Engine.judge` (what is wrong with this action, in the
order FORMAT.md prescribes) and then :meth:`Engine.act` (apply it as
written); the simulator asks :meth:`Engine.options` and then calls the same
:meth:`Engine.act`. Everything game-specific comes from the game's
:class:`~hh.games.base.GameRules` and its hooks.

Chips are ints. Players are held in dealing order (see ``hh.games.base``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from hh.games.base import GameRules, Variant
from hh.model import Stakes
from hh.verdict import Violation

K = TypeVar("K")  # a player: an index in the engine, a name in the reports


class Player:
    """One player dealt in. Mutable: it is the engine's working state."""

    __slots__ = (
        "acted",
        "all_in",
        "bet",
        "down",
        "folded",
        "folded_on",
        "index",
        "level",
        "name",
        "put",
        "seat",
        "stack",
        "start",
        "up",
        "waiting",
    )

    def __init__(self, index: int, seat: int, name: str, chips: int) -> None:
        self.index = index
        self.seat = seat
        self.name = name
        self.start = chips
        self.stack = chips  # chips behind
        self.put = 0  # chips in the pot this hand, net of uncalled bets returned
        self.bet = 0  # chips put in during the current betting round
        self.level = 0  # the bet he last put in or matched this round
        self.acted = False  # acted voluntarily this round
        self.waiting = False  # Chiribito's blind: speaks in round 1 only if raised
        self.folded = False
        self.folded_on: int | None = None  # street index of the fold
        self.all_in = False
        self.down: list[str] = []
        self.up: list[str] = []

    @property
    def can_act(self) -> bool:
        return not self.folded and not self.all_in

    def __repr__(self) -> str:
        return f"Player({self.name!r}, seat {self.seat}, stack {self.stack}, bet {self.bet})"


@dataclass(frozen=True, slots=True)
class Options:
    """What the player to act may do. Bets are amounts; raises are totals
    (the player's whole bet in the round). ``None``: not allowed."""

    check: bool
    call: int | None
    bet: tuple[int, int] | None
    raise_to: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # player indices, dealing order


class ForcedBet:
    """A forced bet due before the first street. (The engine's small
    records are plain classes: compiled, one costs a C struct.)"""

    __slots__ = ("amount", "kind", "player")

    def __init__(self, player: Player, kind: Literal["blind", "ante"], amount: int) -> None:
        self.player: Final = player
        self.kind: Final = kind
        self.amount: Final = amount  # capped by the player's chips


class CardsDue:
    """The cards a player still in the hand gets on a street."""

    __slots__ = ("down", "player", "up")

    def __init__(self, player: Player, down: int, up: int) -> None:
        self.player: Final = player
        self.down: Final = down
        self.up: Final = up


class Returned:
    """The uncalled part of a round's top bet, given back to its player."""

    __slots__ = ("amount", "player")

    def __init__(self, player: Player, amount: int) -> None:
        self.player: Final = player
        self.amount: Final = amount


@dataclass(frozen=True, slots=True)
class Award:
    amount: int  # net of rake
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]  # chips per winner, odd chips already given


def best_of(values: dict[K, int], eligible: Sequence[K]) -> tuple[K, ...]:
    """Who wins a pot: its eligible players with the best hand value among
    those who can win (``values``: each one who showed a valid hand, or is
    the last one in), in the pot's order; none of them can: all of its
    eligible players, as for a tie (RULES.md, General: chips never vanish).
    The referee's rule, also read by the reports' all-in equity."""
    contenders = [i for i in eligible if i in values]
    if not contenders:
        return tuple(eligible)
    best = max(values[i] for i in contenders)
    return tuple(i for i in contenders if values[i] == best)


def shares_of(amount: int, winners: int) -> tuple[int, ...]:
    """A pot of ``amount`` chips split among ``winners``: equal shares, the
    odd chips one each to the first winners in the pot's order."""
    share, odd = divmod(amount, winners)
    return tuple(share + (1 if j < odd else 0) for j in range(winners))


class Engine:
    """The state of one hand. Build it from the seats, then drive it."""

    def __init__(
        self,
        rules: GameRules,
        stakes: Stakes,
        seats: Sequence[tuple[int, str, int]],
        dealer: int,
        house_rules: Iterable[str] = (),
        variant: Variant | None = None,
    ) -> None:
        """``seats`` are (seat, name, chips) of the players dealt in;
        ``dealer`` is the dealer's seat number."""
        self.rules = rules
        self.variant: Variant = variant or rules.variant(tuple(house_rules))
        self.stakes = stakes
        self.dealer = dealer
        ordered = sorted(seats)
        # dealing order: first the next seat from the dealer in the game's
        # direction, the dealer last
        if rules.direction > 0:
            after = [s for s in ordered if s[0] > dealer] + [s for s in ordered if s[0] <= dealer]
        else:
            before = [s for s in ordered if s[0] < dealer][::-1]
            after = before + [s for s in ordered if s[0] >= dealer][::-1]
        self.players = [Player(i, seat, name, chips) for i, (seat, name, chips) in enumerate(after)]
        self.by_name = {p.name: p for p in self.players}
        self.street = -1
        self.unit = self._unit()
        self.board: list[str] = []
        self.current_bet = 0
        self.full_level = 0  # the bet as last set by a full bet or raise
        self.full_bets = 0  # full bets and raises this round (fixed-limit cap)
        self.last_aggressor: int | None = None
        self.to_act: int | None = None
        # the street's betting round: "deal" (not begun), "bet", "closed"
        self.phase = "deal"
        self.round_had_betting = False  # at least two could act when it began
        self.round_bet_made = False
        self.ended: str | None = None  # "folded", "checked", "showdown"
        self.uncalled: list[tuple[int, int]] = []  # (index, amount), in order
        # kept up to date on every fold and all-in: asked after every action
        self.live = self.n  # players not folded
        self.actors = self.n  # players who can act (not folded, not all-in)

    def _recount(self) -> None:
        self.live = sum(1 for p in self.players if not p.folded)
        self.actors = sum(1 for p in self.players if not p.folded and not p.all_in)

    # ---------------------------------------------------------------- basics

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def in_hand(self) -> list[Player]:
        return [p for p in self.players if not p.folded]

    @property
    def street_name(self) -> str | None:
        return self.rules.streets[self.street].name if self.street >= 0 else None

    def bet_unit(self) -> int:
        """The fixed-limit bet of this street (small or big), or the minimum bet."""
        return self.unit

    def _unit(self) -> int:
        s = self.stakes
        if self.rules.structure == "no-limit":
            return s.forced
        if self.rules.structure == "fixed-limit":
            big = self.street >= 0 and self.rules.streets[self.street].big
            return (s.high if big else s.low) or 0
        return s.low or 0

    def next_can_act(self, start: int, include_self: bool = False) -> int | None:
        """The first player from ``start`` in the direction of play who can act."""
        n = self.n
        for k in range(0 if include_self else 1, n + 1):
            p = self.players[(start + k) % n]
            if p.can_act:
                return p.index
        return None

    # ----------------------------------------------------------- forced bets

    def forced_bets(self) -> list[ForcedBet]:
        """What must be posted before the first street."""
        rules = self.rules
        amount = self.stakes.forced
        if not self.players:  # nobody dealt in (SEATS): nothing is due
            return []
        if rules.forced == "blind":
            p = self.players[0]
            return [ForcedBet(p, "blind", min(amount, p.start))]
        return [ForcedBet(p, "ante", min(amount, p.start)) for p in self.players]

    def post(self, p: Player, amount: int) -> None:
        """Apply a forced bet. A blind is a live bet of round 1; an ante is dead."""
        p.stack -= amount
        p.put += amount
        if self.rules.forced == "blind":
            p.bet += amount
        if p.stack <= 0:
            p.all_in = True
            self._recount()

    # ----------------------------------------------------------------- deals

    def start_street(self, k: int) -> None:
        """Move to street ``k`` (its cards come next, then its betting)."""
        self.street = k
        self.unit = self._unit()
        self.phase = "deal"
        self.to_act = None
        self.round_bet_made = False
        self.full_bets = 0
        if k == 0 and self.rules.forced == "blind":
            self.current_bet = self.stakes.forced
            self.full_level = self.current_bet
            if self.rules.blind_waits and self.players:
                self.players[0].waiting = True
        else:
            self.current_bet = 0
            self.full_level = 0
            for p in self.players:
                p.bet = 0
        for p in self.players:
            p.acted = False
            p.level = 0

    def deal(self, p: Player, down: Sequence[str], up: Sequence[str]) -> None:
        p.down.extend(down)
        p.up.extend(up)

    def deal_board(self, cards: Sequence[str]) -> None:
        self.board.extend(cards)

    def deal_plan(self) -> list[CardsDue]:
        """Who gets how many down and up cards on this street, in dealing order."""
        s = self.rules.streets[self.street]
        if not (s.down or s.up):
            return []
        return [CardsDue(p, s.down, s.up) for p in self.players if not p.folded]

    # --------------------------------------------------------------- betting

    def begin_betting(self) -> None:
        """Open the street's betting round once its cards are out."""
        if self.phase != "deal" or self.ended:
            return
        self.phase = "bet"
        self.round_had_betting = self.actors >= 2
        opener = self.rules.opener(self)
        if opener is None:
            self.to_act = None
        else:
            self.to_act = self._first_needing(opener)

    def preview_to_act(self) -> int | None:
        """Who :meth:`begin_betting` would ask first, without opening the
        round: for showing the state between the last deal and the first
        action. Meaningful once the street's cards are out."""
        if self.phase == "bet":
            return self.to_act
        if self.phase != "deal" or self.ended or self.street < 0:
            return None
        opener = self.rules.opener(self)
        return None if opener is None else self._first_needing(opener)

    def _first_needing(self, start: int) -> int | None:
        players = self.players
        n = len(players)
        current = self.current_bet
        many = self.actors >= 2
        for k in range(n):
            p = players[(start + k) % n]
            # owes a call, or has not acted while two or more can
            if p.folded or p.all_in:
                continue
            if p.bet < current or (many and not p.acted and not p.waiting):
                return p.index
        return None

    @property
    def betting(self) -> bool:
        return self.phase == "bet"

    def reopened(self, p: Player) -> bool:
        """May ``p`` raise? Always, before acting in the round.

        No limit: only if the bet facing him is at least double the bet he
        last put in or matched (several short all-ins can add up). Limit and
        spread limit: only if a full bet or raise came after his last action.
        """
        if not p.acted:
            return True
        if self.rules.structure == "no-limit":
            return self.current_bet >= 2 * p.level
        return self.full_level > p.level

    def min_raise_to(self) -> int:
        if self.rules.structure == "no-limit":
            return max(2 * self.current_bet, self.stakes.forced)
        return self.current_bet + self.bet_unit()

    def max_raise_to(self) -> int | None:
        s = self.rules.structure
        if s == "fixed-limit":
            return self.current_bet + self.bet_unit()
        if s == "spread-limit":
            return self.current_bet + (self.stakes.high or 0)
        return None

    def options(self, p: Player | None = None) -> Options | None:
        """The legal actions of ``p``, by default the player to act (None:
        nobody is to act). Asking for another player is how a replay shows
        what the next player may do before the round has formally begun."""
        if p is None:
            if self.to_act is None:
                return None
            p = self.players[self.to_act]
        owe = self.current_bet - p.bet
        chips = p.stack
        if owe <= 0:
            unit = self.bet_unit()
            if self.rules.structure == "no-limit":
                hi = chips
            elif self.rules.structure == "fixed-limit":
                hi = min(unit, chips)
            else:
                hi = min(self.stakes.high or 0, chips)
            bet = (min(unit, chips), hi) if chips > 0 else None
            return Options(True, None, bet, None)
        call = min(owe, chips)
        raise_to = None
        capped = self.rules.max_bets is not None and self.full_bets >= self.rules.max_bets
        if chips > owe and self.reopened(p) and not capped:
            most = p.bet + chips
            lo = min(self.min_raise_to(), most)
            cap_to = self.max_raise_to()
            raise_to = (lo, most if cap_to is None else min(cap_to, most))
        return Options(False, call, None, raise_to)

    def judge(
        self,
        p: Player,
        verb: str,
        amount: int | None,
        total: int | None,
        all_in: bool,
        timed_out: bool,
        line: int,
    ) -> Violation | None:
        """The first fault of an action by ``p`` written on ``line``, in
        FORMAT.md's order from TIMEOUT_ACTION on (the caller has judged
        NOT_IN_HAND and OUT_OF_TURN)."""
        owe = self.current_bet - p.bet
        if timed_out:
            expected = "checks" if owe <= 0 else "folds"
            if verb != expected:
                free = "checking is free" if owe <= 0 else f"{p.name} faces a bet of {owe}"
                return Violation(
                    "TIMEOUT_ACTION",
                    line,
                    f"{p.name} timed out and {verb}, but a timed-out player {expected} "
                    f"({free})",
                )
        if verb == "folds":
            return None
        if verb == "checks":
            if owe > 0:
                return Violation(
                    "ILLEGAL_CHECK",
                    line,
                    f"{p.name} checks facing a bet of {self.current_bet}: "
                    f"expected a call of {min(owe, p.stack)}, a raise or a fold",
                )
            return None
        unit = self.unit
        structure = self.rules.structure
        if verb == "bets":
            if self.current_bet > 0:
                return Violation(
                    "ILLEGAL_BET",
                    line,
                    f"{p.name} bets {amount}, but there is already a bet of "
                    f"{self.current_bet}: expected a call, a raise or a fold",
                )
            added = amount or 0
            shove = added == p.stack
            if structure == "fixed-limit":
                if added != unit and not (shove and added < unit):
                    return Violation(
                        "BET_SIZE",
                        line,
                        f"{p.name} bets {added}, but the bet on {self.street_name} is "
                        f"exactly {unit} (or all-in for less)",
                    )
            elif added < unit and not shove:
                return Violation(
                    "BET_SIZE",
                    line,
                    f"{p.name} bets {added}, but a bet must be at least {unit} "
                    f"(or all-in for less)",
                )
            elif structure == "spread-limit" and added > (self.stakes.high or 0):
                return Violation(
                    "BET_SIZE",
                    line,
                    f"{p.name} bets {added}, but the most a bet can be is {self.stakes.high}",
                )
            return self.judge_chips(p, added, all_in, line)
        if verb == "calls":
            added = amount or 0
            if owe <= 0:
                return Violation(
                    "CALL_AMOUNT",
                    line,
                    f"{p.name} calls {added} with nothing to call: expected a check",
                )
            expected_call = min(owe, p.stack)
            if added != expected_call:
                return Violation(
                    "CALL_AMOUNT",
                    line,
                    f"{p.name} calls {added}, but the call is {expected_call} "
                    f"(the bet is {self.current_bet}, {p.name} has {p.bet} in)",
                )
            return self.judge_chips(p, added, all_in, line)
        # raises
        to = total or 0
        if self.current_bet <= 0:
            return Violation(
                "ILLEGAL_BET",
                line,
                f"{p.name} raises with no bet to raise: expected a check or a bet",
            )
        if not self.reopened(p):
            return Violation(
                "NOT_REOPENED",
                line,
                f"{p.name} raises to {to}, but the betting was not reopened for {p.name}: "
                f"since {p.name}'s last action at {p.level} only short all-ins came "
                f"(the bet is {self.current_bet}); expected a call or a fold",
            )
        cap = self.rules.max_bets
        if cap is not None and self.full_bets >= cap:
            return Violation(
                "RAISE_CAP",
                line,
                f"{p.name} raises, but betting is capped at {cap} bets this round: "
                f"expected a call or a fold",
            )
        if amount is not None and amount != to - self.current_bet:
            return Violation(
                "AMOUNT_MISMATCH",
                line,
                f"{p.name} raises {amount} to {to}, but from a bet of {self.current_bet} "
                f"to {to} is a raise of {to - self.current_bet}",
            )
        added = to - p.bet
        shove = added == p.stack
        if to <= self.current_bet:
            return Violation(
                "RAISE_SIZE",
                line,
                f"{p.name} raises to {to}, which is not above the current bet of "
                f"{self.current_bet}",
            )
        lo = self.min_raise_to()
        hi = self.max_raise_to()
        if to < lo and not shove:
            if structure == "no-limit":
                why = f"at least {lo} (double the current {self.current_bet})"
                if lo != 2 * self.current_bet:
                    why = f"at least {lo} (the minimum bet)"
            elif structure == "fixed-limit":
                why = f"exactly {lo} ({self.current_bet} plus the fixed {unit})"
            else:
                why = f"at least {lo} (the current {self.current_bet} plus the minimum {unit})"
            return Violation(
                "RAISE_SIZE",
                line,
                f"{p.name} raises to {to}, but a raise must make the bet {why}, "
                f"or be all-in for less",
            )
        if hi is not None and to > hi:
            return Violation(
                "RAISE_SIZE",
                line,
                f"{p.name} raises to {to}, but a raise may make the bet at most {hi}",
            )
        return self.judge_chips(p, added, all_in, line)

    def judge_chips(self, p: Player, added: int, all_in: bool, line: int) -> Violation | None:
        """STACK_EXCEEDED and ALL_IN_FLAG for ``added`` chips put in by ``p``
        on ``line``."""
        if added > p.stack:
            return Violation(
                "STACK_EXCEEDED",
                line,
                f"{p.name} puts in {added} but has only {p.stack} left",
            )
        left = p.stack - added
        if all_in and left > 0:
            return Violation(
                "ALL_IN_FLAG", line, f"{p.name} is marked all-in but keeps {left} chips"
            )
        if not all_in and left == 0:
            return Violation(
                "ALL_IN_FLAG",
                line,
                f"{p.name} puts in the last {added} chips without 'and is all-in'",
            )
        return None

    def act(self, p: Player, verb: str, added: int = 0) -> None:
        """Apply an action as written: ``added`` chips go in now (a raise's
        ``total`` minus what the player already had in). Play then passes on
        from ``p``."""
        if verb == "folds":
            p.folded = True
            p.folded_on = self.street
            self._recount()
        elif verb != "checks":
            p.stack -= added
            p.put += added
            p.bet += added
            if p.stack <= 0 and not p.all_in:
                p.all_in = True
                self._recount()
            if p.bet > self.current_bet:
                self._raise_level(p)
        p.acted = True
        p.waiting = False
        p.level = p.bet
        # play passes on from p
        if self.live <= 1:
            self.to_act = None
            self.ended = "folded"
        elif self.phase == "bet":
            self.to_act = self._first_needing((p.index + 1) % len(self.players))

    def _raise_level(self, p: Player) -> None:
        """``p`` made the bet bigger: a bet or a raise, full or short."""
        structure = self.rules.structure
        old = self.current_bet
        new = p.bet
        if structure == "no-limit":
            full = new >= max(2 * old, self.stakes.forced) if old else new >= self.stakes.forced
        else:
            full = new - old >= self.unit
        if full:
            self.full_level = new
            self.full_bets += 1
        self.current_bet = new
        self.round_bet_made = True
        self.last_aggressor = p.index

    def close_round(self, natural: bool = True) -> Returned | None:
        """End the betting round: return the uncalled part of the top bet,
        which is the chips beyond the second-highest total of the round.

        ``natural`` False: the log cut the round short; it then cannot end a
        Calatone hand as all checked."""
        self.phase = "closed"
        self.to_act = None
        bets = sorted((p.bet for p in self.players), reverse=True)
        back: Returned | None = None
        if len(bets) >= 2 and bets[0] > bets[1]:
            top = max(self.players, key=lambda q: q.bet)
            amount = bets[0] - bets[1]
            top.stack += amount
            top.put -= amount
            top.bet -= amount
            if top.stack > 0 and top.all_in:
                top.all_in = False
                self._recount()
            self.uncalled.append((top.index, amount))
            back = Returned(top, amount)
        for p in self.players:
            p.waiting = False
        if (
            natural
            and self.ended is None
            and self.rules.all_checked_ends
            and self.round_had_betting
            and not self.round_bet_made
            and self.street < len(self.rules.streets) - 1
        ):
            self.ended = "checked"
        return back

    # ------------------------------------------------------------------ pots

    def pots(self) -> list[Pot]:
        """Main and side pots from what each player put in (RULES.md, Pots):
        one pot per all-in level of the players not folded, merged when their
        eligible players are the same; pots of 0 are left out."""
        live = [p for p in self.players if not p.folded]
        if not live:
            return []
        top = max(p.put for p in live)
        levels = sorted({p.put for p in live if p.all_in and p.put < top} | {top})
        out: list[Pot] = []
        prev = 0
        for i, level in enumerate(levels):
            last = i == len(levels) - 1
            amount = 0
            for p in self.players:
                upper = p.put if last else min(p.put, level)
                if upper > prev:
                    amount += upper - prev
            eligible = tuple(p.index for p in live if p.put >= level)
            if out and out[-1].eligible == eligible:
                out[-1] = Pot(out[-1].amount + amount, eligible)
            elif amount > 0:
                out.append(Pot(amount, eligible))
            prev = level
        return out

    @property
    def total_pot(self) -> int:
        return sum(p.put for p in self.players)

    def award(
        self, values: dict[int, int], rake: int = 0, pots: list[Pot] | None = None
    ) -> list[Award]:
        """Split each pot among its best eligible hands. ``values`` holds the
        hand value of each player who can win (showed a valid hand, or is the
        last one in); odd chips go one by one in dealing order.

        Chips never vanish (RULES.md, General): a pot that none of its
        eligible players can win (a single eligible player who mucked, or a
        contested pot whose players all mucked) is split among its eligible
        players as for a tie, so a lone eligible player takes it whole."""
        out = []
        for k, pot in enumerate(self.pots() if pots is None else pots):
            amount = pot.amount - (rake if k == 0 else 0)
            winners = best_of(values, pot.eligible)
            out.append(Award(amount, pot.eligible, winners, shares_of(amount, len(winners))))
        return out
