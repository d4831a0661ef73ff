"""Which notable situations a hand contains, read from the record alone.

A test oracle (tests/test_simulate.py). The simulator must cover the
situations the referee has to judge (folds in every round, capped raising,
short all-ins, several side pots, odd chips, La Perla, five aces...). This
module names them from the written record, with arithmetic of its own, so
that a coverage test does not take the engine's word for what happened.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import combinations

from hh.games import RULES
from hh.model import SHOWDOWN, Action, Collected, Game, Hand, Show, Uncalled


def _street_unit(hand: Hand, street: str) -> int:
    """The fixed-limit bet of a street, or the minimum bet/raise increment."""
    rules = RULES[hand.game]
    stakes = hand.header.stakes
    if hand.game is Game.CHIRIBITO:
        return stakes.forced
    if hand.game is Game.ACES:
        big = rules.streets[rules.street_index[street]].big
        return (stakes.high if big else stakes.low) or 0
    return stakes.low or 0


def situations(hand: Hand) -> set[str]:
    game = hand.game
    rules = RULES[game]
    out: set[str] = set()
    for section in hand.sections:
        street = section.marker.street
        if street == SHOWDOWN:
            continue
        aggressive = 0
        for line in section.lines:
            if isinstance(line, Uncalled):
                out.add("uncalled bet")
            if not isinstance(line, Action):
                continue
            if line.timed_out:
                out.add("timed-out action")
            if line.verb == "folds":
                out.add(f"fold on {street}")
            if line.verb in ("bets", "raises"):
                aggressive += 1
            if line.verb == "raises" and line.amount is not None and line.total is not None:
                current = line.total - line.amount
                unit = _street_unit(hand, street)
                if game is Game.CHIRIBITO:
                    short = line.total < max(2 * current, unit)
                else:
                    short = line.amount < unit
                if short and line.all_in:
                    out.add("short all-in raise")
            if line.verb == "bets" and line.all_in and (line.amount or 0) < _street_unit(
                hand, street
            ):
                out.add("short all-in bet")
        if aggressive >= 2:
            out.add("re-raise")
        if rules.max_bets is not None and aggressive >= rules.max_bets:
            out.add("raises up to the cap")
    total = hand.summary.total
    if len(total.side) >= 2:
        out.add("side pots with several levels")
    elif total.side:
        out.add("a side pot")
    by_pot: dict[int | None, list[int]] = defaultdict(list)
    for section in hand.sections:
        for line in section.lines:
            if isinstance(line, Collected):
                by_pot[line.pot].append(line.amount)
    for amounts in by_pot.values():
        if len(amounts) >= 2:
            out.add("split pot")
            if len(set(amounts)) > 1:
                out.add("split pot with odd chips")
    showdown = [s for s in hand.sections if s.marker.street == SHOWDOWN]
    shows = [x for s in showdown for x in s.lines if isinstance(x, Show)]
    if game is Game.CHIRIBITO:
        for show in shows:
            if any(c[0] == "S" and "7" + c[1] in show.cards for c in show.cards):
                out.add("La Perla at the showdown")
    if game is Game.ACES:
        for show in shows:
            words = show.description or ""
            if words.startswith("five aces"):
                out.add("five aces")
            if words.startswith(("a flush", "a straight flush")):
                suits = [c[1] for c in show.cards]
                if max(suits.count(s) for s in set(suits)) < 5:
                    out.add("joker flush")
    if game is Game.CALATONE and showdown:
        streets = [s.marker.street for s in hand.sections if s.marker.street != SHOWDOWN]
        if streets and streets[-1] != rules.streets[-1].name:
            out.add("hand ended by an all-checked round")
        if any(show.declared for show in shows):
            out.add("declarations")
    return out


def under_declared(hand: Hand, rank: Callable[[Sequence[str]], int]) -> bool:
    """Did a Calatone player declare less than his best five? ``rank`` values
    five cards (an evaluator's ``value``); the best five is found here by
    trying all 21, not by the evaluator's own search."""
    for section in hand.sections:
        for line in section.lines:
            if isinstance(line, Show) and line.declared is not None and len(line.cards) == 7:
                best = max(rank(five) for five in combinations(line.cards, 5))
                if rank(line.declared) < best:
                    return True
    return False
