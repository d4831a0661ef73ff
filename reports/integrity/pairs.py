"""The records of ``hh report integrity``: one signal of a pair with its
test (count, opportunity, expected, z and probability, the exact binomial
tail as a bound), a judged pair, a ring of three or more, and the rounding
a report shows. The signals (reports.integrity.signals) fill them; the
evidence, the reviewers' marks and the renderings read them, without the
signals' queries."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

MIN_EXPECTED = 5.0  # expected events (or flow hands) before one signal is judged
ALERT = 0.01  # the false discovery rate over the pairs judged (Benjamini-Hochberg)
NORMAL = NormalDist()


@dataclass(slots=True)
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
    mean: float | None = None  # the tested count's null mean, when not ``expected``
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
            self.cap = abs(NORMAL.inv_cdf(max(tail / 2 if tail >= 1 else tail, 1e-300)))
            self.z = self.capped(self.z)
            self.probability = upper_tail(-self.z if lower else self.z)

    def capped(self, z: float) -> float:
        """``z`` with no larger a size than the exact tail's, in the tested direction."""
        if (z < 0) == self.lower and abs(z) > self.cap:
            return math.copysign(self.cap, z)
        return z

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": rounded(self.value), "count": self.count, "opportunity": self.opportunity,
            "expected": rounded(self.expected), "z": rounded(self.z),
            "probability": None if self.probability is None else float(f"{self.probability:.3g}"),
        }  # fmt: skip
        out.update(self.detail)
        return out


@dataclass(slots=True)
class Pair:
    game: str
    players: tuple[str, str]
    hands_together: int
    signals: dict[str, Signal]
    score: float = 0.0
    alert: bool = False
    # per signal, the hands behind it ranked by weight (alerted pairs:
    # reports.integrity.evidence)
    evidence: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    ring: list[str] | None = None  # the ring (three or more) this flagged pair belongs to
    tier: str | None = None  # "review" (one signal) or "escalate" (two or more independent)
    adjusted: float = 1.0  # the smallest signal's probability x the signals (Bonferroni)
    threshold: float = 0.0  # the report's false-discovery threshold on ``adjusted``
    key: tuple[int, int, int] = (0, 0, 0)  # (game, a, b) as the report numbered them
    # a reviewer's latest mark {mark, note, at, marks} (reports.integrity.review)
    review: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players), "game": self.game,
            "hands_together": self.hands_together, "score": shown_score(self.score),
            "alert": self.alert, "tier": self.tier,
            "fdr": {"rate": ALERT, "adjusted": float(f"{self.adjusted:.3g}"),
                    "threshold": float(f"{self.threshold:.3g}")},
            "signals": {k: s.as_dict() for k, s in self.signals.items()},
            "evidence": self.evidence, "ring": self.ring, "review": self.review,
        }  # fmt: skip


@dataclass(frozen=True)
class Ring:
    """Three or more players of one game flagged pairwise with each other
    (every pair among them alerts): a ring rather than pairs."""

    game: str
    players: tuple[str, ...]
    score: float  # the weakest of its pairs' scores

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": list(self.players),
                "score": shown_score(self.score)}


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
    found.sort(key=lambda r: (-len(r.players), -shown_score(r.score), r.game, r.players))
    for p in pairs:
        if p.alert:
            p.ring = next((list(r.players) for r in found if r.game == p.game
                           and set(p.players) <= set(r.players)), None)  # fmt: skip
    return found


def shown_score(score: float) -> float:
    """A pair's or ring's score as the report shows it and ranks by (three
    places): scores that differ only in the last bits of float sums, which
    vary with the order DuckDB's threads add in, rank as equal."""
    return round(score, 3)


def rounded(x: float | None) -> float | None:
    """A value as shown, to 4 places; -0.0 shown as 0.0 (a sum that comes to
    zero may carry the sign of the order DuckDB's threads added in)."""
    return None if x is None else round(float(x), 4) + 0.0


def _binomial_tail(k: int, n: int, p: float, lower: bool) -> float:
    """P(X >= k) (``lower``: P(X <= k)) for X ~ Binomial(n, p), summed from
    k outwards until the terms no longer count: the first term in logs,
    each next one from the one before (a ratio: no log-gamma per term)."""
    if p <= 0.0:
        return 1.0 if (lower or k <= 0) else 0.0
    if p >= 1.0:
        return 1.0 if (not lower or k >= n) else 0.0
    if (k < 0) if lower else (k > n):
        return 0.0
    t = math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                 + k * math.log(p) + (n - k) * math.log1p(-p))  # fmt: skip
    total, i = t, k
    if lower:
        ratio = (1.0 - p) / p
        while i > 0 and not t < 1e-17 * total:
            t *= i / (n - i + 1) * ratio
            i -= 1
            total += t
    else:
        ratio = p / (1.0 - p)
        while i < n and not t < 1e-17 * total:
            t *= (n - i) / (i + 1) * ratio
            i += 1
            total += t
    return min(1.0, total)


def upper_tail(z: float) -> float:
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
    return z, upper_tail(-z if lower else z)


# ------------------------------------------------------------------- SQL
