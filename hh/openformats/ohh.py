"""A parsed hand and its verdict as an Open Hand History object (OHH,
hh-specs.handhistory.org, spec 1.4.7): ``{"ohh": {...}}``, one per hand.

The standard fields carry what OHH has a field for: the site, the hand's
number, the table, its seats and stacks, the forced bets, every action
(deals, posts, bets, calls, raises, folds, shows, mucks, top-ups), the
common cards of each round, and the pots. The pots are the referee's
(:class:`hh.verdict.Verdict`: its pots, shares and rake), never the log's
claim. Everything else goes in one extension object under :data:`EXTENSION`
(schema: ``schemas/ohh-extension.schema.json``): the game and its deck, the
joker, the stakes OHH has no field for, Calatone's declarations, the lines
OHH has no action for (uncalled bets, collected lines, chat), the summary as
logged, the referee's verdict, and where each action sits among the lines,
so that :mod:`hh.openformats.ohh_read` rebuilds the hand exactly
(docs/formats.md says what is lossless and what is not).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hh.games import RULES
from hh.model import (
    Action,
    Deal,
    Game,
    Hand,
    Line,
    Marker,
    Muck,
    Post,
    Show,
    TopUp,
)
from hh.openformats import cards as cardmap
from hh.read.places import instant
from hh.serialize import to_jsonable
from hh.verdict import Verdict

SPEC_VERSION = "1.4.7"
EXTENSION = "x_hh"  # the one key of ours in an OHH object (docs/formats.md)
EXTENSION_VERSION = 1

# OHH's game_type is a free string; bet_limit.bet_type knows NL, PL and FL
GAME_TYPE = {
    Game.CHIRIBITO: "Chiribito",
    Game.ACES: "Aces, Straights and Flushes",
    Game.CALATONE: "Calatone",
}
BET_TYPE = {Game.CHIRIBITO: "NL", Game.ACES: "FL", Game.CALATONE: "FL"}

_ORDINALS = {"2ND": "Second", "3RD": "Third", "4TH": "Fourth", "5TH": "Fifth",
             "6TH": "Sixth", "7TH": "Seventh"}  # fmt: skip


def street_name(marker: str) -> str:
    """A marker's street as OHH names rounds: ``Preflop`` (Chiribito's hole
    cards), ``Common 1``..``Common 5``, ``Third Street``.., ``Showdown``."""
    if marker == "HOLE CARDS":
        return "Preflop"
    word, _, rest = marker.partition(" ")
    if word in _ORDINALS and rest == "STREET":
        return f"{_ORDINALS[word]} Street"
    return marker.title()


def deck_name(hand: Hand) -> str:
    """The deck in play, as the extension names it."""
    if hand.game is Game.CHIRIBITO:
        return cardmap.SPANISH
    if hand.game is Game.ACES:
        return "french-52-joker"
    for rule in hand.house_rules.rules if hand.house_rules else ():
        if rule.startswith("Deck from "):
            return f"french-from-{rule.removeprefix('Deck from ')}"
    return "french-52"


def start_utc(hand: Hand) -> str:
    """The hand's start as OHH writes it (ISO 8601, UTC), from the header's
    date, time and zone (a zone FORMAT.md does not list is taken as UTC; the
    extension keeps the header as written)."""
    h = hand.header
    seconds = instant(f"{h.date} {h.time}", h.zone)
    try:
        when = datetime(1, 1, 1, tzinfo=UTC) + timedelta(days=seconds // 86400 - 1,
                                                         seconds=seconds % 86400)
    except OverflowError:
        return f"{h.date.replace('/', '-')}T{h.time}Z"
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class _Actions:
    """The OHH actions of a hand's lines, numbered from 1, and the
    extension's list of all lines that places them."""

    def __init__(self, hand: Hand, ids: dict[str, int]) -> None:
        self.ids = ids
        self.spanish = hand.game is Game.CHIRIBITO
        self.number = 0
        self.lines: list[dict[str, Any]] = []
        self.bets: dict[str, int] = {}  # each player's chips in this round, as written

    def cards(self, cs: tuple[str, ...]) -> list[str]:
        return cardmap.out(cs, self.spanish)

    def action(self, line: Line) -> dict[str, Any] | None:
        """The OHH action of one line (None: OHH has none for it, or its
        player has no seat); its place in :attr:`lines`, with what OHH
        cannot say of it, is appended there."""
        pid = self.ids.get(line.name)
        if pid is None:
            return None
        out: dict[str, Any] = {"player_id": pid}
        extra: dict[str, Any] = {}
        if isinstance(line, Post):
            out["action"] = "Post BB" if line.kind == "blind" else "Post Ante"
            out["amount"] = line.amount
            out["is_allin"] = line.all_in
            extra["post"] = line.kind
            if line.kind == "blind":  # (an ante is dead money, not a bet of the round)
                self.bets[line.name] = self.bets.get(line.name, 0) + line.amount
        elif isinstance(line, TopUp):
            out["action"] = "Added Chips"
            out["amount"] = line.amount
        elif isinstance(line, Action):
            out["action"] = line.verb[:-1].title()  # Check, Fold, Bet, Call, Raise
            if line.verb == "raises":
                before = self.bets.get(line.name, 0)
                out["amount"] = (line.total or 0) - before  # chips put in by this action
                extra["by"] = line.amount
                extra["to"] = line.total
                self.bets[line.name] = line.total or 0
            elif line.amount is not None:
                out["amount"] = line.amount
                self.bets[line.name] = self.bets.get(line.name, 0) + line.amount
            out["is_allin"] = line.all_in
            if line.timed_out:
                extra["timed_out"] = True
        elif isinstance(line, Deal):
            out["action"] = "Dealt Cards"
            out["cards"] = self.cards((line.down or ()) + (line.up or ()))
            extra["down"] = None if line.down is None else len(line.down)
            extra["up"] = None if line.up is None else len(line.up)
        elif isinstance(line, Show):
            out["action"] = "Shows Cards"
            out["cards"] = self.cards(line.cards)
            if line.declared is not None:
                extra["declared"] = list(line.declared)
            if line.description is not None:
                extra["description"] = line.description
        elif isinstance(line, Muck):
            out["action"] = "Mucks Cards"
        else:
            return None
        self.number += 1
        out = {"action_number": self.number, **out}
        self.lines.append({"action": self.number, **extra})
        return out

    def add(self, line: Line, actions: list[dict[str, Any]]) -> None:
        found = self.action(line)
        if found is None:
            record = to_jsonable(line)
            record.pop("line", None)
            self.lines.append({"line": record})
        else:
            actions.append(found)


def ohh_hand(hand: Hand, verdict: Verdict) -> dict[str, Any]:
    """The OHH object of one hand (``{"ohh": {...}}``)."""
    h, t = hand.header, hand.table
    ids: dict[str, int] = {}
    players = []
    for k, s in enumerate(hand.seats):
        ids.setdefault(s.name, k)
        players.append({"id": k, "seat": s.seat, "name": s.name, "display": s.name,
                        "starting_stack": s.chips, "is_sitting_out": s.sitting_out})  # fmt: skip
    acts = _Actions(hand, ids)
    rounds: list[dict[str, Any]] = []
    first_street = RULES[hand.game].streets[0].name
    pending: list[dict[str, Any]] = []  # the preamble's actions, in the first round
    for line in hand.preamble:
        acts.add(line, pending)
    if not hand.sections:
        rounds.append({"id": 0, "street": street_name(first_street), "actions": pending})
    for k, section in enumerate(hand.sections):
        m: Marker = section.marker
        if k:
            acts.bets = {}  # (the first round's posts count in it)
        marker = to_jsonable(m)
        marker.pop("line", None)
        acts.lines.append({"round": k, "marker": marker})
        actions: list[dict[str, Any]] = pending if k == 0 else []
        pending = []
        for line in section.lines:
            acts.add(line, actions)
        round_: dict[str, Any] = {"id": k, "street": street_name(m.street)}
        if m.new_cards:
            round_["cards"] = acts.cards(m.new_cards)
        round_["actions"] = actions
        rounds.append(round_)
    stakes = h.stakes
    ohh: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": h.site or "",
        "network_name": h.site or "",
        "internal_version": f"hh-{EXTENSION_VERSION}",
        "tournament": False,
        "game_number": h.hand_id,
        "start_date_utc": start_utc(hand),
        "table_name": t.name,
        "table_handle": t.name,
        "game_type": GAME_TYPE[hand.game],
        "bet_limit": {"bet_type": BET_TYPE[hand.game], "bet_cap": 0},
        "table_size": t.max_seats,
        "currency": "Chips",
        "dealer_seat": t.dealer,
        "small_blind_amount": 0,
        "big_blind_amount": stakes.forced if hand.game is Game.CHIRIBITO else 0,
        "ante_amount": 0 if hand.game is Game.CHIRIBITO else stakes.forced,
        "flags": [],
        "players": players,
        "rounds": rounds,
        "pots": pots(verdict, ids),
    }
    ohh[EXTENSION] = extension(hand, verdict, acts.lines)
    return {"ohh": ohh}


def pots(verdict: Verdict, ids: dict[str, int]) -> list[dict[str, Any]]:
    """OHH's pots from the referee's: main pot first, each with its amount
    before rake, the rake it paid, and every winner's share and part of
    the rake (``contributed_rake``, :attr:`Verdict.rake_paid`)."""
    if verdict.pots is None:
        return []
    rake = verdict.rake or 0
    paid = verdict.rake_paid or {}
    out = []
    for k, pot in enumerate(verdict.pots):
        taken = rake if k == 0 else 0
        wins = []
        for name, share in zip(pot.winners, pot.shares, strict=False):
            part = paid.get(name, 0) if k == 0 else 0
            wins.append({"player_id": ids.get(name, -1), "win_amount": share,
                         "cashout_amount": 0, "cashout_fee": 0, "bonus_amount": 0,
                         "contributed_rake": part})  # fmt: skip
        out.append({"number": k, "amount": pot.amount + taken, "rake": taken, "jackpot": 0,
                    "player_wins": wins})  # fmt: skip
    return out


def extension(hand: Hand, verdict: Verdict, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Our extension object (``x_hh``): what OHH has no field for."""
    h = hand.header
    summary = to_jsonable(hand.summary)
    _drop_lines(summary)
    s = h.stakes
    header = {"site": h.site, "date": h.date, "time": h.time, "zone": h.zone,
              "forced": s.forced, "low": s.low, "high": s.high}  # fmt: skip
    ext: dict[str, Any] = {"version": EXTENSION_VERSION, "game": hand.game.value,
                           "deck": deck_name(hand), "header": header}  # fmt: skip
    if hand.game is Game.ACES:
        ext["joker"] = "Jk"
    if hand.house_rules is not None:
        ext["house_rules"] = list(hand.house_rules.rules)
    if hand.commitment is not None:
        ext["commitment"] = hand.commitment.digest
    declared = {}
    for section in hand.sections:
        for line in section.lines:
            if isinstance(line, Show) and line.declared is not None:
                declared[line.name] = list(line.declared)
    if declared:
        ext["declarations"] = declared
    ext["lines"] = lines
    ext["summary"] = summary
    judged = verdict.to_json()
    judged["rake_paid"] = verdict.rake_paid
    ext["verdict"] = judged
    return ext


def _drop_lines(obj: Any) -> None:
    """Line numbers out of a serialized record (they are the text's, not the file's)."""
    if isinstance(obj, dict):
        obj.pop("line", None)
        for value in obj.values():
            _drop_lines(value)
    elif isinstance(obj, list):
        for value in obj:
            _drop_lines(value)
