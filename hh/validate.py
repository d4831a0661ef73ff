"""The replay validator: a referee for logged hands.

It replays a parsed :class:`~hh.model.Hand` line by line through the game's
rules engine and reports every fault it can find, with FORMAT.md's codes, the
line number and a message that says what was expected and what was found.
After an illegal line it applies the line as written and goes on, so that
independent faults are all reported; it never raises on a parsed hand.

``pots``, ``payouts`` and ``net`` in the verdict are what the rules give from
the actions, whatever the log claims. Checks that the log's ``??`` cards make
impossible go to ``unchecked``, which never makes a hand invalid.

Cross-hand checks (STACK_CARRYOVER, DEALER_ROTATION, a (site, id) seen twice)
need the hands of a run together: :func:`cross_check` runs them over the
:class:`Verdict` values, which keep what they need.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hh.cards import JOKER, UNKNOWN
from hh.engine import Award, Engine, Player
from hh.evaluate import Category
from hh.games import RULES
from hh.model import (
    SHOWDOWN,
    Action,
    Collected,
    Deal,
    Game,
    Hand,
    Info,
    Line,
    Marker,
    Muck,
    Post,
    SeatOutcome,
    Section,
    Show,
    TopUp,
    Uncalled,
)


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    line: int
    message: str
    column: int | None = None  # PARSE_ERROR only

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "line": self.line}
        if self.column is not None:
            out["column"] = self.column
        out["message"] = self.message
        return out


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int  # net of rake: what is split
    eligible: tuple[str, ...]  # by seat number
    winners: tuple[str, ...]  # by seat number
    shares: tuple[int, ...] = field(default=(), compare=False)  # per winner, dealing order


@dataclass(frozen=True, slots=True)
class LineState:
    """The referee's state right after one line of a hand, as the replay
    built it: what ``hh show`` explains and what the import stores per
    action (pot and bet to call before it). Collected only when asked for
    (``validate(hand, trace=[...])``), so plain validation pays nothing.

    Per-player tuples are in ``names`` order (dealing order). ``to_act`` is
    the player whose turn it is next (between the last deal and the first
    action, who will open), ``to_call`` what he must add to call (capped by
    his chips), ``min_raise_to`` the smallest total he may raise to (None
    when he may not raise), ``min_bet`` the smallest bet (None unless he may
    bet). ``pot`` is every chip put in so far less uncalled bets returned.
    The last state of a trace (at ``*** SUMMARY ***``) has the payouts paid:
    its stacks are the stacks the hand ends with.
    """

    line: int
    street: str | None
    pot: int
    to_act: str | None
    to_call: int
    min_raise_to: int | None
    min_bet: int | None
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]  # chips in front of each player in this round
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    board: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of validating one hand (or one unparseable run of lines).

    Flat fields and small tuples, so that a run of verdicts turns into
    columnar rows without work. ``stacks`` (seat, name, start, end) and
    ``dealer``/``dealt_in``/``top_ups`` feed the cross-hand checks.
    """

    file: str | None
    line: int
    hand_id: str | None
    site: str | None
    game: str | None
    violations: tuple[Violation, ...]
    pots: tuple[PotResult, ...] | None
    payouts: dict[str, int] | None
    net: dict[str, int] | None
    unchecked: tuple[Violation, ...] = ()
    table: str | None = None
    table_line: int = 0
    when: str | None = None  # "YYYY/MM/DD HH:MM:SS" as written
    zone: str | None = None
    dealer: int | None = None
    stacks: tuple[tuple[int, str, int, int, int], ...] = ()  # seat, name, start, end, seat line
    dealt_in: tuple[str, ...] = ()
    top_ups: tuple[tuple[str, int], ...] = ()

    @property
    def valid(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, object]:
        """The object ``hh validate --json`` prints (FORMAT.md, Validation results)."""
        out: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "hand_id": self.hand_id,
            "site": self.site,
            "game": self.game,
            "valid": self.valid,
            "violations": [v.to_json() for v in self.violations],
            "pots": None
            if self.pots is None
            else [
                {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
                for p in self.pots
            ],
            "payouts": self.payouts,
            "net": self.net,
        }
        if self.unchecked:
            out["unchecked"] = [v.to_json() for v in self.unchecked]
        return out


def parse_failure(
    file: str | None,
    line: int,
    hand_id: str | None,
    site: str | None,
    error_line: int,
    column: int,
    message: str,
    game: str | None = None,
    table: str | None = None,
    when: str | None = None,
    zone: str | None = None,
) -> Verdict:
    """The verdict of a hand that does not parse: one PARSE_ERROR, no pots.
    Its table and time, when they can be read, place it in its table's chain,
    which it breaks."""
    return Verdict(
        file=file,
        line=line,
        hand_id=hand_id,
        site=site,
        game=game,
        violations=(Violation("PARSE_ERROR", error_line, message, column),),
        pots=None,
        payouts=None,
        net=None,
        table=table,
        when=when,
        zone=zone,
    )


# ------------------------------------------------------------------ helpers

_CATEGORY_WORDS = sorted((c.value for c in Category), key=len, reverse=True)


def description_category(description: str | None) -> str | None:
    """The category words a description begins with (FORMAT.md: the category,
    then a comma and free text)."""
    if not description:
        return None
    for words in _CATEGORY_WORDS:
        if description.startswith(words) and (
            len(description) == len(words) or description[len(words)] == ","
        ):
            return words
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _valid_date(date: str, time: str) -> bool:
    """A real calendar date and a time of day (the grammar fixed the digits)."""
    try:
        y, m, d = date.split("/")
        hh, mm, ss = time.split(":")
        dt.date(int(y), int(m), int(d))
    except ValueError:
        return False
    return int(hh) < 24 and int(mm) < 60 and int(ss) < 60


# -------------------------------------------------------------- the replay


class _Replay:
    """One hand's replay. Holds the engine and the violations found so far."""

    def __init__(
        self, hand: Hand, file: str | None, trace: list[LineState] | None = None
    ) -> None:
        self.hand = hand
        self.file = file
        self.trace = trace
        self.rules = RULES[hand.game]
        self.violations: list[Violation] = []
        self.unchecked: list[Violation] = []
        self.house = hand.house_rules.rules if hand.house_rules else ()
        self.pending_uncalled: tuple[Player, int] | None = None
        self.collected: list[Collected] = []
        self.shows: dict[int, Show] = {}
        self.mucks: dict[int, Muck] = {}
        self.voluntary_shows: dict[int, Show] = {}
        self.values: dict[int, int] = {}
        self.undecidable = False
        self.in_showdown = False
        self.dealt_cards: dict[str, int] = {}  # card -> line it was dealt on
        # (player index, down, up, line, first deck slot, step between slots)
        self.deals: list[tuple[int, tuple[str, ...], tuple[str, ...], int, int, int]] = []
        # where each player's cards of the street start in a Deck line (if
        # any): the deck is dealt one round of the table at a time
        self.deck_pos = 0
        self.slots: dict[int, tuple[int, int]] = {}  # player index -> (first, step)
        self.board_slots: list[int] = []
        self.street_dealt: set[int] = set()
        self.deals_checked = True
        self.categories: dict[int, str] = {}  # shown hands' category words
        self.early = False
        self.forced_done = False
        self.posted: set[int] = set()
        self.due: dict[int, tuple[str, int]] | None = None

    # -- reporting

    def add(self, code: str, line: int, message: str) -> None:
        self.violations.append(Violation(code, line, message))

    def note(self, code: str, line: int, message: str) -> None:
        self.unchecked.append(Violation(code, line, message))

    # -- the run

    def run(self) -> Verdict:
        hand = self.hand
        self.check_header()
        self.engine = self.setup()
        if self.trace is None:
            self.body(hand.preamble)
        else:
            self.snapshot(hand.line, True)
            self.traced_body(hand.preamble)
        for section in hand.sections:
            self.section(section)
        self.finish_forced(hand.summary.line)
        verdict = self.summary()
        if self.trace is not None:
            self.snapshot(hand.summary.line, False, verdict.payouts)
        return verdict

    # -- the trace (hh show, the import's per-action state)

    def traced_body(self, lines: Sequence[Line]) -> None:
        """The body loop one line at a time, a snapshot after each."""
        for i, line in enumerate(lines):
            self.body((line,))
            more_deals = i + 1 < len(lines) and type(lines[i + 1]) is Deal
            self.snapshot(line.line, not more_deals)

    def snapshot(
        self, line_no: int, dealt: bool, payouts: dict[str, int] | None = None
    ) -> None:
        """Append the state after ``line_no``. ``dealt``: the street's cards
        are all out, so the opener can be named before the round begins."""
        e = self.engine
        players = e.players
        who: Player | None = None
        if not self.in_showdown and payouts is None:
            if e.phase == "bet":
                idx = e.to_act
            elif dealt:
                idx = e.preview_to_act()
            else:
                idx = None
            who = None if idx is None else players[idx]
        to_call, min_raise, min_bet = 0, None, None
        if who is not None:
            to_call = max(0, min(e.current_bet - who.bet, who.stack))
            opts = e.options(who)
            if opts is not None:
                min_raise = opts.raise_to[0] if opts.raise_to else None
                min_bet = opts.bet[0] if opts.bet else None
        stacks = tuple(p.stack for p in players)
        if payouts is not None:
            stacks = tuple(p.stack + payouts.get(p.name, 0) for p in players)
        self.trace.append(  # type: ignore[union-attr]
            LineState(
                line=line_no,
                street=e.street_name,
                pot=e.total_pot,
                to_act=None if who is None else who.name,
                to_call=to_call,
                min_raise_to=min_raise,
                min_bet=min_bet,
                names=self.names,
                stacks=stacks,
                bets=tuple(p.bet for p in players),
                folded=tuple(p.folded for p in players),
                all_in=tuple(p.all_in for p in players),
                board=tuple(e.board),
            )
        )

    # -- header, table, seats

    def check_header(self) -> None:
        h = self.hand.header
        s = h.stakes
        game = h.game
        if s.forced <= 0:
            what = "blind" if game is Game.CHIRIBITO else "ante"
            self.add("HEADER", h.line, f"impossible stakes: the {what} is {s.forced}")
        if game is Game.ACES:
            if not s.low or not s.high or s.low > s.high:
                self.add(
                    "HEADER",
                    h.line,
                    f"impossible stakes: bets {s.low}/{s.high} (expected a small bet above 0 "
                    f"and no bigger than the big bet)",
                )
        elif game is Game.CALATONE and (not s.low or not s.high or s.low > s.high):
            self.add(
                "HEADER",
                h.line,
                f"impossible stakes: bets {s.low}-{s.high} (expected a minimum above 0 "
                f"and no bigger than the maximum)",
            )
        if not _valid_date(h.date, h.time):
            self.add("HEADER", h.line, f"bad date: {h.date} {h.time} is not a real date and time")
        hr = self.hand.house_rules
        if hr:
            for rule in hr.rules:
                if not self.rules.knows_rule(rule):
                    self.add(
                        "HEADER",
                        hr.line,
                        f"house rule '{rule}' does not apply to {game.label}",
                    )

    def setup(self) -> Engine:
        hand = self.hand
        table = hand.table
        variant = self.rules.variant(self.house)
        self.variant = variant
        self.deck_set = variant.deck.dealable
        seen_seats: dict[int, int] = {}
        seen_names: dict[str, int] = {}
        dealt: list[tuple[int, str, int]] = []
        self.sitting_out: set[str] = set()
        for s in hand.seats:
            if s.seat in seen_seats:
                self.add("SEATS", s.line, f"seat {s.seat} is listed twice")
                continue
            if s.name in seen_names:
                self.add("SEATS", s.line, f"the name {s.name} is seated twice")
                continue
            seen_seats[s.seat] = s.line
            seen_names[s.name] = s.line
            if s.seat < 1 or s.seat > table.max_seats:
                self.add(
                    "SEATS",
                    s.line,
                    f"seat {s.seat} does not exist at a {table.max_seats}-max table",
                )
            if s.sitting_out:
                self.sitting_out.add(s.name)
                continue
            if s.chips <= 0:
                self.add("SEATS", s.line, f"{s.name} has no chips and cannot be dealt in")
            dealt.append((s.seat, s.name, s.chips))
        if table.dealer not in {seat for seat, _, _ in dealt}:
            self.add(
                "SEATS",
                table.line,
                f"the dealer seat #{table.dealer} has no player dealt in",
            )
        lo, hi = self.rules.min_players, variant.max_players
        if not lo <= len(dealt) <= hi:
            self.add(
                "SEATS",
                table.line,
                f"{len(dealt)} players dealt in, but {hand.game.label} is for {lo} to {hi} "
                f"players" + (" with this deck" if hi < self.rules.max_players else ""),
            )
        self.seat_line = {s.name: s.line for s in hand.seats}
        self.seat_of = {s.name: s.seat for s in hand.seats}
        engine = Engine(self.rules, hand.header.stakes, dealt, table.dealer, self.house, variant)
        self.names = tuple(p.name for p in engine.players)
        return engine

    # -- player lookup for a line

    def player(self, name: str, line: int, doing: str) -> Player | None:
        """The player a line names, or None after reporting NOT_IN_HAND."""
        p = self.engine.by_name.get(name)
        if p is None:
            if name in self.sitting_out:
                self.add("NOT_IN_HAND", line, f"{name} is sitting out and {doing}")
            else:
                self.add("NOT_IN_HAND", line, f"{name} is not seated at this hand and {doing}")
        return p

    # -- forced bets

    def post(self, line: Post) -> None:
        p = self.engine.by_name.get(line.name)
        if p is None:
            self.player(line.name, line.line, f"posts {line.kind} {line.amount}")
            return
        if self.forced_done:
            self.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount} after the cards were dealt",
            )
            return
        if self.due is None:
            self.due = {q.index: (kind, n) for q, kind, n in self.engine.forced_bets()}
        expected = self.due.get(p.index)
        if p.index in self.posted:
            self.add("FORCED_BET", line.line, f"{p.name} posts a second forced bet")
            return
        self.posted.add(p.index)
        if expected is None:
            blind = self.engine.players[0].name
            self.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount}, but the only forced bet is "
                f"{blind}'s blind (the player to the dealer's right)",
            )
        elif expected[0] != line.kind or expected[1] != line.amount:
            self.add(
                "FORCED_BET",
                line.line,
                f"{p.name} posts {line.kind} {line.amount}, expected {expected[0]} "
                f"{expected[1]}",
            )
        else:
            fault = self.engine.judge_chips(p, line.amount, line.all_in)
            if fault:
                self.add(fault[0], line.line, fault[1])
        self.engine.post(p, line.amount)

    def finish_forced(self, line_no: int) -> None:
        """At the first line after the forced bets: report and post any missing."""
        if self.forced_done:
            return
        self.forced_done = True
        for p, kind, amount in self.engine.forced_bets():
            if p.index not in self.posted:
                self.add(
                    "FORCED_BET",
                    line_no,
                    f"{p.name}'s {kind} of {amount} is missing before this line",
                )
                self.engine.post(p, amount)

    # -- sections

    def section(self, section: Section) -> None:
        marker = section.marker
        self.finish_forced(marker.line)
        if marker.street == SHOWDOWN:
            self.showdown_marker(marker)
        else:
            self.street_marker(marker)
        if self.trace is None:
            self.body(section.lines)
        else:
            lines = section.lines
            self.snapshot(marker.line, not (lines and type(lines[0]) is Deal))
            self.traced_body(lines)

    def body(self, lines: Sequence[Line]) -> None:
        """The lines between markers: the hot loop of the replay."""
        handlers = _HANDLERS
        for line in lines:
            kind = type(line)
            if kind is Deal:
                self.deal(line)  # type: ignore[arg-type]
            elif kind is not Info:
                if kind is not Uncalled:
                    if not self.deals_checked:
                        self.check_deals(line.line)
                    if self.pending_uncalled:
                        self.missing_uncalled(line.line)
                handlers[kind](self, line)

    def settle_round(self, line_no: int, what: str) -> None:
        """Before a marker, the showdown or the summary: the round must be over."""
        e = self.engine
        self.check_deals(line_no)
        if self.pending_uncalled:
            self.missing_uncalled(line_no)
        if e.street < 0 or e.ended == "folded":
            return
        e.begin_betting()
        if e.to_act is not None:
            p = e.players[e.to_act]
            owe = e.current_bet - p.bet
            why = f"faces a bet of {owe}" if owe > 0 else "has not acted"
            self.add(
                "ROUND_NOT_CLOSED",
                line_no,
                f"{what} while {p.name} still {why} on {e.street_name}",
            )
            # the round is cut short: no uncalled bet or all-checked ending follows
            e.close_round(natural=False)
        elif e.betting:
            e.close_round()

    def street_marker(self, marker: Marker) -> None:
        e = self.engine
        rules = self.rules
        k = rules.street_index.get(marker.street)
        if k is None:  # the parser only lets the game's own markers through
            self.add("STREET_ORDER", marker.line, f"{marker.street} is not a street of this game")
            return
        if e.ended in ("folded", "checked"):
            how = "all but one folded" if e.ended == "folded" else "a round was all checked"
            self.add("HAND_OVER", marker.line, f"{marker.street} after the hand ended ({how})")
            return
        if self.in_showdown:
            self.add("STREET_ORDER", marker.line, f"{marker.street} after the showdown")
            return
        self.settle_round(marker.line, f"{marker.street} starts")
        expected = e.street + 1
        if e.ended:  # the round just closed ended the hand
            how = "all but one folded" if e.ended == "folded" else "a round was all checked"
            self.add("HAND_OVER", marker.line, f"{marker.street} after the hand ended ({how})")
            return
        if k != expected:
            want = rules.streets[expected].name if expected < len(rules.streets) else "SHOWDOWN"
            if k < expected:
                self.add(
                    "STREET_ORDER",
                    marker.line,
                    f"{marker.street} again or out of order: expected {want}",
                )
                return
            self.add(
                "STREET_ORDER",
                marker.line,
                f"{marker.street} skips {', '.join(s.name for s in rules.streets[expected:k])}",
            )
        e.start_street(k)
        self.deals_checked = False
        street = rules.streets[k]
        per = street.down + street.up
        if per:
            dealt = [p.index for p in e.players if not p.folded]
            n = len(dealt)
            pos = self.deck_pos
            self.slots = {idx: (pos + j, n) for j, idx in enumerate(dealt)}
            self.deck_pos = pos + per * n
        if street.board:
            self.board_slots.extend(range(self.deck_pos, self.deck_pos + street.board))
            self.deck_pos += street.board
        if street.board:
            self.board_cards(marker, k)
        elif marker.groups:
            self.add("CARD_COUNT", marker.line, f"{marker.street} deals no common cards")

    def board_cards(self, marker: Marker, k: int) -> None:
        e = self.engine
        street = self.rules.streets[k]
        groups = marker.groups
        first_common = next(i for i, s in enumerate(self.rules.streets) if s.board)
        want_groups = 1 if k == first_common else 2
        if len(groups) != want_groups:
            shape = "[new card]" if want_groups == 1 else "[board so far] [new card]"
            self.add(
                "CARD_COUNT",
                marker.line,
                f"{marker.street} shows {len(groups)} card groups, expected {shape}",
            )
            if not groups:
                return
        before = marker.board_before
        if want_groups == 2 and before is not None and list(before) != e.board:
            self.add(
                "CARD_MISMATCH",
                marker.line,
                f"{marker.street} repeats the board as {_cards(before)}, but the board is "
                f"{_cards(e.board)}",
            )
        new = marker.new_cards
        if len(new) != street.board:
            self.add(
                "CARD_COUNT",
                marker.line,
                f"{marker.street} deals {_plural(len(new), 'common card')}, "
                f"expected {street.board}",
            )
        for c in new:
            self.dealt_card(c, marker.line, "on the board")
        e.deal_board(new)

    def dealt_card(self, card: str, line_no: int, where: str) -> bool:
        """Record a dealt card; False (after reporting) if it cannot be dealt."""
        if card == UNKNOWN:
            return True
        if card not in self.variant.deck or card == JOKER:
            deck = self.variant.deck
            self.add(
                "CARD_UNKNOWN",
                line_no,
                f"{card} dealt {where} is not a card of this hand's deck ({deck.name}"
                + (", the joker lies in the centre" if card == JOKER else "")
                + ")",
            )
            return False
        first = self.dealt_cards.get(card)
        if first is not None:
            self.add(
                "CARD_DUPLICATE",
                line_no,
                f"{card} dealt {where} was already dealt on line {first}",
            )
            return False
        self.dealt_cards[card] = line_no
        return True

    # -- body lines

    def collect(self, line: Collected) -> None:
        self.collected.append(line)

    def top_up(self, line: TopUp) -> None:
        """A top-up belongs before the forced bets' end; its amount is judged
        across hands (STACK_CARRYOVER), where the stack it adds to is known."""
        if self.forced_done:
            self.add(
                "FORCED_BET",
                line.line,
                f"{line.name} adds chips during the hand: top-ups come right after the seat "
                f"lines",
            )
        elif line.name not in self.seat_line:
            self.add("NOT_IN_HAND", line.line, f"{line.name} adds chips but is not seated")

    def deal(self, line: Deal) -> None:
        e = self.engine
        if e.ended in ("folded", "checked"):
            self.add("HAND_OVER", line.line, f"cards dealt to {line.name} after the hand ended")
            return
        if e.street < 0 or self.in_showdown:
            self.add("CARD_COUNT", line.line, f"cards dealt to {line.name} outside a street")
            return
        p = e.by_name.get(line.name)
        if p is None:
            self.player(line.name, line.line, "is dealt cards")
            return
        if p.folded:
            self.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} folded and gets no more cards, but is dealt cards: expected none",
            )
            return
        if p.index in self.street_dealt:
            self.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} is dealt cards twice on {e.street_name}",
            )
            return
        self.street_dealt.add(p.index)
        street = self.rules.streets[e.street]
        down = line.down or ()
        up = line.up or ()
        if len(down) != street.down or len(up) != street.up:
            self.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} is dealt {len(down)} down and {len(up)} up on {e.street_name}, "
                f"expected {street.down} down and {street.up} up",
            )
        # a card that cannot be dealt stays unknown to the engine
        seen = self.dealt_cards
        deck = self.deck_set
        n = line.line
        for group in (down, up):
            for c in group:
                if c in deck and c not in seen:
                    seen[c] = n
                elif c != UNKNOWN:
                    down = tuple(x if x != c else UNKNOWN for x in down)
                    up = tuple(x if x != c else UNKNOWN for x in up)
                    self.dealt_card(c, n, f"to {p.name}")
        if UNKNOWN in up and UNKNOWN in (line.up or ()):
            self.add("CARD_COUNT", line.line, f"an up card dealt to {p.name} is shown as ??")
        e.deal(p, down, up)
        first, step = self.slots.get(p.index, (-1, 0))
        self.deals.append((p.index, down, up, n, first, step))

    def check_deals(self, line_no: int) -> None:
        """At the first line after a street's deal lines: everyone dealt?"""
        if self.deals_checked:
            return
        self.deals_checked = True
        e = self.engine
        for p, down, up in e.deal_plan():
            if p.index not in self.street_dealt:
                self.add(
                    "CARD_COUNT",
                    line_no,
                    f"{p.name} was dealt no cards on {e.street_name}: expected {down} down "
                    f"and {up} up before this line",
                )
        self.street_dealt = set()

    def action(self, line: Action) -> None:
        e = self.engine
        p = e.by_name.get(line.name)
        if (
            p is None
            or p.folded
            or p.all_in
            or e.ended is not None
            or e.street < 0
            or self.in_showdown
        ):
            self.misplaced_action(line, p)
            return
        if e.phase == "deal":
            e.begin_betting()
        to_act = e.to_act
        if to_act is None:
            self.add(
                "OUT_OF_TURN",
                line.line,
                f"{p.name} {_words(line)}, but no one is to act: the betting on "
                f"{e.street_name} is over",
            )
            return
        verb = line.verb
        if p.index != to_act:
            self.add(
                "OUT_OF_TURN",
                line.line,
                f"{p.name} {_words(line)}, but it is {e.players[to_act].name}'s turn",
            )
        else:
            fault = e.judge(p, verb, line.amount, line.total, line.all_in, line.timed_out)
            if fault is not None:
                self.add(fault[0], line.line, fault[1])
        if verb == "bets" or verb == "calls":
            added = line.amount or 0
        elif verb == "raises":
            added = (line.total or 0) - p.bet
        else:
            added = 0
        e.act(p, verb, added)
        if e.to_act is None:
            self.pending_uncalled = e.close_round()

    def misplaced_action(self, line: Action, p: Player | None) -> None:
        """An action by someone who cannot act, or where no betting can be."""
        e = self.engine
        words = _words(line)
        if e.ended in ("folded", "checked"):
            how = "all but one folded" if e.ended == "folded" else "a round was all checked"
            self.add("HAND_OVER", line.line, f"{line.name} {words} after the hand ended ({how})")
        elif p is None:
            self.player(line.name, line.line, words)
        elif p.folded:
            self.add("NOT_IN_HAND", line.line, f"{p.name} has folded and {words}")
        elif p.all_in:
            self.add("NOT_IN_HAND", line.line, f"{p.name} is all-in and {words}")
        else:
            self.add("OUT_OF_TURN", line.line, f"{p.name} {words} outside a betting round")

    def missing_uncalled(self, line_no: int) -> None:
        p, amount = self.pending_uncalled  # type: ignore[misc]
        self.pending_uncalled = None
        self.add(
            "UNCALLED_BET",
            line_no,
            f"missing 'Uncalled bet ({amount}) returned to {p.name}' before this line",
        )

    def uncalled(self, line: Uncalled) -> None:
        want = self.pending_uncalled
        self.pending_uncalled = None
        if want is None:
            self.add(
                "UNCALLED_BET",
                line.line,
                f"no bet is uncalled here, but {line.amount} is returned to {line.name}",
            )
            return
        p, amount = want
        if p.name != line.name or amount != line.amount:
            self.add(
                "UNCALLED_BET",
                line.line,
                f"{line.amount} returned to {line.name}, expected {amount} returned to {p.name}",
            )

    # -- showdown

    def showdown_marker(self, marker: Marker) -> None:
        e = self.engine
        if e.ended == "folded":
            self.add("HAND_OVER", marker.line, "*** SHOWDOWN *** after all but one folded")
            return
        if self.in_showdown:
            self.add("STREET_ORDER", marker.line, "a second *** SHOWDOWN ***")
            return
        self.settle_round(marker.line, "*** SHOWDOWN ***")
        if e.ended == "folded":
            self.add("HAND_OVER", marker.line, "*** SHOWDOWN *** after all but one folded")
            return
        last = len(self.rules.streets) - 1
        if e.ended != "checked" and e.street < last:
            missing = [s.name for s in self.rules.streets[e.street + 1 :]]
            self.add(
                "STREET_ORDER",
                marker.line,
                f"*** SHOWDOWN *** skips {', '.join(missing)}",
            )
        self.in_showdown = True
        if e.ended is None:
            e.ended = "showdown"
        self.early = e.street < last

    def own_cards(self, p: Player) -> list[str]:
        return [*p.down, *p.up]

    def show(self, line: Show) -> None:
        e = self.engine
        p = self.player(line.name, line.line, "shows")
        if p is None:
            return
        if not self.in_showdown:
            if e.ended == "folded" and not p.folded:
                self.check_shown_cards(p, line, voluntary=True)
                self.voluntary_shows[p.index] = line
                return
            self.add("SHOWDOWN", line.line, f"{p.name} shows before the showdown")
            return
        if not self.may_show(p, line.line, "shows"):
            return
        self.shows[p.index] = line
        cards = self.check_shown_cards(p, line, voluntary=False)
        value = self.hand_value(p, cards, line)
        if value is not None:
            self.values[p.index] = value

    def check_shown_cards(self, p: Player, line: Show, voluntary: bool) -> list[str]:
        """Shown cards must be the cards dealt; returns the cards to judge by
        (the dealt ones; the shown ones where the log dealt ``??``)."""
        dealt = self.own_cards(p)
        shown = list(line.cards)
        if UNKNOWN in dealt:
            known = [c for c in dealt if c != UNKNOWN]
            if not set(known) <= set(shown) or len(shown) != len(dealt):
                self.add(
                    "CARD_MISMATCH",
                    line.line,
                    f"{p.name} shows {_cards(shown)}, but was dealt {_cards(dealt)}",
                )
                return dealt
            self.note(
                "CARD_MISMATCH",
                line.line,
                f"{p.name}'s cards dealt as ?? could not be checked against the show",
            )
            revealed = [c for c in shown if c not in known]
            for c in revealed:
                self.dealt_card(c, line.line, f"to {p.name} (shown)")
            return shown
        if sorted(shown) != sorted(dealt):
            self.add(
                "CARD_MISMATCH",
                line.line,
                f"{p.name} shows {_cards(shown)}, but was dealt {_cards(dealt)}",
            )
        return dealt

    def hand_value(self, p: Player, cards: list[str], line: Show) -> int | None:
        """The shown hand's value; None if it cannot win (invalid declaration)."""
        e = self.engine
        game = self.hand.game
        ev = self.variant.evaluator
        early = self.early
        declared = line.declared
        judged = cards
        if game is Game.CALATONE and not early:
            if declared is None:
                self.add(
                    "DECLARATION",
                    line.line,
                    f"{p.name} shows without declaring five cards: the hand forfeits",
                )
                return None
            problem = None
            if len(declared) != 5:
                problem = f"declares {_plural(len(declared), 'card')}, not 5"
            elif len(set(declared)) != 5:
                problem = "declares the same card twice"
            elif Counter(declared) - Counter(cards):
                problem = f"declares {_cards(declared)}, which are not 5 of his own cards"
            if problem:
                self.add("DECLARATION", line.line, f"{p.name} {problem}: the hand forfeits")
                return None
            judged = list(declared)
        elif declared is not None:
            self.add(
                "DECLARATION",
                line.line,
                f"{p.name} declares cards, but declarations come only at the showdown "
                f"after 7TH STREET",
            )
        board: tuple[str, ...] | list[str] = ()
        if game is Game.CHIRIBITO:
            board = e.board
        elif game is Game.ACES:
            board = (JOKER,)
        try:
            if UNKNOWN in judged:
                raise ValueError("unknown cards")
            value = ev.value(judged, board)
        except (ValueError, KeyError, IndexError):
            self.undecidable = True
            self.note(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name}'s hand {_cards(judged)} cannot be evaluated",
            )
            return None
        stated = description_category(line.description)
        actual = ev.category(value).value
        if line.description is None:
            description = ev.evaluate(judged, board).description
            self.add(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name} shows without a description: expected ({description})",
            )
        elif stated != actual:
            self.add(
                "HAND_DESCRIPTION",
                line.line,
                f"{p.name}'s hand is described as '{line.description}', but "
                f"{_cards(judged)} make {actual}",
            )
        self.categories[p.index] = actual
        return value

    def muck(self, line: Muck) -> None:
        p = self.player(line.name, line.line, "mucks")
        if p is None:
            return
        if not self.in_showdown:
            self.add("SHOWDOWN", line.line, f"{p.name} mucks before the showdown")
            return
        if not self.may_show(p, line.line, "mucks"):
            return
        self.mucks[p.index] = line

    def may_show(self, p: Player, line_no: int, verb: str) -> bool:
        """At the showdown: is ``p`` in it, and showing or mucking for the first time?"""
        if p.folded:
            self.add("SHOWDOWN", line_no, f"{p.name} folded and is not in the showdown")
            return False
        if p.index in self.shows or p.index in self.mucks:
            self.add("SHOWDOWN", line_no, f"{p.name} {verb} after already showing or mucking")
            return False
        return True

    # -- the end

    def summary(self) -> Verdict:
        hand = self.hand
        e = self.engine
        summary = hand.summary
        line_no = summary.line
        if not self.in_showdown:
            self.settle_round(line_no, "*** SUMMARY ***")
        elif self.pending_uncalled:
            self.missing_uncalled(line_no)
        self.check_deals(line_no)
        decided = True
        if e.ended == "folded":
            winner = next(p for p in e.players if not p.folded)
            self.values = {winner.index: 0}
        elif self.in_showdown:
            self.showdown_complete()
        else:
            decided = False
            self.add(
                "HAND_INCOMPLETE",
                line_no,
                "the summary comes before the hand is decided: "
                + (
                    "a round was all checked but there is no showdown"
                    if e.ended == "checked"
                    else f"after {e.street_name or 'the forced bets'} the hand needs more "
                    f"streets and a showdown"
                ),
            )
        # rake and pots
        total = summary.total
        pots = e.pots()
        main = pots[0].amount if pots else 0
        rake = total.rake
        if rake < 0 or rake > main:
            self.add("RAKE", total.line, f"rake {rake} is not between 0 and the main pot {main}")
            rake = 0
        if decided:
            awards = e.award(self.values, rake, pots)
        else:
            awards = [
                Award(p.amount - (rake if k == 0 else 0), p.eligible, (), ())
                for k, p in enumerate(pots)
            ]
        if e.total_pot != total.total:
            self.add(
                "POT_TOTAL",
                total.line,
                f"Total pot {total.total}, but the chips put in (less uncalled bets) come "
                f"to {e.total_pot}",
            )
        self.check_side_pots(awards)
        payouts: dict[int, int] = {}
        for a in awards:
            for i, share in zip(a.winners, a.shares, strict=True):
                payouts[i] = payouts.get(i, 0) + share
        if self.undecidable:
            self.note(
                "PAYOUT",
                line_no,
                "the winners could not be decided from the cards: payouts repeat the log",
            )
            payouts = {}
            for c in self.collected:
                q = e.by_name.get(c.name)
                if q is not None:
                    payouts[q.index] = payouts.get(q.index, 0) + c.amount
        else:
            self.check_collected(awards, line_no)
        self.check_board()
        self.check_deck()
        self.check_seat_lines(payouts)
        return self.verdict(awards, payouts)

    def showdown_complete(self) -> None:
        e = self.engine
        missing = [
            p for p in e.players if not p.folded and p.index not in self.shows
            and p.index not in self.mucks
        ]
        first_after = self.first_line_after_shows()
        for p in missing:
            self.add(
                "SHOWDOWN",
                first_after,
                f"{p.name} is in the showdown but neither shows nor mucks before this line",
            )
        if not self.shows:
            self.add("SHOWDOWN", first_after, "nobody shows at the showdown: at least one must")

    def first_line_after_shows(self) -> int:
        """The first line after the showdown's show and muck lines."""
        for section in self.hand.sections:
            if section.marker.street != SHOWDOWN:
                continue
            for line in section.lines:
                if not isinstance(line, (Show, Muck, Info)):
                    return line.line
        return self.hand.summary.line

    def check_side_pots(self, awards: Sequence[Award]) -> None:
        total = self.hand.summary.total
        listed = total.main is not None
        if len(awards) > 1:
            want = [a.amount for a in awards]
            if not listed:
                self.add(
                    "SIDE_POTS",
                    total.line,
                    f"there are side pots but none are listed: expected Main pot {want[0]}"
                    + "".join(f". Side pot-{k} {x}" for k, x in enumerate(want[1:], 1)),
                )
            elif [total.main, *total.side] != want:
                self.add(
                    "SIDE_POTS",
                    total.line,
                    f"pots listed as {[total.main, *total.side]}, expected {want} "
                    f"(main first, net of rake)",
                )
        elif listed:
            want_main = awards[0].amount if awards else 0
            if total.side or total.main != want_main:
                self.add(
                    "SIDE_POTS",
                    total.line,
                    f"pots listed as {[total.main, *total.side]}, but there is one pot of "
                    f"{want_main}",
                )

    def check_collected(self, awards: Sequence[Award], line_no: int) -> None:
        e = self.engine
        single = len(awards) == 1
        want: Counter[tuple[str, int | None, int]] = Counter()
        for k, a in enumerate(awards):
            label = None if single else k
            for i, share in zip(a.winners, a.shares, strict=True):
                if share > 0:
                    want[(e.players[i].name, label, share)] += 1
        got: list[Collected] = []
        for c in self.collected:
            key = (c.name, c.pot, c.amount)
            if want[key] > 0:
                want[key] -= 1
            elif c.amount > 0 or c.pot is not None:
                got.append(c)
        expected = [key for key, n in want.items() for _ in range(n)]
        for c in got:
            hint = (
                "; expected " + ", ".join(_collect_words(*key) for key in expected)
                if expected
                else "; nothing more is to be collected"
            )
            self.add(
                "PAYOUT",
                c.line,
                f"{_collect_words(c.name, c.pot, c.amount)} is not what the rules give{hint}",
            )
        if expected and not got:
            where = self.last_collect_line() or line_no
            for key in expected:
                self.add("PAYOUT", where, f"missing '{_collect_words(*key)}' before this line")

    def last_collect_line(self) -> int | None:
        if not self.collected:
            return None
        after = self.collected[-1].line
        for _, line in self.hand.lines():
            if line.line > after:
                return line.line
        return self.hand.summary.line

    def check_board(self) -> None:
        board = self.hand.summary.board
        e = self.engine
        game = self.hand.game
        if game is Game.CHIRIBITO:
            if board is None:
                if e.board:
                    self.add(
                        "SUMMARY",
                        self.hand.summary.total.line,
                        f"the summary lacks 'Board {_cards(e.board)}' after Total pot",
                    )
            elif list(board.cards) != e.board:
                self.add(
                    "CARD_MISMATCH",
                    board.line,
                    f"Board {_cards(board.cards)}, but the common cards dealt are "
                    f"{_cards(e.board)}",
                )
        elif game is Game.ACES:
            if board is not None and board.cards != (JOKER,):
                self.add("CARD_MISMATCH", board.line, f"Board {_cards(board.cards)}, expected [Jk]")
        elif board is not None:
            self.add("SUMMARY", board.line, "Calatone has no board: no Board line")

    def check_deck(self) -> None:
        hand = self.hand
        deck_line = hand.summary.deck
        commitment = hand.commitment
        if deck_line is None:
            if commitment is not None:
                self.note(
                    "SHUFFLE_COMMITMENT",
                    commitment.line,
                    "no Deck line: the shuffle commitment could not be checked",
                )
            return
        cards = list(deck_line.cards)
        expected = self.deck_set
        if len(cards) != len(expected) or set(cards) != expected:
            extra = sorted((Counter(cards) - Counter(expected)).elements())
            lacking = sorted((Counter(expected) - Counter(cards)).elements())
            bits = []
            if extra:
                bits.append(f"extra or repeated {' '.join(extra)}")
            if lacking:
                bits.append(f"missing {' '.join(lacking)}")
            self.add(
                "DECK_ORDER",
                deck_line.line,
                f"the Deck must list this hand's {len(expected)} cards once each: "
                + "; ".join(bits),
            )
        else:
            self.check_deal_order(cards)
        if commitment is not None:
            if deck_line.salt is None:
                self.note(
                    "SHUFFLE_COMMITMENT",
                    commitment.line,
                    "the Deck has no salt: the shuffle commitment could not be checked",
                )
            else:
                text = " ".join(cards) + " " + deck_line.salt
                digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
                if digest != commitment.digest:
                    self.add(
                        "SHUFFLE_COMMITMENT",
                        deck_line.line,
                        f"the Deck and salt hash to {digest}, not to the commitment "
                        f"{commitment.digest}",
                    )

    def check_deal_order(self, deck: list[str]) -> None:
        """Dealt cards against the Deck, dealt from the top in dealing order:
        each street deals its cards one round of the table at a time to the
        players still in, then (Chiribito) its common card. Where each
        player's cards start was noted as the streets were dealt."""
        e = self.engine
        both_ways = self.hand.game is Game.CALATONE
        for idx, down, up, line_no, first, step in self.deals:
            if first < 0:
                continue
            count = len(down) + len(up)
            mine = tuple(deck[first : first + count * step : step])
            wd, wu = mine[: len(down)], mine[len(down) :]
            if down == wd and up == wu:
                continue
            if UNKNOWN in down or UNKNOWN in up:
                self.note(
                    "DECK_ORDER",
                    line_no,
                    f"{e.players[idx].name}'s cards dealt as ?? could not be checked against "
                    f"the Deck",
                )
                continue
            # Calatone's first two cards (the first street starts the deck,
            # so its slots are below one round): either may be the one turned up
            if both_ways and first < step:
                ok = sorted((*down, *up)) == sorted(mine)
            else:
                ok = sorted(down) == sorted(wd) and sorted(up) == sorted(wu)
            if not ok:
                self.add(
                    "DECK_ORDER",
                    line_no,
                    f"{e.players[idx].name} is dealt down {_cards(down)} up {_cards(up)}, but "
                    f"the Deck gives down {_cards(wd)} up {_cards(wu)}",
                )
        board = [deck[x] for x in self.board_slots if x < len(deck)]
        if e.board and board[: len(e.board)] != e.board:
            where = next(
                (s.marker.line for s in self.hand.sections if s.marker.groups),
                self.hand.summary.line,
            )
            self.add(
                "DECK_ORDER",
                where,
                f"the common cards {_cards(e.board)} differ from the Deck's "
                f"{_cards(board[: len(e.board)])}",
            )

    def check_seat_lines(self, payouts: dict[int, int]) -> None:
        seats = self.hand.summary.seats
        if not seats:
            return
        e = self.engine
        listed = set()
        for s in seats:
            listed.add(s.name)
            if self.seat_of.get(s.name) != s.seat:
                self.add(
                    "SUMMARY",
                    s.line,
                    f"Seat {s.seat}: {s.name}, but {s.name} "
                    + (
                        f"sits in seat {self.seat_of[s.name]}"
                        if s.name in self.seat_of
                        else "is not seated"
                    ),
                )
                continue
            p = e.by_name.get(s.name)
            if p is None:
                if s.outcome != "sat_out":
                    self.add(
                        "SUMMARY",
                        s.line,
                        f"{s.name} sat out, but the summary says {_outcome_words(s)}",
                    )
                continue
            won = payouts.get(p.index, 0)
            fault = self.seat_outcome_fault(p, s, won)
            if fault:
                self.add("SUMMARY", s.line, fault)
        missing = [p.name for p in sorted(e.players, key=lambda q: q.seat) if p.name not in listed]
        if missing:
            self.add(
                "SUMMARY",
                seats[-1].line,
                f"the summary lists some seats but not {', '.join(missing)}: list all "
                f"players dealt in, or none",
            )

    def seat_outcome_fault(self, p: Player, s: SeatOutcome, won: int) -> str | None:
        o = s.outcome
        rules = self.rules
        showed = self.shows.get(p.index) or self.voluntary_shows.get(p.index)
        if o == "folded":
            if not p.folded:
                return f"{p.name} did not fold, but the summary says {_outcome_words(s)}"
            street = rules.streets[p.folded_on].name if p.folded_on is not None else None
            if street != s.street:
                return f"{p.name} folded on {street}, not on {s.street}"
            return None
        if o == "sat_out":
            return f"{p.name} was dealt in, but the summary says he sat out"
        if p.folded:
            street = rules.streets[p.folded_on].name if p.folded_on is not None else "?"
            return f"{p.name} folded on {street}, but the summary says {_outcome_words(s)}"
        if o in ("showed_won", "showed_lost"):
            if showed is None:
                return f"{p.name} did not show, but the summary says {_outcome_words(s)}"
            if s.cards is not None and sorted(s.cards) != sorted(showed.cards):
                return f"{p.name} showed {_cards(showed.cards)}, not {_cards(s.cards)}"
            if o == "showed_won" and s.amount != won:
                return f"{p.name} won {won}, not {s.amount}" if won else f"{p.name} lost"
            if o == "showed_lost" and won:
                return f"{p.name} won {won}, but the summary says he lost"
            if s.description is not None:
                category = self.categories.get(p.index)
                if category is not None and description_category(s.description) != category:
                    return (
                        f"{p.name}'s hand is described as '{s.description}', but it is "
                        f"{category}"
                    )
            return None
        if o == "mucked":
            if p.index in self.shows:
                return f"{p.name} showed, but the summary says he mucked"
            if not self.in_showdown:
                return f"{p.name} won without a showdown, but the summary says he mucked"
            return None
        # won
        if self.in_showdown and p.index in self.shows:
            return f"{p.name} showed at the showdown: expected 'showed [...] and won {won}'"
        if s.amount != won:
            return f"{p.name} won {won}, not {s.amount}"
        return None

    def verdict(self, awards: Sequence[Award], payouts: dict[int, int]) -> Verdict:
        hand = self.hand
        e = self.engine
        by_seat = sorted(e.players, key=lambda q: q.seat)
        pots = tuple(
            PotResult(
                a.amount,
                tuple(p.name for p in by_seat if p.index in a.eligible),
                tuple(p.name for p in by_seat if p.index in a.winners),
                a.shares,
            )
            for a in awards
            if a.amount > 0
        )
        payout_names = {p.name: payouts[p.index] for p in by_seat if p.index in payouts}
        net = {p.name: payouts.get(p.index, 0) - p.put for p in by_seat}
        ends = {p.name: p.start - p.put + payouts.get(p.index, 0) for p in e.players}
        stacks = tuple(
            (s.seat, s.name, s.chips, ends.get(s.name, s.chips), s.line) for s in hand.seats
        )
        top_ups = tuple((t.name, t.amount) for t in hand.preamble if isinstance(t, TopUp))
        violations = sorted(self.violations, key=lambda v: v.line)
        h = hand.header
        return Verdict(
            file=self.file,
            line=hand.line,
            hand_id=h.hand_id,
            site=h.site,
            game=hand.game.value,
            violations=tuple(violations),
            pots=pots,
            payouts=payout_names,
            net=net,
            unchecked=tuple(self.unchecked),
            table=hand.table.name,
            table_line=hand.table.line,
            when=f"{h.date} {h.time}",
            zone=h.zone,
            dealer=hand.table.dealer,
            stacks=stacks,
            dealt_in=tuple(p.name for p in by_seat),
            top_ups=top_ups,
        )


_HANDLERS: dict[type, Callable[[_Replay, Any], None]] = {
    Action: _Replay.action,
    Uncalled: _Replay.uncalled,
    Collected: _Replay.collect,
    Show: _Replay.show,
    Muck: _Replay.muck,
    Post: _Replay.post,
    TopUp: _Replay.top_up,
}


def _words(line: Action) -> str:
    return line.verb + (f" {line.amount}" if line.amount is not None else "")


def _collect_words(name: str, pot: int | None, amount: int) -> str:
    where = "pot" if pot is None else "main pot" if pot == 0 else f"side pot-{pot}"
    return f"{name}: collected {amount} from {where}"


def _outcome_words(s: object) -> str:
    o = getattr(s, "outcome", "")
    return {
        "folded": f"folded on {getattr(s, 'street', '')}",
        "showed_won": f"showed and won {getattr(s, 'amount', '')}",
        "showed_lost": "showed and lost",
        "mucked": "mucked",
        "won": f"won {getattr(s, 'amount', '')}",
        "sat_out": "sat out",
    }.get(o, o)


def validate(
    hand: Hand, file: str | None = None, trace: list[LineState] | None = None
) -> Verdict:
    """Judge one parsed hand on its own (no cross-hand checks).

    With ``trace`` (an empty list), the replay also appends a
    :class:`LineState` after every line it plays: the referee's own state,
    so that explanations and stored per-action figures never re-derive
    the rules.

    A fault in the validator itself must not stop a run of thousands of
    hands: it becomes an INTERNAL_ERROR verdict for this hand (a bug in hh,
    never a judgement on the log), and the run goes on.
    """
    try:
        return _Replay(hand, file, trace).run()
    except Exception as exc:
        h = hand.header
        return Verdict(
            file=file,
            line=hand.line,
            hand_id=h.hand_id,
            site=h.site,
            game=hand.game.value,
            violations=(
                Violation(
                    "INTERNAL_ERROR",
                    hand.line,
                    f"hh could not judge this hand ({type(exc).__name__}: {exc}); "
                    f"this is a bug in hh, please report it with the hand",
                ),
            ),
            pots=None,
            payouts=None,
            net=None,
            table=hand.table.name,
        )


# The cross-hand checks live in hh.crosshand; re-exported for existing callers.
from hh.crosshand import cross_check as cross_check  # noqa: E402
