"""A disputed hand explained line by line, as data (``hh show``).

The referee already knows everything a player who disputes a hand wants to
see: the replay trace (:class:`~hh.validate.LineState` after each line) says
whose turn it was, what he had to call, the smallest raise, the stacks and
the pot; the :class:`~hh.validate.Verdict` says what is wrong and what the
pots give; the model says what the log claims. This module only lines those
three up with the hand's text, one dict per line, so that the terminal view,
``--json`` and the HTML replayer show the same thing. It never re-derives a
rule: states come from the trace, winners and shares from the verdict, hand
categories from the game's evaluator.

Pure: no I/O, nothing printed; every value is JSON-ready (str, int, bool,
None, lists and dicts of them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hh.cards import JOKER, SPANISH_RANKS, UNKNOWN
from hh.evaluate import evaluator_for
from hh.games import RULES
from hh.model import (
    SHOWDOWN,
    Action,
    Collected,
    Deal,
    Game,
    Hand,
    Info,
    Marker,
    Muck,
    Post,
    Seat,
    SeatOutcome,
    Show,
    TopUp,
    Uncalled,
)
from hh.validate import LineState, PotResult, Verdict

Row = dict[str, Any]

# where RULES.md gives each game's odd chips: all three are the dealing order
_ODD_ORDER = {
    Game.CHIRIBITO: "in play order from the blind (counter-clockwise from the dealer)",
    Game.ACES: "clockwise from the dealer's left",
    Game.CALATONE: "in dealing order (clockwise from the dealer's left)",
}


def explain(
    hand: Hand, verdict: Verdict, trace: Sequence[LineState], raw: str | None = None
) -> list[Row]:
    """One dict per line of the hand, in file order.

    ``raw`` is the hand's text as read (its first non-blank line is
    ``hand.line``); without it the canonical text is written from the model.
    Each dict has the line (``line``, ``text``, ``kind``, ``street``), the
    verdict on it (``violations``: codes; ``faults`` and ``unchecked``:
    code and message; a fault that only follows from an earlier one has
    ``follows``, the line of its cause, and the cause has ``consequences``,
    the lines of the violations that follow from it), the referee's state
    after it (``pot``, ``to_act``, ``to_call``, ``min_raise_to``,
    ``min_bet``, ``stacks``, ``bets``, ``folded``, ``all_in``, ``board``;
    a line the replay does not trace keeps the state of the line before),
    the cards seen so far (``cards``,
    ``mucked``), and the explanation: ``notes`` (sentences), ``disputes``
    (``{"log": ..., "rules": ...}`` where the log's claim differs from the
    rules), ``turn`` (for an action: the state it was played in), ``show``
    (a shown hand evaluated), ``pots`` (at the first collect line, or the
    summary when there is none), ``payouts`` (what the rules paid, from the
    summary on).
    """
    return _Explainer(hand, verdict, trace, raw).rows()


def hand_meta(hand: Hand, verdict: Verdict, file: str | None = None) -> dict[str, Any]:
    """What a page or a heading needs besides the lines: the table, the
    seats, the deck to draw and the verdict's outcome (JSON-ready)."""
    h = hand.header
    deck = RULES[hand.game].variant(hand.house_rules.rules if hand.house_rules else ()).deck
    return {
        "hand_id": h.hand_id,
        "site": h.site,
        "game": hand.game.value,
        "game_label": f"{hand.game.label} {hand.game.betting}",
        "deck": "spanish" if deck.ranks == SPANISH_RANKS else "french",
        # the cards that stay in the centre for every hand (the shared joker)
        "centre": [JOKER] if deck.joker else [],
        "date": f"{h.date} {h.time}" + (f" {h.zone}" if h.zone else ""),
        "table": hand.table.name,
        "max_seats": hand.table.max_seats,
        "dealer": hand.table.dealer,
        "seats": [
            {"seat": s.seat, "name": s.name, "chips": s.chips, "sitting_out": s.sitting_out}
            for s in hand.seats
        ],
        "file": file,
        "line": hand.line,
        "valid": verdict.valid,
        "violations": [v.to_json() for v in verdict.violations],
        "unchecked": [v.to_json() for v in verdict.unchecked],
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
            for p in verdict.pots or ()
        ],
        "payouts": dict(verdict.payouts or {}),
        "net": dict(verdict.net or {}),
    }


# ----------------------------------------------------------------- helpers


def _cards(cards: Sequence[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _pot_label(k: int, count: int) -> str:
    if count == 1:
        return "pot"
    return "main pot" if k == 0 else f"side pot-{k}"


def _log_pot(pot: int | None) -> str:
    return "pot" if pot is None else ("main pot" if pot == 0 else f"side pot-{pot}")


class _Explainer:
    """Walks the hand's lines once, carrying the state and the cards seen."""

    def __init__(
        self, hand: Hand, verdict: Verdict, trace: Sequence[LineState], raw: str | None
    ) -> None:
        self.hand = hand
        self.verdict = verdict
        self.game = hand.game
        self.house = hand.house_rules.rules if hand.house_rules else ()
        self.by_line: dict[int, LineState] = {s.line: s for s in trace}
        self.initial = trace[0] if trace else self._untraced()
        self.names = self.initial.names
        self.raw = raw
        self.faults: dict[int, list[dict[str, Any]]] = {}
        later: dict[int, list[int]] = {}  # a cause's line -> the lines that follow from it
        for v in verdict.violations:
            if v.follows is not None:
                later.setdefault(v.follows, []).append(v.line)
        for v in verdict.violations:
            fault: dict[str, Any] = {"code": v.code, "message": v.message}
            if v.follows is not None:
                fault["follows"] = v.follows
            self.faults.setdefault(v.line, []).append(fault)
        for cause, lines in later.items():
            # the line's own fault is the last one reported on it (a missing
            # deal or uncalled bet is reported there before the action is judged)
            roots = [f for f in self.faults.get(cause, []) if "follows" not in f]
            if roots:
                roots[-1]["consequences"] = lines
        self.notes_unchecked: dict[int, list[dict[str, str]]] = {}
        for v in verdict.unchecked:
            self.notes_unchecked.setdefault(v.line, []).append(
                {"code": v.code, "message": v.message}
            )
        self.cards: dict[str, dict[str, list[str]]] = {
            n: {"down": [], "up": []} for n in self.names
        }
        self.mucked: list[str] = []
        self.evaluations: dict[str, dict[str, Any]] = {}
        self.pots_shown = False
        last = RULES[self.game].streets[-1].name
        self.last_street = last
        self.records = self._records()
        self.first_collect = next(
            (ln for ln, (kind, _) in sorted(self.records.items()) if kind == "collected"), None
        )

    def _untraced(self) -> LineState:
        """A stand-in first state when the replay left no trace (an
        INTERNAL_ERROR verdict): the seats' chips, nothing else known."""
        seats = [s for s in self.hand.seats if not s.sitting_out]
        n = len(seats)
        return LineState(
            line=self.hand.line,
            street=None,
            pot=0,
            to_act=None,
            to_call=0,
            min_raise_to=None,
            min_bet=None,
            names=tuple(s.name for s in seats),
            stacks=tuple(s.chips for s in seats),
            bets=(0,) * n,
            folded=(False,) * n,
            all_in=(False,) * n,
            board=(),
        )

    def _records(self) -> dict[int, tuple[str, object]]:
        """Line number -> (kind, model record) for every line of the hand."""
        h = self.hand
        out: dict[int, tuple[str, object]] = {
            h.header.line: ("header", h.header),
            h.table.line: ("table", h.table),
        }
        if h.house_rules is not None:
            out[h.house_rules.line] = ("house_rules", h.house_rules)
        if h.commitment is not None:
            out[h.commitment.line] = ("commitment", h.commitment)
        for s in h.seats:
            out[s.line] = ("seat", s)
        kinds = {
            Post: "post", TopUp: "top_up", Action: "action", Deal: "deal",
            Uncalled: "uncalled", Collected: "collected", Show: "show", Muck: "muck",
            Info: "info",
        }  # fmt: skip
        for _, x in h.lines():
            if isinstance(x, Marker):
                out[x.line] = ("showdown" if x.street == SHOWDOWN else "street", x)
            else:
                out[x.line] = (kinds[type(x)], x)
        summary = h.summary
        out[summary.line] = ("summary", summary)
        out[summary.total.line] = ("total", summary.total)
        if summary.board is not None:
            out[summary.board.line] = ("board", summary.board)
        if summary.deck is not None:
            out[summary.deck.line] = ("deck", summary.deck)
        for o in summary.seats:
            out[o.line] = ("seat_outcome", o)
        return out

    def _texts(self) -> list[tuple[int, str]]:
        if self.raw is None:
            from hh.write import write_hand

            lines = write_hand(self.hand).split("\n")
            return [(self.hand.line + i, t) for i, t in enumerate(lines)]
        lines = self.raw.removeprefix("\ufeff").split("\n")
        lines = [t.removesuffix("\r") for t in lines]
        lead = 0
        while lead < len(lines) and not lines[lead].strip():
            lead += 1
        end = len(lines)
        while end > lead and not lines[end - 1].strip():
            end -= 1
        first = self.hand.line
        return [(first + i - lead, lines[i]) for i in range(lead, end)]

    # -- the walk

    def rows(self) -> list[Row]:
        out: list[Row] = []
        state = self.initial
        paid: dict[str, int] | None = None
        for n, text in self._texts():
            before = state
            state = self.by_line.get(n, state)
            kind, record = self.records.get(n, ("unknown", None))
            row = self._row(n, text, kind, state)
            name = getattr(record, "name", None)
            row["player"] = name if kind not in ("table", "header") else None
            self._explain(row, kind, record, before, state)
            paid = row["payouts"] if row["payouts"] is not None else paid
            row["payouts"] = paid  # from the summary on: what the rules paid
            out.append(row)
        if out and not self.pots_shown:
            summary = next((r for r in out if r["kind"] == "summary"), out[-1])
            self._pots(summary)
        return out

    def _row(self, n: int, text: str, kind: str, s: LineState) -> Row:
        faults = self.faults.get(n, [])
        return {
            "line": n,
            "text": text,
            "kind": kind,
            "street": s.street,
            "violations": [f["code"] for f in faults],
            "faults": faults,
            "unchecked": self.notes_unchecked.get(n, []),
            "pot": s.pot,
            "to_act": s.to_act,
            "to_call": s.to_call,
            "min_raise_to": s.min_raise_to,
            "min_bet": s.min_bet,
            "stacks": dict(zip(s.names, s.stacks, strict=True)),
            "bets": dict(zip(s.names, s.bets, strict=True)),
            "folded": [x for x, f in zip(s.names, s.folded, strict=True) if f],
            "all_in": [x for x, a in zip(s.names, s.all_in, strict=True) if a],
            "board": list(s.board),
            "cards": {},
            "mucked": [],
            "notes": [],
            "disputes": [],
            "turn": None,
            "show": None,
            "pots": None,
            "payouts": None,
        }

    def _explain(
        self, row: Row, kind: str, record: object, before: LineState, after: LineState
    ) -> None:
        notes: list[str] = row["notes"]
        # each line by its record's type (``kind`` tells a marker of the
        # showdown from a street's, and the hand's own lines apart)
        match record:
            case _ if kind == "header":
                self._header(row, after)
            case Seat() if record.sitting_out:
                notes.append(f"{record.name} sits out: not dealt in")
            case Post():
                self._moved(row, record.name, before, after)
            case TopUp():
                notes.append(f"{record.name} adds {record.amount} chips before the hand")
            case Marker() if kind == "showdown":
                live = [x for x, f in zip(after.names, after.folded, strict=True) if not f]
                notes.append(f"showdown between {', '.join(live)}; pot {after.pot}")
            case Marker():
                self._street(row, record, after)
            case Deal():
                self._deal(row, record, before, after)
            case Action():
                self._action(row, record, before, after)
            case Uncalled():
                notes.append(
                    f"{record.amount} uncalled goes back to {record.name}: pot {after.pot}"
                )
            case Show():
                self._show(row, record, after)
            case Muck():
                self.mucked.append(record.name)
                notes.append(f"{record.name} mucks: can win nothing")
            case Collected():
                if row["line"] == self.first_collect:
                    self._pots(row)
                self._collected(row, record)
            case _ if kind == "summary":
                self._summary(row, after)
            case _ if kind == "total":
                self._total(row, record, after)
            case SeatOutcome():
                self._outcome(row, record)
        row["cards"] = {n: {"down": list(c["down"]), "up": list(c["up"])}
                        for n, c in self.cards.items()}  # fmt: skip
        row["mucked"] = list(self.mucked)

    # -- header and forced bets

    def _header(self, row: Row, s: LineState) -> None:
        h = self.hand
        st = h.header.stakes
        forced = "blind" if self.game is Game.CHIRIBITO else "ante"
        stakes = f"{forced} {st.forced}"
        if st.low is not None and st.high is not None:
            sep = "/" if self.game is Game.ACES else "-"
            stakes += f", bets {st.low}{sep}{st.high}"
        dealer = next((x.name for x in h.seats if x.seat == h.table.dealer), None)
        row["notes"].append(f"{self.game.label} {self.game.betting}: {stakes}")
        order = ", ".join(s.names)
        who = f"; dealer {dealer} (seat {h.table.dealer})" if dealer else ""
        row["notes"].append(f"dealt in, in dealing order: {order}{who}")
        if self.house:
            row["notes"].append("house rules: " + "; ".join(self.house))

    def _moved(self, row: Row, name: str, before: LineState, after: LineState) -> int:
        """Chips ``name`` put in on this line (from the stacks before and after)."""
        if name not in before.names or name not in after.names:
            return 0
        i = after.names.index(name)
        put = before.stacks[i] - after.stacks[i]
        if put:
            row["notes"].append(f"{name} puts in {put}: {after.stacks[i]} behind; pot {after.pot}")
        return put

    # -- streets and deals

    def _opens(self, s: LineState) -> str | None:
        if s.to_act is None:
            return None
        what = []
        if s.to_call:
            what.append(f"{s.to_call} to call")
        if s.min_bet is not None:
            what.append(f"may bet {s.min_bet} or more")
        if s.min_raise_to is not None:
            what.append(f"may raise to {s.min_raise_to} or more")
        return f"{s.to_act} opens" + (f": {', '.join(what)}" if what else "")

    def _street(self, row: Row, marker: Marker, s: LineState) -> None:
        notes = row["notes"]
        if marker.new_cards:
            notes.append(f"{marker.street}: {_cards(marker.new_cards)} comes; board "
                         f"{_cards(s.board)}")  # fmt: skip
        else:
            notes.append(f"{marker.street} begins; pot {s.pot}")
        opens = self._opens(s)
        if opens:
            notes.append(opens)

    def _deal(self, row: Row, deal: Deal, before: LineState, after: LineState) -> None:
        c = self.cards.setdefault(deal.name, {"down": [], "up": []})
        c["down"].extend(deal.down or ())
        c["up"].extend(deal.up or ())
        if before.to_act is None and after.to_act is not None:
            opens = self._opens(after)
            if opens:
                row["notes"].append("the cards are out; " + opens)

    # -- actions

    def _action(self, row: Row, a: Action, before: LineState, after: LineState) -> None:
        codes = set(row["violations"])
        turn = {
            "to_act": before.to_act,
            "to_call": before.to_call,
            "min_raise_to": before.min_raise_to,
            "min_bet": before.min_bet,
            "pot": before.pot,
        }
        row["turn"] = turn
        notes: list[str] = row["notes"]
        if before.to_act is not None:
            options = [f"{before.to_call} to call" if before.to_call else "nothing to call"]
            if before.min_bet is not None:
                options.append(f"bet {before.min_bet} or more")
            if before.min_raise_to is not None:
                options.append(f"raise to {before.min_raise_to} or more")
            elif before.to_call:
                options.append("no raise allowed")
            notes.append(f"{before.to_act}'s turn: {', '.join(options)}; pot {before.pot}")
        else:
            notes.append("nobody was to act")
        self._moved(row, a.name, before, after)
        if a.verb == "folds":
            notes.append(f"{a.name} folds: out of the hand, can win nothing")
        if after.to_act is not None and after.to_act != before.to_act:
            owes = f"{after.to_call} to call" if after.to_call else "nothing to call"
            notes.append(f"next: {after.to_act}, {owes}")
        elif after.to_act is None and before.to_act is not None:
            notes.append("the betting round is over")
        log = _action_words(a)
        disputes: list[dict[str, str]] = row["disputes"]
        if "OUT_OF_TURN" in codes:
            rule = f"it is {before.to_act}'s turn" if before.to_act else "nobody is to act"
            disputes.append({"log": f"{a.name} acts ({log})", "rules": rule})
        least_raise = before.min_raise_to
        if "RAISE_SIZE" in codes and least_raise is not None and (a.total or 0) < least_raise:
            rule = f"a raise is to {least_raise} at least (or all-in for less)"
            disputes.append({"log": f"{a.name} {log}", "rules": rule})
        least_bet = before.min_bet
        if "BET_SIZE" in codes and least_bet is not None and (a.amount or 0) < least_bet:
            rule = f"a bet is {least_bet} at least (or all-in for less)"
            disputes.append({"log": f"{a.name} {log}", "rules": rule})
        if "CALL_AMOUNT" in codes and before.to_act == a.name:
            disputes.append(
                {"log": f"{a.name} {log}", "rules": f"a call is {before.to_call}"}
            )
        if "ILLEGAL_CHECK" in codes and before.to_call:
            disputes.append({
                "log": f"{a.name} checks",
                "rules": f"{a.name} faces {before.to_call}: call, raise or fold",
            })  # fmt: skip

    # -- the showdown

    def _judged_cards(self, show: Show) -> list[str]:
        """The cards the referee judges by: the ones dealt, or the shown ones
        where the log dealt ``??`` (as hh.validate does)."""
        dealt = self.cards.get(show.name, {"down": [], "up": []})
        own = [*dealt["down"], *dealt["up"]]
        if not own or UNKNOWN in own:
            return list(show.cards)
        return own

    def _reveal(self, show: Show) -> None:
        """A show turns the player's ``??`` cards face up (hero-view logs)."""
        c = self.cards.get(show.name)
        if c is None:
            return
        known = Counter(x for x in (*c["down"], *c["up"]) if x != UNKNOWN)
        revealed = []
        for x in show.cards:
            if known[x]:
                known[x] -= 1
            else:
                revealed.append(x)
        it = iter(revealed)
        for group in ("down", "up"):
            c[group] = [next(it, UNKNOWN) if x == UNKNOWN else x for x in c[group]]

    def _show(self, row: Row, show: Show, s: LineState) -> None:
        self._reveal(show)
        codes = set(row["violations"])
        own = self._judged_cards(show)
        early = s.street != self.last_street
        board: tuple[str, ...] = ()
        if self.game is Game.CHIRIBITO:
            board = s.board
        elif self.game is Game.ACES:
            board = (JOKER,)
        info: dict[str, Any] = {
            "player": show.name,
            "cards": list(show.cards),
            "declared": list(show.declared) if show.declared is not None else None,
            "holds": None,
            "used": None,
            "category": None,
            "description": None,
            "best": None,
        }
        notes: list[str] = row["notes"]
        ev = self._evaluator()
        judged: Sequence[str] = own
        if self.game is Game.CALATONE and not early:
            declared = show.declared
            holds = declared is not None and "DECLARATION" not in codes
            info["holds"] = holds
            if declared is None or not holds:
                notes.append(f"{show.name}'s declaration does not hold: the hand forfeits")
                row["show"] = info
                return
            judged = declared
        elif self.game is Game.CALATONE:
            notes.append("the hand ended when a round was all checked: every card dealt "
                         "counts, no declaration")  # fmt: skip
        result = _evaluate(ev, judged, board)
        if result is None:
            notes.append(f"{show.name}'s hand {_cards(judged)} cannot be evaluated")
            row["show"] = info
            return
        info.update(result)
        self.evaluations[show.name] = result
        if self.game is Game.CALATONE and not early:
            notes.append(f"{show.name} declares {_cards(judged)}: {result['description']} "
                         f"(the declaration holds)")  # fmt: skip
            best = _evaluate(ev, own, ())
            if best is not None and best["value"] > result["value"]:
                info["best"] = {k: v for k, v in best.items() if k != "value"}
                notes.append(f"his best was {best['description']} "
                             f"{_cards(best['used'])}; he is held to his declaration")  # fmt: skip
        else:
            notes.append(
                f"{show.name}'s best five: {_cards(result['used'])}, {result['description']}"
            )
        if show.description is not None and "HAND_DESCRIPTION" in codes:
            row["disputes"].append({
                "log": f"{show.name} has {show.description}",
                "rules": f"{show.name} has {result['description']}",
            })  # fmt: skip
        info.pop("value", None)
        row["show"] = info

    def _evaluator(self) -> Any:
        try:
            return evaluator_for(self.game, self.house)
        except ValueError:
            return evaluator_for(self.game)

    # -- pots and collects

    def _pot_rows(self) -> list[dict[str, Any]]:
        pots: Sequence[PotResult] = self.verdict.pots or ()
        out = []
        for k, p in enumerate(pots):
            winners = [n for n in self.names if n in p.winners]  # dealing order: odd chips
            share = dict(zip(p.winners, p.shares, strict=True))
            shares = {n: share[n] for n in winners}
            odd = None
            if len(winners) > 1 and p.amount % len(winners):
                r = p.amount % len(winners)
                odd = {
                    "chips": r,
                    "to": winners[:r],
                    "rule": f"odd chips go one by one {_ODD_ORDER[self.game]}",
                }
            out.append({
                "name": _pot_label(k, len(pots)),
                "amount": p.amount,
                "eligible": list(p.eligible),
                "winners": winners,
                "shares": shares,
                "odd": odd,
            })  # fmt: skip
        return out

    def _pots(self, row: Row) -> None:
        self.pots_shown = True
        pots = self._pot_rows()
        row["pots"] = pots
        notes: list[str] = row["notes"]
        for p in pots:
            label = p["name"][0].upper() + p["name"][1:]
            eligible = ", ".join(p["eligible"])
            if not p["winners"]:
                notes.append(f"{label} {p['amount']} (eligible: {eligible}): no winner "
                             f"could be decided from the cards")  # fmt: skip
                continue
            how = []
            for w in p["winners"]:
                e = self.evaluations.get(w)
                how.append(f"{w} ({e['description']})" if e else w)
            if len(p["eligible"]) == 1:
                words = f"{p['winners'][0]} takes it uncontested"
            elif len(how) == 1:
                words = f"{how[0]} wins"
            else:
                each = ", ".join(f"{w} {p['shares'][w]}" for w in p["winners"])
                words = f"split between {', '.join(how)}: {each}"
            notes.append(f"{label} {p['amount']} (eligible: {eligible}): {words}")
            if p["odd"]:
                o = p["odd"]
                notes.append(f"odd chip{'s' if o['chips'] > 1 else ''}: {o['chips']} to "
                             f"{', '.join(o['to'])}, because {o['rule']}")  # fmt: skip

    def _rule_collects(self) -> list[tuple[str, int | None, int]]:
        pots = self.verdict.pots or ()
        out = []
        for k, p in enumerate(self._pot_rows()):
            label = None if len(pots) == 1 else k
            for w in p["winners"]:
                if p["shares"].get(w, 0) > 0:
                    out.append((w, label, p["shares"][w]))
        return out

    def _collected(self, row: Row, c: Collected) -> None:
        where = _log_pot(c.pot)
        if "PAYOUT" not in row["violations"]:
            row["notes"].append(f"{c.name} collects {c.amount} from the {where}, as the rules give")
            return
        # the log's collects that the rules do not give, paired with what the
        # rules give and the log does not say, in order
        want = Counter(self._rule_collects())
        extra: list[Collected] = []
        for x in (r for _, (_k, r) in sorted(self.records.items()) if isinstance(r, Collected)):
            key = (x.name, x.pot, x.amount)
            if want[key] > 0:
                want[key] -= 1
            else:
                extra.append(x)
        missing = [k for k, n in want.items() for _ in range(n)]
        if c not in extra:
            return
        i = extra.index(c)
        log = f"{c.name} collects {c.amount}" + ("" if c.pot is None else f" from {where}")
        if i < len(missing):
            name, pot, amount = missing[i]
            rule = f"{name} collects {amount}" + ("" if pot is None else f" from {_log_pot(pot)}")
        else:
            rule = "nothing more is to be collected"
        row["disputes"].append({"log": log, "rules": rule})

    def _summary(self, row: Row, s: LineState) -> None:
        payouts = self.verdict.payouts or {}
        won = ", ".join(f"{n} {payouts[n]}" for n in self.names if n in payouts)
        row["notes"].append(f"paid by the rules: {won or 'nothing'}")
        row["payouts"] = {n: payouts[n] for n in self.names if n in payouts}
        ends = ", ".join(f"{n} {x}" for n, x in zip(s.names, s.stacks, strict=True))
        row["notes"].append(f"stacks at the end: {ends}")

    def _total(self, row: Row, total: Any, s: LineState) -> None:
        codes = set(row["violations"])
        if "POT_TOTAL" in codes:
            row["disputes"].append(
                {"log": f"Total pot {total.total}", "rules": f"Total pot {s.pot}"}
            )
        if "SIDE_POTS" in codes:
            amounts = [p.amount for p in self.verdict.pots or ()]
            listed = [total.main, *total.side] if total.main is not None else []
            row["disputes"].append({
                "log": "pots " + (", ".join(map(str, listed)) or "not listed"),
                "rules": "pots " + ", ".join(map(str, amounts)) + " (main first, net of rake)",
            })  # fmt: skip

    def _outcome(self, row: Row, o: SeatOutcome) -> None:
        if "SUMMARY" not in row["violations"] or o.amount is None:
            return
        won = (self.verdict.payouts or {}).get(o.name, 0)
        if won != o.amount:
            row["disputes"].append({
                "log": f"{o.name} won {o.amount}",
                "rules": f"{o.name} won {won}" if won else f"{o.name} won nothing",
            })  # fmt: skip


def _action_words(a: Action) -> str:
    if a.verb == "raises":
        return f"raises {a.amount} to {a.total}"
    if a.amount is not None:
        return f"{a.verb} {a.amount}"
    return a.verb


def _evaluate(ev: Any, own: Sequence[str], board: Sequence[str]) -> dict[str, Any] | None:
    """The game's evaluator on one hand; None when it cannot be evaluated."""
    if UNKNOWN in own:
        return None
    try:
        e = ev.evaluate(list(own), list(board))
    except (ValueError, KeyError, IndexError):
        return None
    return {
        "value": e.value,
        "used": list(e.cards),
        "category": e.category.value,
        "description": e.description,
    }
