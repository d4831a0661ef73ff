"""The equity stored is a fact: the same hands and seeds give the same
numbers, bit for bit, whatever the computation's speed. Spots of simulated
all-in hands (hh.simulate, seed 2027) with what the implementation gave
before the evaluators valued many hands per call (the merge of branch
'equity', 47d57d8): exact enumerations and seeded Monte Carlo, heads-up and
multiway, with side pots."""

from __future__ import annotations

import pytest

from reports.players.equity import Spot, expected

SPOTS = [
    # aces-straights-flushes, monte-carlo
    (
        Spot(
            "aces-straights-flushes",
            (),
            {"Fabio": ["9c", "2d", "2c"], "Inés": ["Jd", "Jc", "4d"]},
            {"Fabio": 3, "Inés": 3},
            [(8, ["Fabio", "Inés"])],
            [],
            0,
            ["4h", "Ks"],
        ),
        15241622609379338377,
        {"Fabio": 3.6736, "Inés": 4.3264},
        {"Fabio": 0.15959415193964135, "Inés": 0.15959415193964135},
    ),
    # calatone, exact, several pots or contenders
    (
        Spot(
            "calatone",
            (),
            {
                "Ramón 2": ["Qd", "7h", "As", "5h", "6d", "6h"],
                "Inés 3": ["8h", "3h", "5c", "2h", "7c", "Js"],
                "Pilar 3": ["Kc", "Qc", "Qs", "Jc", "7d", "7s"],
            },
            {"Ramón 2": 1, "Inés 3": 1, "Pilar 3": 1},
            [
                (105, ["Ramón 2", "Inés 3", "Pilar 3"]),
                (488, ["Inés 3", "Pilar 3"]),
                (4, ["Inés 3"]),
            ],
            [],
            0,
            ["2s", "Kd", "4h", "4c", "3c", "8d", "Ad", "4s", "Ac", "3s", "4d", "Th"],
        ),
        1526852743875772362,
        {"Ramón 2": 13.636363636363637, "Inés 3": 4.0, "Pilar 3": 579.3636363636364},
        {"Ramón 2": 0.0, "Inés 3": 0.0, "Pilar 3": 0.0},
    ),
    # calatone, monte-carlo
    (
        Spot(
            "calatone",
            (),
            {"Martín": ["8c", "5s"], "Maite 2": ["Qd", "Qc"]},
            {"Martín": 5, "Maite 2": 5},
            [(263, ["Martín", "Maite 2"]), (30, ["Martín"])],
            [],
            0,
            ["Kc", "5d", "5c"],
        ),
        2995659139271171848,
        {"Martín": 83.86240000000001, "Maite 2": 209.1376},
        {"Martín": 4.248803199936998, "Maite 2": 4.248803199936998},
    ),
    # calatone, monte-carlo, several pots or contenders
    (
        Spot(
            "calatone",
            (),
            {
                "Noé": ["Ac", "7c", "2s"],
                "Ben 2": ["As", "7d", "3h"],
                "Ana María": ["Qh", "Ah", "Js"],
            },
            {"Noé": 4, "Ben 2": 4, "Ana María": 4},
            [(1869, ["Noé", "Ben 2", "Ana María"])],
            [],
            0,
            ["3c", "2h", "5h", "6h"],
        ),
        7496507723334267496,
        {"Noé": 472.4832, "Ben 2": 472.4832, "Ana María": 924.0336},
        {"Noé": 32.51801094910564, "Ben 2": 32.51801094910564, "Ana María": 37.407593507694706},
    ),
    # chiribito, exact
    (
        Spot(
            "chiribito",
            ("La Perla wins",),
            {"Maite": ["7c", "Rc"], "Dario 2": ["Ab", "Ac"]},
            {"Maite": 0, "Dario 2": 0},
            [(1712, ["Maite", "Dario 2"])],
            ["Re"],
            4,
            [],
        ),
        4462614201918460078,
        {"Maite": 809.6957651044607, "Dario 2": 902.3042348955393},
        {"Maite": 0.0, "Dario 2": 0.0},
    ),
    # chiribito, exact, several pots or contenders
    (
        Spot(
            "chiribito",
            (),
            {"Pilar 2": ["5c", "Ao"], "Fabio": ["6e", "Ce"], "Martín 2": ["Co", "So"]},
            {"Pilar 2": 0, "Fabio": 0, "Martín 2": 0},
            [(1380, ["Pilar 2", "Fabio", "Martín 2"]), (666, ["Pilar 2", "Fabio"])],
            [],
            5,
            [],
        ),
        11555905751209697758,
        {"Pilar 2": 707.4130781499202, "Fabio": 715.427887901572, "Martín 2": 623.1590339485076},
        {"Pilar 2": 0.0, "Fabio": 0.0, "Martín 2": 0.0},
    ),
]


@pytest.mark.parametrize(("spot", "seed", "chips", "errors"), SPOTS)
def test_equity_is_what_it_was(spot: Spot, seed: int, chips: dict, errors: dict) -> None:
    got, se, _ = expected(spot, seed=seed)
    assert (got, se) == (chips, errors)
    assert list(got) == list(chips)
