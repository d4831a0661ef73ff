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
(``EXACT_LIMIT``), else a seeded Monte Carlo (seed: the hand's key) gives
the estimate and its standard error. Known cards of others (folded
players' up cards) are dead; hidden cards of folded players are unseen.

``adjusted net = net - won + expected won``; over all contenders the
expected shares add up to the pots, so per game the adjusted net still sums
to minus the rake.

A hand's expected chips depend only on the hand, so they are kept per hand
in the reports' cache (hh.reports.cache: keyed by the hand's text and referee
version) and computed only for hands not cached yet (:func:`fill_equity`),
in worker processes when there are many. The Monte Carlo seed is the
hand's key, the same in a database and in a lake.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl
from hh.reports.db import frame
from hh.reports.stats.base import ACES, CALATONE, CHIRIBITO, LAST_ROUND

if TYPE_CHECKING:
    from hh.reports.cache import Cache

EXACT_LIMIT = 60_000  # completions enumerated exactly; beyond, Monte Carlo
SAMPLES = 3_000  # Monte Carlo deals per hand: a standard error of at most 0.92% of the pot
BOARDS_IN_PYTHON = 2_024  # Chiribito boards (C(24, 3)) up to which a Python loop is quicker

_DECK_FROM = re.compile(r"Deck from (\S+)")


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
        from hh.cards import FRENCH_52, SPANISH_28, stripped_deck

        if self.game == CHIRIBITO:
            return SPANISH_28.cards
        if self.game == ACES:
            return FRENCH_52.cards
        lowest = [m.group(1) for r in self.house_rules if (m := _DECK_FROM.fullmatch(r))]
        return (stripped_deck(lowest[0]) if lowest else FRENCH_52).cards

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


def _payoff(spot: Spot, value, extra: dict[str, Sequence[str]], board: Sequence[str]
            ) -> dict[str, float]:  # fmt: skip
    """Chips each contender takes from the pots for one completion."""
    values = {p: value(p, [*spot.own[p], *extra.get(p, ())], board) for p in spot.own}
    out = dict.fromkeys(spot.own, 0.0)
    for amount, eligible in spot.pots:
        if not eligible:
            continue
        best = max(values[p] for p in eligible)
        winners = [p for p in eligible if values[p] == best]
        for p in winners:
            out[p] += amount / len(winners)
    return out


def _value_function(spot: Spot):
    from hh.evaluate import evaluator_for

    ev = evaluator_for(spot.game, spot.house_rules)
    if spot.game == CHIRIBITO:
        return lambda _p, own, board: ev.value(own, board)
    return lambda _p, own, _board: ev.value(own)


def _deals(spot: Spot, unseen: list[str]) -> Iterator[tuple[dict[str, tuple[str, ...]], tuple]]:
    """Every completion: the board's new cards, then each contender's."""
    players = [p for p in spot.own if spot.to_come.get(p, 0)]

    def rec(i: int, rest: list[str], got: dict[str, tuple[str, ...]]):
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
        if spot.completions() <= BOARDS_IN_PYTHON:
            return _exact_board_loop(spot)
        return _exact_board(spot)
    return exact_general(spot)


def exact_general(spot: Spot) -> dict[str, float]:
    """Every completion dealt player by player, for any game: the reference
    the faster Chiribito board-only enumeration is tested against."""
    value = _value_function(spot)
    total = dict.fromkeys(spot.own, 0.0)
    n = 0
    for got, new in _deals(spot, spot.unseen()):
        for p, chips in _payoff(spot, value, got, [*spot.board, *new]).items():
            total[p] += chips
        n += 1
    return {p: t / n for p, t in total.items()}


def _exact_board_loop(spot: Spot) -> dict[str, float]:
    """:func:`exact` for Chiribito with few boards (``BOARDS_IN_PYTHON``):
    each player's hand is valued once per board with the evaluator's integer
    ``value``, pots are shared by index: for few boards this costs less than
    :func:`_exact_board`'s fixed cost of building series."""
    from hh.evaluate import evaluator_for

    value = evaluator_for(spot.game, spot.house_rules).value
    players = list(spot.own)
    owns = [spot.own[p] for p in players]
    pots = [(amount, [players.index(p) for p in eligible])
            for amount, eligible in spot.pots if eligible]  # fmt: skip
    heads_up = len(pots) == 1 and len(pots[0][1]) == 2
    totals = [0.0] * len(players)
    base = tuple(spot.board)
    n = 0
    for new in combinations(spot.unseen(), spot.board_to_come):
        board = base + new
        n += 1
        if heads_up:  # the common case: one pot, two players
            (amount, (i, j)) = pots[0]
            a, b = value(owns[i], board), value(owns[j], board)
            if a > b:
                totals[i] += amount
            elif b > a:
                totals[j] += amount
            else:
                totals[i] += amount / 2
                totals[j] += amount / 2
            continue
        values = [value(own, board) for own in owns]
        for amount, eligible in pots:
            best = max(values[i] for i in eligible)
            winners = [i for i in eligible if values[i] == best]
            for i in winners:
                totals[i] += amount / len(winners)
    return {p: totals[k] / n for k, p in enumerate(players)}


@lru_cache(maxsize=32)
def _board_index(n: int, k: int) -> pl.DataFrame:
    """Every k-subset of n unseen cards, as k columns of indices: the
    boards a Chiribito spot can see (at most C(24, 5) = 42,504)."""
    names = [f"i{j}" for j in range(k)]
    return pl.DataFrame(list(combinations(range(n), k)), schema=names, orient="row")


def _exact_board(spot: Spot) -> dict[str, float]:
    """:func:`exact` for Chiribito, where only common cards are to come (every
    all-in spot), computed over every board at once (polars series): the
    evaluator's own lookups (``hh.evaluate.chiribito_lookup``, the sum of
    the keys of two hole cards and three board cards; the flush table over
    the rank mask when the hole cards and three board cards share a suit),
    the best of the ten triples
    per player, then the pots shared by counting, per player and pot, the
    boards he wins alone or ties k ways. tests/test_report_cache.py checks
    it against the general, card-by-card enumeration."""
    from hh.evaluate import chiribito_lookup

    lookup = chiribito_lookup(spot.house_rules)
    tables = _chiribito_tables()
    players = list(spot.own)
    unseen = spot.unseen()
    index = _board_index(len(unseen), spot.board_to_come)
    key, rbit = lookup.key, lookup.rank_bit
    suit_no = {x: i for i, x in enumerate(sorted({c[1] for c in key}))}
    by_unseen = {
        "k": pl.Series([key[c] for c in unseen], dtype=pl.Int64),
        "r": pl.Series([rbit[c] for c in unseen], dtype=pl.Int64),
        "s": pl.Series([suit_no[c[1]] for c in unseen], dtype=pl.Int8),
    }
    columns: dict[str, pl.Series | pl.Expr] = {}
    for j in range(5):
        if j < len(spot.board):  # a known common card: constants
            c = spot.board[j]
            columns |= {f"k{j}": pl.lit(key[c], dtype=pl.Int64),
                        f"r{j}": pl.lit(rbit[c], dtype=pl.Int64),
                        f"s{j}": pl.lit(suit_no[c[1]], dtype=pl.Int8)}  # fmt: skip
        else:
            at = index[f"i{j - len(spot.board)}"]
            columns |= {f"{x}{j}": v.gather(at) for x, v in by_unseen.items()}
    boards = index.select(**columns)
    triples = list(combinations(range(5), 3))
    ranks, flushes = pl.lit(tables.ranks), pl.lit(tables.flush)
    k, r, st = (lambda j: pl.col(f"k{j}")), (lambda j: pl.col(f"r{j}")), (lambda j: pl.col(f"s{j}"))
    sums = [k(a) + k(b) + k(c) for a, b, c in triples]
    value: dict[str, pl.Expr] = {}
    for p in players:
        h0, h1 = spot.own[p]
        if lookup.la_perla is not None and lookup.is_la_perla((h0, h1)):
            value[p] = pl.lit(lookup.la_perla, dtype=pl.Int64)
            continue
        hole = key[h0] + key[h1]
        looks = [ranks.gather(x + hole) for x in sums]
        if h0[1] == h1[1]:
            mask, suit = rbit[h0] | rbit[h1], suit_no[h0[1]]
            looks += [pl.when((st(a) == suit) & (st(b) == suit) & (st(c) == suit))
                      .then(flushes.gather(r(a) | r(b) | r(c) | mask)).otherwise(0)
                      for a, b, c in triples]  # fmt: skip
        value[p] = pl.max_horizontal(looks)
    # per pot and eligible player, how many boards he wins sharing with w - 1 others
    counted: list[tuple[str, int, float]] = []
    shares: list[pl.Expr] = []
    col = {p: f"p{i}" for i, p in enumerate(players)}  # names are untrusted: not columns
    values = boards.select(**{col[p]: v for p, v in value.items()})
    for amount, eligible in spot.pots:
        if not eligible:
            continue
        top = pl.max_horizontal([pl.col(col[p]) for p in eligible])
        ways = pl.sum_horizontal([(pl.col(col[p]) == top).cast(pl.Int32) for p in eligible])
        for p in eligible:
            for w in range(1, len(eligible) + 1):
                shares.append(((pl.col(col[p]) == top) & (ways == w)).sum()
                              .alias(f"x{len(shares)}"))  # fmt: skip
                counted.append((p, w, amount))
    won = values.select(shares).row(0) if shares else ()
    totals = dict.fromkeys(players, 0.0)
    for (p, w, amount), boards_won in zip(counted, won, strict=True):
        totals[p] += amount * boards_won / w
    return {p: t / index.height for p, t in totals.items()}


def _frame(series: list[pl.Series]) -> pl.DataFrame:
    return pl.DataFrame([x.alias(str(i)) for i, x in enumerate(series)])


@dataclass(frozen=True)
class _Tables:
    ranks: pl.Series
    flush: pl.Series


@lru_cache(maxsize=1)
def _chiribito_tables() -> _Tables:
    """The evaluator's lookups (the same under every house rule) as series."""
    from hh.evaluate import chiribito_lookup

    built = chiribito_lookup()
    # an empty entry (five of one rank) cannot be reached with distinct cards
    ranks = pl.Series([-1 if v is None else v for v in built.ranks], dtype=pl.Int64)
    return _Tables(ranks, pl.Series(built.flush, dtype=pl.Int64))


def monte_carlo(spot: Spot, samples: int, seed: int) -> tuple[dict[str, float], dict[str, float]]:
    """Expected chips and their standard errors from ``samples`` seeded deals.

    The inner loop works on lists by index (each contender's own cards, the
    pots as index lists) and calls the evaluator's ``value`` directly: the
    same deals and the same sums as dicts would give, with less work per
    deal."""
    from hh.evaluate import evaluator_for

    value = evaluator_for(spot.game, spot.house_rules).value
    chiribito = spot.game == CHIRIBITO
    rng = random.Random(seed)
    unseen = spot.unseen()
    names = list(spot.own)
    owns = [list(spot.own[p]) for p in names]
    # (index, first card, last card) of each contender's new cards in a deal
    slices, at = [], spot.board_to_come
    for i, p in enumerate(names):
        k = spot.to_come.get(p, 0)
        if k:
            slices.append((i, at, at + k))
            at += k
    pots = [(amount, [names.index(p) for p in eligible])
            for amount, eligible in spot.pots if eligible]  # fmt: skip
    s1 = [0.0] * len(names)
    s2 = [0.0] * len(names)
    base = list(spot.board)
    sample = rng.sample
    for _ in range(samples):
        cards = sample(unseen, at)
        hands = [own for own in owns]
        for i, lo, hi in slices:
            hands[i] = owns[i] + cards[lo:hi]
        if chiribito:
            board = base + cards[: spot.board_to_come]
            values = [value(h, board) for h in hands]
        else:
            values = [value(h) for h in hands]
        chips = [0.0] * len(names)
        for amount, eligible in pots:
            best = max(values[i] for i in eligible)
            winners = [i for i in eligible if values[i] == best]
            for i in winners:
                chips[i] += amount / len(winners)
        for i, c in enumerate(chips):
            s1[i] += c
            s2[i] += c * c
    mean = {p: s1[i] / samples for i, p in enumerate(names)}
    se = {p: math.sqrt(max(0.0, s2[i] / samples - mean[p] ** 2) / (samples - 1))
          for i, p in enumerate(names)}  # fmt: skip
    return mean, se


def expected(spot: Spot, seed: int, limit: int = EXACT_LIMIT, samples: int = SAMPLES
             ) -> tuple[dict[str, float], dict[str, float], str]:  # fmt: skip
    """Exact when the completions are at most ``limit``, else Monte Carlo.
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
VERSION = f"1:{EXACT_LIMIT}:{SAMPLES}"  # bump when the computation changes
PARALLEL_FROM = 400  # candidate hands from which worker processes share the work (each
# one starts by importing and building the evaluator tables)
_BATCH = 16  # hands per worker task

# hands whose betting stopped with every contender but at most one all-in
# and cards still to come (docs/statistics.md), among the hands of _todo
_CANDIDATES = """
WITH sd AS (
    SELECT s.site, s.hand_id, list(s.player ORDER BY s.seat) AS contenders,
           count(*) FILTER (s.all_in_round IS NULL) AS not_all_in, count(*) AS n
    FROM seats s SEMI JOIN _todo t ON t.site = s.site AND t.hand_id = s.hand_id
    WHERE coalesce(s.went_to_showdown, FALSE) AND NOT coalesce(s.sitting_out, FALSE)
    GROUP BY ALL),
stop AS (
    SELECT x.site, x.hand_id, max(x.round) AS stop_round FROM actions x
    SEMI JOIN sd ON sd.site = x.site AND sd.hand_id = x.hand_id
    WHERE x.round >= 0 AND x.kind <> 'uncalled' GROUP BY ALL),
pots AS (
    SELECT p.site, p.hand_id, list(struct_pack(amount := p.amount, eligible := p.eligible)
                                   ORDER BY p.pot_index) AS pots
    FROM pots p SEMI JOIN sd ON sd.site = p.site AND sd.hand_id = p.hand_id GROUP BY ALL),
cards AS (
    SELECT s.site, s.hand_id,
           list(struct_pack(player := s.player, down_cards := s.down_cards,
                            down_rounds := s.down_rounds, up_cards := s.up_cards,
                            up_rounds := s.up_rounds) ORDER BY s.seat) AS seats
    FROM seats s SEMI JOIN sd ON sd.site = s.site AND sd.hand_id = s.hand_id GROUP BY ALL)
SELECT t.hk, h.game, h.house_rules, sd.contenders, coalesce(stop.stop_round, -1) AS stop_round,
       pots.pots, cards.seats, h.board, h.board_rounds
FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
JOIN sd ON sd.site = t.site AND sd.hand_id = t.hand_id
LEFT JOIN stop ON stop.site = t.site AND stop.hand_id = t.hand_id
JOIN pots ON pots.site = t.site AND pots.hand_id = t.hand_id
JOIN cards ON cards.site = t.site AND cards.hand_id = t.hand_id
WHERE h.showdown AND sd.n >= 2 AND sd.not_all_in <= 1
  AND coalesce(stop.stop_round, -1) < CASE h.game {last} END
"""


def hand_equity(task: dict) -> list[tuple[int, str, float, float]]:
    """(hk, player, expected chips won, standard error) of one candidate
    hand; no row when its cards are not all known or the hand is invalid."""
    try:
        spot = spot_of(task["game"], task["house_rules"] or (), task["contenders"],
                       task["stop_round"], [(p["amount"], p["eligible"]) for p in task["pots"]],
                       task["seats"], task["board"] or [], task["board_rounds"] or [])  # fmt: skip
        if spot is None:
            return []
        ev, se, _ = expected(spot, seed=task["hk"])
    except ValueError:  # an invalid hand's cards or text: left at its net
        return []
    return [(task["hk"], p, chips, se[p]) for p, chips in ev.items()]


def _batch(tasks: list[dict]) -> list[tuple[int, str, float, float]]:
    return [row for task in tasks for row in hand_equity(task)]


def fill_equity(con: duckdb.DuckDBPyConnection, cache: Cache,
                progress: Callable[[str, int, int], None] | None = None,
                limit: int | None = None, parallel: bool = True) -> int:  # fmt: skip
    """Compute and keep the all-in equity of the wanted hands the cache
    lacks (hh.reports.cache); in worker processes when there are many (and
    ``parallel``: not in a process that is itself one of the import's
    workers), with ``progress(stage, done, total)``. Returns the candidate
    hands computed.
    With ``limit``, nothing is computed (and -1 returned) when more than
    ``limit`` all-in hands lack it: the import hook's bound."""
    cache.ensure("equity", VERSION, EQUITY_COLUMNS)
    if not cache.todo("equity"):
        return 0
    last = " ".join(f"WHEN '{g}' THEN {r}" for g, r in LAST_ROUND.items())
    tasks = frame(con, _CANDIDATES.format(last=last + " ELSE -1")).to_dicts()
    if limit is not None and len(tasks) > limit:
        return -1
    rows = _compute(tasks, progress, parallel)
    df = pl.DataFrame(rows, schema={"hk": pl.UInt64, "player": pl.String,  # noqa: F841
                                    "expected_won": pl.Float64, "se": pl.Float64},
                      orient="row")  # fmt: skip
    target = cache.table("equity")
    con.execute(f"DELETE FROM {target} WHERE hk IN (SELECT hk FROM _todo)")
    con.execute(f"INSERT INTO {target} SELECT hk, player, expected_won, se FROM df")
    cache.done("equity")
    return len(tasks)


def _compute(tasks: list[dict], progress: Callable[[str, int, int], None] | None,
             parallel: bool = True) -> list[tuple[int, str, float, float]]:  # fmt: skip
    total = len(tasks)
    if total < PARALLEL_FROM or not parallel:
        out = []
        for k, task in enumerate(tasks):
            out += hand_equity(task)
            if progress:
                progress("all-in equity", k + 1, total)
        return out
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    batches = [tasks[i : i + _BATCH] for i in range(0, total, _BATCH)]
    out = []
    done = 0
    workers = min(len(batches), os.cpu_count() or 1)
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
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


__all__ = ["ACES", "CALATONE", "Spot", "exact", "expected", "fill_equity", "monte_carlo"]
