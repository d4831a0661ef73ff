"""Where a hand sits: its site, table, time and game read from its first two
lines as written, without the parser (:func:`placement`, :func:`instant`),
so that a hand that did not parse still has its place among its table's
hands, and the cut and the cross-hand checks agree on it.
"""

from __future__ import annotations

import re
from datetime import date as _date
from typing import NamedTuple

_ZONES = {
    "UTC": 0,
    "GMT": 0,
    "WET": 0,
    "WEST": 60,
    "CET": 60,
    "CEST": 120,
    "EET": 120,
    "EEST": 180,
}
_WHEN = re.compile(r"[0-9]{4}/[0-9]{2}/[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
# Day numbers by date: a run's hands share a few dates, and the calendar's
# check is most of what an instant costs. -1: no such day. Bounded.
_DAYS: dict[str, int] = {}
_OFFSET = re.compile(r"([+-])([0-9]{2}):([0-9]{2})")
# Before every real time: a date that is no date sorts first, as if unknown.
NO_TIME = -(1 << 62)


def instant(when: str | None, zone: str | None) -> int:
    """The time ``when`` ("YYYY/MM/DD HH:MM:SS") in seconds, in UTC where the
    zone is known (the listed abbreviations and ``+hh:mm`` offsets), as
    written otherwise (FORMAT.md). Integers, not datetimes: the calendar's
    edges (year 1 in CET, year 9999 at -01:00) move past what ``datetime``
    holds; a zone that is no zone (``+0100``, ``-``) is "as written"."""
    if when is None or _WHEN.fullmatch(when) is None:
        return NO_TIME
    day = _DAYS.get(when[:10])
    if day is None:
        day = _day(when[:10])
    h, mi, s = int(when[11:13]), int(when[14:16]), int(when[17:19])  # where _WHEN put them
    if day < 0 or h > 23 or mi > 59 or s > 59:
        return NO_TIME
    t = day * 86400 + h * 3600 + mi * 60 + s
    if zone is None:
        return t
    if zone in _ZONES:
        return t - _ZONES[zone] * 60
    offset = _OFFSET.fullmatch(zone)
    if offset is not None:
        sign = 1 if offset.group(1) == "+" else -1
        return t - sign * (int(offset.group(2)) * 3600 + int(offset.group(3)) * 60)
    return t


def _day(date: str) -> int:
    """The day number of "YYYY/MM/DD" (proleptic Gregorian), -1 for no such day."""
    try:
        day = _date(int(date[:4]), int(date[5:7]), int(date[8:10])).toordinal()
    except ValueError:
        day = -1
    if len(_DAYS) >= 4096:
        _DAYS.clear()
    _DAYS[date] = day
    return day


_GAME_TITLES = (
    ("Chiribito No Limit", "chiribito"),
    ("Aces, Straights and Flushes Limit", "aces-straights-flushes"),
    ("Calatone Spread Limit", "calatone"),
)
_TABLE = re.compile(r"Table '([^']*)'")
# The usual header: the site and the time at once (what _SITE and _HEAD_WHEN
# find apart, the same groups: a site has no space, and the time ends the line).
_HEAD = re.compile(
    r"(?:(\S+) )?Hand #[A-Za-z0-9_-].*? - ([0-9]{4}/[0-9]{2}/[0-9]{2}) "
    r"([0-9]{2}:[0-9]{2}:[0-9]{2})(?: (\S+))?$"
)
_HEAD_WHEN = re.compile(r" - ([0-9]{4}/[0-9]{2}/[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2})(?: (\S+))?$")
_SITE = re.compile(r"(?:(\S+) )?Hand #[A-Za-z0-9_-]")


class Place(NamedTuple):
    """Where a run of lines sits among the hands of a run, read from its
    first two lines as written: the same for a hand that parsed and one that
    did not, and the same for the cut that orders tables beforehand."""

    site: str | None
    table: str | None
    when: str | None
    zone: str | None
    game: str | None

    @property
    def instant(self) -> int:
        return instant(self.when, self.zone)


def placement(first: str, second: str | None) -> Place:
    """Read a run's site, table, time and game from its first two lines (a
    header and a Table line when the run is a hand)."""
    head = first.lstrip("\ufeff").rstrip(" \t\r")
    table = _TABLE.match(second) if second is not None else None
    game = None
    for title, name in _GAME_TITLES:
        if title in head:
            game = name
            break
    usual = _HEAD.match(head)
    if usual is not None:
        site, date, clock, zone = usual.groups()
        return Place(site, table.group(1) if table else None, f"{date} {clock}", zone, game)
    m = _SITE.match(head)  # (a header whose id is unreadable names no site)
    site = m.group(1) if m else None
    when = _HEAD_WHEN.search(head)
    if when is None:
        return Place(site, table.group(1) if table else None, None, None, game)
    date, clock, zone = when.groups()
    return Place(site, table.group(1) if table else None, f"{date} {clock}", zone, game)


# A table: the site (None when the header names none) and the table's name.
TableKey = tuple[str | None, str]


