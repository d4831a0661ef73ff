"""The referee's output as a store's columns: every table's rows for a run
of hands, filled hand by hand, column by column.

Everything stored comes from the parser's model, the validator's
:class:`~hh.validate.Verdict` (pots with each winner's share, payouts, net,
the rake and each player's part of it, end stacks) and its light replay
trace (:class:`~hh.validate.ActionFigures`: pot, bet to call, stack and
bets around each action): this module copies and reshapes, it never
re-derives a rule. :data:`COLUMNS` names every table's columns, from the
declaration (pipelines.tables, docs/schema.md); the store turns each column,
a plain list, into one typed array at once (pipelines.rows: Arrow).

Columns, not rows: a value is appended to its column by the column's name,
so that a batch becomes arrays without a pass that takes rows apart. Every
table carries ``_ord``, the hand's place in its batch, so a writer can drop
the rows of a duplicate or a conflict without looking at keys that several
rows share; the tables of a hand's parts (seats, actions, ...) leave out
its key (site, hand_id), which the store takes from the hand's row by
``_ord`` (pipelines.rows). The module is compiled in the fast build
(pipelines.COMPILED): it runs once per stored value.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any, Final

from hh.games import RULES
from hh.model import SHOWDOWN, Action, Deal, Hand, Marker, Muck, Post, Show, TopUp, Uncalled
from hh.parse import Record
from hh.read.places import NO_TIME, instant
from hh.validate import ActionFigures, Verdict, description_category
from pipelines.tables import BATCH, builder_columns

# The columns the builder fills, per table of a batch, in stored order:
# the declaration's (pipelines.tables.builder_columns).
COLUMNS: Final[dict[str, tuple[str, ...]]] = {t: builder_columns(t) for t in BATCH}

_VERB_KIND: Final = {"checks": "check", "folds": "fold", "bets": "bet", "calls": "call",
                     "raises": "raise"}  # fmt: skip
_EPOCH: Final = dt.datetime(1, 1, 1)


def content_hash(raw: str) -> str:
    """SHA-256 of a hand's raw text: the same text is the same hand."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def started_at(verdict: Verdict) -> dt.datetime | None:
    """The hand's instant exactly as the cross-hand checks order it
    (``hh.read.places.instant``): UTC when the zone is known, as written
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


class Columns:
    """Every table's columns for a run of hands: ``columns[table][column]``
    is the list of that column's values, one per row (None: NULL); all the
    columns of a table have the same length."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            t: {c: [] for c in cols} for t, cols in COLUMNS.items()
        }
        self.n = 0  # hands and rejects added (the next _ord)

    def clear(self) -> None:
        """Empty every column; the count of hands added (the next ``_ord``)
        goes on."""
        for columns in self.columns.values():
            for values in columns.values():
                values.clear()

    # ------------------------------------------------------------ rejects

    def add_reject(self, record: Record, failed: Verdict, digest: str) -> None:
        """A run that did not parse, kept as read; ``failed`` is the verdict
        ``hh validate`` gives it (its table and time break its chain)."""
        error = record.error
        assert error is not None
        r = self.columns["rejects"]
        r["_ord"].append(self.n)
        self.n += 1
        r["file"].append(record.file)
        r["line"].append(record.line)
        r["raw_text"].append(record.raw)
        r["error"].append(error.message)
        r["error_line"].append(error.line)
        r["error_column"].append(error.column)
        r["kind"].append("parse")
        r["site"].append(None if record.hand_id is None else (record.site or ""))
        r["hand_id"].append(record.hand_id)
        r["game"].append(failed.game)
        r["table_name"].append(failed.table)
        r["started_at"].append(started_at(failed))
        r["content_hash"].append(digest)
        r["other_file"].append(None)  # other_file, other_line: conflicts only
        r["other_line"].append(None)

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
        # the seats need from the body; each value goes to its column by name
        a = self.columns["actions"]
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
        board_rounds: list[int] = []
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
            a["_ord"].append(ord_)
            a["seq"].append(seq)
            a["line"].append(n_line)
            a["round"].append(rnd)
            a["street"].append(street)
            a["player"].append(name)
            a["kind"].append(what)
            a["amount"].append(amount)
            a["raise_by"].append(raise_by)
            a["all_in"].append(all_in)
            a["timed_out"].append(timed_out)
            a["code"].append(codes.get(n_line) if codes else None)
            if got is None:
                a["total_after"].append(None)
                a["pot_before"].append(None)
                a["to_call_before"].append(None)
                a["stack_before"].append(None)
            else:
                a["total_after"].append(got.bet_after)
                a["pot_before"].append(got.pot_before)
                a["to_call_before"].append(got.to_call_before)
                a["stack_before"].append(got.stack_before)
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
        position = {name: k + 1 for k, name in enumerate(names)}  # dealing order
        folded = figures.showdown_folded if complete else None
        at_showdown: set[str] = set()
        if folded is not None:
            at_showdown = {n for n, out in zip(names, folded, strict=True) if not out}
        dealer = hand.table.dealer
        s = self.columns["seats"]
        for seat in hand.seats:
            name = seat.name
            cards = deals.get(name)
            in_hand = judged and name in net
            s["_ord"].append(ord_)
            s["seat"].append(seat.seat)
            s["line"].append(seat.line)
            s["player"].append(name)
            s["sitting_out"].append(seat.sitting_out)
            s["dealt_in"].append(name in dealt_in)
            s["position"].append(None if seat.sitting_out else position.get(name))
            s["is_dealer"].append(seat.seat == dealer)
            s["stack_start"].append(seat.chips)
            s["top_up"].append(top_ups.get(name))
            s["stack_end"].append(ends.get(name) if judged else None)
            s["shown"].append(name in shown)
            s["mucked"].append(name in mucked)
            s["put_in"].append(put[name] if in_hand else None)
            s["uncalled"].append(uncalled.get(name, 0) if in_hand else None)
            s["won"].append(payouts.get(name, 0) if in_hand else None)
            s["net"].append(net[name] if in_hand else None)
            s["rake_paid"].append(rake_paid.get(name, 0) if in_hand else None)
            s["went_to_showdown"].append(name in at_showdown)
            s["folded_round"].append(folded_round.get(name))
            s["all_in_round"].append(all_in_round.get(name))
            s["hand_category"].append(categories.get(name))
            s["declared"].append(declared.get(name))
            if cards is None:
                s["down_cards"].append(None)
                s["up_cards"].append(None)
                s["down_rounds"].append(None)
                s["up_rounds"].append(None)
            else:
                s["down_cards"].append(cards[0])
                s["up_cards"].append(cards[1])
                s["down_rounds"].append(cards[2])
                s["up_rounds"].append(cards[3])

        # -- pots
        p = self.columns["pots"]
        for k, pot in enumerate(verdict.pots or ()):
            p["_ord"].append(ord_)
            p["pot_index"].append(k)
            p["amount"].append(pot.amount)
            p["eligible"].append(list(pot.eligible))
            p["winners"].append(list(pot.winners))
            p["shares"].append(list(pot.shares))

        # -- violations
        bad = self.columns["hand_violations"]
        for flagged, found in ((False, verdict.violations), (True, verdict.unchecked)):
            for v in found:
                bad["_ord"].append(ord_)
                bad["code"].append(v.code)
                bad["line"].append(v.line)
                bad["message"].append(v.message)
                bad["unchecked"].append(flagged)

        # -- the hand, and its text
        n_bad = len(verdict.violations)
        stakes = h.stakes
        t = self.columns["hands"]
        t["_ord"].append(ord_)
        t["site"].append(site)
        t["hand_id"].append(hid)
        t["game"].append(hand.game.value)
        t["table_name"].append(hand.table.name)
        t["max_seats"].append(hand.table.max_seats)
        t["dealer_seat"].append(dealer)
        t["started_at"].append(started_at(verdict))
        t["started_local"].append(f"{h.date} {h.time}")
        t["zone"].append(h.zone)
        t["forced"].append(stakes.forced)
        t["small_bet"].append(stakes.low)
        t["big_bet"].append(stakes.high)
        t["house_rules"].append(list(hand.house_rules.rules) if hand.house_rules else [])
        t["players"].append(len(verdict.dealt_in) if judged else None)
        t["total_pot"].append(sum(put.values()) if judged else None)
        t["rake"].append(verdict.rake)
        t["last_round"].append(last_round)
        t["showdown"].append(showdown)
        t["judged"].append(judged)
        t["valid"].append(n_bad == 0)
        t["n_violations"].append(n_bad)
        t["n_hand_violations"].append(n_bad)
        t["n_unchecked"].append(len(verdict.unchecked))
        t["hero_view"].append(hero_view)
        t["file"].append(file)
        t["line"].append(hand.line)
        t["table_line"].append(hand.table.line)
        t["content_hash"].append(digest)
        t["hh_version"].append(hh_version)
        t["board"].append(board)
        t["board_rounds"].append(board_rounds)
        text = self.columns["hand_text"]
        text["_ord"].append(ord_)
        text["raw_text"].append(raw)
