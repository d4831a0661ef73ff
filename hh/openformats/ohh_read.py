"""Open Hand History files read back as our text (``hh import x.ohh``,
``hh validate x.ohh``): each ``{"ohh": ...}`` object is rebuilt into a
:class:`hh.model.Hand` and written in the canonical text form, which then
takes the text's road (the same cut, parser and referee). Nothing here
judges: a hand that OHH says was valid is judged again.

The standard fields give the header's number, the table, the seats and
stacks, the forced bet, and each action's player, kind, amount, all-in mark
and cards (the Spanish deck mapped back, :mod:`hh.openformats.cards`); the
``x_hh`` extension (:mod:`hh.openformats.ohh`) gives the rest. The hands'
line numbers are those of the text they become (docs/formats.md).

A file holds JSON objects one after another (one per line, or pretty
printed), or one array of them; ``*.ohh.gz`` is the same, compressed. An
object that cannot be read becomes a run of text that says why (stored as a
reject, as a text that does not parse); a file that is not JSON from some
point on ends there with such a run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal, cast

from hh.model import (
    Action,
    Board,
    Collected,
    Commitment,
    Deal,
    DeckLine,
    Game,
    Hand,
    Header,
    HouseRules,
    Info,
    Line,
    Marker,
    ModelRecord,
    Muck,
    Post,
    Seat,
    SeatOutcome,
    Show,
    Stakes,
    Summary,
    Table,
    TopUp,
    TotalPot,
    Uncalled,
    Verb,
    cut_body,
)
from hh.openformats import cards as cardmap
from hh.openformats.ohh import EXTENSION
from hh.read.files import GZIP_MAGIC
from hh.write import write_hand


class OhhError(ValueError):
    """An OHH object that cannot be rebuilt into a hand: what and where."""


# the records the extension holds serialized (hh.serialize.to_jsonable)
_KINDS: tuple[type[ModelRecord], ...] = (
    Post, TopUp, Action, Deal, Uncalled, Collected, Show, Muck, Info, Marker,
    TotalPot, Board, DeckLine, SeatOutcome, Summary,
)  # fmt: skip
_RECORDS: dict[str, type[ModelRecord]] = {c.__name__: c for c in _KINDS}


def _record(obj: Any) -> Any:
    """A serialized model record (``hh.serialize.to_jsonable``) back as one."""
    if isinstance(obj, dict):
        cls = _RECORDS.get(obj.get("type", ""))
        if cls is None:
            raise OhhError(f"unknown record type {obj.get('type')!r}")
        return cls(**{k: _record(obj[k]) for k in cls.FIELDS if k in obj and k != "line"})
    if isinstance(obj, list):
        return tuple(_record(x) for x in obj)
    return obj


def _int(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise OhhError(f"{key!r}: expected a whole number of chips, found {value!r}")
    return value


class _Builder:
    def __init__(self, ohh: dict[str, Any], ext: dict[str, Any]) -> None:
        self.spanish = ext.get("deck") == cardmap.SPANISH
        self.names = {p["id"]: p["name"] for p in ohh["players"]}
        self.actions = {a["action_number"]: a for r in ohh["rounds"] for a in r["actions"]}

    def line(self, entry: dict[str, Any]) -> Line | Marker:
        if "marker" in entry:
            return cast(Marker, _record(entry["marker"]))
        if "line" in entry:
            return cast(Line, _record(entry["line"]))
        number = entry.get("action")
        a = self.actions.get(number)
        if a is None:
            raise OhhError(f"x_hh.lines names action {number!r}, which no round holds")
        name = self.names.get(a.get("player_id"))
        if name is None:
            raise OhhError(f"action {number}: no player with id {a.get('player_id')!r}")
        return self._action(name, a, entry)

    def _action(self, name: str, a: dict[str, Any], extra: dict[str, Any]) -> Line:
        kind = a.get("action")
        all_in = bool(a.get("is_allin", False))
        if kind in ("Post BB", "Post SB", "Post Ante"):
            post = cast(Literal["blind", "ante"], extra.get("post")
                        or ("ante" if kind == "Post Ante" else "blind"))  # fmt: skip
            return Post(name, post, _int(a, "amount"), all_in)
        if kind == "Added Chips":
            return TopUp(name, _int(a, "amount"))
        if kind in ("Check", "Fold"):
            return Action(name, cast(Verb, kind.lower() + "s"), None, None, all_in,
                          bool(extra.get("timed_out")))  # fmt: skip
        if kind in ("Bet", "Call"):
            return Action(name, cast(Verb, kind.lower() + "s"), _int(a, "amount"), None,
                          all_in, bool(extra.get("timed_out")))  # fmt: skip
        if kind == "Raise":
            by, to = extra.get("by"), extra.get("to")
            if by is None or to is None:  # another tool's raise: its amount is the chips put in
                raise OhhError(f"action {a.get('action_number')}: a raise without x_hh's by and to")
            return Action(name, "raises", by, to, all_in, bool(extra.get("timed_out")))
        if kind == "Dealt Cards":
            cards = cardmap.back(a.get("cards") or (), self.spanish)
            down, up = extra.get("down"), extra.get("up")
            if down is None and up is None:
                down = len(cards)
            n = down or 0
            return Deal(name, None if down is None else cards[:n],
                        None if up is None else cards[n:])  # fmt: skip
        if kind == "Shows Cards":
            declared = extra.get("declared")
            return Show(name, cardmap.back(a.get("cards") or (), self.spanish),
                        None if declared is None else tuple(declared),
                        extra.get("description"))  # fmt: skip
        if kind == "Mucks Cards":
            return Muck(name)
        raise OhhError(f"action {a.get('action_number')}: OHH action {kind!r} has no line in "
                       "this format")  # fmt: skip


def hand_of(obj: Any) -> Hand:
    """The hand an OHH object holds (raises :class:`OhhError`)."""
    try:
        return _hand(obj)
    except OhhError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        what = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise OhhError(what) from None


def _hand(obj: Any) -> Hand:
    if not isinstance(obj, dict) or not isinstance(obj.get("ohh"), dict):
        raise OhhError('expected an object {"ohh": {...}}')
    ohh = obj["ohh"]
    ext = ohh.get(EXTENSION)
    if not isinstance(ext, dict):
        raise OhhError(f"no {EXTENSION} extension: hh reads the OHH files of its three games "
                       "that hh export wrote (docs/formats.md)")  # fmt: skip
    game = Game(ext["game"])
    head = ext["header"]
    forced = _int(ohh, "big_blind_amount" if game is Game.CHIRIBITO else "ante_amount")
    header = Header(head["site"], str(ohh["game_number"]), game,
                    Stakes(forced, head.get("low"), head.get("high")), head["date"],
                    head["time"], head.get("zone"))  # fmt: skip
    table = Table(ohh["table_name"], _int(ohh, "table_size"), _int(ohh, "dealer_seat"))
    seats = tuple(Seat(_int(p, "seat"), p["name"], _int(p, "starting_stack"),
                       bool(p.get("is_sitting_out", False))) for p in ohh["players"])  # fmt: skip
    build = _Builder(ohh, ext)
    preamble, sections = cut_body(build.line(entry) for entry in ext["lines"])
    summary = _record(ext["summary"])
    if not isinstance(summary, Summary):
        raise OhhError("x_hh.summary: expected a Summary record")
    rules = ext.get("house_rules")
    commitment = ext.get("commitment")
    return Hand(header, table, seats, tuple(preamble), tuple(sections), summary,
                None if rules is None else HouseRules(tuple(rules)),
                None if commitment is None else Commitment(commitment))  # fmt: skip


def _objects(text: str) -> Iterator[tuple[int, Any] | OhhError]:
    """Each JSON value of the text with its line (an array's items each),
    then an error where the text stops being JSON."""
    decoder = json.JSONDecoder()
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos] in " \t\r\n":
            pos += 1
        if pos >= end:
            return
        line = text.count("\n", 0, pos) + 1
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as error:
            yield OhhError(f"line {error.lineno} column {error.colno}: not JSON ({error.msg}); "
                           "the rest of the file is not read")  # fmt: skip
            return
        for item in value if isinstance(value, list) else [value]:
            yield line, item


def texts(data: bytes, name: str) -> Iterator[str]:
    """The hands of an OHH file's bytes as text, one string per hand (an
    object that cannot be read: a text saying why, which will not parse)."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        yield f"OHH file {name} cannot be read: not UTF-8 at byte {error.start}"
        return
    for k, found in enumerate(_objects(text), 1):
        if isinstance(found, OhhError):
            yield f"OHH file {name} cannot be read further: {found}"
            return
        line, obj = found
        try:
            yield write_hand(hand_of(obj))
        except (OhhError, TypeError, AttributeError, KeyError) as error:
            yield f"OHH object {k} (line {line} of {name}) cannot be read: {error}"


def converted(path: str) -> bytes:
    """An OHH file as the canonical text of its hands (UTF-8, LF, hands
    apart by a blank line). Raises OSError when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(GZIP_MAGIC):
        import gzip
        import zlib

        try:
            data = gzip.decompress(data)
        except (EOFError, OSError, zlib.error) as error:
            why = f"OHH file {path} cannot be read: not a whole gzip stream ({error})\n"
            return why.encode()
    body = "\n\n".join(texts(data, path))
    return (body + "\n").encode("utf-8") if body else b""


def text_lines(path: str) -> Iterator[bytes]:
    """The converted text's lines, each with its line end (see
    :func:`converted`); the file is read at the call."""
    data = converted(path)
    return iter(data.splitlines(keepends=True))
