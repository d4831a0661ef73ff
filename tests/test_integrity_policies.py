"""hh report integrity against colluders who play as real cheats do (not as
the report's signals measure), honest friends and honest populations with
heads-up tables; the filters narrow the list and never the verdicts; the
false discovery rate, the tiers, the evidence and the 80-column terminal.

Sessions are small (1,000 to 3,000 hands, a few seconds each to simulate
and import), so the colluders are blatant enough to show there."""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from hh.collusion import MODES, Collusion
from hh.model import Game
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand
from pipelines.cli import register as register_import
from reports.db import Filters
from reports.integrity.render import page, show, to_json
from reports.integrity.signals import (
    ALERT,
    BEHAVIOUR,
    SIGNALS,
    SUPPORT,
    Pair,
    Signal,
    _alerts,
    integrity,
)

runner = CliRunner()
app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh import."""


register_import(app)

# (game, seed, players per table, tables, colluding pairs, hands)
Part = tuple[Game, int, int | None, int, tuple[Collusion, ...], int]


def _db(root: Path, parts: Sequence[Part]) -> duckdb.DuckDBPyConnection:
    src = root / "s.txt"
    with src.open("w", encoding="utf-8") as f:
        for game, seed, players, tables, pairs, n in parts:
            sim = Simulator(game, seed, players=players, tables=tables, colluders=pairs)
            for hand in sim.hands(n):
                f.write(write_hand(hand) + "\n\n")
    db = root / "s.duckdb"
    result = runner.invoke(app, ["import", str(src), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return duckdb.connect(str(db))


def _pair(mode: str, rate: float = 1.0) -> tuple[Collusion, ...]:
    return (Collusion("Ana", "Bo", mode, rate),)


def _first_alerted(pairs: list[Pair], truth: set[frozenset[str]]) -> None:
    """The colluding pairs rank first, each with an alert; no honest pair
    (none of the colluders in it) alerts."""
    top = pairs[: len(truth)]
    assert {frozenset(p.players) for p in top} == truth, [(p.players, p.score) for p in top]
    assert all(p.alert and p.tier in ("review", "escalate") for p in top)
    cheats = set().union(*truth)
    honest = [p.players for p in pairs if p.alert and not set(p.players) & cheats]
    assert honest == []


DUMPERS = {frozenset({"Ana", "Bo"})}


def test_a_dumper_who_folds_whatever_he_holds_is_found_first(tmp_path: Path) -> None:
    con = _db(tmp_path, [(Game.CHIRIBITO, 11, 6, 2, _pair("dump-fold"), 1000)])
    pairs = integrity(con, Filters())
    _first_alerted(pairs, DUMPERS)
    assert pairs[0].tier == "escalate"
    fold = pairs[0].signals["fold_to"]
    assert (fold.detail["actor"], fold.detail["toward"]) == ("Ana", "Bo")
    assert fold.count == fold.opportunity  # every decision facing Bo's bet a fold
    # against his own folds to the others' bets, and the others' folds to Bo's
    assert fold.expected < 0.8 * fold.count and (fold.probability or 1) < 1e-4
    assert fold.detail["others_to_bettor"]["expected"] < 0.9 * fold.count
    # the evidence: Ana's folds to Bo's bets, the most chips first, told in words
    hands_ = pairs[0].evidence["fold_to"]
    assert 1 <= len(hands_) <= 10 and all(h["actor"] == "Ana" for h in hands_)
    assert [h["chips"] for h in hands_] == sorted((h["chips"] for h in hands_), reverse=True)
    assert all("Ana folds" in h["what"] and "Ana held" in h["what"] for h in hands_)
    # the chips each evidence hand says moved are the hand's: Ana's net loss covers them
    for h in hands_:
        net = con.execute("SELECT net FROM seats WHERE site = ? AND hand_id = ? AND player = "
                          "'Ana'", [h["site"], h["hand_id"]]).fetchall()[0][0]  # fmt: skip
        assert -net >= h["chips"]


@pytest.mark.parametrize(("mode", "seed", "hands"), [
    ("dump-fold", 12, 3000), ("soft-play", 18, 1000), ("card-share", 19, 1000)])  # fmt: skip
def test_three_handed_colluders_are_found_first(tmp_path: Path, mode: str, seed: int,
                                                hands: int) -> None:  # fmt: skip
    """The pair and one honest player a table (who changes as players go broke)."""
    con = _db(tmp_path, [(Game.CHIRIBITO, seed, 3, 2, _pair(mode), hands)])
    _first_alerted(integrity(con, Filters()), DUMPERS)


@pytest.mark.parametrize("mode", ["soft-play", "card-share"])
def test_collusion_in_30_percent_of_hands_is_found_first(tmp_path: Path, mode: str) -> None:
    seed = {"soft-play": 13, "card-share": 14}[mode]
    con = _db(tmp_path, [(Game.CHIRIBITO, seed, 6, 2, _pair(mode, 0.3), 3000)])
    _first_alerted(integrity(con, Filters()), DUMPERS)


@pytest.fixture(scope="module")
def ring_db(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    ring = (Collusion("Ana", "Bo", "soft-play"), Collusion("Bo", "Cy", "soft-play"),
            Collusion("Ana", "Cy", "soft-play"))  # fmt: skip
    return _db(tmp_path_factory.mktemp("ring"), [(Game.CHIRIBITO, 17, 6, 2, ring, 1000)])


def test_a_ring_of_three_is_found_first(ring_db: duckdb.DuckDBPyConnection) -> None:
    pairs = integrity(ring_db, Filters())
    _first_alerted(pairs, {frozenset(p) for p in (("Ana", "Bo"), ("Bo", "Cy"), ("Ana", "Cy"))})
    assert all(p.ring == ["Ana", "Bo", "Cy"] for p in pairs[:3])


def _verdicts(pairs: list[Pair]) -> list[tuple[object, ...]]:
    # scores as shown: the last bits of float sums vary with DuckDB's threads
    return [(p.players, p.game, p.alert, p.tier, round(p.score, 3)) for p in pairs]


@pytest.mark.parametrize("narrow", [
    Filters(min_hands=200), Filters(min_hands=900), Filters(players=("Bo",)),
    Filters(players=("Cy", "Dario")), Filters(games=("chiribito",)),
    Filters(games=("calatone",)),
])  # fmt: skip
def test_filters_narrow_the_list_never_the_verdicts(ring_db: duckdb.DuckDBPyConnection,
                                                    narrow: Filters) -> None:  # fmt: skip
    """The alerted pairs of a filtered report are exactly the alerted pairs
    of the whole report that the filter keeps (the baselines and the false
    discovery rate are fitted on every pair, whatever is shown)."""
    whole = integrity(ring_db, Filters())
    kept = [p for p in whole if p.hands_together >= max(narrow.min_hands, 1)
            and (not narrow.games or p.game in narrow.games)
            and (not narrow.players or set(p.players) & set(narrow.players))]
    assert _verdicts(integrity(ring_db, narrow)) == _verdicts(kept)
    assert any(p.alert for p in whole)


def test_honest_friends_who_always_sit_together_raise_nothing(tmp_path: Path) -> None:
    con = _db(tmp_path, [(Game.CHIRIBITO, 16, 6, 2, _pair("friends"), 1500)])
    pairs = integrity(con, Filters())
    friends = next(p for p in pairs if set(p.players) == {"Ana", "Bo"})
    assert friends.hands_together >= 1400
    assert not any(p.alert for p in pairs), [(p.players, p.score) for p in pairs if p.alert]


@pytest.mark.parametrize("game", list(Game))
def test_honest_population_with_heads_up_tables_raises_nothing(tmp_path: Path,
                                                               game: Game) -> None:  # fmt: skip
    """Heads-up tables (regulars who meet no one else) beside full ones."""
    con = _db(tmp_path, [(game, 21, 2, 4, (), 1000), (game, 22, 6, 2, (), 1000)])
    pairs = integrity(con, Filters())
    assert sum(p.hands_together >= 200 for p in pairs) >= 10
    assert not any(p.alert for p in pairs), [(p.players, p.score) for p in pairs if p.alert]


@pytest.mark.parametrize("mode", MODES)
def test_new_policies_keep_hands_valid_and_the_rate_is_a_share_of_hands(mode: str) -> None:
    pair = Collusion("Ana", "Bo", mode, 0.3)
    for hand in Simulator(Game.CALATONE, 5, players=3, tables=2, colluders=(pair,)).hands(80):
        assert {"Ana", "Bo"} <= {s.name for s in hand.seats}
        verdict = validate(hand)
        assert verdict.valid, (hand.header.hand_id, verdict.violations)


def test_collusion_rate_draws_hands_apart_from_the_honest_draws() -> None:
    """At rate 0.3 a dumper folds to every bet of the partner in about 30% of
    the hands; the honest players' decisions and cards are the simulator's."""
    from hh.collusion import _colludes

    pair = Collusion("Ana", "Bo", "dump-fold", 0.3)

    class _Sim:
        seed, number = 9, 0

    class _Play:
        sim = _Sim()

    play = _Play()
    drawn = []
    for k in range(2000):
        play.sim.number = k
        drawn.append(_colludes(play, pair))  # type: ignore[arg-type]  # a stand-in hand
    assert 0.27 < sum(drawn) / len(drawn) < 0.33
    again = []
    for k in range(2000):
        play.sim.number = k
        again.append(_colludes(play, pair))  # type: ignore[arg-type]  # a stand-in hand
    assert again == drawn


def _judged(name: str, p: float) -> Signal:
    s = Signal(count=10, opportunity=20, expected=5.0)
    s.probability = p
    return s


def _synthetic(ps: dict[str, float]) -> Pair:
    signals = {n: Signal() for n in SIGNALS}
    signals.update({n: _judged(n, p) for n, p in ps.items()})
    return Pair("chiribito", ("A", "B"), 500, signals)


def test_benjamini_hochberg_threshold_and_tiers() -> None:
    """Five pairs judged. A pair's probability: twice the smaller of the
    smallest signal's p x 7 signals, and C(5, 2) x q2^2 (q2: the second
    smallest of the 5 families' p, each its smallest x its signals). BH at
    ALERT keeps the largest k with adjusted_(k) <= k/5 x ALERT."""
    assert len(BEHAVIOUR) == 7 and ALERT == 0.01 and SUPPORT == 0.001
    pairs = [
        _synthetic({"fold_to": 1e-5, "chip_flow": 1e-4}),  # two families
        _synthetic({"fold_to": 1e-4, "fold_ahead": 2e-4}),  # one family (folds)
        _synthetic({"soft_play": 1e-3}),
        _synthetic({"card_share": 0.1}),
        _synthetic({"card_share": 0.5}),
        Pair("chiribito", ("C", "D"), 199, {n: _judged(n, 1e-9) for n in SIGNALS}),  # too few
    ]
    _alerts(pairs)
    want = [2 * 10 * (2 * 1e-4) ** 2, 2 * 7 * 1e-4, 2 * 7 * 1e-3, 1.0, 1.0]
    assert [p.adjusted for p in pairs[:5]] == pytest.approx(want)
    # sorted: 8e-7 <= 0.002, 1.4e-3 <= 0.004, 0.014 > 0.006, 1 > 0.008, 1 > 0.01
    assert [p.alert for p in pairs] == [True, True, False, False, False, False]
    assert pairs[0].threshold == pytest.approx(1.4e-3)
    assert [p.tier for p in pairs] == ["escalate", "review", None, None, None, None]
    assert pairs[5].score == 0.0 and pairs[0].score == pytest.approx(-math.log10(8e-7))
    d = json.loads(to_json(pairs[:1]))[0]
    assert d["tier"] == "escalate" and d["fdr"] == {"rate": 0.01, "adjusted": 8e-7,
                                                    "threshold": 0.0014}  # fmt: skip
    assert {"players", "game", "score", "alert", "evidence"} <= set(d)


def test_terminal_reads_at_80_columns_and_page_links_the_replayer(tmp_path: Path) -> None:
    from rich.console import Console

    con = _db(tmp_path, [(Game.CHIRIBITO, 11, 6, 2, _pair("dump-fold"), 1000)])
    pairs = integrity(con, Filters())
    console = Console(file=io.StringIO(), record=True, width=80)
    show(console, pairs, limit=3)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "1. Ana & Bo" in text and "Ana folds to Bo's bets" in text
    assert re.search(r"false discovery rate 0\.01", text)
    assert len(re.findall(r"^\d+\. ", text, re.M)) == 1 + 3  # one block per pair
    html = page(pairs)
    hand = pairs[0].evidence["fold_to"][0]
    assert f'href="/hand?site={hand["site"]}&amp;id={hand["hand_id"]}"' in html


def test_overdispersion_on_the_tested_tail_needs_pairs_there() -> None:
    """Fitted on the tested tail only (fold_to): with fewer than 20 pairs
    there, no overdispersion term (the z's stand), and no error."""
    from reports.integrity.signals import EMPIRICAL_PAIRS, _overdispersed

    signals = []
    for k in range(40):
        s = Signal(count=10, opportunity=50, expected=20.0 + k)
        s.judge(10, 20.0 + k, 16.0)
        signals.append(s)
    before = [s.z for s in signals]
    assert all(z is not None and z < 0 for z in before) and len(signals) > EMPIRICAL_PAIRS
    _overdispersed(signals, "upper", tested_side=True)
    assert [s.z for s in signals] == before
    _overdispersed(signals, "upper")  # both tails: fitted, the z's shrink
    assert all(abs(s.z or 0) <= abs(z or 0) for s, z in zip(signals, before, strict=True))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_hh_serve_integrity_page_is_the_queue_with_replayer_links(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from reports.web.app import Config, create_app

    _db(tmp_path, [(Game.CHIRIBITO, 11, 6, 2, _pair("dump-fold"), 1000)]).close()
    with TestClient(create_app(Config(db=str(tmp_path / "s.duckdb"))),
                    raise_server_exceptions=False) as client:  # fmt: skip
        r = client.get("/integrity")
        assert r.status_code == 200
        # its one script (the reviewers' forms) from this server, none inline
        assert "script-src 'self';" in r.headers["content-security-policy"]
        assert "<script>" not in r.text
        html = r.text
        assert "Ana &amp; Bo" in html and "ESCALATE" in html
        link = re.search(r'href="(/hand\?site=[^"]+)"', html)
        assert link is not None
        hand = client.get(link.group(1).replace("&amp;", "&"))
        assert hand.status_code == 200 and "Ana" in hand.text
