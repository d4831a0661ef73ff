"""Showdown: wtsd, wsd, wwsr2, from the seat rows.

"Saw round 2": the hand reached round 2's marker (``last_round >= 1``) and
he had not folded before it (``folded_round`` null or >= 1). wtsd: of
those, he had not folded at ``*** SHOWDOWN ***``. wsd: of those showdowns
(its opportunity is exactly wtsd's count, in every game, as PokerTracker
defines it), he collected chips from a pot (``won > 0``; an uncalled bet
returned is not ``won``). wwsr2: collected chips, among hands where he saw
round 2. A Calatone hand that every player checked through round 1 ends at
a showdown before round 2: in neither wtsd nor wsd, it counts in the
game's own ``checked_round_won`` (reports.players.stats.games).
"""

from __future__ import annotations

from reports.players.stats.base import Rate

RATES = (
    Rate("wtsd", "WTSD"),
    Rate("wsd", "W$SD"),
    Rate("wwsr2", "WWSR2"),
)

_SAW2 = "h.last_round >= 1 AND (s.folded_round IS NULL OR s.folded_round >= 1)"
_SD = "coalesce(s.went_to_showdown, FALSE)"
_WON = "s.won > 0"

# (name, SQL over the seat row s and its hand h; null counts as 0)
SEAT_COUNTS = (
    ("cnt_wtsd_opp", _SAW2),
    ("cnt_wtsd", f"{_SAW2} AND {_SD}"),
    ("cnt_wsd_opp", f"{_SAW2} AND {_SD}"),
    ("cnt_wsd", f"{_SAW2} AND {_SD} AND {_WON}"),
    ("cnt_wwsr2_opp", _SAW2),
    ("cnt_wwsr2", f"{_SAW2} AND {_WON}"),
    # no rate: a hand he went to showdown in (any round), for the HTML
    # report's split of his winnings into won at showdown and without
    ("cnt_showdown", _SD),
)
