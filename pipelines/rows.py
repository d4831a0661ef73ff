"""The referee's output as columns: one batch of Arrow tables per chunk.

Everything stored comes from the parser's model, the validator's
:class:`~hh.validate.Verdict` and its replay trace
(:class:`~hh.validate.LineState` after each line): this module copies and
reshapes, it never re-derives a rule. Columns are built as Python lists per
column and turned into Arrow arrays once per batch, so the writer inserts
whole tables (docs/schema.md is the contract for every column).

Every table of a batch carries ``_ord``, the hand's place in its batch, so
the writer can drop the rows of a duplicate or a conflict without looking at
keys that several rows share.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from hh.crosshand import NO_TIME, instant
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
from hh.validate import LineState, PotResult, Verdict, description_category

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
_VERB_KIND = {"checks": "check", "folds": "fold", "bets": "bet", "calls": "call", "raises": "raise"}


def content_hash(raw: str) -> str:
    """SHA-256 of a hand's raw text: the same text is the same hand."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def started_at(verdict: Verdict) -> dt.datetime | None:
    """The hand's instant exactly as the cross-hand checks order it
    (``hh.crosshand.instant``): UTC when the zone is known, as written
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


@dataclass
class Batch:
    """Columns of every table for a run of hands, filled hand by hand."""

    cols: dict[str, dict[str, list[Any]]] = field(
        default_factory=lambda: {t: {c: [] for c in SCHEMAS[t].names} for t in SCHEMAS}
    )
    n: int = 0  # hands and rejects added (the next _ord)

    def row(self, table: str, **values: Any) -> None:
        cols = self.cols[table]
        for name, column in cols.items():
            column.append(values.get(name))

    def tables(self) -> dict[str, pa.Table]:
        return {
            t: pa.table(cols, schema=SCHEMAS[t])  # type: ignore[arg-type]
            for t, cols in self.cols.items()
        }

    # ------------------------------------------------------------ rejects

    def add_reject(self, record: Record, failed: Verdict, digest: str) -> None:
        """A run that did not parse, kept as read; ``failed`` is the verdict
        ``hh validate`` gives it (its table and time break its chain)."""
        error = record.error
        assert error is not None
        ord_ = self.n
        self.n += 1
        self.row(
            "rejects",
            _ord=ord_,
            file=record.file,
            line=record.line,
            raw_text=record.raw,
            error=error.message,
            error_line=error.line,
            error_column=error.column,
            kind="parse",
            site=None if record.hand_id is None else (record.site or ""),
            hand_id=record.hand_id,
            game=failed.game,
            table_name=failed.table,
            started_at=started_at(failed),
            content_hash=digest,
        )

    # ------------------------------------------------------------ hands

    def add_hand(
        self,
        hand: Hand,
        verdict: Verdict,
        trace: Sequence[LineState],
        raw: str,
        digest: str,
        file: str | None,
        hh_version: str,
    ) -> None:
        ord_ = self.n
        self.n += 1
        h = hand.header
        site = h.site or ""
        hid = h.hand_id
        rules = RULES[hand.game]
        rounds = rules.street_index
        body = hand.lines()
        # trace[0] is the state after the header and seats, then one state
        # per body line (markers included), then the summary's
        states = trace if len(trace) == len(body) + 2 else None
        names = states[0].names if states else ()
        index = {name: k for k, name in enumerate(names)}
        codes: dict[int, str] = {}
        for v in verdict.violations:
            codes.setdefault(v.line, v.code)

        # -- actions (forced bets, betting lines, uncalled bets)
        act = self.cols["actions"]
        seq = 0
        uncalled: dict[str, int] = {}
        folded_round: dict[str, int] = {}
        all_in_round: dict[str, int] = {}
        shown: set[str] = set()
        mucked: set[str] = set()
        categories: dict[str, str] = {}
        showdown_state: LineState | None = None
        last_round = -1
        for k, (street, line) in enumerate(body):
            kind = type(line)
            if kind is Marker:
                if line.street == SHOWDOWN:  # type: ignore[union-attr]
                    showdown_state = states[k + 1] if states else None
                else:
                    last_round = max(last_round, rounds.get(line.street, -1))  # type: ignore[union-attr]
                continue
            if kind is Show:
                shown.add(line.name)  # type: ignore[union-attr]
                cat = description_category(line.description)  # type: ignore[union-attr]
                if cat:
                    categories[line.name] = cat  # type: ignore[union-attr]
                continue
            if kind is Muck:
                mucked.add(line.name)  # type: ignore[union-attr]
                continue
            if kind is not Action and kind is not Post and kind is not Uncalled:
                continue
            name: str = line.name  # type: ignore[union-attr]
            rnd = -1 if street is None else rounds.get(street)
            before = states[k] if states else None
            after = states[k + 1] if states else None
            i = index.get(name)
            bet_before = before.bets[i] if before is not None and i is not None else None
            raise_by = None
            all_in = False
            timed_out = False
            if kind is Action:
                verb = line.verb  # type: ignore[union-attr]
                what = _VERB_KIND[verb]
                all_in = line.all_in  # type: ignore[union-attr]
                timed_out = line.timed_out  # type: ignore[union-attr]
                if verb == "raises":
                    raise_by = line.amount  # type: ignore[union-attr]
                    total = line.total  # type: ignore[union-attr]
                    amount = None if bet_before is None or total is None else total - bet_before
                elif verb in ("bets", "calls"):
                    amount = line.amount  # type: ignore[union-attr]
                else:
                    amount = 0
                    if verb == "folds" and rnd is not None:
                        folded_round.setdefault(name, rnd)
            elif kind is Post:
                what = line.kind  # type: ignore[union-attr]
                amount = line.amount  # type: ignore[union-attr]
                all_in = line.all_in  # type: ignore[union-attr]
            else:
                what = "uncalled"
                amount = line.amount  # type: ignore[union-attr]
                uncalled[name] = uncalled.get(name, 0) + amount
            if all_in and rnd is not None:
                all_in_round.setdefault(name, rnd)
            if before is not None and i is not None:
                stack = before.stacks[i]
                if before.to_act == name:
                    to_call = before.to_call
                else:
                    to_call = max(0, min(max(before.bets) - before.bets[i], stack))
                pot_before: int | None = before.pot
                stack_before: int | None = stack
                to_call_before: int | None = to_call
                total_after = after.bets[i] if after is not None else None
            else:
                pot_before = stack_before = to_call_before = total_after = None
            act["_ord"].append(ord_)
            act["site"].append(site)
            act["hand_id"].append(hid)
            act["seq"].append(seq)
            act["line"].append(line.line)
            act["round"].append(rnd)
            act["street"].append(street)
            act["player"].append(name)
            act["kind"].append(what)
            act["amount"].append(amount)
            act["raise_by"].append(raise_by)
            act["total_after"].append(total_after)
            act["all_in"].append(all_in)
            act["timed_out"].append(timed_out)
            act["pot_before"].append(pot_before)
            act["to_call_before"].append(to_call_before)
            act["stack_before"].append(stack_before)
            act["code"].append(codes.get(line.line))
            seq += 1

        # -- seats
        for s in hand.summary.seats:
            if s.outcome == "mucked":
                mucked.add(s.name)
            if s.description and s.name not in categories:
                cat = description_category(s.description)
                if cat:
                    categories[s.name] = cat
        deals: dict[str, tuple[list[str], list[str]]] = {}
        hero_view = False
        for _, line in body:
            if type(line) is Deal:
                down, up = deals.setdefault(line.name, ([], []))  # type: ignore[union-attr]
                if line.down:  # type: ignore[union-attr]
                    down.extend(line.down)  # type: ignore[union-attr]
                    hero_view = hero_view or "??" in line.down  # type: ignore[union-attr]
                if line.up:  # type: ignore[union-attr]
                    up.extend(line.up)  # type: ignore[union-attr]
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
        order = {name: k for k, name in enumerate(names)}
        shares = [_shares_by_winner(p, order) for p in pots]
        rake_paid = _rake_shares(rake or 0, pots[0], shares[0], order) if pots else {}
        folded_at_showdown = (
            dict(zip(showdown_state.names, showdown_state.folded, strict=True))
            if showdown_state is not None
            else None
        )
        dealer = hand.table.dealer
        st = self.cols["seats"]
        for s in hand.seats:
            name = s.name
            down, up = deals.get(name, (None, None))
            i = index.get(name)
            st["_ord"].append(ord_)
            st["site"].append(site)
            st["hand_id"].append(hid)
            st["seat"].append(s.seat)
            st["line"].append(s.line)
            st["player"].append(name)
            st["sitting_out"].append(s.sitting_out)
            st["dealt_in"].append(name in dealt_in)
            st["position"].append(None if i is None or s.sitting_out else i + 1)
            st["is_dealer"].append(s.seat == dealer)
            st["stack_start"].append(s.chips)
            st["top_up"].append(top_ups.get(name))
            st["stack_end"].append(ends.get(name) if judged else None)
            st["down_cards"].append(down)
            st["up_cards"].append(up)
            st["shown"].append(name in shown)
            st["mucked"].append(name in mucked)
            in_hand = judged and name in net
            st["put_in"].append(put[name] if in_hand else None)
            st["uncalled"].append(uncalled.get(name, 0) if in_hand else None)
            st["won"].append(payouts.get(name, 0) if in_hand else None)
            st["net"].append(net[name] if in_hand else None)
            st["rake_paid"].append(rake_paid.get(name, 0) if in_hand else None)
            st["went_to_showdown"].append(
                folded_at_showdown is not None
                and name in folded_at_showdown
                and not folded_at_showdown[name]
            )
            st["folded_round"].append(folded_round.get(name))
            st["all_in_round"].append(all_in_round.get(name))
            st["hand_category"].append(categories.get(name))

        # -- pots
        for k, p in enumerate(pots):
            self.row(
                "pots",
                _ord=ord_,
                site=site,
                hand_id=hid,
                pot_index=k,
                amount=p.amount,
                eligible=list(p.eligible),
                winners=list(p.winners),
                shares=shares[k],
            )

        # -- violations
        for flag, found in ((False, verdict.violations), (True, verdict.unchecked)):
            for v in found:
                self.row(
                    "hand_violations",
                    _ord=ord_,
                    site=site,
                    hand_id=hid,
                    code=v.code,
                    line=v.line,
                    message=v.message,
                    unchecked=flag,
                )

        # -- the hand, and its text
        n_bad = len(verdict.violations)
        stakes = h.stakes
        self.row(
            "hands",
            _ord=ord_,
            site=site,
            hand_id=hid,
            game=hand.game.value,
            table_name=hand.table.name,
            max_seats=hand.table.max_seats,
            dealer_seat=dealer,
            started_at=started_at(verdict),
            started_local=f"{h.date} {h.time}",
            zone=h.zone,
            forced=stakes.forced,
            small_bet=stakes.low,
            big_bet=stakes.high,
            house_rules=list(hand.house_rules.rules) if hand.house_rules else [],
            players=len(verdict.dealt_in) if judged else None,
            total_pot=total_pot,
            rake=rake,
            last_round=last_round,
            showdown=showdown_state is not None
            or any(s.marker.street == SHOWDOWN for s in hand.sections),
            judged=judged,
            valid=n_bad == 0,
            n_violations=n_bad,
            n_hand_violations=n_bad,
            n_unchecked=len(verdict.unchecked),
            hero_view=hero_view,
            file=file,
            line=hand.line,
            table_line=hand.table.line,
            content_hash=digest,
            hh_version=hh_version,
        )
        self.row("hand_text", _ord=ord_, site=site, hand_id=hid, raw_text=raw)


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
