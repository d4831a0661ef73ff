"""``hh report integrity``: pairs of players who play together against the
table (soft play, chip dumping, card sharing), ranked by how unlikely their
play together is, each signal with its count, opportunity and probability
under a null model estimated from the rest of the population
(docs/integrity.md says which, with its assumptions and the threshold).

Everything is computed in DuckDB over the stored columns (``hands``,
``seats``, ``actions``, ``pots``) and the seats' standings on each round,
which the import computes once per hand (hh.reports.standings, kept in the
reports' cache): who was ahead at a fold or an all-in call is a join. A
pair is two players of one game.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import duckdb
import polars as pl
from hh.reports import standings
from hh.reports.cache import Cache
from hh.reports.db import Filters, ReportError

ALERT = 0.01  # family-wise: min p x signals x pairs judged; see docs/integrity.md
MIN_HANDS = 200  # hands together before a pair's signals are judged at all
MIN_EXPECTED = 5.0  # expected events (or flow hands) before one signal is judged
SHRINK = 20.0  # pseudo-observations pulling a player's own rate to the population's
EVIDENCE = 10  # evidence hand ids kept per signal
MIN_FLOW_HANDS = 100  # hands with chips between the two before chip flow is judged
EMPIRICAL_PAIRS = 20  # pairs judged for chip flow before its empirical null exists
QUANTILE, CHI2_Q = 0.9, 2.706  # the quantile of z^2 overdispersion is fitted to, chi2(1)'s
TRIM = 4.0  # |z| of a first pass over which a pair is left out of its players' baselines
BLOCK = 20  # a pair's consecutive hands together per cluster of soft play's variance
BEHAVIOUR = ("chip_flow", "soft_play", "fold_ahead", "allin_call_behind", "stack_lost",
             "card_share")  # fmt: skip
SIGNALS = ("overlap", *BEHAVIOUR)


@dataclass
class Signal:
    """One signal of one pair: ``value`` (observed over expected, or for
    chip flow the net chips), ``count`` of events, ``opportunity`` (the
    decisions or hands where the event could happen), ``expected`` under
    the null, ``z`` and ``probability`` (one-sided unless said; None: too
    few opportunities to judge)."""

    value: float | None = None
    count: int = 0
    opportunity: int = 0
    expected: float = 0.0
    z: float | None = None
    probability: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)
    # the test's parts (not shown): observed, its variance under the model,
    # the size that pair-to-pair overdispersion scales with, continuity
    observed: float = 0.0
    variance: float = 0.0
    size: float = 0.0
    continuity: bool = True
    cap: float = math.inf  # |z| of the exact binomial tail, in the tested direction
    lower: bool = False

    def judge(self, count: float, expected: float, variance: float, lower: bool = False) -> None:
        """z and probability of a count signal (:func:`_test`), its parts kept;
        |z| no larger than the exact binomial tail's of ``count`` events in
        ``opportunity`` trials with the expected rate gives (small expected
        counts: the normal approximation's tail is far too thin)."""
        self.observed, self.variance, self.size, self.lower = count, variance, expected, lower
        self.z, self.probability = _test(count, expected, variance, lower)
        if self.z is None or self.opportunity <= 0:
            return
        if (self.z < 0) == lower and self.z != 0:
            tail = _binomial_tail(int(count), self.opportunity,
                                  min(1.0, expected / self.opportunity), lower)  # fmt: skip
            self.cap = abs(NormalDist().inv_cdf(max(tail / 2 if tail >= 1 else tail, 1e-300)))
            self.z = self.capped(self.z)
            self.probability = _upper(-self.z if lower else self.z)

    def capped(self, z: float) -> float:
        """``z`` with no larger a size than the exact tail's, in the tested direction."""
        if (z < 0) == self.lower and abs(z) > self.cap:
            return math.copysign(self.cap, z)
        return z

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": _round(self.value), "count": self.count, "opportunity": self.opportunity,
            "expected": _round(self.expected), "z": _round(self.z),
            "probability": None if self.probability is None else float(f"{self.probability:.3g}"),
        }  # fmt: skip
        out.update(self.detail)
        return out


@dataclass
class Pair:
    game: str
    players: tuple[str, str]
    hands_together: int
    signals: dict[str, Signal]
    score: float = 0.0
    alert: bool = False
    evidence: list[str] = field(default_factory=list)
    ring: list[str] | None = None  # the ring (three or more) this flagged pair belongs to

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players), "game": self.game,
            "hands_together": self.hands_together, "score": round(self.score, 3),
            "alert": self.alert, "signals": {k: s.as_dict() for k, s in self.signals.items()},
            "evidence": self.evidence, "ring": self.ring,
        }  # fmt: skip


@dataclass(frozen=True)
class Ring:
    """Three or more players of one game flagged pairwise with each other
    (every pair among them alerts): a ring rather than pairs."""

    game: str
    players: tuple[str, ...]
    score: float  # the weakest of its pairs' scores

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players), "score": round(self.score, 3)}


def rings(pairs: Sequence[Pair]) -> list[Ring]:
    """The maximal groups of three or more players of one game every two of
    whom are a flagged pair (maximal cliques of the alert graph; a player
    can be in two rings), strongest first; each flagged pair in one is given
    the largest (``Pair.ring``)."""
    edges: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    score: dict[tuple[str, str, str], float] = {}
    for p in pairs:
        if p.alert:
            a, b = p.players
            edges[p.game][a].add(b)
            edges[p.game][b].add(a)
            score[(p.game, a, b)] = p.score
    found: list[Ring] = []
    for game in sorted(edges):
        graph = edges[game]
        cliques: list[frozenset[str]] = []

        def grow(r: set[str], p: set[str], x: set[str], graph: dict[str, set[str]] = graph,
                 cliques: list[frozenset[str]] = cliques) -> None:  # fmt: skip
            if not p and not x:
                if len(r) >= 3:
                    cliques.append(frozenset(r))
                return
            for v in sorted(p):
                grow(r | {v}, p & graph[v], x & graph[v])
                p = p - {v}
                x = x | {v}

        grow(set(), set(graph), set())
        for c in cliques:
            members = tuple(sorted(c))
            weakest = min(score[(game, a, b)] for i, a in enumerate(members)
                          for b in members[i + 1 :])  # fmt: skip
            found.append(Ring(game, members, weakest))
    found.sort(key=lambda r: (-len(r.players), -r.score, r.game, r.players))
    for p in pairs:
        if p.alert:
            p.ring = next((list(r.players) for r in found if r.game == p.game
                           and set(p.players) <= set(r.players)), None)  # fmt: skip
    return found


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _binomial_tail(k: int, n: int, p: float, lower: bool) -> float:
    """P(X >= k) (``lower``: P(X <= k)) for X ~ Binomial(n, p), summed from
    k outwards in logs until the terms no longer count."""
    if p <= 0.0:
        return 1.0 if (lower or k <= 0) else 0.0
    if p >= 1.0:
        return 1.0 if (not lower or k >= n) else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    head = math.lgamma(n + 1)

    def term(i: int) -> float:
        return math.exp(head - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq)

    total = 0.0
    steps = range(k, -1, -1) if lower else range(k, n + 1)
    for i in steps:
        t = term(i)
        total += t
        if t < 1e-17 * total:
            break
    return min(1.0, total)


def _upper(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def _test(count: float, expected: float, variance: float, lower: bool = False
          ) -> tuple[float | None, float | None]:  # fmt: skip
    """z (with a continuity correction) and the one-sided probability of a
    count at least as high (``lower``: as low) under the null."""
    if (expected < MIN_EXPECTED and not lower) or variance <= 0:
        return None, None
    if lower and expected < MIN_EXPECTED:
        return None, None
    d = count - expected
    d = d - 0.5 if d > 0 else d + 0.5 if d < 0 else d
    z = d / math.sqrt(variance)
    return z, _upper(-z if lower else z)


# ------------------------------------------------------------------- SQL


def _load(con: duckdb.DuckDBPyConnection, filters: Filters, store: Cache) -> None:
    """Temp tables of the hands, seats and actions the filters keep, keyed
    by one integer per hand, and of the seats' standings (``istand``, from
    the cache ``store``: hh.reports.standings)."""
    where, params = filters.where()
    columns = {r[0] for r in con.execute("DESCRIBE SELECT * FROM hands").fetchall()}
    board = "h.board" if "board" in columns else "NULL::VARCHAR[]"  # before schema version 2
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE ih AS
        SELECT row_number() OVER ()::BIGINT AS hk,
               hash(h.content_hash, h.hh_version, h.site, h.hand_id) AS ck,
               h.site, h.hand_id, h.game, h.table_name,
               coalesce(CAST(h.started_at AS DATE)::VARCHAR, '') AS day, h.players, h.house_rules,
               {board} AS board
        FROM hands h WHERE h.judged AND {where}""", params)  # fmt: skip
    con.execute("""
        CREATE OR REPLACE TEMP TABLE iseat AS
        SELECT i.hk, i.game, s.player, s.put_in, s.won, s.net, s.stack_end, s.down_cards,
               s.up_cards, i.players AS dealt
        FROM seats s JOIN ih i USING (site, hand_id) WHERE s.dealt_in""")
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE istand AS
        SELECT i.hk, s.player, s.round, s.standing
        FROM {store.table(standings.KIND)} s JOIN ih i ON i.ck = s.hk""")  # fmt: skip
    con.execute("""
        CREATE OR REPLACE TEMP TABLE iact AS
        SELECT *,
               -- the bet or raise a fold or call answers: the latest one before it in its
               -- round (a bet or raise names itself: not used)
               last_value(CASE WHEN kind IN ('bet', 'raise') THEN player END IGNORE NULLS)
                   OVER w AS bettor,
               last_value(CASE WHEN kind IN ('bet', 'raise') THEN all_in END IGNORE NULLS)
                   OVER w AS bettor_all_in
        FROM (SELECT i.hk, i.game, a.seq, a.round, a.player, a.kind, a.all_in,
                     a.to_call_before, a.stack_before
              FROM actions a JOIN ih i USING (site, hand_id)
              WHERE a.round >= 0 AND a.kind IN ('check', 'bet', 'call', 'raise', 'fold'))
        WINDOW w AS (PARTITION BY hk, round ORDER BY seq)""")
    con.execute("""
        CREATE OR REPLACE TEMP TABLE iallin AS
        SELECT i.hk, a.player, min(a.seq) AS aseq FROM actions a JOIN ih i USING (site, hand_id)
        WHERE a.all_in GROUP BY ALL""")
    # who is still in at each voluntary action: everyone dealt in who has not folded before
    con.execute("""
        CREATE OR REPLACE TEMP TABLE ifold AS
        SELECT hk, player, min(seq) AS fseq FROM iact WHERE kind = 'fold' GROUP BY ALL""")
    con.execute("""
        CREATE OR REPLACE TEMP TABLE ilive AS
        WITH l AS (
        SELECT a.hk, a.game, a.seq, a.round, a.player AS x, a.kind, a.to_call_before, a.bettor,
               s.player AS y,
               -- no bet can go into y (all-in before), or x can only call or fold
               coalesce(ai.aseq < a.seq, false) OR a.to_call_before >= a.stack_before
                   AS capped
        FROM iact a JOIN iseat s ON s.hk = a.hk AND s.player <> a.player
        LEFT JOIN ifold f ON f.hk = s.hk AND f.player = s.player
        LEFT JOIN iallin ai ON ai.hk = s.hk AND ai.player = s.player
        WHERE f.fseq IS NULL OR f.fseq > a.seq)
        SELECT l.*, c.opponents FROM l
        JOIN (SELECT hk, seq, count(*) AS opponents FROM l GROUP BY ALL) c USING (hk, seq)""")


def _pairs(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Overlap of every pair: hands, tables and days together, and the hands
    together that independent seating would give (per table: the product of
    the two players' hands there over the table's hands)."""
    rows = con.execute("""
        WITH pt AS (
            SELECT i.game, a.player AS a, b.player AS b, i.table_name, count(*) AS n,
                   count(DISTINCT i.day) AS days
            FROM iseat a JOIN iseat b ON a.hk = b.hk AND a.player < b.player
            JOIN ih i ON i.hk = a.hk GROUP BY ALL),
        tp AS (SELECT i.game, i.table_name, s.player, count(*) AS n
               FROM iseat s JOIN ih i USING (hk) GROUP BY ALL),
        tt AS (SELECT game, table_name, count(*) AS n FROM ih GROUP BY ALL)
        SELECT pt.game, pt.a, pt.b, sum(pt.n), count(*), sum(pt.days),
               sum(ta.n * tb.n / tt.n)
        FROM pt JOIN tp ta ON ta.game = pt.game AND ta.table_name = pt.table_name
                 AND ta.player = pt.a
        JOIN tp tb ON tb.game = pt.game AND tb.table_name = pt.table_name AND tb.player = pt.b
        JOIN tt ON tt.game = pt.game AND tt.table_name = pt.table_name
        GROUP BY ALL""").fetchall()
    return {(g, a, b): {"n": int(n), "tables": int(t), "sessions": int(d), "expected": float(e)}
            for g, a, b, n, t, d, e in rows}  # fmt: skip


def _flows(con: duckdb.DuckDBPyConnection) -> None:
    """``iflow``: chips that went from one player's contributions to another's
    winnings, per pot: each pot takes from every player what he put in
    between the previous pot's level and its own (its level: the least any
    of its eligible players put in), and pays its winners their shares; a
    contributor's chips go to each winner pro rata."""
    con.execute("""
        CREATE OR REPLACE TEMP TABLE iflow AS
        WITH pot AS (
            SELECT i.hk, p.pot_index, p.eligible, p.winners, p.shares
            FROM pots p JOIN ih i USING (site, hand_id)),
        lvl AS (
            SELECT pot.hk, pot.pot_index, min(s.put_in) AS level
            FROM (SELECT hk, pot_index, unnest(eligible) AS player FROM pot) pot
            JOIN iseat s ON s.hk = pot.hk AND s.player = pot.player GROUP BY ALL),
        lv AS (
            SELECT hk, pot_index, level,
                   coalesce(lag(level) OVER (PARTITION BY hk ORDER BY pot_index), 0) AS below
            FROM lvl),
        contrib AS (
            SELECT lv.hk, lv.pot_index, s.player,
                   greatest(0, least(s.put_in, lv.level) - least(s.put_in, lv.below)) AS c
            FROM lv JOIN iseat s ON s.hk = lv.hk),
        tot AS (SELECT hk, pot_index, sum(c) AS total FROM contrib GROUP BY ALL),
        win AS (SELECT hk, pot_index, unnest(winners) AS w, unnest(shares) AS share FROM pot),
        paid AS (SELECT hk, pot_index, sum(share) AS paid FROM win GROUP BY ALL)
        SELECT c.hk, c.player AS x, w.w AS y,
               sum(c.c * w.share / paid.paid) AS chips
        FROM contrib c JOIN win w ON w.hk = c.hk AND w.pot_index = c.pot_index
        JOIN paid ON paid.hk = c.hk AND paid.pot_index = c.pot_index
        WHERE c.c > 0 AND c.player <> w.w AND paid.paid > 0
        GROUP BY ALL""")


# --------------------------------------------------------------- signals


def _chip_flow(con: duckdb.DuckDBPyConnection, everyone: dict, out: dict) -> None:
    """Net chips between the two, given the chips that passed between them:
    each hand's chips between a and b (``g``) go to b with the probability
    ``p`` that each one's results against everyone else give (a's share
    ``w_a`` of the chips he exchanged with the others, b's ``w_b``, shrunk
    to an even split; ``p = w_b (1 - w_a) / (w_b (1 - w_a) + w_a (1 - w_b))``),
    so the expected net is ``sum(g) (2p - 1)`` and its variance
    ``4 p (1 - p) sum(g^2)``. Conditioning on what passed between them
    makes the stakes, stack depths and styles of the hands they played
    cancel: only the direction is tested. Two-sided."""
    per = con.execute("""
        WITH d AS (
            SELECT f.hk, i.game, least(x, y) AS a, greatest(x, y) AS b,
                   sum(CASE WHEN x < y THEN chips ELSE 0 END) AS ab,
                   sum(CASE WHEN x < y THEN 0 ELSE chips END) AS ba
            FROM iflow f JOIN ih i USING (hk) GROUP BY ALL)
        SELECT game, a, b, sum(ab - ba), sum((ab + ba) * (ab + ba)), sum(ab), sum(ba), count(*),
               list(hand_id ORDER BY abs(ab - ba) DESC, hand_id)[1:10]
        FROM d JOIN ih USING (hk, game) GROUP BY ALL""").fetchall()
    flows = {(g, a, b): (d, g2, ab, ba, n, ev) for g, a, b, d, g2, ab, ba, n, ev in per}
    won: dict[tuple[str, str], float] = defaultdict(float)
    lost: dict[tuple[str, str], float] = defaultdict(float)
    gross: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # chips, flow hands
    for (g, a, b), (_d, _g2, ab, ba, n, _ev) in flows.items():
        won[(g, b)] += ab
        lost[(g, a)] += ab
        won[(g, a)] += ba
        lost[(g, b)] += ba
        gross[g][0] += ab + ba
        gross[g][1] += n
    for key, sigs in out.items():
        g, a, b = key
        n = everyone[key]["n"]
        d, g2, ab, ba, nf, ev = flows.get(key, (0.0, 0.0, 0.0, 0.0, 0, []))
        # SHRINK hands' worth of the game's chips per flow hand, half won, half lost
        c = SHRINK * gross[g][0] / gross[g][1] / 2 if gross[g][1] else 0.0
        wa = _share(won[(g, a)] - ba + c, lost[(g, a)] - ab + c)
        wb = _share(won[(g, b)] - ab + c, lost[(g, b)] - ba + c)
        p = _share(wb * (1 - wa), wa * (1 - wb))
        e = (ab + ba) * (2 * p - 1)
        var = 4 * p * (1 - p) * g2
        s = Signal(value=d, count=nf, opportunity=n, expected=e)
        gainer, loser = (b, a) if d - e > 0 else (a, b)
        s.detail = {"from": loser, "to": gainer, "chips_a_to_b": round(ab),
                    "chips_b_to_a": round(ba), "p_a_to_b": round(p, 4)}  # fmt: skip
        if nf >= MIN_FLOW_HANDS and var > 0:
            s.observed, s.variance, s.size, s.continuity = d, var, ab + ba, False
            s.z = (d - e) / math.sqrt(var)
            s.probability = min(1.0, 2 * _upper(abs(s.z)))
        s.evidence = list(ev)
        sigs["chip_flow"] = s


def _share(x: float, y: float) -> float:
    """x / (x + y), an even split when both are 0 (or less)."""
    x, y = max(x, 0.0), max(y, 0.0)
    return x / (x + y) if x + y > 0 else 0.5


def _overdispersed(signals: list[Signal], tail: str) -> None:
    """Pairs differ in how their styles meet (a player bets less into one
    who always raises, wins more from one he reads well), and that
    difference grows with the hands they play: a fixed share of the
    expectation, not binomial noise. So each model's variance gets a term
    ``tau^2 x size^2`` (size: the expected count; chip flow: the chips that
    passed between the two), with ``tau`` the population's: the one that
    makes the ``QUANTILE`` of z^2 over the half of the judged pairs with the
    largest size N(0, 1)'s (``CHI2_Q``; a quantile: the few colluders do not
    set it). With fewer than ``EMPIRICAL_PAIRS`` pairs judged, tau is 0."""
    judged = [s for s in signals if s.z is not None and s.variance > 0]
    if len(judged) < EMPIRICAL_PAIRS:
        return
    big = sorted(judged, key=lambda s: -s.size)[: max(EMPIRICAL_PAIRS, len(judged) // 2)]

    def z(s: Signal, t2: float) -> float:
        d = s.observed - s.expected
        if s.continuity:
            d = d - 0.5 if d > 0 else d + 0.5 if d < 0 else d
        return s.capped(d / math.sqrt(s.variance + t2 * s.size * s.size))

    def scaled_quantile(t2: float) -> float:
        """The QUANTILE of z^2 on the scale of a median (0.455 when it is chi2(1)'s)."""
        v = sorted(z(s, t2) ** 2 for s in big)
        return v[int(QUANTILE * (len(v) - 1))] / CHI2_Q * 0.455

    t2 = 0.0
    if scaled_quantile(0.0) > 0.455:
        lo, hi = 0.0, 1e-4
        while scaled_quantile(hi) > 0.455 and hi < 1e6:
            hi *= 4
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if scaled_quantile(mid) > 0.455 else (lo, mid)
        t2 = hi
    for s in judged:
        s.z = z(s, t2)
        if tail == "two":
            s.probability = min(1.0, 2 * _upper(abs(s.z)))
        else:
            s.probability = _upper(-s.z if tail == "lower" else s.z)
        s.detail["overdispersion"] = round(math.sqrt(t2), 4)


def _empirical_null(signals: list[Signal], tail: str, required: bool) -> None:
    """The models miss how particular styles meet (who exploits whom, who
    bets into whom), so their z's spread wider than N(0, 1) among honest
    pairs: each z is centred on the median of the pairs' z's and divided by
    their spread (1.4826 x the median absolute deviation, at least 1), the
    empirical null of the population (most pairs are honest); ``tail``:
    "upper", "lower" or "two" sided. With fewer than ``EMPIRICAL_PAIRS``
    pairs judged there is no population to estimate it from: the model's z
    stands, or (``required``, chip flow) the signal is not judged."""
    judged = [s for s in signals if s.z is not None]
    if len(judged) < EMPIRICAL_PAIRS:
        if required:
            for s in judged:
                s.z = s.probability = None
                s.detail["null"] = f"fewer than {EMPIRICAL_PAIRS} pairs to estimate it from"
        return
    zs = sorted(s.z for s in judged if s.z is not None)
    mid = _median([(z, 1) for z in zs])
    spread = max(1.0, 1.4826 * _median([(abs(z - mid), 1) for z in zs]))
    for s in judged:
        assert s.z is not None
        s.z = (s.z - mid) / spread
        if tail == "two":
            s.probability = min(1.0, 2 * _upper(abs(s.z)))
        else:
            s.probability = _upper(-s.z if tail == "lower" else s.z)
        s.detail["null_centre"] = round(mid, 3)
        s.detail["null_spread"] = round(spread, 3)


def _median(values: list[tuple[float, int]]) -> float:
    """The weighted median of (value, weight) pairs."""
    values = sorted(values)
    half = sum(w for _v, w in values) / 2
    run = 0
    for v, w in values:
        run += w
        if run >= half:
            return v
    return values[-1][0] if values else 0.0


# the stratum of a soft-play decision beside heads-up or not: facing a bet or
# not, and the round (0, 1, 2, 3 or later): who bets into whom depends on both
_STRATUM = "(to_call_before > 0)::INT + 2 * least(round, 3)"


def _soft_play(con: duckdb.DuckDBPyConnection, out: dict) -> None:
    """Bets and raises while the other is still in the hand, against each
    player's own aggression when the other is not (per stratum: heads-up or
    multiway, st a bet or not), shrunk to the population's rate; lower
    tail. Rates are per (action, opponent still in), as the pair's counts
    are. Two passes: a player's aggression towards an opponent far off his
    usual (|z| over ``TRIM`` in the first pass, a likely partner) is left out
    of his rate for the others. Heads-up checks are counted beside it."""
    rows = con.execute(f"""
        SELECT game, x, y, opponents = 1 AS hu, {_STRATUM} AS st,
               count(*) AS n, count(*) FILTER (WHERE kind IN ('bet', 'raise')) AS k,
               count(*) FILTER (WHERE kind = 'check') AS checks
        FROM ilive WHERE kind <> 'fold' AND NOT capped GROUP BY ALL""").fetchall()
    totals: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    pop: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    directed: dict[tuple, list[tuple]] = defaultdict(list)
    for g, x, y, hu, st, n, k, c in rows:
        totals[(g, x, hu, st)][0] += n
        totals[(g, x, hu, st)][1] += k
        pop[(g, hu, st)][0] += n
        pop[(g, hu, st)][1] += k
        directed[(g, x, y)].append((hu, st, n, k, c))
    def sums(cut: dict) -> dict[tuple, list[float]]:
        """Each player's bets and raises, and what the population's rates
        expect of his actions, over all his strata, less ``cut``."""
        out: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for (g, x, hu, st), (tn, tk) in totals.items():
            less = cut.get((g, x, hu, st), (0, 0))
            pn, pk = pop[(g, hu, st)]
            out[(g, x)][0] += tk - less[1]
            out[(g, x)][1] += (tn - less[0]) * (pk / pn if pn else 0.0)
        return out

    everyone = sums({})
    first = {key: _soft_direction(key, strata, totals, pop, {}, False, everyone)
             for key, strata in directed.items()}  # fmt: skip
    trimmed = {key for key, d in first.items() if d[0] is not None and abs(d[0]) > TRIM}
    cut: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for g, x, y in trimmed:
        for hu, st, n, k, _c in directed[(g, x, y)]:
            cut[(g, x, hu, st)][0] += n
            cut[(g, x, hu, st)][1] += k
    kept = sums(cut)
    evidence = _soft_evidence(con)
    rates: list[tuple[str, str, str, bool, int, float]] = []
    for (g, a, b), sigs in out.items():
        total = [0, 0.0, 0.0, 0, 0, 0, 0.0, 0]  # count, expected, var, opp, hu n, k, e, checks
        for key in ((g, a, b), (g, b, a)):
            if key in directed:
                d = _soft_direction(key, directed[key], totals, pop, cut, key in trimmed,
                                    kept)  # fmt: skip
                total = [t + v for t, v in zip(total, d[1:-1], strict=True)]
                rates += [(*key, hu, st, p0) for hu, st, p0 in d[-1]]
        sigs["soft_play"] = total
    clustered = _soft_clustered(con, rates)
    for key, sigs in out.items():
        count, expected, var, opp, hu_n, hu_k, hu_e, hu_checks = sigs["soft_play"]
        var = max(var, clustered.get(key, 0.0))
        s = Signal(value=count / expected if expected else None, count=int(count),
                   opportunity=int(opp), expected=expected,
                   evidence=evidence.get(key, []))  # fmt: skip
        s.judge(count, expected, var, lower=True)
        s.detail = {"heads_up": {"count": hu_k, "opportunity": hu_n, "expected": round(hu_e, 2),
                                 "checks": hu_checks}}  # fmt: skip
        sigs["soft_play"] = s


def _soft_direction(key: tuple, strata: list[tuple], totals: dict, pop: dict, cut: dict,
                    own_cut: bool, sums: dict) -> tuple:  # fmt: skip
    """x's aggression towards y (``key`` = game, x, y): z, then count,
    expected, variance, opportunity and the heads-up part (n, k, expected,
    checks), and the rate of each stratum (hu, st, p0); x's own rate
    without ``cut`` (his rows towards trimmed opponents; ``own_cut``: y is
    one of them). Where x's own actions with the others are few (a stratum
    he mostly plays with y: heads-up at a short table), his rate is shrunk
    not to the population's but to the population's times his own factor
    over every stratum (his bets and raises with the others over what the
    population's rates expect of his actions, ``sums`` less his actions
    towards y; :func:`_prior`): a passive player is passive heads-up too."""
    g, x, _y = key
    mine = {(hu, st): (n, k) for hu, st, n, k, _c in strata}

    def own(hu: bool, st: int) -> tuple[int, int]:
        tn, tk = totals[(g, x, hu, st)]
        less = cut.get((g, x, hu, st), (0, 0))
        tn, tk = tn - less[0], tk - less[1]
        n, k = mine.get((hu, st), (0, 0))
        if own_cut:
            tn, tk = tn + n, tk + k
        return tn - n, tk - k

    def base(hu: bool, st: int) -> float:
        pn, pk = pop[(g, hu, st)]
        return pk / pn if pn else 0.0

    events, wanted = sums[(g, x)]
    if not own_cut:  # y's rows are in x's sums: left out (own_cut: cut already)
        events -= sum(k for _hu, _st, _n, k, _c in strata)
        wanted -= sum(n * base(hu, st) for hu, st, n, _k, _c in strata)
    factor = _factor(events, wanted)
    rates = []
    count = opp = hu_n = hu_k = hu_checks = 0
    expected = var = hu_e = 0.0
    for hu, st, n, k, c in strata:
        on, ok = own(hu, st)
        p0 = (ok + SHRINK * _prior(base(hu, st), factor)) / (on + SHRINK)
        rates.append((hu, st, p0))
        count += k
        opp += n
        expected += n * p0
        var += n * p0 * (1 - p0)
        if hu:
            hu_n += n
            hu_k += k
            hu_e += n * p0
            hu_checks += c
    z = (count - expected) / math.sqrt(var) if var > 0 and expected >= MIN_EXPECTED else None
    return z, count, expected, var, opp, hu_n, hu_k, hu_e, hu_checks, rates


def _factor(events: float, expected: float) -> float:
    """A player's own factor over all his strata: his events over what the
    population's rates expect of his decisions (both with everyone but the
    opponent judged), shrunk to 1 with ``SHRINK`` pseudo-events (a player
    seen little is taken as the population)."""
    return (max(events, 0.0) + SHRINK) / (max(expected, 0.0) + SHRINK)


def _prior(base: float, factor: float) -> float:
    """The rate a player's own rate in one stratum is shrunk to: the
    population's there times his factor (:func:`_factor`), on the odds
    scale (so that it stays a probability)."""
    if base <= 0.0 or base >= 1.0:
        return base
    odds = base / (1 - base) * factor
    return odds / (1 + odds)


def _factor_of(events: pl.Expr, expected: pl.Expr) -> pl.Expr:
    """:func:`_factor` over columns (the events' null model, ``_Tally``)."""
    return (events.clip(lower_bound=0.0) + SHRINK) / (expected.clip(lower_bound=0.0) + SHRINK)


def _prior_of(base: pl.Expr, factor: pl.Expr) -> pl.Expr:
    """:func:`_prior` over columns (the events' null model, ``_Tally``)."""
    odds = base / (1 - base) * factor
    return pl.when((base <= 0.0) | (base >= 1.0)).then(base).otherwise(odds / (1 + odds))


def _soft_clustered(con: duckdb.DuckDBPyConnection,
                    rates: list[tuple[str, str, str, bool, int, float]]
                    ) -> dict[tuple[str, str, str], float]:  # fmt: skip
    """The variance of each pair's soft-play count clustered by hand: the
    sum over their hands together of (bets and raises into each other in
    the hand - their expected number)^2. The actions of one hand go
    together (a raise is followed by more raises, a check by checks), so
    they are not independent trials; this variance does not assume they
    are (a sandwich estimator), and is used when larger than the
    independent one."""

    if not rates:
        return {}
    table = pl.DataFrame(rates, schema=["game", "x", "y", "hu", "st", "p0"], orient="row")
    con.register("isoft_rates", table)
    try:
        rows = con.execute(f"""
            WITH h AS (
                SELECT l.hk, l.game, least(l.x, l.y) AS a, greatest(l.x, l.y) AS b,
                       count(*) FILTER (WHERE l.kind IN ('bet', 'raise')) - sum(r.p0) AS r
                FROM (SELECT *, {_STRATUM} AS st FROM ilive) l
                JOIN isoft_rates r ON r.game = l.game AND r.x = l.x AND r.y = l.y
                    AND r.hu = (l.opponents = 1) AND r.st = l.st
                WHERE l.kind <> 'fold' AND NOT l.capped GROUP BY ALL),
            blk AS (
                SELECT game, a, b, sum(r) AS r FROM (
                    SELECT *, (row_number() OVER (PARTITION BY game, a, b ORDER BY hk) - 1)
                              // {BLOCK} AS blk FROM h)
                GROUP BY game, a, b, blk)
            SELECT game, a, b, sum(r * r) FROM blk GROUP BY ALL""").fetchall()
    finally:
        con.unregister("isoft_rates")
    return {(g, a, b): float(v) for g, a, b, v in rows}


def _soft_evidence(con: duckdb.DuckDBPyConnection) -> dict[tuple, list[str]]:
    """Hands the pair played heads-up to the end without a bet or raise."""
    rows = con.execute(f"""
        WITH hu AS (
            SELECT hk, game, least(x, y) AS a, greatest(x, y) AS b,
                   bool_and(kind = 'check' OR kind = 'call') AS passive
            FROM ilive WHERE opponents = 1 GROUP BY ALL)
        SELECT game, a, b, list(i.hand_id ORDER BY hk)[1:{EVIDENCE}]
        FROM hu JOIN ih i USING (hk, game) WHERE passive GROUP BY ALL""").fetchall()
    return {(g, a, b): list(ev) for g, a, b, ev in rows}


def _events(con: duckdb.DuckDBPyConnection, out: dict) -> None:
    """The signals that need who was ahead: folds to the other's bet or
    raise with cards ahead of everyone still in (``fold_ahead``), calls of
    the other's all-in while behind (``allin_call_behind``), folds with the
    other and someone more still in that beat everyone but the other, who
    beat the folder (``card_share``); and stacks lost to him. Who is ahead:
    each seat's standing on the decision's round as the import stored it
    (hh.reports.standings, read as ``istand``); a decision where one of the
    players has no standing (a ``??`` card) is not judged."""
    ahead, share, behind = _Tally(), _Tally(), _Tally()
    con.execute("""
        CREATE OR REPLACE TEMP TABLE ifoldin AS
        WITH o AS (SELECT hk, round, arg_min(player, seq) AS opener FROM iact GROUP BY ALL)
        SELECT l.hk, l.game, l.seq, l.round, l.x, l.y, l.to_call_before > 0 AS facing,
               l.bettor, l.opponents, coalesce(l.y = l.bettor, false) AS y_bet,
               l.y = o.opener AS y_opened, sx.standing AS mine, sy.standing AS theirs
        FROM ilive l JOIN o USING (hk, round)
        LEFT JOIN istand sx ON sx.hk = l.hk AND sx.player = l.x AND sx.round = l.round
        LEFT JOIN istand sy ON sy.hk = l.hk AND sy.player = l.y AND sy.round = l.round
        WHERE l.kind = 'fold'""")  # fmt: skip
    # one row per fold: judged when every standing is known; the one ahead of him
    con.execute("""
        CREATE OR REPLACE TEMP TABLE ifolds AS
        SELECT hk, seq, any_value(game) AS game, any_value(round) AS round, any_value(x) AS x,
               any_value(facing) AS facing, any_value(bettor) AS bettor, count(*) AS n_in,
               bool_and(mine IS NOT NULL AND theirs IS NOT NULL) AS judged,
               any_value(mine) > max(theirs) AS ahead,
               count(*) FILTER (WHERE theirs > mine) AS above,
               any_value(y) FILTER (WHERE theirs > mine) AS one
        FROM ifoldin GROUP BY hk, seq""")  # fmt: skip
    tally = f"""
        count(*) FILTER (WHERE judged) AS n, count(*) FILTER (WHERE judged AND hit) AS k,
        count(*) FILTER (WHERE NOT judged) AS unjudged,
        list(i.hand_id ORDER BY i.hand_id) FILTER (WHERE judged AND hit)[1:{EVIDENCE}] AS ev"""
    _fill(ahead, con.execute(f"""
        SELECT f.game, f.x, f.bettor, f.round, f.n_in >= 2, {tally}
        FROM (SELECT *, ahead AS hit FROM ifolds WHERE facing AND bettor IS NOT NULL) f
        JOIN ih i USING (hk) GROUP BY ALL""").fetchall())
    _fill(share, con.execute(f"""
        SELECT f.game, f.x, f.y, least(f.n_in, 4), f.y_bet, f.y_opened, {tally}
        FROM (SELECT l.*, d.n_in, d.judged, d.above = 1 AND d.one = l.y AS hit
              FROM ifoldin l JOIN ifolds d USING (hk, seq) WHERE d.n_in >= 2) f
        JOIN ih i USING (hk) GROUP BY ALL""").fetchall())
    _fill(behind, con.execute(f"""
        SELECT f.game, f.player, f.bettor, f.round, {tally}
        FROM (SELECT a.*, sx.standing IS NOT NULL AND sy.standing IS NOT NULL AS judged,
                     sx.standing < sy.standing AS hit
              FROM iact a
              LEFT JOIN istand sx ON sx.hk = a.hk AND sx.player = a.player
                  AND sx.round = a.round
              LEFT JOIN istand sy ON sy.hk = a.hk AND sy.player = a.bettor
                  AND sy.round = a.round
              WHERE a.to_call_before > 0 AND a.kind = 'call' AND a.bettor_all_in) f
        JOIN ih i USING (hk) GROUP BY ALL""").fetchall())
    ahead.signal(out, "fold_ahead")
    behind.signal(out, "allin_call_behind")
    share.signal(out, "card_share")
    _stack_lost(con, out)


def _fill(tally: _Tally, rows: list[tuple]) -> None:
    """A tally from grouped rows: game, actor, other, the stratum's columns,
    then judged decisions, events, decisions not judged and the events'
    first hand ids."""
    for row in rows:
        g, x, y = row[:3]
        n, k, unjudged, ev = row[-4:]
        key = (g, x, y, tuple(row[3:-4]))
        if n:
            tally.n[key] += int(n)
            tally.k[key] += int(k)
        if unjudged:
            tally.unjudged[(g, x, y, None)] += int(unjudged)
        tally.evidence[(g, x, y)] += list(ev or [])


@dataclass
class _Tally:
    """Judged decisions (``n``), events among them (``k``) and decisions
    whose cards were ``??`` (``unjudged``), keyed (game, actor, other, round)."""

    n: dict[tuple, int] = field(default_factory=lambda: defaultdict(int))
    k: dict[tuple, int] = field(default_factory=lambda: defaultdict(int))
    unjudged: dict[tuple, int] = field(default_factory=lambda: defaultdict(int))
    evidence: dict[tuple, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, key: tuple, hit: bool, hand_id: str) -> None:
        """One judged decision (game, actor, other, stratum); ``hit``: the event."""
        self.n[key] += 1
        if hit:
            self.k[key] += 1
            self.evidence[key[:3]].append(hand_id)

    def signal(self, out: dict, name: str) -> None:
        """Each pair's events (both directions) against the actor's own rate
        with everyone else for the game and stratum (the key's last part),
        shrunk to the population's with ``SHRINK`` pseudo-decisions (a
        player who folds a lot folds ahead to everyone), times the other's
        factor: his events with everyone but the actor over what their own
        rates expected (a bluffer is folded to ahead, a tight player is the
        one ahead, with everyone); upper tail."""

        strata: dict[tuple, int] = {}
        keys = list(self.n)
        df = pl.DataFrame({
            "g": [key[0] for key in keys], "x": [key[1] for key in keys],
            "y": [key[2] for key in keys],
            "r": [strata.setdefault(key[3], len(strata)) for key in keys],
            "m": [self.n[key] for key in keys], "k": [self.k.get(key, 0) for key in keys],
        }, schema={"g": pl.String, "x": pl.String, "y": pl.String, "r": pl.Int64,
                   "m": pl.Int64, "k": pl.Int64})  # fmt: skip
        m, k = pl.col("m"), pl.col("k")
        df = df.join(df.group_by("g", "r").agg(pop_n=m.sum(), pop_k=k.sum()), on=["g", "r"])
        df = df.join(df.group_by("g", "x", "r").agg(own_n=m.sum(), own_k=k.sum()),
                     on=["g", "x", "r"])  # fmt: skip
        # the actor's own factor over his strata, with everyone but y
        df = df.with_columns(pe=(m * pl.col("pop_k")) / pl.col("pop_n"),
                             base=pl.col("pop_k") / pl.col("pop_n"))  # fmt: skip
        whole = df.group_by("g", "x").agg(wk=k.sum().cast(pl.Float64), we=pl.col("pe").sum())
        less = df.group_by("g", "x", "y").agg(lk=k.sum(), le=pl.col("pe").sum())
        less = less.join(whole, on=["g", "x"]).with_columns(
            factor=_factor_of(pl.col("wk") - pl.col("lk"), pl.col("we") - pl.col("le")))
        df = df.join(less.select("g", "x", "y", "factor"), on=["g", "x", "y"])
        prior = _prior_of(pl.col("base"), pl.col("factor"))
        df = df.with_columns(rate=((pl.col("own_k") - k) + SHRINK * prior)
                             / ((pl.col("own_n") - m) + SHRINK))  # fmt: skip
        df = df.with_columns(mr=m * pl.col("rate"))
        drawn = df.group_by("g", "y").agg(got=k.sum().cast(pl.Float64), want=pl.col("mr").sum())
        mine = df.group_by("g", "x", "y").agg(kxy=k.sum(), exy=pl.col("mr").sum())
        df = df.join(drawn, on=["g", "y"]).join(mine, on=["g", "x", "y"])
        scale = ((pl.col("got") - pl.col("kxy")) + SHRINK) / ((pl.col("want") - pl.col("exy"))
                                                             + SHRINK)  # fmt: skip
        df = df.with_columns(p0=pl.min_horizontal(pl.lit(1.0), pl.col("rate") * scale))
        p0 = pl.col("p0")
        agg = df.group_by(pl.col("g"), a=pl.min_horizontal("x", "y"),
                          b=pl.max_horizontal("x", "y")).agg(
            count=k.sum(), opp=m.sum(), e=(m * p0).sum(), v=(m * p0 * (1 - p0)).sum())  # fmt: skip
        per: dict[tuple, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0, 0])
        for g, a, bb, c, o, e, v in zip(*(agg.get_column(c).to_list() for c in
                                          ("g", "a", "b", "count", "opp", "e", "v")),
                                        strict=True):  # fmt: skip
            per[(g, a, bb)] = [c, o, e, v, 0]
        for (g, x, y, _r), m in self.unjudged.items():
            per[(g, min(x, y), max(x, y))][4] += m
        for (g, a, b), sigs in out.items():
            count, opp, expected, var, unjudged = per.get((g, a, b), (0, 0, 0.0, 0.0, 0))
            evidence = sorted(self.evidence.get((g, a, b), []) + self.evidence.get((g, b, a), []))
            s = Signal(value=count / expected if expected else None, count=int(count),
                       opportunity=int(opp), expected=expected,
                       detail={"unjudged": int(unjudged)},
                       evidence=evidence[:EVIDENCE])  # fmt: skip
            s.judge(count, expected, var)
            sigs[name] = s


def _stack_lost(con: duckdb.DuckDBPyConnection, out: dict) -> None:
    """Hands where one lost his whole stack and the other took the most of
    it (two who took as much: each of them, not an arbitrary one), against
    the other's share of everything the loser put into pots while they sat
    together (a taker who wins most of his chips anyway takes most of his
    stacks too); upper tail."""
    rows = con.execute(f"""
        WITH o AS (SELECT hk, x, sum(chips) AS o FROM iflow GROUP BY ALL),
        share AS (
            SELECT f.x, f.y, sum(f.chips) / sum(o.o) AS share
            FROM iflow f JOIN o ON o.hk = f.hk AND o.x = f.x GROUP BY ALL),
        bust AS (
            SELECT s.hk, s.game, s.player, s.dealt FROM iseat s
            WHERE s.stack_end = 0 AND s.put_in > 0),
        top AS (  -- who took the most of x's chips (ties: each of them)
            SELECT f.hk, f.x, f.y FROM iflow f
            QUALIFY f.chips = max(f.chips) OVER (PARTITION BY f.hk, f.x))
        SELECT b.game, b.player, o.player, count(*) AS n,
               count(*) FILTER (WHERE t.y IS NOT NULL) AS k,
               any_value(coalesce(sh.share, 0)) AS share, avg(1.0 / (b.dealt - 1)) AS even,
               list(i.hand_id ORDER BY b.hk) FILTER (WHERE t.y IS NOT NULL)[1:{EVIDENCE}]
        FROM bust b JOIN iseat o ON o.hk = b.hk AND o.player <> b.player
        JOIN ih i ON i.hk = b.hk
        LEFT JOIN top t ON t.hk = b.hk AND t.x = b.player AND t.y = o.player
        LEFT JOIN share sh ON sh.x = b.player AND sh.y = o.player GROUP BY ALL""").fetchall()
    got = {(g, x, y): (int(n), int(k), float(sh), float(even), ev or [])
           for g, x, y, n, k, sh, even, ev in rows}  # fmt: skip
    for (g, a, b), sigs in out.items():
        count = opp = 0
        expected = var = 0.0
        evidence: list[str] = []
        for x, y in ((a, b), (b, a)):
            n, k, share, even, ev = got.get((g, x, y), (0, 0, 0.0, 0.0, []))
            # the share is shrunk to an even split over SHRINK pseudo-busts
            p0 = (n * share + SHRINK * even) / (n + SHRINK) if n else 0.0
            count += k
            opp += n
            expected += n * p0
            var += n * p0 * (1 - p0)
            evidence += ev
        s = Signal(value=count / expected if expected else None, count=count, opportunity=opp,
                   expected=expected, evidence=sorted(evidence)[:EVIDENCE])  # fmt: skip
        s.judge(count, expected, var)
        sigs["stack_lost"] = s


# ----------------------------------------------------------------- report


def integrity(con: duckdb.DuckDBPyConnection, filters: Filters | None = None,
              cache: str | Path | Cache | None = None) -> list[Pair]:  # fmt: skip
    """Every pair of players who shared a hand (``filters.min_hands``: at
    least that many together), most suspicious first. ``cache``: the
    reports' cache (hh.reports.cache; None keeps it in memory for this
    call), where the seats' standings are read (the import stores them;
    the hands it lacks are computed first: hh.reports.standings)."""
    f = filters or Filters()
    store = cache if isinstance(cache, Cache) else Cache(con, cache)
    try:
        store.want(*f.where())
        standings.fill(con, store)
        _load(con, f, store)
        pairs = _pairs(con)
        _flows(con)
    except duckdb.Error as error:
        raise ReportError(f"cannot compute the integrity report: {error}") from error
    finally:
        if store is not cache:
            store.close()
    # in key order, and ties of the ranking broken by game: the same hands give the
    # same report whatever order the SQL returned its rows in
    keep = {k: pairs[k] for k in sorted(pairs) if pairs[k]["n"] >= max(f.min_hands, 1)}
    if f.players:
        keep = {k: v for k, v in keep.items() if k[1] in f.players or k[2] in f.players}
    sigs: dict[tuple, dict[str, Signal]] = {k: {} for k in keep}
    for key, o in keep.items():
        e = o["expected"]
        s = Signal(value=o["n"] / e if e else None, count=o["n"], opportunity=o["n"],
                   expected=e, detail={"tables": o["tables"], "sessions": o["sessions"]})
        s.judge(o["n"], e, e)
        sigs[key]["overlap"] = s
    _chip_flow(con, pairs, sigs)
    _soft_play(con, sigs)
    _events(con, sigs)
    for name in BEHAVIOUR:
        tail = {"chip_flow": "two", "soft_play": "lower"}.get(name, "upper")
        _overdispersed([s[name] for s in sigs.values()], tail)
        _empirical_null([s[name] for s in sigs.values()], tail, name == "chip_flow")
    out = [Pair(k[0], (k[1], k[2]), keep[k]["n"], {name: s[name] for name in SIGNALS})
           for k, s in sigs.items()]  # fmt: skip
    judged = [p for p in out if p.hands_together >= MIN_HANDS]
    for p in out:
        ps = [s.probability for name, s in p.signals.items()
              if name in BEHAVIOUR and s.probability is not None]  # fmt: skip
        if p.hands_together < MIN_HANDS or not ps:
            p.score = 0.0
            continue
        adjusted = min(1.0, min(ps) * len(BEHAVIOUR))
        p.score = max(0.0, -math.log10(max(adjusted, 1e-300)))
        p.alert = adjusted * len(judged) <= ALERT
        worst = min((s for n, s in p.signals.items() if n in BEHAVIOUR and s.probability
                     is not None), key=lambda s: s.probability or 1.0)  # fmt: skip
        p.evidence = worst.evidence[:EVIDENCE]
    out.sort(key=lambda p: (-p.score, -p.hands_together, p.players, p.game))
    rings(out)
    return out


__all__ = ["ALERT", "MIN_HANDS", "SIGNALS", "Pair", "Ring", "Signal", "integrity", "rings"]
