"""Continuation bets: cbet and fold_to_cbet.

cbet: opportunity, round 1's last aggressor (last bet or raise of round 1)
reaches his first turn of round 2 with nobody having bet before him; count,
he bets there. fold_to_cbet: opportunity, another player's turn comes in
round 2 after that c-bet with no raise since (the c-bet is the only bet or
raise of the round so far); count, he folds.
"""

from __future__ import annotations

from reports.players.stats.base import Rate

RATES = (
    Rate("cbet", "c-bet"),
    Rate("fold_to_cbet", "fold to c-bet"),
)

# round 1's last aggressor at his first turn of round 2, nobody having bet before him
_CHANCE = "round = 1 AND player = pfa AND seq = pfa_first AND (b1 IS NULL OR seq <= b1)"
# another player's turn after the c-bet, no raise since (exactly one bet before him)
_FACING = "round = 1 AND seq > cbet_seq AND (b2 IS NULL OR seq <= b2) AND player <> pfa"

ACTION_FLAGS = (
    ("cnt_cbet_opp", _CHANCE, "any"),
    ("cnt_cbet", f"{_CHANCE} AND kind = 'bet'", "any"),
    ("cnt_fold_to_cbet_opp", _FACING, "any"),
    ("cnt_fold_to_cbet", f"{_FACING} AND kind = 'fold'", "any"),
)

SEAT_COUNTS: tuple[tuple[str, str], ...] = ()
