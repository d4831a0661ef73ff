"""Hand-computed statistics on a small hand-written set, each stat, each game.

Every expected figure below was worked out by hand from the action lines
(see the comment above each hand); the set is built as schema rows
(tests/reportdb.py), so these tests do not depend on the import.
"""

from __future__ import annotations

import polars as pl
import pytest

from reports.db import Filters, connect
from reports.players.report import players
from reports.players.stats import RATES
from tests.reportdb import build, hand, merge

CH, AS, CA = "chiribito", "aces-straights-flushes", "calatone"


def _set() -> dict:
    return merge(
        # Chiribito, A is the blind. B calls, C raises to 40, A folds, B calls;
        # C c-bets COMMON 1, B folds. Pot 100 to C.
        hand(CH, "c1", [("A", -20, 0, 20, {"folded_round": 0, "down_cards": ["Ao", "Rc"]}),
                        ("B", -40, 0, 40, {"folded_round": 1, "down_cards": ["5c", "6c"]}),
                        ("C", 60, 100, 40, {"down_cards": ["Ce", "Cb"], "rake_paid": 0})],
             """-1 A blind 20
                0 B call 20
                0 C raise 40
                0 A fold
                0 B call 20
                1 C bet 60
                1 B fold
                1 C uncalled 60""",
             forced=20, last_round=1, showdown=False),
        # Nobody raises: A (blind) never acts in round 1. COMMON 1: A checks,
        # B bets 40, C calls, A folds; then checks to the showdown; B (La
        # Perla So 7o) wins 130 after a rake of 10.
        hand(CH, "c2", [("A", -20, 0, 20, {"folded_round": 1, "down_cards": ["Ao", "Rc"]}),
                        ("B", 70, 130, 60, {"went_to_showdown": True, "rake_paid": 10,
                                            "down_cards": ["So", "7o"]}),
                        ("C", -60, 0, 60, {"went_to_showdown": True,
                                           "down_cards": ["5c", "5e"]})],
             """-1 A blind 20
                0 B call 20
                0 C call 20
                1 A check
                1 B bet 40
                1 C call 40
                1 A fold
                2 B check
                2 C check
                3 B check
                3 C check
                4 B check
                4 C check
                5 B check
                5 C check""",
             forced=20, last_round=5, showdown=True, rake=10),
        # B raises to 40, C re-raises to 80, A folds, B folds; 40 back to C.
        hand(CH, "c3", [("A", -20, 0, 20, {"folded_round": 0}),
                        ("B", -40, 0, 40, {"folded_round": 0}),
                        ("C", 60, 100, 40)],
             """-1 A blind 20
                0 B raise 40
                0 C raise 80
                0 A fold
                0 B fold
                0 C uncalled 40""",
             forced=20, last_round=0, showdown=False),
        # ASF, ante 1. D bets, E raises, F calls, D re-raises, E and F call.
        # 4th: E bets first (no c-bet chance for D), D calls, F folds; then
        # checks to the showdown. D's spade flush needs the joker; he wins 14.
        hand(AS, "a1", [("D", 9, 14, 5, {"went_to_showdown": True,
                                          "down_cards": ["As", "Ks", "2c"],
                                          "up_cards": ["Qs", "7s", "9d"]}),
                        ("E", -5, 0, 5, {"went_to_showdown": True,
                                         "down_cards": ["9c", "9h", "3h"],
                                         "up_cards": ["5c", "5d", "Kd"]}),
                        ("F", -4, 0, 4, {"folded_round": 1})],
             """-1 D ante 1
                -1 E ante 1
                -1 F ante 1
                0 D bet 1
                0 E raise 2
                0 F call 2
                0 D raise 2
                0 E call 1
                0 F call 1
                1 E bet 1
                1 D call 1
                1 F fold
                2 E check
                2 D check
                3 E check
                3 D check""",
             forced=1, last_round=3, showdown=True),
        # D bets, E calls, F folds; 4th: D c-bets, E folds; D's 1 comes back.
        hand(AS, "a2", [("D", 3, 5, 2), ("E", -2, 0, 2, {"folded_round": 1}),
                        ("F", -1, 0, 1, {"folded_round": 0})],
             """-1 D ante 1
                -1 E ante 1
                -1 F ante 1
                0 D bet 1
                0 E call 1
                0 F fold
                1 D bet 1
                1 E fold
                1 D uncalled 1""",
             forced=1, last_round=1, showdown=False),
        # Calatone, ante 5. G bets 10, H calls, I folds; 3rd street both
        # check: the hand ends, H's hand is best and wins 35.
        hand(CA, "k1", [("G", -15, 0, 15, {"went_to_showdown": True}),
                        ("H", 20, 35, 15, {"went_to_showdown": True}),
                        ("I", -5, 0, 5, {"folded_round": 0})],
             """-1 G ante 5
                -1 H ante 5
                -1 I ante 5
                0 G bet 10
                0 H call 10
                0 I fold
                1 G check
                1 H check""",
             forced=5, last_round=1, showdown=True),
    )


# the stakes of the limit games' hands (Chiribito's is its blind, forced)
BETS = {AS: (1, 2), CA: (5, 50)}


def _staked() -> dict:
    data = _set()
    for row in data["hands"]:
        if row["game"] in BETS:
            row["small_bet"], row["big_bet"] = BETS[row["game"]]
    return data


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> pl.DataFrame:
    db = build(tmp_path_factory.mktemp("stats") / "hands.duckdb", **_staked())
    con = connect(db)
    return players(con, Filters(), cards=False, equity=False)


def _row(table: pl.DataFrame, player: str) -> dict:
    rows = table.filter(pl.col("player") == player).to_dicts()
    assert len(rows) == 1
    return rows[0]


# (player: {stat: (count, opportunities)}), worked out by hand from _set()
EXPECTED = {
    "A": {"vpip": (0, 2), "pfr": (0, 2), "three_bet": (0, 1), "fold_to_three_bet": (0, 0),
          "cbet": (0, 0), "fold_to_cbet": (0, 0), "wtsd": (0, 1), "wsd": (0, 0),
          "wwsr2": (0, 1), "af": (0, 0), "afq": (0, 1), "la_perla": (0, 3),
          "la_perla_won": (0, 0)},
    "B": {"vpip": (3, 3), "pfr": (1, 3), "three_bet": (0, 1), "fold_to_three_bet": (1, 1),
          "cbet": (0, 0), "fold_to_cbet": (1, 1), "wtsd": (1, 2), "wsd": (1, 1),
          "wwsr2": (1, 2), "af": (1, 0), "afq": (1, 2), "la_perla": (1, 3),
          "la_perla_won": (1, 1)},
    "C": {"vpip": (3, 3), "pfr": (2, 3), "three_bet": (1, 1), "fold_to_three_bet": (0, 0),
          "cbet": (1, 1), "fold_to_cbet": (0, 0), "wtsd": (1, 2), "wsd": (0, 1),
          "wwsr2": (1, 2), "af": (1, 1), "afq": (1, 2), "la_perla": (0, 3),
          "la_perla_won": (0, 0)},
    "D": {"vpip": (2, 2), "pfr": (2, 2), "three_bet": (1, 1), "fold_to_three_bet": (0, 0),
          "cbet": (1, 1), "fold_to_cbet": (0, 0), "wtsd": (1, 2), "wsd": (1, 1),
          "wwsr2": (2, 2), "af": (1, 1), "afq": (1, 2)},
    "E": {"vpip": (2, 2), "pfr": (1, 2), "three_bet": (0, 0), "fold_to_three_bet": (0, 1),
          "cbet": (0, 0), "fold_to_cbet": (1, 1), "wtsd": (1, 2), "wsd": (0, 1),
          "wwsr2": (0, 2), "af": (1, 0), "afq": (1, 2)},
    "F": {"vpip": (1, 2), "pfr": (0, 2), "three_bet": (0, 1), "fold_to_three_bet": (0, 0),
          "cbet": (0, 0), "fold_to_cbet": (0, 0), "wtsd": (0, 1), "wsd": (0, 0),
          "wwsr2": (0, 1), "af": (0, 0), "afq": (0, 1)},
    "G": {"vpip": (1, 1), "pfr": (1, 1), "three_bet": (0, 0), "cbet": (0, 1),
          "wtsd": (1, 1), "wsd": (0, 1), "wwsr2": (0, 1), "af": (0, 0), "afq": (0, 0),
          "checked_round_won": (0, 1)},
    "H": {"vpip": (1, 1), "pfr": (0, 1), "three_bet": (0, 0), "fold_to_cbet": (0, 0),
          "wtsd": (1, 1), "wsd": (1, 1), "wwsr2": (1, 1), "checked_round_won": (1, 1)},
    "I": {"vpip": (0, 1), "pfr": (0, 1), "wtsd": (0, 0), "checked_round_won": (0, 0)},
}
MONEY = {"A": (3, -60, 0), "B": (3, -10, 10), "C": (3, 60, 0), "D": (2, 12, 0),
         "E": (2, -7, 0), "F": (2, -5, 0), "G": (1, -15, 0), "H": (1, 20, 0),
         "I": (1, -5, 0)}  # fmt: skip


@pytest.mark.parametrize("player", sorted(EXPECTED))
def test_counts_match_hand_computed(table: pl.DataFrame, player: str) -> None:
    row = _row(table, player)
    for stat, (n, opp) in EXPECTED[player].items():
        assert (row[f"{stat}_n"], row[f"{stat}_opp"]) == (n, opp), stat
        expected_rate = None if opp == 0 else n / opp
        assert row[stat] == expected_rate, stat


@pytest.mark.parametrize("player", sorted(MONEY))
def test_money_matches_hand_computed(table: pl.DataFrame, player: str) -> None:
    row = _row(table, player)
    hands, net, rake = MONEY[player]
    assert (row["hands"], row["net"], row["rake_paid"]) == (hands, net, rake)
    assert row["net_per_100"] == pytest.approx(100 * net / hands)


def test_bb_per_100_in_each_game_s_unit(table: pl.DataFrame) -> None:
    # Chiribito in blinds. B: -40/20 + 70/20 - 40/20 = -0.5 blinds over 3 hands
    assert _row(table, "B")["bb_per_100"] == pytest.approx(-50 / 3)
    assert _row(table, "B")["stakes"] == "20"
    # the limit games in big bets. D (ASF, bets 1/2): (9 + 3) / 2 = 6 over 2 hands
    assert _row(table, "D")["bb_per_100"] == pytest.approx(300.0)
    assert _row(table, "D")["stakes"] == "1/2"
    # G (Calatone, bets 5-50): -15 / 50 in one hand
    assert _row(table, "G")["bb_per_100"] == pytest.approx(-30.0)
    assert _row(table, "G")["stakes"] == "5-50"
    assert _row(table, "D")["la_perla"] is None


def test_counts_never_exceed_opportunities(table: pl.DataFrame) -> None:
    for rate in RATES:
        if not rate.bounded:
            continue
        bad = table.filter(pl.col(f"{rate.key}_n") > pl.col(f"{rate.key}_opp"))
        assert bad.is_empty(), rate.key


def test_net_sums_to_minus_the_rake_per_game(table: pl.DataFrame) -> None:
    sums = dict(table.group_by("game").agg(pl.col("net").sum()).iter_rows())
    assert sums == {CH: -10, AS: 0, CA: 0}


def test_position_and_player_filters(tmp_path) -> None:
    con = connect(build(tmp_path / "h.duckdb", **_set()))
    blinds = players(con, Filters(positions=(1,), games=(CH,)), cards=False, equity=False)
    assert blinds["player"].to_list() == ["A"]
    one = players(con, Filters(players=("C",)), cards=False, equity=False)
    # C's c-bet still counts though B's fold is filtered out of the table
    assert one["player"].to_list() == ["C"] and one["cbet_n"].to_list() == [1]
    few = players(con, Filters(min_hands=3), cards=False, equity=False)
    assert sorted(few["player"]) == ["A", "B", "C"]


def test_hands_whose_ids_share_a_duckdb_hash_stay_apart(tmp_path) -> None:
    """Regression: hands were keyed by DuckDB's hash(site, hand_id), and these
    two ids share one, so their actions were counted as one hand's."""
    import duckdb

    ids = ("AS-101-5-128~152", "AS-101-2-128~155")
    con = duckdb.connect()
    assert len({con.execute("SELECT hash('test', ?)", [i]).fetchall()[0][0] for i in ids}) == 1
    con.close()
    parts = []
    for i, hand_id in enumerate(ids):
        part = hand(AS, hand_id, [("D", 1, 2, 1), ("E", -1, 0, 1, {"folded_round": 0})],
                    """0 D bet 1
                       0 E fold
                       0 D uncalled 1""", forced=1, last_round=0, showdown=False)
        part["hands"][0]["content_hash"] = f"text {i}"
        parts.append(part)
    table = players(connect(build(tmp_path / "h.duckdb", **merge(*parts))), Filters(),
                    cards=False, equity=False)  # fmt: skip
    d = _row(table, "D")
    assert (d["hands"], d["pfr_n"], d["pfr_opp"], d["net"]) == (2, 2, 2, 2)
    assert _row(table, "E")["vpip_opp"] == 2


def test_hands_without_a_content_hash_that_collide_are_refused(tmp_path) -> None:
    from reports.cache import CacheError

    parts = [hand(AS, i, [("D", 0, 0, 0)], "0 D check", forced=1, last_round=0,
                  showdown=False) for i in ("AS-101-5-128~152", "AS-101-2-128~155")]  # fmt: skip
    con = connect(build(tmp_path / "h.duckdb", **merge(*parts)))
    with pytest.raises(CacheError, match="share a key"):
        players(con, Filters(), cards=False, equity=False)


def test_card_judged_counts_above_one_are_kept(tmp_path) -> None:
    """Regression: the card-judged counts are packed into bytes of the cached
    row with their values (an earlier packing kept only "at least one"). Two
    declarations by one player (an invalid hand's, stored as the import
    stores them) give him two declaration opportunities in that hand, as
    before packing."""
    twice = [["Kh", "Kd", "9s", "9h", "7d"], ["Kh", "Kd", "9s", "9h", "7c"]]
    part = hand("calatone", "CA-1", [("G", 10, 20, 10, {"went_to_showdown": True,
                                                        "down_cards": ["Kh", "7c", "Kd"],
                                                        "up_cards": ["9s", "9h", "7d", "2c"],
                                                        "declared": twice}),
                                     ("H", -10, 0, 10, {"went_to_showdown": True})],
                "0 G check\n0 H check", forced=1, last_round=5, showdown=True)
    part["hand_text"] = [{"site": "test", "hand_id": "CA-1", "raw_text":
                          "G: shows [Kh 7c Kd 9s 9h 7d 2c] and declares [Kh Kd 9s 9h 7d]\n"
                          "G: shows [Kh 7c Kd 9s 9h 7d 2c] and declares [Kh Kd 9s 9h 7c]"}]
    part["hands"][0]["content_hash"] = "x"
    table = players(connect(build(tmp_path / "h.duckdb", **part)), Filters(), equity=False)
    assert _row(table, "G")["under_declared_opp"] == 2


def test_the_chips_an_under_declaration_cost_are_the_referees(tmp_path) -> None:
    """The cost of each Calatone under-declaration in a simulated session,
    against an oracle built here: the simulator's own hand with that
    player's declaration changed to his best five (found by trying all 21)
    and judged again; the cost is what he would then be paid less what he
    won, never below 0."""
    from itertools import combinations

    from import_helpers import hh_import

    from hh.evaluate import evaluator_for
    from hh.model import Game, Show, replace
    from hh.simulate import Simulator
    from hh.validate import validate
    from hh.write import write_hands

    rank = evaluator_for(Game.CALATONE).value
    hands = list(Simulator(Game.CALATONE, seed=11, tables=3).hands(1_500))
    expected: dict[str, int] = {}
    for h in hands:
        won = validate(h).payouts or {}
        for section in h.sections:
            for line in section.lines:
                if not (isinstance(line, Show) and line.declared and len(line.cards) == 7):
                    continue
                best = max(combinations(line.cards, 5), key=rank)
                if rank(line.declared) >= rank(best):
                    continue
                better = replace(h, sections=tuple(
                    replace(s, lines=tuple(replace(x, declared=best) if x is line else x
                                           for x in s.lines))
                    for s in h.sections))  # fmt: skip
                paid = (validate(better).payouts or {}).get(line.name, 0)
                cost = max(0, paid - won.get(line.name, 0))
                expected[line.name] = expected.get(line.name, 0) + cost
    assert sum(expected.values()) > 0  # the session has costly under-declarations
    (tmp_path / "calatone.txt").write_text(write_hands(hands), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    hh_import(str(tmp_path / "calatone.txt"), "--db", str(db), "--workers", "1")
    table = players(connect(str(db)), Filters(), equity=False)
    got = {r["player"]: r["under_declared_cost"] for r in table.to_dicts()}
    assert {p: c for p, c in got.items() if c} == {p: c for p, c in expected.items() if c}
