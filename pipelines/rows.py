"""The referee's output as columns: one batch of Arrow tables per chunk.

Everything stored comes from the parser's model, the validator's
:class:`~hh.validate.Verdict` and its light replay trace
(:class:`~hh.validate.ActionFigures`: pot, bet to call, stack and bets
around each action): this module copies and reshapes, it never re-derives a
rule. Rows are built as one tuple each and turned into Arrow columns once
per batch, so the writer inserts whole tables (docs/schema.md is the
contract for every column).

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
from hh.validate import ActionFigures, PotResult, Verdict, description_category

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

    A row is one tuple in its table's column order (one append per row: the
    cheapest Python can do); :meth:`tables` turns each table's tuples into
    Arrow columns once per batch, in C (as one struct array: a tuple is a
    struct's fields in order; 2-4x faster than transposing in Python)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[Any, ...]]] = {t: [] for t in SCHEMAS}
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
            (
                ord_,
                record.file,
                record.line,
                record.raw,
                error.message,
                error.line,
                error.column,
                "parse",
                None if record.hand_id is None else (record.site or ""),
                record.hand_id,
                failed.game,
                failed.table,
                started_at(failed),
                digest,
                None,  # other_file, other_line: conflicts only
                None,
            )
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
        deals: dict[str, tuple[list[str], list[str]]] = {}
        hero_view = False
        showdown = False
        last_round = -1
        for street, line in hand.lines():
            if isinstance(line, Deal):
                down, up = deals.setdefault(line.name, ([], []))
                if line.down:
                    down.extend(line.down)
                    hero_view = hero_view or "??" in line.down
                if line.up:
                    up.extend(line.up)
                continue
            if isinstance(line, Marker):
                if line.street == SHOWDOWN:
                    showdown = True
                else:
                    last_round = max(last_round, rounds.get(line.street, -1))
                continue
            if isinstance(line, Show):
                shown.add(line.name)
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
                    amount = None if got is None or total is None else total - got[3]
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
            if got is None:
                actions.append(
                    (ord_, site, hid, seq, n_line, rnd, street, name, what, amount, raise_by,
                     None, all_in, timed_out, None, None, None, codes.get(n_line))
                )  # fmt: skip
            else:
                actions.append(
                    (ord_, site, hid, seq, n_line, rnd, street, name, what, amount, raise_by,
                     got[4], all_in, timed_out, got[0], got[1], got[2], codes.get(n_line))
                )  # fmt: skip
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
        ends = {name: end for _, name, _, end, _ in verdict.stacks}
        dealt_in = set(verdict.dealt_in)
        put = {name: payouts.get(name, 0) - n for name, n in net.items()}
        total_pot = sum(put.values()) if judged else None
        pots = verdict.pots or ()
        rake = None if total_pot is None else total_pot - sum(p.amount for p in pots)
        # the verdict lists winners by seat and shares in odd-chip (dealing)
        # order: pair each share with its winner through the dealing order
        index = {name: k for k, name in enumerate(names)}
        shares = [_shares_by_winner(p, index) for p in pots]
        rake_paid = _rake_shares(rake or 0, pots[0], shares[0], index) if pots else {}
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
            i = index.get(name)
            in_hand = judged and name in net
            seats.append(
                (
                    ord_,
                    site,
                    hid,
                    s.seat,
                    s.line,
                    name,
                    s.sitting_out,
                    name in dealt_in,
                    None if i is None or s.sitting_out else i + 1,
                    s.seat == dealer,
                    s.chips,
                    top_ups.get(name),
                    ends.get(name) if judged else None,
                    None if cards is None else cards[0],
                    None if cards is None else cards[1],
                    name in shown,
                    name in mucked,
                    put[name] if in_hand else None,
                    uncalled.get(name, 0) if in_hand else None,
                    payouts.get(name, 0) if in_hand else None,
                    net[name] if in_hand else None,
                    rake_paid.get(name, 0) if in_hand else None,
                    name in at_showdown,
                    folded_round.get(name),
                    all_in_round.get(name),
                    categories.get(name),
                )
            )

        # -- pots
        pot_rows = self.rows["pots"]
        for k, p in enumerate(pots):
            pot_rows.append(
                (ord_, site, hid, k, p.amount, list(p.eligible), list(p.winners), shares[k])
            )

        # -- violations
        bad = self.rows["hand_violations"]
        for v in verdict.violations:
            bad.append((ord_, site, hid, v.code, v.line, v.message, False))
        for v in verdict.unchecked:
            bad.append((ord_, site, hid, v.code, v.line, v.message, True))

        # -- the hand, and its text
        n_bad = len(verdict.violations)
        stakes = h.stakes
        self.rows["hands"].append(
            (
                ord_,
                site,
                hid,
                hand.game.value,
                hand.table.name,
                hand.table.max_seats,
                dealer,
                started_at(verdict),
                f"{h.date} {h.time}",
                h.zone,
                stakes.forced,
                stakes.low,
                stakes.high,
                list(hand.house_rules.rules) if hand.house_rules else [],
                len(verdict.dealt_in) if judged else None,
                total_pot,
                rake,
                last_round,
                showdown,
                judged,
                n_bad == 0,
                n_bad,
                n_bad,
                len(verdict.unchecked),
                hero_view,
                file,
                hand.line,
                hand.table.line,
                digest,
                hh_version,
            )
        )
        self.rows["hand_text"].append((ord_, site, hid, raw))


def _shares_by_winner(pot: PotResult, order: dict[str, int]) -> list[int] | None:
    """The chips of each of ``pot.winners`` (seat order), from the shares the
    referee gave in odd-chip (dealing) order."""
    if len(pot.shares) != len(pot.winners):
        return None
    dealing = sorted(pot.winners, key=lambda n: order.get(n, len(order)))
    got = dict(zip(dealing, pot.shares, strict=True))
    return [got[n] for n in pot.winners]


def _rake_shares(
    rake: int, main: PotResult, shares: list[int] | None, order: dict[str, int]
) -> dict[str, int]:
    """Each main-pot winner's part of the rake, by name: the rake times his
    share of the main pot's payout, floored; the remainder goes to the first
    winner in odd-chip (dealing) order, as odd chips do."""
    if not rake or not shares or not main.winners:
        return {}
    total = sum(shares)
    if total <= 0:
        return {}
    out = {w: rake * s // total for w, s in zip(main.winners, shares, strict=True)}
    first = min(main.winners, key=lambda n: order.get(n, len(order)))
    out[first] += rake - sum(out.values())
    return out
