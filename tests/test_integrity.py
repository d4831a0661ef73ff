
"""hh report integrity and the simulator's colluders: exact signals on
hand-written sessions, the JSON shape, escaping, and colluders' hands valid."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from hh.cli import app as hh_app
from hh.collusion import Collusion
from hh.model import Game
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand
from pipelines.cli import register as register_import
from reports.cli import register as register_report
from reports.db import Filters
from reports.integrity.render import page, show, to_json
from reports.integrity.signals import SIGNALS, Pair, Signal, integrity, rings

runner = CliRunner()
app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh import and hh report."""


register_import(app)
register_report(app)


def _fold_hand(k: int, ana: str, blas: str, board: list[str], folder: str = "Ana") -> str:
    """Heads-up Chiribito: dealer Ana (1), blind Blas (2); checked to
    COMMON 5, where Blas bets 100 and ``folder`` ... Ana folds."""
    b = board
    return "\n".join([
        f"chiribito.com Hand #T-{k}: Chiribito No Limit (blind 20) - 2026/11/30 10:0{k}:00 CET",
        f"Table 'Mérida {k}' 6-max Seat #1 is the dealer",
        "Seat 1: Ana (1000 in chips)",
        "Seat 2: Blas (1000 in chips)",
        "Blas: posts blind 20",
        "*** HOLE CARDS ***",
        f"Dealt to Blas: down [{blas}]",
        f"Dealt to Ana: down [{ana}]",
        "Ana: calls 20",
        f"*** COMMON 1 *** [{b[0]}]",
        "Blas: checks", "Ana: checks",
        f"*** COMMON 2 *** [{b[0]}] [{b[1]}]",
        "Blas: checks", "Ana: checks",
        f"*** COMMON 3 *** [{' '.join(b[:2])}] [{b[2]}]",
        "Blas: checks", "Ana: checks",
        f"*** COMMON 4 *** [{' '.join(b[:3])}] [{b[3]}]",
        "Blas: checks", "Ana: checks",
        f"*** COMMON 5 *** [{' '.join(b[:4])}] [{b[4]}]",
        "Blas: bets 100",
        "Ana: folds",
        "Uncalled bet (100) returned to Blas",
        "Blas: collected 40 from pot",
        "*** SUMMARY ***",
        "Total pot 40 | Rake 0",
        f"Board [{' '.join(b)}]",
        "Seat 1: Ana: folded on COMMON 5",
        "Seat 2: Blas: won 40",
    ])


def _import(tmp_path: Path, text: str) -> duckdb.DuckDBPyConnection:
    src = tmp_path / "hands.txt"
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    result = runner.invoke(app, ["import", str(src), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return duckdb.connect(str(db), read_only=True)


# Ana's [So Ro] + board [Co Ao 5o 6c 7e]: a flush of oros (S R C A 5), which beats
# Blas's [5c 5e] trips of fives with the board's 5o; in hand 3 Ana holds [6e 7c]:
# two pair, behind Blas's trips (5c 5e 5o).
FLUSH_BOARD = ["Co", "Ao", "5o", "6b", "7e"]


def test_fold_ahead_counts_a_made_flush_folded_to_the_partners_bet(tmp_path: Path) -> None:
    text = "\n\n".join([
        _fold_hand(1, "So Ro", "5c 5e", FLUSH_BOARD),
        _fold_hand(2, "So Ro", "5c 5e", FLUSH_BOARD),
        _fold_hand(3, "6e 7c", "5c 5e", FLUSH_BOARD),
    ]) + "\n"
    con = _import(tmp_path, text)
    assert con.execute("SELECT count(*) FROM hands WHERE valid").fetchone() == (3,)
    (pair,) = integrity(con, Filters())
    assert pair.players == ("Ana", "Blas") and pair.hands_together == 3
    fold = pair.signals["fold_ahead"]
    assert (fold.count, fold.opportunity, fold.detail["unjudged"]) == (2, 3, 0)
    assert sorted(fold.evidence) == ["T-1", "T-2"]
    # with no one else, the null rate is the shrunk population rate of the pair itself
    assert fold.probability is None  # too few expected events to judge
    soft = pair.signals["soft_play"]
    # per hand Ana calls once and checks 4 times, Blas checks 4 times and bets once,
    # all heads-up with the other (the fold is no betting decision)
    assert (soft.count, soft.opportunity) == (3, 30)
    assert soft.detail["heads_up"]["checks"] == 24
    flow = pair.signals["chip_flow"]
    # each hand Ana's 20 goes to Blas
    assert (flow.count, flow.value, flow.detail["chips_a_to_b"]) == (3, 60.0, 60)
    assert not pair.alert


def test_fold_ahead_unjudged_where_cards_are_hidden(tmp_path: Path) -> None:
    text = _fold_hand(1, "So Ro", "?? ??", FLUSH_BOARD) + "\n"
    con = _import(tmp_path, text)
    (pair,) = integrity(con, Filters())
    fold = pair.signals["fold_ahead"]
    assert (fold.count, fold.opportunity, fold.detail["unjudged"]) == (0, 0, 1)


# Ana (200) all-in on the first round, Blas and Ceci call; Ceci bets 100 on
# COMMON 1 and Blas calls. Main pot 600 (200 from each) to Ana's trip aces,
# side pot-1 200 (100 from Blas and Ceci) to Blas's trip kings.
SIDE_POT = """\
chiribito.com Hand #S-1: Chiribito No Limit (blind 20) - 2026/11/30 11:00:00 CET
Table 'Cádiz' 6-max Seat #3 is the dealer
Seat 1: Ana (200 in chips)
Seat 2: Blas (1000 in chips)
Seat 3: Ceci (1000 in chips)
Blas: posts blind 20
*** HOLE CARDS ***
Dealt to Blas: down [Rc Ro]
Dealt to Ana: down [Ao Ae]
Dealt to Ceci: down [6o 6e]
Ana: raises 180 to 200 and is all-in
Ceci: calls 200
Blas: calls 180
*** COMMON 1 *** [Ab]
Ceci: bets 100
Blas: calls 100
*** COMMON 2 *** [Ab] [7e]
Ceci: checks
Blas: checks
*** COMMON 3 *** [Ab 7e] [5c]
Ceci: checks
Blas: checks
*** COMMON 4 *** [Ab 7e 5c] [Sb]
Ceci: checks
Blas: checks
*** COMMON 5 *** [Ab 7e 5c Sb] [Re]
Ceci: checks
Blas: checks
*** SHOWDOWN ***
Ceci: shows [6o 6e] (a pair, Seises)
Blas: shows [Rc Ro] (three of a kind, Reyes)
Ana: shows [Ao Ae] (three of a kind, Ases)
Ana: collected 600 from main pot
Blas: collected 200 from side pot-1
*** SUMMARY ***
Total pot 800 Main pot 600. Side pot-1 200. | Rake 0
Board [Ab 7e 5c Sb Re]
"""


def test_chip_flow_follows_each_pot(tmp_path: Path) -> None:
    con = _import(tmp_path, SIDE_POT)
    assert con.execute("SELECT valid FROM hands").fetchall() == [(True,)]
    pairs = {p.players: p for p in integrity(con, Filters())}
    assert set(pairs) == {("Ana", "Blas"), ("Ana", "Ceci"), ("Blas", "Ceci")}
    flows = {k: (p.signals["chip_flow"].detail["chips_a_to_b"],
                 p.signals["chip_flow"].detail["chips_b_to_a"]) for k, p in pairs.items()}
    # Blas's and Ceci's 200 of the main pot go to Ana; Ceci's 100 of the side pot to Blas
    assert flows == {("Ana", "Blas"): (0, 200), ("Ana", "Ceci"): (0, 200),
                     ("Blas", "Ceci"): (0, 100)}
    assert pairs[("Blas", "Ceci")].signals["chip_flow"].value == -100.0


# Blas folds [Ro Rc] to Ana's raise with Ceci in: on the hole cards he is behind
# Ana's aces only (ahead of Ceci's 5-6): the one opponent ahead is Ana.
CARD_SHARE = """\
chiribito.com Hand #C-1: Chiribito No Limit (blind 20) - 2026/11/30 12:00:00 CET
Table 'Ávila' 6-max Seat #3 is the dealer
Seat 1: Ana (1000 in chips)
Seat 2: Blas (1000 in chips)
Seat 3: Ceci (1000 in chips)
Blas: posts blind 20
*** HOLE CARDS ***
Dealt to Blas: down [Ro Rc]
Dealt to Ana: down [Ao Ae]
Dealt to Ceci: down [5o 6c]
Ana: raises 40 to 60
Ceci: calls 60
Blas: folds
*** COMMON 1 *** [7e]
Ana: checks
Ceci: checks
*** COMMON 2 *** [7e] [Sb]
Ana: checks
Ceci: checks
*** COMMON 3 *** [7e Sb] [Cb]
Ana: checks
Ceci: checks
*** COMMON 4 *** [7e Sb Cb] [6e]
Ana: checks
Ceci: checks
*** COMMON 5 *** [7e Sb Cb 6e] [5b]
Ana: checks
Ceci: checks
*** SHOWDOWN ***
Ana: shows [Ao Ae] (a pair)
Ceci: shows [5o 6c] (a straight)
Ceci: collected 140 from pot
*** SUMMARY ***
Total pot 140 | Rake 0
Board [7e Sb Cb 6e 5b]
"""


def test_card_share_and_allin_calls_counted_exactly(tmp_path: Path) -> None:
    con = _import(tmp_path, SIDE_POT + "\n" + CARD_SHARE)
    pairs = {p.players: p for p in integrity(con, Filters())}
    share = {k: (p.signals["card_share"].count, p.signals["card_share"].opportunity)
             for k, p in pairs.items()}
    assert share == {("Ana", "Blas"): (1, 1), ("Ana", "Ceci"): (0, 0), ("Blas", "Ceci"): (0, 1)}
    # S-1: Ceci and then Blas call Ana's all-in raise holding less than her aces
    calls = {k: (p.signals["allin_call_behind"].count, p.signals["allin_call_behind"].opportunity)
             for k, p in pairs.items()}
    assert calls == {("Ana", "Blas"): (1, 1), ("Ana", "Ceci"): (1, 1), ("Blas", "Ceci"): (0, 0)}
    # Blas's fold faces Ana's raise with Ceci in, and he is not ahead of both
    fold = pairs[("Ana", "Blas")].signals["fold_ahead"]
    assert (fold.count, fold.opportunity) == (0, 1)
    overlap = pairs[("Ana", "Blas")].signals["overlap"]
    assert (overlap.count, overlap.expected, overlap.detail["tables"]) == (2, 2.0, 2)
    assert all(p.signals["stack_lost"].opportunity == 0 for p in pairs.values())


@pytest.mark.parametrize("game", list(Game))
@pytest.mark.parametrize("mode", ["soft-play", "chip-dump", "card-share"])
def test_colluders_hands_are_valid_and_seated_everywhere(game: Game, mode: str) -> None:
    pair = Collusion("<i>Ana</i>", "Bo", mode)
    sim = Simulator(game, 11, players=5, tables=2, colluders=(pair,))
    hands = list(sim.hands(120))
    for hand in hands:
        names = {s.name for s in hand.seats}
        assert {"<i>Ana</i>", "Bo"} <= names
        verdict = validate(hand)
        assert verdict.valid, (hand.header.hand_id, verdict.violations)


def test_no_colluders_same_bytes_as_default() -> None:
    a = [write_hand(h) for h in Simulator(Game.CALATONE, 4, tables=2).hands(40)]
    b = [write_hand(h) for h in Simulator(Game.CALATONE, 4, tables=2, colluders=()).hands(40)]
    assert a == b


def _colluded_db(tmp_path: Path, mode: str, name: str = "<b>Ana</b>&co") -> Path:
    src = tmp_path / "s.txt"
    result = runner.invoke(hh_app, ["simulate", "--game", "ch", "--hands", "1500", "--seed", "7",
                                 "--tables", "2", "--players", "6", "--colluders",
                                 f"{name},Bo", "--collusion", mode, "--out", str(src)])
    assert result.exit_code == 0, result.output
    db = tmp_path / "s.duckdb"
    assert runner.invoke(app, ["import", str(src), "--db", str(db)]).exit_code == 0
    return db


def test_soft_play_pair_ranks_first_and_json_shape(tmp_path: Path) -> None:
    db = _colluded_db(tmp_path, "soft-play")
    result = runner.invoke(app, ["report", "integrity", "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)
    top = pairs[0]
    assert top["players"] == sorted(["<b>Ana</b>&co", "Bo"])
    assert top["alert"] is True
    assert isinstance(top["hands_together"], int) and top["hands_together"] >= 1400
    for signal in top["signals"].values():
        assert {"value", "count", "opportunity", "probability"} <= set(signal)
    assert [p["score"] for p in pairs] == sorted((p["score"] for p in pairs), reverse=True)
    assert top["evidence"]


def test_names_escaped_in_terminal_and_html(tmp_path: Path) -> None:
    from rich.console import Console

    db = _colluded_db(tmp_path, "soft-play")
    con = duckdb.connect(str(db), read_only=True)
    pairs = integrity(con, Filters(min_hands=1000))
    console = Console(record=True, width=300)
    show(console, pairs)
    assert "<b>Ana</b>&co & Bo" in console.export_text()
    text = page(pairs)
    assert "<b>Ana" not in text and "&lt;b&gt;Ana&lt;/b&gt;&amp;co &amp; Bo" in text
    # a right-to-left override would make one name read as another: shown escaped
    from dataclasses import replace

    sneaky = [replace(pairs[0], players=("Bo", "Ana\u202eoc"))]
    console = Console(record=True, width=300)
    show(console, sneaky)
    assert "Bo & Ana\\u202eoc" in console.export_text()
    assert "\u202e" not in console.export_text() + page(sneaky)
    assert "Bo &amp; Ana\\u202eoc" in page(sneaky)
    # in CSV, a name a spreadsheet would run as a formula starts with an apostrophe
    import csv
    import io

    from reports.integrity.render import to_csv

    formula = [replace(pairs[0], players=("=cmd|' /C calc'!A0", "Bo"))]
    row = next(csv.DictReader(io.StringIO(to_csv(formula))))
    assert (row["player_a"], row["player_b"]) == ("'=cmd|' /C calc'!A0", "Bo")


def test_honest_pair_sitting_together_is_not_flagged_by_overlap(tmp_path: Path) -> None:
    """One table, no colluders: the same players sit together for hundreds
    of hands; overlap is reported but never raises the alert on its own."""
    src = tmp_path / "h.txt"
    sim = Simulator(Game.CHIRIBITO, 3, players=4, tables=1)
    src.write_text("\n\n".join(write_hand(h) for h in sim.hands(1200)) + "\n", "utf-8")
    db = tmp_path / "h.duckdb"
    assert runner.invoke(app, ["import", str(src), "--db", str(db)]).exit_code == 0
    con = duckdb.connect(str(db), read_only=True)
    pairs = integrity(con, Filters())
    most = max(pairs, key=lambda p: p.hands_together)
    assert most.hands_together >= 300
    assert not most.alert


def _flagged(a: str, b: str, score: float, alert: bool = True, game: str = "calatone") -> Pair:
    """A pair as the report gives it, flagged or not (the ring grouping reads
    only who alerts with whom)."""
    return Pair(game, (a, b), 500, {name: Signal() for name in SIGNALS}, score=score,
                alert=alert)


def test_three_players_flagged_pairwise_are_one_ring() -> None:
    """A, B and C alert pairwise (a ring); D alerts with A only (a pair, no
    ring); E-F-G are not all flagged with each other (E-G does not alert);
    the same three names in another game are another graph."""
    ring_names = ["<i>Ana</i>", "Bo", "Cy"]
    pairs = [
        _flagged("<i>Ana</i>", "Bo", 9.0), _flagged("<i>Ana</i>", "Cy", 7.0),
        _flagged("Bo", "Cy", 8.0), _flagged("<i>Ana</i>", "Di", 6.0),
        _flagged("Ed", "Fi", 5.0), _flagged("Fi", "Gu", 5.0), _flagged("Ed", "Gu", 5.0, False),
        _flagged("<i>Ana</i>", "Bo", 5.0, game="chiribito"),
    ]  # fmt: skip
    found = rings(pairs)
    assert [(r.game, list(r.players), r.score) for r in found] == [
        ("calatone", ring_names, 7.0)]
    assert [p.ring for p in pairs] == [ring_names] * 3 + [None] * 5
    assert json.loads(to_json(pairs))[0]["ring"] == ring_names
    assert json.loads(to_json(pairs))[3]["ring"] is None
    from rich.console import Console

    console = Console(record=True, width=300)
    show(console, pairs)
    assert "ring of 3 (calatone): <i>Ana</i>, Bo, Cy" in console.export_text()
    text = page(pairs)
    assert "<li>Calatone: &lt;i&gt;Ana&lt;/i&gt;, Bo, Cy</li>" in text
    assert "<i>" not in text


def test_two_rings_sharing_a_player() -> None:
    """A-B-C and A-D-E are two triangles through A: two rings of three; B-D
    do not alert, so A-B-C-D-E is not one ring."""
    pairs = [_flagged(a, b, 4.0) for a, b in
             (("A", "B"), ("A", "C"), ("B", "C"), ("A", "D"), ("A", "E"), ("D", "E"))]
    assert sorted(r.players for r in rings(pairs)) == [("A", "B", "C"), ("A", "D", "E")]


def test_values_as_shown_do_not_carry_the_sign_of_a_float_sum() -> None:
    """A z that comes to -0.0 (a sum of terms that cancel, in the order
    DuckDB's threads added them) is shown as 0.0: the same JSON every run."""
    s = Signal(value=-0.0, count=3, opportunity=6, expected=-1e-9, z=-0.0)
    shown = s.as_dict()
    assert (shown["value"], shown["expected"], shown["z"]) == (0.0, 0.0, 0.0)
    assert json.dumps(shown).count("-0.0") == 0


def test_rings_whose_scores_differ_past_the_third_place_rank_by_name() -> None:
    """Two rings of equal size whose weakest scores agree as shown rank by
    their names, whatever bits past the third place the float sums left."""
    def pair(a: str, b: str, score: float) -> Pair:
        return Pair("chiribito", (a, b), 100, {}, score=score, alert=True)

    ring_b = [pair("B1", "B2", 5.0000001), pair("B1", "B3", 5.0000001),
              pair("B2", "B3", 5.0000001)]  # fmt: skip
    ring_a = [pair("A1", "A2", 5.0), pair("A1", "A3", 5.0), pair("A2", "A3", 5.0)]
    found = rings(ring_b + ring_a)
    assert [r.players for r in found] == [("A1", "A2", "A3"), ("B1", "B2", "B3")]
