"""The seats' standings kept for the integrity report (reports.integrity.standings:
computed by its first report, then by the hh.derive hook at each import),
the report read from them, and the stack-lost tie: exact rows and counts on
hand-written hands."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from hh.evaluate import evaluator_for
from pipelines.cli import register as register_import
from reports.cache import default_path
from reports.db import Filters
from reports.integrity import standings
from reports.integrity.render import to_json
from reports.integrity.signals import integrity
from reports.integrity.standings import KIND
from tests.test_integrity import FLUSH_BOARD, _fold_hand

runner = CliRunner()
app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh import."""


register_import(app)


def _import(tmp_path: Path, text: str, name: str = "hands.txt") -> Path:
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    result = runner.invoke(app, ["import", str(src), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def _stored(db: Path) -> dict[tuple[str, str], dict[int, int]]:
    """(hand id, player) -> {round: standing} as the cache keeps them (none:
    no standings kept)."""
    con = duckdb.connect(str(db), read_only=True)
    con.execute(f"ATTACH '{default_path(db)}' AS c (READ_ONLY)")
    if not con.execute(f"SELECT count(*) FROM duckdb_tables() WHERE database_name = 'c' "
                       f"AND table_name = '{KIND}'").fetchall()[0][0]:  # fmt: skip
        con.close()
        return {}
    rows = con.execute(f"""
        SELECT h.hand_id, s.player, s.round, s.standing FROM c.{KIND} s
        JOIN hands h ON hash(h.content_hash, h.hh_version, h.site, h.hand_id) = s.hk
        ORDER BY ALL""").fetchall()  # fmt: skip
    con.close()
    out: dict[tuple[str, str], dict[int, int]] = {}
    for hand_id, player, rnd, value in rows:
        out.setdefault((hand_id, player), {})[rnd] = value
    return out


def test_standings_kept_from_the_first_integrity_report_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana folds on COMMON 5 (round 5) in each hand: both players have rounds
    0 to 5; in T-4 Blas's cards are ``??``: he has no row, and the fold is
    not judged. On round 5 the standing is the evaluator's value of the
    hole cards with the five common cards. A first import keeps none (no
    integrity report read the database); the first report computes them
    all, here 3 hands at a time; the import after it computes its new
    hands'."""
    db = _import(tmp_path, "\n\n".join([
        _fold_hand(1, "So Ro", "5c 5e", FLUSH_BOARD),
        _fold_hand(2, "So Ro", "5c 5e", FLUSH_BOARD),
        _fold_hand(3, "6e 7c", "5c 5e", FLUSH_BOARD),
        _fold_hand(4, "So Ro", "?? ??", FLUSH_BOARD),
    ]) + "\n")  # fmt: skip
    assert _stored(db) == {}
    monkeypatch.setattr(standings, "BATCH", 3)
    heard: list[tuple[str, int, int]] = []
    con = duckdb.connect(str(db), read_only=True)
    (pair,) = integrity(con, Filters(), cache=default_path(db),
                        progress=lambda *a: heard.append(a))  # fmt: skip
    con.close()
    assert [h for h in heard if h[0] == "standings"] == [
        ("standings", 0, 4), ("standings", 3, 4), ("standings", 4, 4)]
    stored = _stored(db)
    assert sorted(stored) == [("T-1", "Ana"), ("T-1", "Blas"), ("T-2", "Ana"), ("T-2", "Blas"),
                              ("T-3", "Ana"), ("T-3", "Blas"), ("T-4", "Ana")]  # fmt: skip
    assert all(sorted(rounds) == [0, 1, 2, 3, 4, 5] for rounds in stored.values())
    ev = evaluator_for("chiribito")
    assert stored[("T-1", "Ana")][5] == ev.value(["So", "Ro"], FLUSH_BOARD)
    assert stored[("T-3", "Ana")][5] == ev.value(["6e", "7c"], FLUSH_BOARD)
    assert stored[("T-1", "Blas")][5] == ev.value(["5c", "5e"], FLUSH_BOARD)
    assert stored[("T-1", "Ana")][5] > stored[("T-1", "Blas")][5]  # the flush, ahead
    assert stored[("T-3", "Ana")][5] < stored[("T-3", "Blas")][5]  # two pair, behind trips
    # the report read them: 2 folds ahead of 3 judged, 1 not judged (T-4)
    fold = pair.signals["fold_ahead"]
    assert (fold.count, fold.opportunity, fold.detail["unjudged"]) == (2, 3, 1)
    assert sorted(fold.evidence) == ["T-1", "T-2"]
    # now the import computes the standings of its new hands
    _import(tmp_path, _fold_hand(5, "6e 7c", "5c 5e", FLUSH_BOARD) + "\n", name="more.txt")
    more = _stored(db)
    assert sorted(more) == sorted([*stored, ("T-5", "Ana"), ("T-5", "Blas")])
    assert more[("T-5", "Ana")] == stored[("T-3", "Ana")]
    con = duckdb.connect(str(db), read_only=True)
    (pair,) = integrity(con, Filters(), cache=default_path(db))
    fold = pair.signals["fold_ahead"]
    assert (fold.count, fold.opportunity, fold.detail["unjudged"]) == (2, 4, 1)
    # computed afresh (no cache: in memory), the report is the same
    assert to_json([pair]) == to_json(integrity(con, Filters()))


# Ana (200) all-in, Blas and Ceci call and check it down; their pairs of kings
# tie and beat Ana's sixes: each takes 100 of her 200.
TIE = """\
chiribito.com Hand #E-1: Chiribito No Limit (blind 20) - 2026/11/30 13:00:00 CET
Table 'Teruel' 6-max Seat #3 is the dealer
Seat 1: Ana (200 in chips)
Seat 2: Blas (1000 in chips)
Seat 3: Ceci (1000 in chips)
Blas: posts blind 20
*** HOLE CARDS ***
Dealt to Blas: down [Rc Ro]
Dealt to Ana: down [6o 6e]
Dealt to Ceci: down [Re Rb]
Ana: raises 180 to 200 and is all-in
Ceci: calls 200
Blas: calls 180
*** COMMON 1 *** [Ab]
Ceci: checks
Blas: checks
*** COMMON 2 *** [Ab] [7e]
Ceci: checks
Blas: checks
*** COMMON 3 *** [Ab 7e] [5c]
Ceci: checks
Blas: checks
*** COMMON 4 *** [Ab 7e 5c] [Sb]
Ceci: checks
Blas: checks
*** COMMON 5 *** [Ab 7e 5c Sb] [Co]
Ceci: checks
Blas: checks
*** SHOWDOWN ***
Ceci: shows [Re Rb] (a pair, Reyes)
Blas: shows [Rc Ro] (a pair, Reyes)
Ana: shows [6o 6e] (a pair, Seises)
Blas: collected 300 from pot
Ceci: collected 300 from pot
*** SUMMARY ***
Total pot 600 | Rake 0
Board [Ab 7e 5c Sb Co]
"""


def test_stack_lost_to_two_who_took_as_much_counts_for_each(tmp_path: Path) -> None:
    db = _import(tmp_path, TIE)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT valid FROM hands").fetchall() == [(True,)]
    pairs = {p.players: p for p in integrity(con, Filters(), cache=default_path(db))}
    lost = {k: (p.signals["stack_lost"].count, p.signals["stack_lost"].opportunity,
                p.signals["stack_lost"].evidence) for k, p in pairs.items()}  # fmt: skip
    assert lost == {("Ana", "Blas"): (1, 1, ["E-1"]), ("Ana", "Ceci"): (1, 1, ["E-1"]),
                    ("Blas", "Ceci"): (0, 0, [])}  # fmt: skip
    # each one's 200 goes half to each winner: Blas's and Ceci's to each other, but
    # the half each wins back of his own
    flows = {k: (p.signals["chip_flow"].detail["chips_a_to_b"],
                 p.signals["chip_flow"].detail["chips_b_to_a"]) for k, p in pairs.items()}
    assert flows == {("Ana", "Blas"): (100, 0), ("Ana", "Ceci"): (100, 0),
                     ("Blas", "Ceci"): (100, 100)}  # fmt: skip
    assert json.loads(to_json(list(pairs.values())))[0]["players"] == ["Ana", "Blas"]


def test_soft_play_baseline_is_the_population_times_the_players_own_factor(
        tmp_path: Path) -> None:  # fmt: skip
    """Ana plays 3 hands heads-up with Blas and 3 with Ceci (T-1..T-3 as
    Blas, T-4..T-6 as Ceci). Per hand Ana calls once (facing a bet, round
    0) and checks on rounds 1 to 4; the other checks rounds 1 to 4 and bets
    on round 5. Population, heads-up: round 3+ not facing (rounds 3, 4, 5)
    30 actions, 6 bets (0.2); every other stratum 0 bets.
    Ana -> Blas: Ana's own with the others (Ceci): 6 actions of that stratum,
    0 bets, where the population expects 1.2: factor (0 + 20) / (1.2 + 20);
    prior odds 0.25 x factor; her rate (0 + 20 prior) / (6 + 20), times her
    6 actions there. Blas -> Ana: Blas has no one else: factor 1, the
    population's 0.2 times his 9 actions there."""
    hands = [_fold_hand(k, "6e 7c", "5c 5e", FLUSH_BOARD) for k in (1, 2, 3)]
    hands += [_fold_hand(k, "6e 7c", "5c 5e", FLUSH_BOARD).replace("Blas", "Ceci")
              for k in (4, 5, 6)]  # fmt: skip
    db = _import(tmp_path, "\n\n".join(hands) + "\n")
    con = duckdb.connect(str(db), read_only=True)
    pairs = {p.players: p for p in integrity(con, Filters())}
    assert set(pairs) == {("Ana", "Blas"), ("Ana", "Ceci")}
    factor = 20 / (6 * 0.2 + 20)
    odds = 0.25 * factor
    ana = 6 * (20 * odds / (1 + odds)) / (6 + 20)
    for pair in pairs.values():
        soft = pair.signals["soft_play"]
        assert (soft.count, soft.opportunity) == (3, 30)
        assert soft.expected == pytest.approx(ana + 9 * 0.2, abs=1e-9)  # 2.6808
        assert soft.probability is None  # under 5 expected: not judged
