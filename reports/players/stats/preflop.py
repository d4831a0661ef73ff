"""Round-1 statistics: vpip, pfr, three_bet, fold_to_three_bet.

The opportunity is a hand in which the player was asked to act in round 1
(he has a check, fold, call, bet or raise there): a Chiribito blind that
nobody raised never acts, so that hand is no chance for him. Forced bets
are not in the enriched actions at all, so they can never count as
voluntary. The bet level a player faces counts Chiribito's blind as the
first bet; in the stud games round 1 opens unbet.
"""

from __future__ import annotations

from reports.players.stats.base import Rate

RATES = (
    Rate("vpip", "VPIP"),
    Rate("pfr", "PFR"),
    Rate("three_bet", "3-bet"),
    Rate("fold_to_three_bet", "fold to 3-bet"),
)

_R1 = "round = 0"

# (name, condition on one of his betting actions in the hand, "any" or "count";
# the columns are those of reports.players.stats.actions.ACTION_COLUMNS)
ACTION_FLAGS = (
    ("cnt_vpip_opp", _R1, "any"),
    ("cnt_vpip", f"{_R1} AND kind IN ('call', 'bet', 'raise')", "any"),
    ("cnt_pfr_opp", _R1, "any"),
    ("cnt_pfr", f"{_R1} AND aggr", "any"),
    ("cnt_three_bet_opp", f"{_R1} AND lvl = 2", "any"),
    ("cnt_three_bet", f"{_R1} AND lvl = 2 AND aggr", "any"),
    # he made the second bet (the first raise) of round 1 ...
    ("_made_two", f"{_R1} AND aggr AND lvl = 1", "any"),
    # ... and then had to answer a third
    ("_faced_three", f"{_R1} AND lvl = 3", "any"),
    ("_folded_three", f"{_R1} AND lvl = 3 AND kind = 'fold'", "any"),
)

# computed on the per-hand row from the flags above (temporaries start with _)
AFTER = (
    ("cnt_fold_to_three_bet_opp", "_made_two AND _faced_three"),
    ("cnt_fold_to_three_bet", "_made_two AND _folded_three"),
)

SEAT_COUNTS: tuple[tuple[str, str], ...] = ()
