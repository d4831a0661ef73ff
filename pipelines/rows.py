"""The referee's output as columns: one batch of Arrow tables per chunk.

Everything stored comes from the parser's model, the validator's
:class:`~hh.validate.Verdict` (pots with each winner's share, payouts, net,
the rake and each player's part of it, end stacks) and its light replay
trace (:class:`~hh.validate.ActionFigures`: pot, bet to call, stack and
bets around each action): this module copies and reshapes, it never
re-derives a rule. Each row is a dict keyed by column name; a batch's rows
become Arrow columns at once, so the writer inserts whole tables
(docs/schema.md is the contract for every column).

Every table of a batch carries ``_ord``, the hand's place in its batch, so
the writer can drop the rows of a duplicate or a conflict without looking at
keys that several rows share.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import pyarrow as pa

from hh.games import RULES
from hh.model import (
    SHOWDOWN,
    Action,
    Deal,
    Hand,
    Marker,
    Muck,
    Post,
    Show,
    TopUp,
    Uncalled,
)
from hh.parse import Record
from hh.sources import NO_TIME, instant
from hh.validate import ActionFigures, Verdict, description_category

_STR = pa.string()
_STRS = pa.list_(pa.string())
_I16 = pa.int16()
_I32 = pa.int32()
_I64 = pa.int64()
_BOOL = pa.bool_()
_TS = pa.timestamp("us")

# Column types of each table as a batch carries it (the writer adds
# bookkeeping columns such as ``import_run`` and ``imported_at``).
SCHEMAS: dict[str, pa.Schema] = {
    "hands": pa.schema(
        [
            ("_ord", _I32),
            ("site", _STR),
            ("hand_id", _STR),
            ("game", _STR),
            ("table_name", _STR),
            ("max_seats", _I16),
            ("dealer_seat", _I16),
            ("started_at", _TS),
            ("started_local", _STR),
            ("zone", _STR),
            ("forced", _I64),
            ("small_bet", _I64),
            ("big_bet", _I64),
            ("house_rules", _STRS),
            ("players", _I16),
            ("total_pot", _I64),
            ("rake", _I64),
            ("last_round", _I16),
            ("showdown", _BOOL),
            ("judged", _BOOL),
            ("valid", _BOOL),
            ("n_violations", _I32),
            ("n_hand_violations", _I32),
            ("n_unchecked", _I32),
            ("hero_view", _BOOL),
            ("file", _STR),
            ("line", _I32),
            ("table_line", _I32),
            ("content_hash", _STR),
            ("hh_version", _STR),
            ("board", _STRS),
            ("board_rounds", pa.list_(_I16)),
        ]
    ),
    "hand_text": pa.schema([("_ord", _I32), ("site", _STR), ("hand_id", _STR), ("raw_text", _STR)]),
    "seats": pa.schema(
        [
            ("_ord", _I32),
            ("site", _STR),
            ("hand_id", _STR),
            ("seat", _I16),
            ("line", _I32),
            ("player", _STR),
            ("sitting_out", _BOOL),
            ("dealt_in", _BOOL),
            ("position", _I16),
            ("is_dealer", _BOOL),
            ("stack_start", _I64),
            ("top_up", _I64),
            ("stack_end", _I64),
            ("down_cards", _STRS),
            ("up_cards", _STRS),
            ("shown", _BOOL),
            ("mucked", _BOOL),
            ("put_in", _I64),
            ("uncalled", _I64),
            ("won", _I64),
            ("net", _I64),
            ("rake_paid", _I64),
            ("went_to_showdown", _BOOL),
            ("folded_round", _I16),
            ("all_in_round", _I16),
            ("hand_category", _STR),
            ("down_rounds", pa.list_(_I16)),
            ("up_rounds", pa.list_(_I16)),
            ("declared", pa.list_(_STRS)),
        ]
    ),
    "actions": pa.schema(
        [
            ("_ord", _I32),
            ("site", _STR),
            ("hand_id", _STR),
            ("seq", _I32),
            ("line", _I32),
            ("round", _I16),
            ("street", _STR),
            ("player", _STR),
            ("kind", _STR),
            ("amount", _I64),
            ("raise_by", _I64),
            ("total_after", _I64),
            ("all_in", _BOOL),
            ("timed_out", _BOOL),
            ("pot_before", _I64),
            ("to_call_before", _I64),
            ("stack_before", _I64),
            ("code", _STR),
        ]
    ),
    "pots": pa.schema(
        [
            ("_ord", _I32),
            ("site", _STR),
            ("hand_id", _STR),
            ("pot_index", _I16),
            ("amount", _I64),
            ("eligible", _STRS),
            ("winners", _STRS),
            ("shares", pa.list_(_I64)),
        ]
    ),
    "hand_violations": pa.schema(
        [
            ("_ord", _I32),
            ("site", _STR),
            ("hand_id", _STR),
            ("code", _STR),
            ("line", _I32),
            ("message", _STR),
            ("unchecked", _BOOL),
        ]
    ),
    "rejects": pa.schema(
        [
            ("_ord", _I32),
            ("file", _STR),
            ("line", _I32),
            ("raw_text", _STR),
            ("error", _STR),
            ("error_line", _I32),
            ("error_column", _I32),
            ("kind", _STR),
            ("site", _STR),
            ("hand_id", _STR),
            ("game", _STR),
            ("table_name", _STR),
            ("started_at", _TS),
            ("content_hash", _STR),
            ("other_file", _STR),
            ("other_line", _I32),
        ]
    ),
}

TABLES = tuple(SCHEMAS)
_STRUCTS = {t: pa.struct(schema) for t, schema in SCHEMAS.items()}
_VERB_KIND = {"checks": "check", "folds": "fold", "bets": "bet", "calls": "call", "raises": "raise"}


def content_hash(raw: str) -> str:
    """SHA-256 of a hand's raw text: the same text is the same hand."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def started_at(verdict: Verdict) -> dt.datetime | None:
    """The hand's instant exactly as the cross-hand checks order it
    (``hh.sources.instant``): UTC when the zone is known, as written
    otherwise; None for a date that is not one (the Python order puts those
    first, as ``NULLS FIRST`` does in SQL) or that a zone moves past the
    calendar's end."""
    t = instant(verdict.when, verdict.zone)
    if t == NO_TIME:
        return None
    try:
        return _EPOCH + dt.timedelta(seconds=t - 86400)
    except OverflowError:
        return None


_EPOCH = dt.datetime(1, 1, 1)


class Batch:
    """The rows of every table for a run of hands, filled hand by hand.

    A row is one dict from column name to value (a column left out is
    NULL); :meth:`tables` turns each table's rows into Arrow columns once
    per batch, in C (as one struct array, whose fields are looked up by
    name)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = {t: [] for t in SCHEMAS}
        self.n = 0  # hands and rejects added (the next _ord)

    def tables(self) -> dict[str, pa.Table]:
        out = {}
        for t, rows in self.rows.items():
            schema = SCHEMAS[t]
            if not rows:
                out[t] = schema.empty_table()
                continue
            out[t] = pa.Table.from_struct_array(pa.array(rows, type=_STRUCTS[t]))
        return out

    # ------------------------------------------------------------ rejects

    def add_reject(self, record: Record, failed: Verdict, digest: str) -> None:
        """A run that did not parse, kept as read; ``failed`` is the verdict
        ``hh validate`` gives it (its table and time break its chain)."""
        error = record.error
        assert error is not None
        ord_ = self.n
        self.n += 1
        self.rows["rejects"].append(
            {
                "_ord": ord_,
                "file": record.file,
                "line": record.line,
                "raw_text": record.raw,
                "error": error.message,
                "error_line": error.line,
                "error_column": error.column,
                "kind": "parse",
                "site": None if record.hand_id is None else (record.site or ""),
                "hand_id": record.hand_id,
                "game": failed.game,
                "table_name": failed.table,
                "started_at": started_at(failed),
                "content_hash": digest,
                # other_file, other_line: conflicts only
            }
        )

    # ------------------------------------------------------------ hands

    def add_hand(
        self,
        hand: Hand,
        verdict: Verdict,
        figures: ActionFigures,
        raw: str,
        digest: str,
        file: str | None,
        hh_version: str,
    ) -> None:
        """One judged hand; ``figures``: its light trace
        (``validate(hand, file, figures=ActionFigures())``)."""
        ord_ = self.n
        self.n += 1
        h = hand.header
        site = h.site or ""
        hid = h.hand_id
        rounds = RULES[hand.game].street_index
        complete = figures.complete  # else: the replay failed (INTERNAL_ERROR)
        names = figures.names if complete else ()
        figured = figures.actions if complete else {}
        codes: dict[int, str] = {}
        for v in verdict.violations:
            codes.setdefault(v.line, v.code)

        # -- actions (forced bets, betting lines, uncalled bets), and what
        # the seats need from the body
        actions = self.rows["actions"]
        seq = 0
        uncalled: dict[str, int] = {}
        folded_round: dict[str, int] = {}
        all_in_round: dict[str, int] = {}
        shown: set[str] = set()
        mucked: set[str] = set()
        categories: dict[str, str] = {}
        declared: dict[str, list[list[str]]] = {}
        # per player: down cards, up cards, and the round each was dealt in
        deals: dict[str, tuple[list[str], list[str], list[int | None], list[int | None]]] = {}
        board: list[str] = []
        board_rounds: list[int | None] = []
        hero_view = False
        showdown = False
        last_round = -1
        for street, line in hand.lines():
            if isinstance(line, Deal):
                down, up, down_at, up_at = deals.setdefault(line.name, ([], [], [], []))
                at = None if street is None else rounds.get(street)
                if line.down:
                    down.extend(line.down)
                    down_at.extend([at] * len(line.down))
                    hero_view = hero_view or "??" in line.down
                if line.up:
                    up.extend(line.up)
                    up_at.extend([at] * len(line.up))
                continue
            if isinstance(line, Marker):
                if line.street == SHOWDOWN:
                    showdown = True
                else:
                    k = rounds.get(line.street, -1)
                    last_round = max(last_round, k)
                    if line.new_cards:
                        board.extend(line.new_cards)
                        board_rounds.extend([k] * len(line.new_cards))
                continue
            if isinstance(line, Show):
                shown.add(line.name)
                if line.declared:
                    declared.setdefault(line.name, []).append(list(line.declared))
                cat = description_category(line.description)
                if cat:
                    categories[line.name] = cat
                continue
            if isinstance(line, Muck):
                mucked.add(line.name)
                continue
            rnd = -1 if street is None else rounds.get(street)
            raise_by: int | None = None
            all_in = False
            timed_out = False
            amount: int | None
            if isinstance(line, Action):
                name = line.name
                got = figured.get(line.line)
                verb = line.verb
                what = _VERB_KIND[verb]
                all_in = line.all_in
                timed_out = line.timed_out
                if verb == "raises":
                    raise_by = line.amount
                    total = line.total
                    amount = None if got is None or total is None else total - got.bet_before
                elif verb == "bets" or verb == "calls":
                    amount = line.amount
                else:
                    amount = 0
                    if verb == "folds" and rnd is not None:
                        folded_round.setdefault(name, rnd)
            elif isinstance(line, Post):
                name = line.name
                got = figured.get(line.line)
                what = line.kind
                amount = line.amount
                all_in = line.all_in
            elif isinstance(line, Uncalled):
                name = line.name
                got = figured.get(line.line)
                what = "uncalled"
                amount = line.amount
                uncalled[name] = uncalled.get(name, 0) + line.amount
            else:
                continue
            if all_in and rnd is not None:
                all_in_round.setdefault(name, rnd)
            n_line = line.line
            row = {
                "_ord": ord_,
                "site": site,
                "hand_id": hid,
                "seq": seq,
                "line": n_line,
                "round": rnd,
                "street": street,
                "player": name,
                "kind": what,
                "amount": amount,
                "raise_by": raise_by,
                "all_in": all_in,
                "timed_out": timed_out,
                "code": codes.get(n_line),
            }
            if got is not None:
                row["total_after"] = got.bet_after
                row["pot_before"] = got.pot_before
                row["to_call_before"] = got.to_call_before
                row["stack_before"] = got.stack_before
            actions.append(row)
            seq += 1

        # -- seats
        for o in hand.summary.seats:
            if o.outcome == "mucked":
                mucked.add(o.name)
            if o.description and o.name not in categories:
                cat = description_category(o.description)
                if cat:
                    categories[o.name] = cat
        top_ups = {t.name: t.amount for t in hand.preamble if type(t) is TopUp}
        judged = verdict.pots is not None
        payouts = verdict.payouts or {}
        net = verdict.net or {}
        rake_paid = verdict.rake_paid or {}
        ends = {s.name: s.end for s in verdict.stacks}
        dealt_in = set(verdict.dealt_in)
        put = {name: payouts.get(name, 0) - n for name, n in net.items()}
        total_pot = sum(put.values()) if judged else None
        pots = verdict.pots or ()
        position = {name: k + 1 for k, name in enumerate(names)}  # dealing order
        folded = figures.showdown_folded if complete else None
        at_showdown = (
            {n for n, out in dict(zip(names, folded, strict=True)).items() if not out}
            if folded is not None
            else set()
        )
        dealer = hand.table.dealer
        seats = self.rows["seats"]
        for s in hand.seats:
            name = s.name
            cards = deals.get(name)
            in_hand = judged and name in net
            seats.append(
                {
                    "_ord": ord_,
                    "site": site,
                    "hand_id": hid,
                    "seat": s.seat,
                    "line": s.line,
                    "player": name,
                    "sitting_out": s.sitting_out,
                    "dealt_in": name in dealt_in,
                    "position": None if s.sitting_out else position.get(name),
                    "is_dealer": s.seat == dealer,
                    "stack_start": s.chips,
                    "top_up": top_ups.get(name),
                    "stack_end": ends.get(name) if judged else None,
                    "down_cards": None if cards is None else cards[0],
                    "up_cards": None if cards is None else cards[1],
                    "shown": name in shown,
                    "mucked": name in mucked,
                    "put_in": put[name] if in_hand else None,
                    "uncalled": uncalled.get(name, 0) if in_hand else None,
                    "won": payouts.get(name, 0) if in_hand else None,
                    "net": net[name] if in_hand else None,
                    "rake_paid": rake_paid.get(name, 0) if in_hand else None,
                    "went_to_showdown": name in at_showdown,
                    "folded_round": folded_round.get(name),
                    "all_in_round": all_in_round.get(name),
                    "hand_category": categories.get(name),
                    "down_rounds": None if cards is None else cards[2],
                    "up_rounds": None if cards is None else cards[3],
                    "declared": declared.get(name),
                }
            )

        # -- pots
        pot_rows = self.rows["pots"]
        for k, p in enumerate(pots):
            pot_rows.append(
                {
                    "_ord": ord_,
                    "site": site,
                    "hand_id": hid,
                    "pot_index": k,
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "winners": list(p.winners),
                    "shares": list(p.shares),
                }
            )

        # -- violations
        bad = self.rows["hand_violations"]
        for flagged, found in ((False, verdict.violations), (True, verdict.unchecked)):
            for v in found:
                bad.append(
                    {
                        "_ord": ord_,
                        "site": site,
                        "hand_id": hid,
                        "code": v.code,
                        "line": v.line,
                        "message": v.message,
                        "unchecked": flagged,
                    }
                )

        # -- the hand, and its text
        n_bad = len(verdict.violations)
        stakes = h.stakes
        self.rows["hands"].append(
            {
                "_ord": ord_,
                "site": site,
                "hand_id": hid,
                "game": hand.game.value,
                "table_name": hand.table.name,
                "max_seats": hand.table.max_seats,
                "dealer_seat": dealer,
                "started_at": started_at(verdict),
                "started_local": f"{h.date} {h.time}",
                "zone": h.zone,
                "forced": stakes.forced,
                "small_bet": stakes.low,
                "big_bet": stakes.high,
                "house_rules": list(hand.house_rules.rules) if hand.house_rules else [],
                "players": len(verdict.dealt_in) if judged else None,
                "total_pot": total_pot,
                "rake": verdict.rake,
                "last_round": last_round,
                "showdown": showdown,
                "judged": judged,
                "valid": n_bad == 0,
                "n_violations": n_bad,
                "n_hand_violations": n_bad,
                "n_unchecked": len(verdict.unchecked),
                "hero_view": hero_view,
                "file": file,
                "line": hand.line,
                "table_line": hand.table.line,
                "content_hash": digest,
                "hh_version": hh_version,
                "board": board,
                "board_rounds": board_rounds,
            }
        )
        self.rows["hand_text"].append({"_ord": ord_, "site": site, "hand_id": hid, "raw_text": raw})
