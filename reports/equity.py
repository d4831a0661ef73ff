"""All-in adjusted net: what a player was expected to win when the betting
stopped with every remaining player all-in (or all but one) and cards still
to come, instead of what the cards that came gave him.

For each such hand the contenders' cards known at that moment, the cards
still to come and the pots are taken from the hand (its text, parsed by
``hh.parse``, and the ``pots`` table); each completion of the unseen cards
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
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import duckdb
import polars as pl

from reports.db import Tables, frame
from reports.stats.base import ACES, CALATONE, CHIRIBITO, LAST_ROUND

EXACT_LIMIT = 60_000  # completions enumerated exactly; beyond, Monte Carlo
SAMPLES = 3_000  # Monte Carlo deals per hand

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
    value = _value_function(spot)
    total = dict.fromkeys(spot.own, 0.0)
    n = 0
    for got, new in _deals(spot, spot.unseen()):
        for p, chips in _payoff(spot, value, got, [*spot.board, *new]).items():
            total[p] += chips
        n += 1
    return {p: t / n for p, t in total.items()}


def monte_carlo(spot: Spot, samples: int, seed: int) -> tuple[dict[str, float], dict[str, float]]:
    """Expected chips and their standard errors from ``samples`` seeded deals."""
    value = _value_function(spot)
    rng = random.Random(seed)
    unseen = spot.unseen()
    players = [p for p in spot.own if spot.to_come.get(p, 0)]
    need = spot.board_to_come + sum(spot.to_come[p] for p in players)
    s1 = dict.fromkeys(spot.own, 0.0)
    s2 = dict.fromkeys(spot.own, 0.0)
    for _ in range(samples):
        cards = rng.sample(unseen, need)
        board, at = cards[: spot.board_to_come], spot.board_to_come
        got = {}
        for p in players:
            got[p] = cards[at : at + spot.to_come[p]]
            at += spot.to_come[p]
        for p, chips in _payoff(spot, value, got, [*spot.board, *board]).items():
            s1[p] += chips
            s2[p] += chips * chips
    mean = {p: s1[p] / samples for p in s1}
    se = {p: math.sqrt(max(0.0, s2[p] / samples - mean[p] ** 2) / (samples - 1))
          for p in s1}  # fmt: skip
    return mean, se


def expected(spot: Spot, seed: int, limit: int = EXACT_LIMIT, samples: int = SAMPLES
             ) -> tuple[dict[str, float], dict[str, float], str]:  # fmt: skip
    """Exact when the completions are at most ``limit``, else Monte Carlo.
    Returns (expected chips, standard errors, "exact" or "monte-carlo")."""
    if spot.completions() <= limit:
        return exact(spot), dict.fromkeys(spot.own, 0.0), "exact"
    mean, se = monte_carlo(spot, samples, seed)
    return mean, se, "monte-carlo"


def spot_of(raw_text: str, game: str, house_rules: Sequence[str], contenders: Sequence[str],
            stop_round: int, pots: Sequence[tuple[int, Sequence[str]]]) -> Spot | None:  # fmt: skip
    """The spot of a parsed hand whose betting stopped in ``stop_round``;
    None when a contender's cards are unknown (``??``)."""
    from hh.model import SHOWDOWN, Deal
    from hh.parse import parse_hand

    hand = parse_hand(raw_text)
    betting = [s for s in hand.sections if s.marker.street != SHOWDOWN]
    who = set(contenders)
    own: dict[str, list[str]] = {p: [] for p in contenders}
    to_come = dict.fromkeys(contenders, 0)
    board: list[str] = []
    board_to_come = 0
    dead: list[str] = []
    for rnd, section in enumerate(betting):
        now = rnd <= stop_round
        new = list(section.marker.new_cards)
        if now:
            board += new
        else:
            board_to_come += len(new)
        for line in section.lines:
            if not isinstance(line, Deal):
                continue
            cards = [*(line.down or ()), *(line.up or ())]
            if line.name in who:
                if now:
                    own[line.name] += cards
                else:
                    to_come[line.name] += len(cards)
            elif now:
                dead += list(line.up or ())
    if any("??" in cards for cards in own.values()):
        return None
    pots_ = [(amount, [p for p in eligible if p in who]) for amount, eligible in pots]
    return Spot(game, tuple(house_rules), own, to_come, pots_, board, board_to_come, dead)


def allin_adjusted(con: duckdb.DuckDBPyConnection, tables: Tables) -> pl.LazyFrame:
    """``allin_adjusted_net`` (and ``allin_se``) for the contenders of every
    hand whose betting stopped all-in with cards to come; other rows get
    their net later (reports.stats.table)."""
    schema = {"hk": pl.UInt64, "player": pl.String, "allin_adjusted_net": pl.Float64,
              "allin_se": pl.Float64}  # fmt: skip
    sd = tables.seats.filter(pl.col("went_to_showdown").fill_null(False))
    per_hand = sd.group_by("hk").agg(
        contenders=pl.col("player"), n=pl.len(),
        not_all_in=pl.col("all_in_round").is_null().sum(),
    )  # fmt: skip
    stop = tables.actions.group_by("hk").agg(stop_round=pl.col("round").max())
    last = pl.col("game").replace_strict(LAST_ROUND, return_dtype=pl.Int64, default=None)
    candidates = (
        tables.hands.select("hk", "site", "hand_id", "game", "house_rules", "showdown")
        .join(per_hand, on="hk").join(stop, on="hk", how="left")
        .with_columns(pl.col("stop_round").fill_null(-1))
        .filter(pl.col("showdown") & (pl.col("n") >= 2) & (pl.col("not_all_in") <= 1)
                & (pl.col("stop_round") < last))
        .collect()
    )  # fmt: skip
    if candidates.is_empty():
        return pl.DataFrame(schema=schema).lazy()
    texts = frame(
        con,
        "SELECT hash(t.site, t.hand_id) AS hk, t.raw_text FROM hand_text t "
        "WHERE hash(t.site, t.hand_id) IN (SELECT unnest(?::UBIGINT[]))",
        [candidates["hk"].to_list()],
    )
    pots = (tables.pots.sort("hk", "pot_index").group_by("hk")
            .agg(pl.struct("amount", "eligible").alias("pots")))  # fmt: skip
    money = tables.seats.select("hk", "player", "net", "won")
    todo = candidates.lazy().join(texts.lazy(), on="hk").join(pots, on="hk").collect()
    nets = {(hk, p): (net, won) for hk, p, net, won in money.join(
        candidates.lazy().select("hk"), on="hk", how="semi").collect().iter_rows()}  # fmt: skip
    out = []
    for r in todo.iter_rows(named=True):
        try:
            spot = spot_of(r["raw_text"], r["game"], r["house_rules"] or (), r["contenders"],
                           r["stop_round"], [(p["amount"], p["eligible"]) for p in r["pots"]])
            if spot is None:
                continue
            ev, se, _ = expected(spot, seed=r["hk"])
        except ValueError:  # an invalid hand's cards or text: left at its net
            continue
        for p, chips in ev.items():
            net, won = nets[(r["hk"], p)]
            out.append({"hk": r["hk"], "player": p,
                        "allin_adjusted_net": net - won + chips, "allin_se": se[p]})
    return pl.DataFrame(out, schema=schema).lazy()


__all__ = ["ACES", "CALATONE", "Spot", "allin_adjusted", "exact", "expected", "monte_carlo"]
