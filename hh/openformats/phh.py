"""A parsed hand and its verdict as PokerKit's hand history (PHH, phh-std,
TOML): the nearest file the specification allows, not a lossless one.

PHH's ``variant`` is one of a fixed list of codes and none is any of our
games: Chiribito is written as ``NT`` (no-limit, one blind, two hole cards,
common cards) and the two stud games as ``F7S`` (antes, up and down cards;
Calatone's spread limit as its minimum and maximum bet). What the variant
code gets wrong is said in user-defined fields, which the specification
allows with a leading underscore (PokerKit 0.4.12 and later keep them in
``HandHistory.user_defined_fields``): ``_hh_game``, ``_hh_deck``,
``_hh_betting``, ``_hh_joker``, ``_hh_declarations``, and the referee's
verdict (``_hh_valid``, ``_hh_violations``, ``_hh_rake``). docs/formats.md
lists every field.

Players are ``p1``.. in dealing order (the referee's: the first dealt is
``p1``). Cards are French (:mod:`hh.openformats.cards`). Forced bets are the
``antes`` and ``blinds_or_straddles`` fields, not actions; a raise or a bet
is ``cbr`` to the player's total in the round; uncalled bets, collected
lines and chat have no action (PokerKit derives the first two); a timed-out
action carries the comment ``# timed out``.
"""

from __future__ import annotations

import re
from typing import Any

from hh.model import Action, Deal, Game, Hand, Marker, Muck, Post, Show
from hh.openformats import cards as cardmap
from hh.openformats.ohh import deck_name
from hh.validate import Verdict

_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]")
VARIANT = {Game.CHIRIBITO: "NT", Game.ACES: "F7S", Game.CALATONE: "F7S"}


def _string(text: str) -> str:
    """A TOML basic string."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Time(str):
    """A TOML local time (``21:14:03``), written without quotes."""


def _value(value: Any) -> str:
    if isinstance(value, _Time):
        return str.__str__(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML value for {value!r}")


def _betting(hand: Hand) -> str:
    s = hand.header.stakes
    if hand.game is Game.CHIRIBITO:
        return f"no-limit, blind {s.forced}"
    if hand.game is Game.ACES:
        return f"fixed-limit, ante {s.forced}, bets {s.low}/{s.high}"
    return f"spread-limit, ante {s.forced}, bets {s.low}-{s.high}"


def phh_fields(hand: Hand, verdict: Verdict, order: tuple[str, ...]) -> dict[str, Any]:
    """The PHH fields of a hand, in the order they are written; ``order``
    is the dealing order of the players dealt in (the referee's)."""
    game, h, stakes = hand.game, hand.header, hand.header.stakes
    spanish = game is Game.CHIRIBITO
    seat_of = {s.name: s for s in hand.seats}
    players = [p for p in order if p in seat_of]
    index = {p: k for k, p in enumerate(players, 1)}
    posted = {p: 0 for p in players}
    actions: list[str] = []
    bets: dict[str, int] = {}
    lines = hand.lines()
    first = True  # the first round keeps the blind posted before its marker
    for _, line in lines:
        if isinstance(line, Marker):
            if not first:
                bets = {}
            first = False
            for card in cardmap.out(line.new_cards, spanish):
                actions.append(f"d db {card}")
            continue
        name = getattr(line, "name", None)
        if name not in index:
            continue
        who = f"p{index[name]}"
        if isinstance(line, Post):
            posted[name] += line.amount
            if line.kind == "blind":  # (an ante is dead money, not a bet of the round)
                bets[name] = bets.get(name, 0) + line.amount
        elif isinstance(line, Deal):
            dealt = cardmap.out((line.down or ()) + (line.up or ()), spanish)
            actions.append(f"d dh {who} {''.join(dealt)}")
        elif isinstance(line, Action):
            if line.verb == "folds":
                text = f"{who} f"
            elif line.verb in ("checks", "calls"):
                text = f"{who} cc"
                bets[name] = bets.get(name, 0) + (line.amount or 0)
            else:
                to = (line.total if line.verb == "raises" else
                      bets.get(name, 0) + (line.amount or 0)) or 0  # fmt: skip
                bets[name] = to
                text = f"{who} cbr {to}"
            actions.append(text + (" # timed out" if line.timed_out else ""))
        elif isinstance(line, Show):
            actions.append(f"{who} sm {''.join(cardmap.out(line.cards, spanish))}")
        elif isinstance(line, Muck):
            actions.append(f"{who} sm")
    fields: dict[str, Any] = {"variant": VARIANT[game]}
    if game is Game.CHIRIBITO:
        fields["antes"] = [0] * len(players)
        fields["blinds_or_straddles"] = [posted[p] for p in players]
        fields["min_bet"] = stakes.forced
    else:
        fields["antes"] = [stakes.forced] * len(players)
        fields["bring_in"] = 0
        fields["small_bet"] = stakes.low or 0
        fields["big_bet"] = stakes.high or 0
    fields["starting_stacks"] = [seat_of[p].chips for p in players]
    fields["actions"] = actions
    fields["venue"] = h.site or ""
    fields["hand"] = h.hand_id
    fields["table"] = hand.table.name
    fields["seat_count"] = hand.table.max_seats
    fields["seats"] = [seat_of[p].seat for p in players]
    fields["players"] = players
    year, month, day = (int(x) for x in h.date.split("/"))
    fields.update(year=year, month=month, day=day)
    if _TIME.fullmatch(h.time):
        fields["time"] = _Time(h.time)
    if h.zone is not None:
        fields["time_zone"] = h.zone
    if verdict.net is not None:
        ends = {s.name: s.end for s in verdict.stacks}
        fields["finishing_stacks"] = [ends.get(p, seat_of[p].chips) for p in players]
        fields["winnings"] = [(verdict.payouts or {}).get(p, 0) for p in players]
    fields["currency"] = "Chips"
    fields["_hh_game"] = game.value
    fields["_hh_deck"] = deck_name(hand)
    fields["_hh_betting"] = _betting(hand)
    fields["_hh_site"] = h.site or ""
    fields["_hh_hand_id"] = h.hand_id
    fields["_hh_time"] = f"{h.date} {h.time}"
    if game is Game.ACES:
        fields["_hh_joker"] = "Jk"
    if hand.house_rules is not None:
        fields["_hh_house_rules"] = list(hand.house_rules.rules)
    declared = [f"p{index[x.name]} {' '.join(x.declared)}" for _, x in lines
                if isinstance(x, Show) and x.declared is not None and x.name in index]  # fmt: skip
    if declared:
        fields["_hh_declarations"] = declared
    fields["_hh_valid"] = verdict.valid
    fields["_hh_violations"] = [f"{v.code} line {v.line}: {v.message}"
                                for v in verdict.violations]  # fmt: skip
    if verdict.rake is not None:
        fields["_hh_rake"] = verdict.rake
    return fields


def phh_text(hand: Hand, verdict: Verdict, order: tuple[str, ...]) -> str:
    """The PHH file of one hand (TOML, a final line end); ``order``: the
    dealing order the referee found (:attr:`hh.validate.ActionFigures.names`)."""
    if not order:
        order = tuple(s.name for s in hand.seats if not s.sitting_out)
    fields = phh_fields(hand, verdict, order)
    return "".join(f"{key} = {_value(value)}\n" for key, value in fields.items())
