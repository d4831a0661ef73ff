"""All-in adjusted net: what a player was expected to win when the betting
stopped with every remaining player all-in (or all but one) and cards still
to come, instead of what the cards that came gave him.

For each such hand the contenders' cards known at that moment, the cards
still to come and the pots are taken from what the import stored (the
seats' cards with the round each was dealt in, the board's, and the
``pots`` table); each completion of the unseen cards
is judged by the game's own evaluator (``hh.evaluate.evaluator_for(game,
house_rules)``) and every pot is shared among its best eligible contenders
as the referee would split it (ties share equally; the odd chip is
averaged out). Chiribito's 28-card deck makes exact enumeration cheap; the
stud games enumerate exactly when the completions are few
(``EXACT_LIMIT``), else a seeded Monte Carlo (seed: the hand's key) of
``SAMPLES`` deals gives the estimate and its standard error (at most
``SE_BOUND`` of the pots). The exact enumerations count instead of dealing
card by card (:func:`exact`); :func:`exact_general` is the plain
enumeration they are tested against. Known cards of others (folded
players' up cards) are dead; hidden cards of folded players are unseen.

``adjusted net = net - won + expected won``; over all contenders the
expected shares add up to the pots, so per game the adjusted net still sums
to minus the rake.

A hand's expected chips depend only on the hand, so they are kept per hand
in the reports' cache (reports.cache: keyed by the hand's text and referee
version) and computed only for hands not cached yet (:func:`fill_equity`),
in worker processes when there are many. The Monte Carlo seed is the
hand's key, the same in a database and in a lake.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from pipelines.tables import columns_of
from reports.players.stats.base import ACES, CALATONE, CHIRIBITO, LAST_ROUND

if TYPE_CHECKING:
    import duckdb

    from hh.evaluate import Evaluator
    from reports.cache import Cache

EXACT_LIMIT = 60_000  # completions enumerated exactly; beyond, Monte Carlo
# Monte Carlo: a contender's share of the pots lies between 0 and the pots, so its standard
# deviation is at most half the pots, and the standard error of a mean over SAMPLES deals
# at most pots / (2 sqrt(SAMPLES)): SE_BOUND of the pots (docs/statistics.md)
SE_BOUND = 0.02
SAMPLES = math.ceil(0.25 / SE_BOUND**2)  # 625 deals per hand


@dataclass
class Spot:
    """A hand at the moment its betting stopped.

    ``own``: each contender's cards known then; ``to_come``: how many more
    cards he receives; ``board``/``board_to_come``: Chiribito's common
    cards; ``dead``: other cards seen then; ``pots``: (amount, eligible
    contenders)."""

    game: str
    house_rules: tuple[str, ...]
    own: dict[str, list[str]]
    to_come: dict[str, int]
    pots: list[tuple[int, list[str]]]
    board: list[str] = field(default_factory=list)
    board_to_come: int = 0
    dead: list[str] = field(default_factory=list)

    def deck(self) -> tuple[str, ...]:
        """The cards in play: the game's deck under its house rules, as the
        referee reads them (Calatone's ``Deck from R``)."""
        from hh.cards import JOKER
        from hh.games import RULES
        from hh.model import Game

        deck = RULES[Game(self.game)].variant(self.house_rules).deck.cards
        # (Aces' joker is the common card from the start: no one is dealt it)
        return tuple(c for c in deck if c != JOKER)

    def unseen(self) -> list[str]:
        seen = {c for cards in self.own.values() for c in cards} | set(self.board) | set(self.dead)
        return [c for c in self.deck() if c not in seen]

    def completions(self) -> int:
        """How many distinct ways the remaining cards can fall."""
        n, total = len(self.unseen()), 1
        for k in (self.board_to_come, *self.to_come.values()):
            total *= math.comb(n, k)
            n -= k
        return total


# a contender's hand value: (player, his cards, the board) -> the evaluator's value
ValueOf = Callable[[str, Sequence[str], Sequence[str]], int]


def _payoff(spot: Spot, value: ValueOf, extra: Mapping[str, Sequence[str]],
            board: Sequence[str]) -> dict[str, float]:  # fmt: skip
    """Chips each contender takes from the pots for one completion."""
    from hh.engine import best_of

    values = {p: value(p, [*spot.own[p], *extra.get(p, ())], board) for p in spot.own}
    out = dict.fromkeys(spot.own, 0.0)
    for amount, eligible in spot.pots:
        if not eligible:
            continue
        winners = best_of(values, eligible)  # as the referee splits it
        for p in winners:
            out[p] += amount / len(winners)  # the odd chip averaged out
    return out


def _value_function(spot: Spot) -> ValueOf:
    from hh.evaluate import evaluator_for

    ev = evaluator_for(spot.game, spot.house_rules)
    if spot.game == CHIRIBITO:
        return lambda _p, own, board: ev.value(own, board)
    return lambda _p, own, _board: ev.value(own)


def _deals(spot: Spot, unseen: list[str]
           ) -> Iterator[tuple[dict[str, tuple[str, ...]], tuple[str, ...]]]:  # fmt: skip
    """Every completion: the board's new cards, then each contender's."""
    players = [p for p in spot.own if spot.to_come.get(p, 0)]

    def rec(i: int, rest: list[str], got: dict[str, tuple[str, ...]]
            ) -> Iterator[dict[str, tuple[str, ...]]]:  # fmt: skip
        if i == len(players):
            yield dict(got)
            return
        p = players[i]
        for combo in combinations(rest, spot.to_come[p]):
            taken = set(combo)
            got[p] = combo
            yield from rec(i + 1, [c for c in rest if c not in taken], got)
        got.pop(p, None)

    for board in combinations(unseen, spot.board_to_come):
        taken = set(board)
        for got in rec(0, [c for c in unseen if c not in taken], {}):
            yield got, board


def exact(spot: Spot) -> dict[str, float]:
    """Expected chips from the pots, enumerating every completion."""
    if spot.game == CHIRIBITO and not any(spot.to_come.values()):
        return _exact_chiribito(spot)
    return _exact_stud(spot)


def exact_general(spot: Spot) -> dict[str, float]:
    """Every completion dealt player by player, for any game, each valued
    by the evaluator: the plain reference the faster enumerations
    (:func:`exact`) are tested against."""
    value = _value_function(spot)
    total = dict.fromkeys(spot.own, 0.0)
    n = 0
    for got, new in _deals(spot, spot.unseen()):
        for p, chips in _payoff(spot, value, got, [*spot.board, *new]).items():
            total[p] += chips
        n += 1
    return {p: t / n for p, t in total.items()}


def _contested(spot: Spot) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """The pots by contender index: what each contender takes whatever the
    cards (pots only he is eligible for), and the pots still contested."""
    index = {p: i for i, p in enumerate(spot.own)}
    fixed = [0] * len(index)
    contested = []
    for amount, eligible in spot.pots:
        if len(eligible) == 1:
            fixed[index[eligible[0]]] += amount
        elif eligible:
            contested.append((amount, [index[p] for p in eligible]))
    return fixed, contested


class _Shares:
    """Chips from the pots summed over weighted completions, by counting:
    for each pot and eligible contender, the weight of the completions he
    wins sharing with w - 1 others (integers, so sums are exact); the
    expected chips are then ``amount * weight / (w * completions)``."""

    def __init__(self, spot: Spot) -> None:
        self.players = list(spot.own)
        self.fixed, self.pots = _contested(spot)
        self.won: dict[tuple[int, int, int], int] = {}
        # the common case, one pot between two: weights won by each, and tied
        self.pair = self.pots[0][1] if len(self.pots) == 1 and len(self.pots[0][1]) == 2 else None
        self.duel = [0, 0, 0]

    def add_all(self, counts: Mapping[tuple[int, ...], int]) -> None:
        """Add each contender's values of ``counts`` with their weight (how
        many completions give them), in order: for each pot, to its best
        eligible contenders, or to the duel's wins and ties."""
        if self.pair is None:
            won = self.won
            pots = [(k, eligible) for k, (_amount, eligible) in enumerate(self.pots)]
            for values, weight in counts.items():
                for k, eligible in pots:
                    best = max([values[i] for i in eligible])
                    winners = [i for i in eligible if values[i] == best]
                    w = len(winners)
                    for i in winners:
                        won[k, i, w] = won.get((k, i, w), 0) + weight
            return
        i, j = self.pair
        duel = self.duel
        for values, weight in counts.items():
            a, b = values[i], values[j]
            if a > b:
                duel[0] += weight
            elif b > a:
                duel[1] += weight
            else:
                duel[2] += weight

    def expected(self, completions: int) -> dict[str, float]:
        if completions <= 0:  # fewer unseen cards than cards to come: an invalid hand
            raise ValueError("no completion of the cards to come")
        if self.pair is not None:
            i, j = self.pair
            self.won = {(0, i, 1): self.duel[0], (0, j, 1): self.duel[1],
                        (0, i, 2): self.duel[2], (0, j, 2): self.duel[2]}  # fmt: skip
            self.pair = None
        totals = [float(x) for x in self.fixed]
        for (k, i, w), weight in self.won.items():
            totals[i] += self.pots[k][0] * weight / (w * completions)
        return dict(zip(self.players, totals, strict=True))


def _exact_chiribito(spot: Spot) -> dict[str, float]:
    """:func:`exact` for Chiribito, where only common cards are to come
    (every all-in spot): the contenders' values over every completion of
    the board, counted by the evaluator (``hh.evaluate.chiribito_showdowns``:
    by rank multisets, flushes apart, not board by board), and the pots
    shared by counting. tests/test_report_equity.py checks it against the
    general, card-by-card enumeration and an independent brute force."""
    from hh.evaluate import chiribito_showdowns

    players = list(spot.own)
    seen = [c for p in players for c in spot.own[p]] + list(spot.board) + list(spot.dead)
    if len(set(seen)) != len(seen) or any(len(spot.own[p]) != 2 for p in players) or len(
            spot.board) + spot.board_to_come != 5:  # fmt: skip
        raise ValueError(f"not a Chiribito spot: {spot}")
    unseen = spot.unseen()
    shares = _Shares(spot)
    holes = [spot.own[p] for p in players]
    shares.add_all(chiribito_showdowns(holes, spot.board, unseen, spot.house_rules))
    return shares.expected(math.comb(len(unseen), spot.board_to_come))


def _exact_stud(spot: Spot) -> dict[str, float]:
    """:func:`exact` for any spot (the stud games'): every completion, with
    each contender's hand valued once per set of cards he can receive (his
    value depends on his own cards and the board only), and the pots shared
    by counting."""
    from hh.evaluate import evaluator_for

    ev = evaluator_for(spot.game, spot.house_rules)
    players = list(spot.own)
    shares = _Shares(spot)
    unseen = spot.unseen()
    n = 0
    counts: dict[tuple[int, ...], int] = {}
    for board_new in combinations(unseen, spot.board_to_come):
        taken = set(board_new)
        rest = [c for c in unseen if c not in taken]
        n += _deal_players(spot, ev, players, [*spot.board, *board_new], rest, counts)
    shares.add_all(counts)
    return shares.expected(n)


def _deal_players(spot: Spot, ev: Evaluator, players: list[str], board: list[str],
                  unseen: list[str], counts: dict[tuple[int, ...], int]) -> int:  # fmt: skip
    """Every way the contenders' cards to come can fall from ``unseen`` on
    one board, counted in ``counts`` by the contenders' values (in the order
    first met); returns how many."""
    chiribito = spot.game == CHIRIBITO

    def worth(i: int, new: tuple[str, ...]) -> int:
        own = [*spot.own[players[i]], *new]
        return ev.value(own, board) if chiribito else ev.value(own)

    drawing = [i for i, p in enumerate(players) if spot.to_come.get(p, 0)]
    values = [0 if i in drawing else worth(i, ()) for i in range(len(players))]
    memo: list[dict[tuple[str, ...], int]] = [{} for _ in players]

    def rec(j: int, rest: list[str]) -> int:
        if j == len(drawing):
            key = tuple(values)
            counts[key] = counts.get(key, 0) + 1
            return 1
        i = drawing[j]
        seen = memo[i]
        count = 0
        last: dict[int, int] = {}  # the last to draw: how many of his draws give each value
        combos = list(combinations(rest, spot.to_come[players[i]]))
        new = [combo for combo in combos if combo not in seen]
        if new:  # valued in one call of the evaluator
            own = spot.own[players[i]]
            got = ev.values(own, new, board) if chiribito else ev.values(own, new)
            seen.update(zip(new, got, strict=True))
        for combo in combos:
            v = seen[combo]
            if j + 1 == len(drawing):
                last[v] = last.get(v, 0) + 1
                continue
            values[i] = v
            out = set(combo)
            count += rec(j + 1, [c for c in rest if c not in out])
        for v, ways in last.items():
            values[i] = v
            key = tuple(values)
            counts[key] = counts.get(key, 0) + ways
            count += ways
        return count

    return rec(0, unseen)


def monte_carlo(spot: Spot, samples: int, seed: int) -> tuple[dict[str, float], dict[str, float]]:
    """Expected chips and their standard errors from ``samples`` seeded
    deals (a fixed number: a rule that stopped on the standard errors seen
    so far would bias the means towards the deals where it stopped).

    The deals are drawn first, with ``random()`` rather than
    ``Random.sample`` (the same uniform draws, with less work per card);
    then each contender's hands over all deals are valued in one call of
    the evaluator's ``values`` (his known cards looked up once), and the
    pots shared deal by deal, on lists by index."""
    from hh.evaluate import evaluator_for

    ev = evaluator_for(spot.game, spot.house_rules)
    value, values_of = ev.value, ev.values
    chiribito = spot.game == CHIRIBITO
    rng = random.Random(seed)
    unseen = spot.unseen()
    names = list(spot.own)
    # each contender's own cards, and where his new cards are in a deal's deck
    board_to_come = at = spot.board_to_come
    parts = []
    for p in names:
        k = spot.to_come.get(p, 0)
        parts.append((list(spot.own[p]), at, at + k))
        at += k
    fixed, pots = _contested(spot)  # a pot only one contender can win: no variance
    heads_up = len(pots) == 1 and len(pots[0][1]) == 2
    s1 = [0.0] * len(names)
    s2 = [0.0] * len(names)
    base = list(spot.board)
    if at > len(unseen):
        raise ValueError(f"{at} cards to come, {len(unseen)} unseen")
    deck, uniform = list(unseen), rng.random
    spans = [(x, float(len(unseen) - x)) for x in range(at)]  # (float: the same products)

    dealt = []
    for _ in range(samples):
        # a partial Fisher-Yates shuffle: the first ``at`` cards of the deck are
        # a uniform draw whatever order the last deal left it in
        for x, span in spans:
            y = x + int(uniform() * span)
            deck[x], deck[y] = deck[y], deck[x]
        dealt.append(deck[:at])
    if chiribito:
        by_player = [[value(own + d[lo:hi], base + d[:board_to_come]) for d in dealt]
                     for own, lo, hi in parts]  # fmt: skip
    else:
        by_player = [values_of(own, [d[lo:hi] for d in dealt]) for own, lo, hi in parts]
    if heads_up:  # the common case: one pot, two contenders
        amount, (i, j) = pots[0]
        square, half = amount * amount, amount / 2
        half_square = half * half
        i1, i2, j1, j2 = s1[i], s2[i], s1[j], s2[j]
        for a, b in zip(by_player[i], by_player[j], strict=True):
            if a > b:
                i1 += amount
                i2 += square
            elif b > a:
                j1 += amount
                j2 += square
            else:
                i1 += half
                i2 += half_square
                j1 += half
                j2 += half_square
        s1[i], s2[i], s1[j], s2[j] = i1, i2, j1, j2
    else:
        for values in zip(*by_player, strict=True):
            chips = [0.0] * len(names)
            for amount, eligible in pots:
                best = max([values[i] for i in eligible])
                winners = [i for i in eligible if values[i] == best]
                for i in winners:
                    chips[i] += amount / len(winners)
            for i, c in enumerate(chips):
                s1[i] += c
                s2[i] += c * c
    means = [x / samples for x in s1]
    se = {p: math.sqrt(max(0.0, s2[i] / samples - means[i] ** 2) / (samples - 1))
          for i, p in enumerate(names)}  # fmt: skip
    return {p: means[i] + fixed[i] for i, p in enumerate(names)}, se


def expected(spot: Spot, seed: int, limit: int = EXACT_LIMIT, samples: int = SAMPLES
             ) -> tuple[dict[str, float], dict[str, float], str]:  # fmt: skip
    """Exact when the completions are at most ``limit``, else a Monte Carlo
    of ``samples`` deals.
    Returns (expected chips, standard errors, "exact" or "monte-carlo")."""
    if spot.completions() <= limit:
        return exact(spot), dict.fromkeys(spot.own, 0.0), "exact"
    mean, se = monte_carlo(spot, samples, seed)
    return mean, se, "monte-carlo"


def spot_of(game: str, house_rules: Sequence[str], contenders: Sequence[str], stop_round: int,
            pots: Sequence[tuple[int, Sequence[str]]], seats: Sequence[Mapping[str, Any]],
            board: Sequence[str], board_rounds: Sequence[int | None]) -> Spot | None:  # fmt: skip
    """The spot of a stored hand whose betting stopped in ``stop_round``,
    from what the import stores: each seat's cards with the round each was
    dealt in (``seats``: player, down_cards, down_rounds, up_cards,
    up_rounds) and the common cards with theirs. None when a contender's
    cards are unknown (``??``) or the rounds were not stored (a hand
    imported before they were)."""
    who = set(contenders)
    own: dict[str, list[str]] = {p: [] for p in contenders}
    to_come = dict.fromkeys(contenders, 0)
    dead: list[str] = []
    for seat in seats:
        name = seat["player"]
        for cards_key, rounds_key in (("down_cards", "down_rounds"), ("up_cards", "up_rounds")):
            cards, rounds = seat[cards_key] or [], seat[rounds_key]
            if rounds is None or len(rounds) != len(cards):
                if cards and name in who:
                    return None
                continue
            for card, rnd in zip(cards, rounds, strict=True):
                now = rnd is not None and rnd <= stop_round
                if name in who:
                    if now:
                        own[name].append(card)
                    else:
                        to_come[name] += 1
                elif now and cards_key == "up_cards":
                    dead.append(card)
    if any("??" in cards for cards in own.values()):
        return None
    known = [c for c, r in zip(board, board_rounds, strict=True)
             if r is not None and r <= stop_round]  # fmt: skip
    later = len(board) - len(known)
    pots_ = [(amount, [p for p in eligible if p in who]) for amount, eligible in pots]
    return Spot(game, tuple(house_rules), own, to_come, pots_, known, later, dead)


EQUITY_COLUMNS = (("hk", "UBIGINT"), ("player", "VARCHAR"), ("expected_won", "DOUBLE"),
                  ("se", "DOUBLE"))  # fmt: skip
# bump when the computation changes
VERSION = f"3:{EXACT_LIMIT}:{SAMPLES}"
PARALLEL_FROM = 400  # candidate hands from which worker processes share the work (each
# one starts by importing and building the evaluator tables)
_BATCH = 16  # hands per worker task

# The stored columns :func:`candidates_of` reads of each table (checked
# against pipelines.tables); every table also carries ``_ord``, the hand's
# number in the batch.
HAND_COLUMNS = columns_of("hands", "_ord", "site", "hand_id", "content_hash", "game",
                          "house_rules", "showdown", "board", "board_rounds", batch=True)
SEAT_COLUMNS = columns_of("seats", "_ord", "seat", "player", "sitting_out", "went_to_showdown",
                          "all_in_round", "down_cards", "down_rounds", "up_cards", "up_rounds",
                          batch=True)  # fmt: skip
ACTION_COLUMNS = columns_of("actions", "_ord", "round", "kind", batch=True)
POT_COLUMNS = columns_of("pots", "_ord", "pot_index", "amount", "eligible", batch=True)


def seed_of(content_hash: str) -> int:
    """The Monte Carlo seed of a hand: a number from its ``content_hash``
    (its text's SHA-256), the same wherever the hand is stored."""
    return int.from_bytes(hashlib.blake2b(content_hash.encode(), digest_size=8).digest(), "big")


def _rows_by_ord(table: pa.Table, names: Sequence[str], ords: pa.Array
                 ) -> dict[int, list[dict[str, Any]]]:  # fmt: skip
    """The rows of ``table`` whose ``_ord`` is in ``ords``, as dicts, per ``_ord``."""
    picked = table.select(list(names)).filter(pc.is_in(table.column("_ord"), value_set=ords))
    out: dict[int, list[dict[str, Any]]] = {}
    for row in picked.to_pylist():
        out.setdefault(row["_ord"], []).append(row)
    return out


def candidates_of(hands: pa.Table, seats: pa.Table, actions: pa.Table, pots: pa.Table
                  ) -> list[dict[str, Any]]:  # fmt: skip
    """The all-in hands of a batch of stored rows (docs/statistics.md), each
    as the task :func:`hand_equity` computes: a hand that went to showdown
    whose betting stopped with at least two contenders (players at the
    showdown, not sitting out), all of them all-in but at most one, before
    the game's last round (cards still to come). The tables have at least
    the columns :data:`HAND_COLUMNS`, :data:`SEAT_COLUMNS`,
    :data:`ACTION_COLUMNS` and :data:`POT_COLUMNS` name (``hands`` may add
    ``hk``, the cache's key, kept in the task).

    Only the hands with an all-in contender at the showdown (which every
    candidate has) are read row by row: a few in a hundred."""
    all_in = seats.filter(pc.and_(pc.is_valid(seats.column("all_in_round")),
                                  pc.fill_null(seats.column("went_to_showdown"), False)))
    showdown = hands.filter(pc.fill_null(hands.column("showdown"), False))
    ords = pc.unique(all_in.column("_ord")) if all_in.num_rows else None
    if ords is None or not showdown.num_rows:
        return []
    showdown = showdown.filter(pc.is_in(showdown.column("_ord"), value_set=ords))
    ords = showdown.column("_ord").combine_chunks()
    seats_of = _rows_by_ord(seats, SEAT_COLUMNS, ords)
    pots_of = _rows_by_ord(pots, POT_COLUMNS, ords)
    stops: dict[int, int] = {}
    for row in actions.select(list(ACTION_COLUMNS)).filter(
            pc.is_in(actions.column("_ord"), value_set=ords)).to_pylist():  # fmt: skip
        rnd = row["round"]
        if rnd is not None and rnd >= 0 and row["kind"] != "uncalled":
            stops[row["_ord"]] = max(stops.get(row["_ord"], -1), rnd)
    keys = [c for c in ("hk", *HAND_COLUMNS) if c in showdown.column_names]
    tasks = []
    for hand in showdown.select(keys).to_pylist():
        k = hand["_ord"]
        at_showdown = sorted((s for s in seats_of.get(k, ())
                              if s["went_to_showdown"] and not s["sitting_out"]),
                             key=lambda s: s["seat"])  # fmt: skip
        if len(at_showdown) < 2 or sum(s["all_in_round"] is None for s in at_showdown) > 1:
            continue
        stop = stops.get(k, -1)
        if stop >= LAST_ROUND.get(hand["game"], -1):
            continue
        tasks.append({
            "key": hand.get("hk", k),
            "seed": seed_of(hand["content_hash"]), "game": hand["game"],
            "house_rules": hand["house_rules"], "contenders": [s["player"] for s in at_showdown],
            "stop_round": stop,
            "pots": [{"amount": p["amount"], "eligible": p["eligible"]}
                     for p in sorted(pots_of.get(k, ()), key=lambda p: p["pot_index"])],
            "seats": seats_of.get(k, []), "board": hand["board"],
            "board_rounds": hand["board_rounds"],
        })  # fmt: skip
    return tasks


def hand_equity(task: dict[str, Any]) -> list[tuple[int, str, float, float]]:
    """(key, player, expected chips won, standard error) of one candidate
    hand, the key being the task's: the hand's ``hk`` (stored hands) or its
    ``_ord`` (a batch); no row when its cards are not all known or the hand
    is invalid."""
    try:
        spot = spot_of(task["game"], task["house_rules"] or (), task["contenders"],
                       task["stop_round"], [(p["amount"], p["eligible"]) for p in task["pots"]],
                       task["seats"], task["board"] or [], task["board_rounds"] or [])  # fmt: skip
        if spot is None:
            return []
        ev, se, _ = expected(spot, seed=task["seed"])
    except ValueError:  # an invalid hand's cards or text: left at its net
        return []
    return [(task["key"], p, chips, se[p]) for p, chips in ev.items()]


def _batch(tasks: list[dict[str, Any]]) -> list[tuple[int, str, float, float]]:
    return [row for task in tasks for row in hand_equity(task)]


# the cache's _todo hands that may be candidates (an all-in player at the
# showdown, see candidates_of), numbered, and the rows candidates_of reads
_TODO_ALL_IN = """
CREATE OR REPLACE TEMP TABLE _all_in AS
SELECT (row_number() OVER ())::INTEGER AS _ord, t.hk, h.site, h.hand_id, h.content_hash, h.game,
       h.house_rules, h.showdown, h.board, h.board_rounds
FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
WHERE t.showdown AND EXISTS (SELECT 1 FROM seats s WHERE s.site = t.site
      AND s.hand_id = t.hand_id AND s.all_in_round IS NOT NULL AND s.went_to_showdown)
"""


# With a limit, the hands that may be candidates are read a slice at a time,
# this many first and twice as many in each next slice, and the reading stops
# once more than the limit are found: a limit exceeded costs a slice, not the
# rows of every all-in hand, and few candidates among many all-in hands cost
# a few passes, not one per slice.
LIMITED_SLICE = 1_000


def candidates(con: duckdb.DuckDBPyConnection, limit: int | None = None) -> list[dict[str, Any]]:
    """The all-in hands among the cache's ``_todo`` hands (reports.cache:
    ``Cache.todo``), each as the task :func:`hand_equity` computes
    (:func:`candidates_of` over their stored rows). With ``limit``, the
    list stops once it holds more than ``limit`` (enough to say so)."""

    def rows(table: str, names: Sequence[str], part: str) -> pa.Table:
        cols = ", ".join(f"x.{c}" for c in names if c != "_ord")
        return con.sql(f"SELECT a._ord, {cols} FROM _all_in a JOIN {table} x "
                       f"ON x.site = a.site AND x.hand_id = a.hand_id WHERE {part}"
                       ).to_arrow_table()  # fmt: skip

    con.execute(_TODO_ALL_IN)
    try:
        n = int(con.execute("SELECT count(*) FROM _all_in").fetchall()[0][0])
        size = n if limit is None else max(limit + 1, LIMITED_SLICE)
        tasks: list[dict[str, Any]] = []
        lo = 0
        while lo < n:
            part = f"a._ord > {lo} AND a._ord <= {lo + size}"  # (_ord counts from 1)
            hands = con.sql(f"SELECT * FROM _all_in a WHERE {part}").to_arrow_table()
            tasks += candidates_of(hands, rows("seats", SEAT_COLUMNS, part),
                                   rows("actions", ACTION_COLUMNS, part),
                                   rows("pots", POT_COLUMNS, part))  # fmt: skip
            if limit is not None and len(tasks) > limit:
                break
            lo, size = lo + size, 2 * size
        return tasks
    finally:
        con.execute("DROP TABLE IF EXISTS _all_in")


def fill_equity(con: duckdb.DuckDBPyConnection, cache: Cache,
                progress: Callable[[str, int, int], None] | None = None,
                limit: int | None = None, parallel: bool = True) -> int:  # fmt: skip
    """Compute and keep the all-in equity of the wanted hands the cache
    lacks (reports.cache); in worker processes when there are many (and
    ``parallel``: not in a process that is itself one of the import's
    workers), with ``progress(stage, done, total)``. Returns the candidate
    hands computed.
    With ``limit``, nothing is computed (and -1 returned) when more than
    ``limit`` all-in hands lack it: the import hook's bound."""
    cache.ensure("equity", VERSION, EQUITY_COLUMNS)
    if not cache.todo("equity"):
        return 0
    tasks = candidates(con, limit)
    if limit is not None and len(tasks) > limit:
        return -1
    rows = _compute(tasks, progress, parallel)
    df = _table(rows)  # noqa: F841 (read by the SQL below)
    target = cache.table("equity")
    con.execute(f"DELETE FROM {target} WHERE hk IN (SELECT hk FROM _todo)")
    con.execute(f"INSERT INTO {target} SELECT hk, player, expected_won, se FROM df")
    cache.done("equity")
    return len(tasks)


_SCHEMA = pa.schema([("player", pa.string()), ("expected_won", pa.float64()),
                     ("se", pa.float64())])  # fmt: skip


def _table(rows: list[tuple[int, str, float, float]]) -> pa.Table:
    """Equity rows of database hands (keyed by ``hk``) as Arrow."""
    columns: list[Sequence[Any]] = list(zip(*rows, strict=True)) if rows else [[], [], [], []]
    schema = pa.schema([("hk", pa.uint64()), *_SCHEMA])
    return pa.table([list(c) for c in columns], schema=schema)


def of_batch(tables: Mapping[str, pa.Table]) -> pa.Table:
    """The equity rows of a batch the import has just built
    (reports.players.imported), each hand's numbered by its ``_ord``: the same
    candidates and computation as :func:`fill_equity`, in this process."""
    rows = _compute(candidates_of(tables["hands"], tables["seats"], tables["actions"],
                                  tables["pots"]), None, parallel=False)  # fmt: skip
    columns: list[Sequence[Any]] = list(zip(*rows, strict=True)) if rows else [[], [], [], []]
    schema = pa.schema([("_ord", pa.int32()), *_SCHEMA])
    return pa.table([list(c) for c in columns], schema=schema)


def _compute(tasks: list[dict[str, Any]], progress: Callable[[str, int, int], None] | None,
             parallel: bool = True) -> list[tuple[int, str, float, float]]:  # fmt: skip
    total = len(tasks)
    if total < PARALLEL_FROM or not parallel:
        out = []
        for k, task in enumerate(tasks):
            out += hand_equity(task)
            if progress:
                progress("all-in equity", k + 1, total)
        return out
    from hh.pool import Pool, default_workers

    batches = [tasks[i : i + _BATCH] for i in range(0, total, _BATCH)]
    out = []
    done = 0
    # spawned: the parent holds DuckDB's threads
    with Pool(min(len(batches), default_workers()), start="spawn") as pool:
        for part, batch in zip(pool.map(_batch, batches), batches, strict=True):
            out += part
            done += len(batch)
            if progress:
                progress("all-in equity", done, total)
    return out


def missing(con: duckdb.DuckDBPyConnection, cache: Cache) -> int:
    """How many wanted hands the equity cache lacks (all-in or not: telling
    which are all-in costs a query over seats and actions)."""
    cache.ensure("equity", VERSION, EQUITY_COLUMNS)
    return cache.todo("equity")


__all__ = ["ACES", "CALATONE", "Spot", "candidates", "exact", "exact_general", "expected",
           "fill_equity", "hand_equity", "monte_carlo"]
