"""Game-specific statistics.

Chiribito: La Perla (Sota and 7 of one suit as hole cards) dealt, and won
when dealt (collected chips). Calatone: hands that ended because every player checked a round
(a showdown before 7th street: ``last_round < 5``), and how often he won
them when he was in. The evaluator-based ones (Aces, Straights and Flushes
joker-made hands, Calatone under-declarations) need cards judged by
``hh.evaluate`` and live in :mod:`reports.players.stats.cards`.
"""

from __future__ import annotations

from reports.players.stats.base import ACES, CALATONE, CHIRIBITO, LAST_ROUND, Rate

RATES = (
    Rate("la_perla", "La Perla dealt", games=(CHIRIBITO,)),
    Rate("la_perla_won", "La Perla won", games=(CHIRIBITO,)),
    Rate("checked_round_won", "won all-checked", games=(CALATONE,)),
    Rate("joker_made", "joker-made", games=(ACES,)),
    Rate("joker_made_won", "joker-made won", games=(ACES,)),
    Rate("under_declared", "under-declared", games=(CALATONE,)),
)

_CHIRI = f"h.game = '{CHIRIBITO}'"
_PERLA = "(" + " OR ".join(
    f"(list_contains(s.down_cards, 'S{x}') AND list_contains(s.down_cards, '7{x}'))"
    for x in "oceb"
) + ")"
_CHECKED_END = (f"h.game = '{CALATONE}' AND h.showdown "
                f"AND h.last_round < {LAST_ROUND[CALATONE]}")  # fmt: skip
_SD = "coalesce(s.went_to_showdown, FALSE)"

SEAT_COUNTS = (
    ("cnt_la_perla_opp", _CHIRI),
    ("cnt_la_perla", f"{_CHIRI} AND {_PERLA}"),
    ("cnt_la_perla_won_opp", f"{_CHIRI} AND {_PERLA}"),
    ("cnt_la_perla_won", f"{_CHIRI} AND {_PERLA} AND s.won > 0"),
    ("cnt_checked_round_won_opp", f"{_CHECKED_END} AND {_SD}"),
    ("cnt_checked_round_won", f"{_CHECKED_END} AND {_SD} AND s.won > 0"),
)

SEAT_VALUES: tuple[tuple[str, str, str], ...] = ()
