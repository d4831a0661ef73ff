"""The hand's opening: the header's stakes, date and house rules, then the
seats, from which the engine is built."""

from __future__ import annotations

import datetime as dt
import re

from hh.engine import Engine
from hh.model import Game
from hh.replay.state import ReplayState
from hh.replay.words import plural

_OFFSET = re.compile(r"([+-])([0-9]{2}):([0-9]{2})")


def _valid_date(date: str, time: str) -> bool:
    """A real calendar date and a time of day (the grammar fixed the digits)."""
    try:
        y, m, d = date.split("/")
        hh, mm, ss = time.split(":")
        dt.date(int(y), int(m), int(d))
    except ValueError:
        return False
    return int(hh) < 24 and int(mm) < 60 and int(ss) < 60


def check_header(st: ReplayState) -> None:
    h = st.hand.header
    s = h.stakes
    game = h.game
    if s.forced <= 0:
        what = "blind" if game is Game.CHIRIBITO else "ante"
        st.add("HEADER", h.line, f"impossible stakes: the {what} is {s.forced}")
    if game is Game.ACES:
        if not s.low or not s.high or s.low > s.high:
            st.add(
                "HEADER",
                h.line,
                f"impossible stakes: bets {s.low}/{s.high} (expected a small bet above 0 "
                f"and no bigger than the big bet)",
            )
    elif game is Game.CALATONE and (not s.low or not s.high or s.low > s.high):
        st.add(
            "HEADER",
            h.line,
            f"impossible stakes: bets {s.low}-{s.high} (expected a minimum above 0 "
            f"and no bigger than the maximum)",
        )
    if not _valid_date(h.date, h.time):
        st.add("HEADER", h.line, f"bad date: {h.date} {h.time} is not a real date and time")
    if h.zone is not None:
        fault = zone_fault(h.zone)
        if fault:
            st.add("HEADER", h.line, fault)
    check_house_rules(st)


def zone_fault(zone: str) -> str | None:
    """An offset is -14:00 to +14:00 with minutes below 60 (the offsets in use
    on Earth); an abbreviation is not judged here (FORMAT.md: 2 to 5 capitals)."""
    if zone[:1] not in ("+", "-"):
        return None
    m = _OFFSET.fullmatch(zone)
    if m is None:
        return f"bad zone offset '{zone}': expected +HH:MM or -HH:MM"
    hours, minutes = int(m.group(2)), int(m.group(3))
    if minutes >= 60 or hours * 60 + minutes > 14 * 60:
        return f"bad zone offset {zone}: offsets run from -14:00 to +14:00, minutes below 60"
    return None


def check_house_rules(st: ReplayState) -> None:
    """Each rule belongs to the game, is listed once, and no two contradict:
    at most one ``Deck from`` (the deck is stripped once)."""
    hr = st.hand.house_rules
    if not hr:
        return
    game = st.hand.game
    seen: set[str] = set()
    deck_from: str | None = None
    for rule in hr.rules:
        if not st.rules.knows_rule(rule):
            st.add("HEADER", hr.line, f"house rule '{rule}' does not apply to {game.label}")
        elif rule in seen:
            st.add("HEADER", hr.line, f"house rule '{rule}' is listed twice")
        elif rule.startswith("Deck from "):
            if deck_from is not None:
                st.add(
                    "HEADER",
                    hr.line,
                    f"house rules '{deck_from}' and '{rule}' contradict: the deck is "
                    f"stripped once",
                )
            else:
                deck_from = rule
        seen.add(rule)


def seat_players(st: ReplayState) -> Engine:
    """Judge the seat lines and build the engine from the players dealt in."""
    hand = st.hand
    table = hand.table
    rules = st.rules
    variant = st.variant
    seen_seats: dict[int, int] = {}
    seen_names: dict[str, int] = {}
    dealt: list[tuple[int, str, int]] = []
    occupied: set[int] = set()  # seats of players dealt in or refused for no chips
    for s in hand.seats:
        if s.seat in seen_seats:
            st.add("SEATS", s.line, f"seat {s.seat} is listed twice")
            continue
        if s.name in seen_names:
            st.add("SEATS", s.line, f"the name {s.name} is seated twice")
            continue
        seen_seats[s.seat] = s.line
        seen_names[s.name] = s.line
        if s.seat < 1 or s.seat > table.max_seats:
            st.add(
                "SEATS",
                s.line,
                f"seat {s.seat} does not exist at a {table.max_seats}-max table",
            )
        if s.sitting_out:
            st.sitting_out.add(s.name)
            continue
        if s.chips <= 0:
            st.add("SEATS", s.line, f"{s.name} has no chips and cannot be dealt in")
            st.refused.add(s.name)
            occupied.add(s.seat)
            continue
        dealt.append((s.seat, s.name, s.chips))
        occupied.add(s.seat)
    if table.dealer not in occupied:
        st.add(
            "SEATS",
            table.line,
            f"the dealer seat #{table.dealer} has no player dealt in",
        )
    lo, hi = rules.min_players, variant.max_players
    if not lo <= len(dealt) <= hi:
        st.add(
            "SEATS",
            table.line,
            f"{plural(len(dealt), 'player')} dealt in, but {hand.game.label} is for {lo} to {hi} "
            f"players" + (" with this deck" if hi < rules.max_players else ""),
        )
    engine = Engine(rules, hand.header.stakes, dealt, table.dealer, st.house, variant)
    st.names = tuple(p.name for p in engine.players)
    return engine
