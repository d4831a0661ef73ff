"""Simulated sessions: realistic, varied, legal hands from the same engine
that judges them.

Real logs of these games are scarce, so tests, benchmarks and the demo use
hands played here by bots of different styles at tables whose stacks carry
over, whose deal rotates as the game requires and whose busted players are
replaced. Every hand is built as a :class:`~hh.model.Hand` by driving
:class:`~hh.engine.Engine` exactly as the validator does, so a hand that the
simulator writes and the validator rejects is a bug in one of them.

Rare situations the tests must see (five aces, La Perla) come from the
shuffle like everything else, but a small share of hands stacks the deck so
that a short run meets them: the Deck line and the commitment still describe
exactly the cards dealt.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from hh.cards import JOKER, UNKNOWN
from hh.collusion import Collusion, Ring
from hh.engine import Award, Engine, Player
from hh.evaluate import Evaluation
from hh.games import RULES
from hh.games.base import GameRules, Variant
from hh.model import (
    SHOWDOWN,
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
    Muck,
    Post,
    Seat,
    SeatOutcome,
    Section,
    Show,
    Stakes,
    Summary,
    Table,
    TopUp,
    TotalPot,
    Uncalled,
    Verb,
)

SITE = "hh-sim"
_PREFIX = {Game.CHIRIBITO: "CH", Game.ACES: "AS", Game.CALATONE: "CA"}

FIRST_NAMES = (
    "Lucía", "Paco", "Marta", "Íñigo", "Ana María", "José Luis", "Carmen", "Dario", "Elena",
    "Fabio", "Anna", "Ben", "Carla", "Begoña", "Nuño", "Ramón", "Pilar", "Giulia", "Sofía",
    "Martín", "Àngel", "Xosé", "Maite", "Iker", "Chiara", "Jürgen", "Zoë", "Ñaki", "María José",
    "Luca", "Noé", "Inés",
)
TABLE_NAMES = ("Mérida", "Nápoles", "Pagat", "Córdoba", "Teruel", "Ávila", "Sevilla", "Cádiz")


@dataclass(frozen=True, slots=True)
class Style:
    """A bot's temperament. Probabilities, not chips: chips stay ints."""

    name: str
    looseness: float  # how readily it stays in
    aggression: float  # how readily it bets and raises
    shove: float  # chance of going all-in when it bets or raises
    timeout: float = 0.006


STYLES = (
    Style("tight-passive", 0.35, 0.15, 0.01),
    Style("tight-aggressive", 0.4, 0.55, 0.04),
    Style("loose-passive", 0.8, 0.15, 0.01),
    Style("loose-aggressive", 0.75, 0.6, 0.06),
    Style("all-in happy", 0.95, 0.6, 0.35),
)


@dataclass
class _Sitter:
    name: str
    stack: int
    style: Style
    top_up: int = 0
    sitting_out: bool = False


@dataclass
class _Table:
    number: int
    name: str
    max_seats: int
    seats: dict[int, _Sitter]
    dealer: int | None = None
    house_rules: tuple[str, ...] = ()
    rake_percent: int = 0
    hands: int = 0


@dataclass(frozen=True)
class Setup:
    """Stakes and stacks per game: RULES.md defaults where it gives them."""

    stakes: Stakes
    stack: int


SETUPS = {
    Game.CHIRIBITO: Setup(Stakes(20), 1000),
    Game.ACES: Setup(Stakes(1, 1, 2), 40),
    Game.CALATONE: Setup(Stakes(5, 5, 50), 500),
}


@dataclass
class _Names:
    """Unique names: a replacement player gets a new one. A count per first
    name keeps them unique in constant memory, however long the session."""

    rng: random.Random
    reserved: frozenset[str] = frozenset()
    counts: dict[str, int] = field(default_factory=dict)

    def fresh(self) -> str:
        base = self.rng.choice(FIRST_NAMES)
        k = self.counts.get(base, 0) + 1
        self.counts[base] = k
        name = base if k == 1 else f"{base} {k}"
        return self.fresh() if name in self.reserved else name


class Simulator:
    """Plays sessions of one game at ``tables`` tables, hands dealt round-robin."""

    def __init__(
        self,
        game: Game,
        seed: int,
        players: int | None = None,
        tables: int = 1,
        view: str | None = None,
        deck: bool = True,
        colluders: tuple[Collusion, ...] = (),
    ) -> None:
        self.game = game
        self.rules: GameRules = RULES[game]
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = players
        self.view = view
        self.deck = deck and view is None
        self.setup = SETUPS[game]
        # colluders (hh.collusion) sit at every table and stay when busted, as the viewer does
        self.ring = Ring(colluders) if colluders else None
        self.ring_styles: dict[str, Style] = {}
        self.keep = frozenset({view} if view is not None else ()) | frozenset(
            self.ring.names if self.ring else ()
        )
        self.names = _Names(self.rng, self.keep)
        self.tables = [self._new_table(t + 1) for t in range(tables)]
        self.clock = 0  # seconds since 2026/01/01 00:00:00 UTC
        self.number = 0

    # ---------------------------------------------------------------- tables

    def _house_rules(self) -> tuple[str, ...]:
        r = self.rng.random()
        if self.game is Game.CHIRIBITO:
            return ("La Perla wins",) if r < 0.3 else ()
        if self.game is Game.CALATONE:
            if r < 0.15:
                return ("Deck from 7",)
            if r < 0.3:
                return ("Flush beats full house",)
        return ()

    def _new_table(self, number: int) -> _Table:
        rng = self.rng
        rules = self.rules
        house = self._house_rules()
        variant = rules.variant(house)
        max_seats = rules.max_players
        hi = variant.max_players
        k = self.players if self.players is not None else rng.randint(rules.min_players, hi)
        k = max(rules.min_players, min(k, hi))
        if self.ring is not None:
            k = min(hi, max(k, len(self.ring.names) + 1))
        seat_numbers = sorted(rng.sample(range(1, max_seats + 1), k))
        if self.view is not None and 1 not in seat_numbers:
            seat_numbers[0] = 1
        seats = {}
        for s in seat_numbers:
            name = self.view if (s == 1 and self.view is not None) else self.names.fresh()
            seats[s] = _Sitter(name, self._buy_in(), rng.choice(STYLES))
        if self.ring is not None:
            # a colluder is one player at every table: one name, one style
            free = [s for s in seat_numbers if seats[s].name != self.view]
            for s, name in zip(free, self.ring.names, strict=False):
                seats[s].name = name
                seats[s].style = self.ring_styles.setdefault(name, seats[s].style)
        base = TABLE_NAMES[(number - 1) % len(TABLE_NAMES)]
        return _Table(
            number=number,
            name=f"{base} {_PREFIX[self.game]}-{self.seed}-{number}",
            max_seats=max_seats,
            seats=seats,
            house_rules=house,
            rake_percent=rng.choice((0, 0, 0, 5)),
        )

    def _buy_in(self) -> int:
        """Mostly the standard stack, sometimes short: short stacks make the
        all-ins and side pots that a referee has to get right."""
        base = self.setup.stack
        return self.rng.choice((base, base, base, base // 2, base // 4 + 1, base * 3 // 4 + 3))

    def _between_hands(self, table: _Table) -> None:
        """Busted players are replaced; a short one may top up; someone may sit out."""
        rng = self.rng
        for seat, sitter in list(table.seats.items()):
            sitter.top_up = 0
            sitter.sitting_out = False
            if sitter.stack <= 0 and sitter.name in self.keep:
                # the viewer (or a colluder) stays and buys chips again: a top-up from nothing
                sitter.top_up = self._buy_in()
                sitter.stack = sitter.top_up
            elif sitter.stack <= 0:
                table.seats[seat] = _Sitter(self.names.fresh(), self._buy_in(), rng.choice(STYLES))
        active = list(table.seats.values())
        if len(active) > self.rules.min_players and rng.random() < 0.03:
            sitter = rng.choice(active)
            if sitter.name != self.view and not sitter.top_up:
                sitter.sitting_out = True
        for sitter in active:
            short = sitter.stack < self.setup.stack // 5
            if short and not sitter.sitting_out and not sitter.top_up and rng.random() < 0.3:
                sitter.top_up = self.setup.stack - sitter.stack
                sitter.stack += sitter.top_up

    def _next_dealer(self, table: _Table, dealt: list[int]) -> int:
        if table.dealer is None:
            return self.rng.choice(dealt)
        if self.rules.deal_passes > 0:
            later = [s for s in dealt if s > table.dealer]
            return later[0] if later else dealt[0]
        earlier = [s for s in dealt if s < table.dealer]
        return earlier[-1] if earlier else dealt[-1]

    # ----------------------------------------------------------------- hands

    def __iter__(self) -> Iterator[Hand]:
        return self

    def __next__(self) -> Hand:
        table = self.tables[self.number % len(self.tables)]
        self.number += 1
        return self.play(table)

    def hands(self, n: int) -> Iterator[Hand]:
        for _ in range(n):
            yield next(self)

    def play(self, table: _Table) -> Hand:
        if table.hands:
            self._between_hands(table)
        table.hands += 1
        hand = _HandPlay(self, table).play()
        self.clock += self.rng.randint(25, 140)  # the first hand is at 00:00:00
        return hand


def _when(seconds: int) -> tuple[str, str]:
    t = dt.datetime(2026, 1, 1) + dt.timedelta(seconds=seconds)
    return t.strftime("%Y/%m/%d"), t.strftime("%H:%M:%S")


class _HandPlay:
    """One hand at one table: deals, bots' decisions, the written record."""

    def __init__(self, sim: Simulator, table: _Table) -> None:
        self.sim = sim
        self.table = table
        self.rng = sim.rng
        self.rules = sim.rules
        self.game = sim.game
        self.variant: Variant = self.rules.variant(table.house_rules)

    # -- the deck

    def _shuffle(self, n_players: int) -> list[str]:
        rng = self.rng
        cards = [c for c in self.variant.deck.cards if c != JOKER]
        rng.shuffle(cards)
        # stack the deck now and then so that rare hands appear in short runs
        if self.game is Game.ACES and rng.random() < 0.004:
            j = rng.randrange(n_players)
            aces = [c for c in cards if c[0] == "A"]
            # player j's first three cards (3rd street) and his 4th street card
            slots = [j, n_players + j, 2 * n_players + j, 3 * n_players + j]
            for slot, ace in zip(slots, aces, strict=True):
                k = cards.index(ace)
                cards[slot], cards[k] = cards[k], cards[slot]
        if self.game is Game.CHIRIBITO and rng.random() < 0.02:
            j = rng.randrange(n_players)
            suit = rng.choice("oceb")
            for slot, card in ((j, "S" + suit), (n_players + j, "7" + suit)):
                k = cards.index(card)
                cards[slot], cards[k] = cards[k], cards[slot]
        return cards

    # -- the record

    def play(self) -> Hand:
        sim = self.sim
        table = self.table
        rules = self.rules
        rng = self.rng
        setup = sim.setup
        seated = sorted(table.seats.items())
        dealt_seats = [s for s, x in seated if not x.sitting_out]
        table.dealer = sim._next_dealer(table, dealt_seats)
        e = Engine(
            rules,
            setup.stakes,
            [(s, table.seats[s].name, table.seats[s].stack) for s in dealt_seats],
            table.dealer,
            table.house_rules,
        )
        self.e = e
        self.styles = {p.index: table.seats[p.seat].style for p in e.players}
        deck = self._shuffle(e.n)
        self.deck = deck
        self.pos = 0
        date, time = _when(sim.clock)
        hand_id = f"{_PREFIX[sim.game]}-{sim.seed}-{table.number}-{table.hands}"
        header = Header(SITE, hand_id, sim.game, setup.stakes, date, time, "UTC")
        salt = f"{rng.getrandbits(64):016x}"
        self.salt = salt
        commitment = None
        if sim.deck:
            text = " ".join(deck) + " " + salt
            commitment = Commitment(hashlib.sha256(text.encode("utf-8")).hexdigest())
        seats = tuple(
            Seat(s, x.name, x.stack, x.sitting_out) for s, x in seated
        )
        preamble: list[Line] = [
            TopUp(x.name, x.top_up) for s, x in seated if x.top_up and not x.sitting_out
        ]
        for due in e.forced_bets():
            p = due.player
            e.post(p, due.amount)
            preamble.append(Post(p.name, due.kind, due.amount, p.all_in))
        self._chatter(preamble)
        sections: list[Section] = []
        self.shown: dict[int, Show] = {}
        self.mucked: set[int] = set()
        self.evaluations: dict[int, Evaluation] = {}
        self.voluntary: int | None = None
        for k, street in enumerate(rules.streets):
            if e.ended:
                break
            e.start_street(k)
            lines: list[Line] = []
            groups: tuple[tuple[str, ...], ...] = ()
            if street.board:
                before = tuple(e.board)
                new = tuple(self._draw(street.board))
                e.deal_board(new)
                groups = (new,) if not before else (before, new)
            else:
                self._deal_street(k, lines)
            e.begin_betting()
            self._betting(lines)
            sections.append(Section(Marker(street.name, groups), tuple(lines)))
        awards, rake = self._finish(sections)
        summary = self._summary(awards, rake)
        # stacks carry over
        payouts: dict[int, int] = {}
        for a in awards:
            for i, share in zip(a.winners, a.shares, strict=True):
                payouts[i] = payouts.get(i, 0) + share
        for p in e.players:
            table.seats[p.seat].stack = p.start - p.put + payouts.get(p.index, 0)
        if sim.view is not None:
            sections = self._hero_view(sections)
        house = HouseRules(table.house_rules) if table.house_rules else None
        return Hand(
            header=header,
            table=Table(table.name, table.max_seats, table.dealer),
            seats=seats,
            preamble=tuple(preamble),
            sections=tuple(sections),
            summary=summary,
            house_rules=house,
            commitment=commitment,
        )

    def _draw(self, n: int) -> list[str]:
        out = self.deck[self.pos : self.pos + n]
        self.pos += n
        return out

    def _deal_street(self, k: int, lines: list[Line]) -> None:
        e = self.e
        street = self.rules.streets[k]
        plan = e.deal_plan()
        n = len(plan)
        per = street.down + street.up
        got = {d.player.index: [self.deck[self.pos + r * n + j] for r in range(per)]
               for j, d in enumerate(plan)}
        self.pos += per * n
        for d in plan:
            p, down_n = d.player, d.down
            cards = got[p.index]
            if self.game is Game.CALATONE and k == 0:
                # the player turns up one of his two cards: the weaker, mostly
                ev = self.variant.evaluator
                a, b = cards
                if self.rng.random() < 0.75:
                    up_card = a if ev.exposed([a]) <= ev.exposed([b]) else b
                else:
                    up_card = self.rng.choice(cards)
                down = [c for c in cards if c != up_card][:1]
                up = [up_card]
            else:
                down, up = cards[:down_n], cards[down_n:]
            e.deal(p, down, up)
            lines.append(Deal(p.name, tuple(down) or None, tuple(up) or None))

    def _chatter(self, lines: list[Line]) -> None:
        rng = self.rng
        if rng.random() < 0.02:
            p = rng.choice(self.e.players)
            chat = rng.choice(("buena suerte", "¡vamos!", "gg", "ciao"))
            lines.append(Info(p.name, "says", chat))
        if rng.random() < 0.01:
            p = rng.choice(self.e.players)
            lines.append(Info(p.name, "disconnected"))
            lines.append(Info(p.name, "connected"))

    # -- betting

    def _strength(self, p: Player) -> float:
        """A rough 0..1 feel for the hand: bots are players, not solvers."""
        cards = [c for c in (*p.down, *p.up) if c != UNKNOWN]
        ranks = self.variant.deck.ranks
        if not cards:
            return 0.5
        values = sorted((ranks.index(c[0]) / (len(ranks) - 1) for c in cards), reverse=True)
        counts: dict[str, int] = {}
        for c in (*cards, *self.e.board):
            counts[c[0]] = counts.get(c[0], 0) + 1
        made = max(counts.values())
        suits: dict[str, int] = {}
        for c in (*cards, *self.e.board):
            suits[c[1]] = suits.get(c[1], 0) + 1
        flushy = max(suits.values()) >= 4
        s = 0.25 * values[0] + 0.2 * (made - 1) + (0.15 if flushy else 0.0)
        if self.game is Game.CHIRIBITO:
            hole = set(p.down)
            if any(c[0] == "S" and "7" + c[1] in hole for c in hole):
                s += 0.5  # La Perla
        return min(1.0, s + self.rng.random() * 0.5)

    def _betting(self, lines: list[Line]) -> None:
        e = self.e
        rng = self.rng
        while e.to_act is not None:
            p = e.players[e.to_act]
            opts = e.options()
            assert opts is not None
            style = self.styles[p.index]
            strength = self._strength(p)
            owe = e.current_bet - p.bet
            timed_out = rng.random() < style.timeout
            verb: Verb = "checks"
            added, total = 0, None
            if timed_out:
                verb = "checks" if opts.check else "folds"
            elif opts.check:
                if opts.bet and (rng.random() < style.aggression * strength * 1.6):
                    verb = "bets"
                    added = self._size(opts.bet, style, p)
                elif rng.random() < 0.01:
                    verb = "folds"
            else:
                assert opts.call is not None
                price = owe / (e.total_pot + owe)  # what calling costs against the pot
                stay = style.looseness + 0.8 * strength - 0.3 - 0.6 * price
                if rng.random() > stay:
                    verb = "folds"
                elif opts.raise_to and rng.random() < style.aggression * strength * 1.4:
                    verb = "raises"
                    total = self._raise_total(opts.raise_to, style)
                    added = total - p.bet
                else:
                    verb, added = "calls", opts.call
            all_in = verb in ("bets", "calls", "raises") and added == p.stack
            by = None
            if verb == "raises":
                assert total is not None
                by = total - e.current_bet
            ring = self.sim.ring
            if ring is not None and p.name in ring.partners and not timed_out:
                verb, added, total = ring.adjust(self, p, opts, verb, added, total)
                all_in = verb in ("bets", "calls", "raises") and added == p.stack
                by = total - e.current_bet if verb == "raises" and total is not None else None
            amount = by if verb == "raises" else (added if verb in ("bets", "calls") else None)
            lines.append(Action(p.name, verb, amount, total, all_in, timed_out))
            e.act(p, verb, added)
            if rng.random() < 0.004:
                lines.append(Info(p.name, "says", "nh"))
        back = e.close_round()
        if back:
            lines.append(Uncalled(back.amount, back.player.name))

    def bet_size(self, bounds: tuple[int, int], p: Player) -> int:
        """The chips ``p``'s own style bets, within ``bounds`` (a colluder's
        bet: hh.collusion.Play)."""
        return self._size(bounds, self.styles[p.index], p)

    def _size(self, rng_: tuple[int, int], style: Style, p: Player) -> int:
        lo, hi = rng_
        if lo >= hi:
            return lo
        rng = self.rng
        if rng.random() < style.shove:
            return hi
        if self.rules.structure == "no-limit":
            pot = max(lo, self.e.total_pot)
            target = rng.choice((lo, pot // 2, pot, pot * 3 // 4 + rng.randint(0, 9)))
            return max(lo, min(hi, target))
        return rng.randint(lo, hi)

    def _raise_total(self, rng_: tuple[int, int], style: Style) -> int:
        lo, hi = rng_
        if lo >= hi:
            return lo
        rng = self.rng
        if rng.random() < style.shove:
            return hi
        if self.rules.structure == "no-limit":
            return min(hi, rng.choice((lo, lo, lo + lo // 2, 2 * lo + rng.randint(0, 7))))
        return rng.randint(lo, hi)

    # -- the end

    def _finish(self, sections: list[Section]) -> tuple[list[Award], int]:
        """Showdown (or the last man standing), pots, rake and collected lines."""
        e = self.e
        rng = self.rng
        game = self.game
        values: dict[int, int] = {}
        end_lines: list[Line] = []
        showdown = e.ended != "folded"
        if showdown:
            if e.ended is None:
                e.ended = "showdown"
            early = e.street < len(self.rules.streets) - 1
            live = [p for p in e.players if not p.folded]
            start = e.last_aggressor if e.last_aggressor is not None else 0
            order = sorted(live, key=lambda q: (q.index - start) % e.n)
            multi = len(e.pots()) > 1
            best: int | None = None
            for p in order:
                cards = [*p.down, *p.up]
                evaluation = self._evaluate(p, cards)
                declared = None
                if game is Game.CALATONE and not early:
                    declared = tuple(evaluation.cards)
                    if rng.random() < 0.04:
                        worse = self._worse_declaration(cards, evaluation)
                        if worse is not None:
                            declared, evaluation = worse
                beaten = best is not None and evaluation.value < best
                if beaten and not multi and rng.random() < 0.7:
                    end_lines.append(Muck(p.name))
                    self.mucked.add(p.index)
                    continue
                show = Show(p.name, tuple(cards), declared, evaluation.description)
                end_lines.append(show)
                self.shown[p.index] = show
                self.evaluations[p.index] = evaluation
                values[p.index] = evaluation.value
                best = evaluation.value if best is None else max(best, evaluation.value)
        else:
            winner = next(p for p in e.players if not p.folded)
            values[winner.index] = 0
        pots = e.pots()
        rake = 0
        if self.table.rake_percent and pots and showdown:
            rake = min(pots[0].amount, e.total_pot * self.table.rake_percent // 100)
        awards = e.award(values, rake)
        single = len(awards) == 1
        collected = []
        for k, a in enumerate(awards):
            for i, share in zip(a.winners, a.shares, strict=True):
                if share > 0:
                    collected.append(Collected(e.players[i].name, share, None if single else k))
        if showdown:
            sections.append(Section(Marker(SHOWDOWN), (*end_lines, *collected)))
        else:
            last = sections[-1]
            extra: list[Line] = list(collected)
            winner = next(p for p in e.players if not p.folded)
            if rng.random() < 0.05 and winner.down:
                show = Show(winner.name, tuple([*winner.down, *winner.up]))
                extra.append(show)
                self.shown[winner.index] = show
                self.voluntary = winner.index
            sections[-1] = Section(last.marker, (*last.lines, *extra))
        return awards, rake

    def _evaluate(self, p: Player, cards: list[str]) -> Evaluation:
        ev = self.variant.evaluator
        if self.game is Game.CHIRIBITO:
            return ev.evaluate(cards, self.e.board)
        if self.game is Game.ACES:
            return ev.evaluate(cards, (JOKER,))
        return ev.evaluate(cards)

    def _worse_declaration(
        self, cards: list[str], best: Evaluation
    ) -> tuple[tuple[str, ...], Evaluation] | None:
        """A Calatone player who declares less than his best is held to it."""
        ev = self.variant.evaluator
        for _ in range(8):
            five = tuple(self.rng.sample(cards, 5))
            evaluation = ev.evaluate(five)
            if evaluation.value < best.value:
                return five, evaluation
        return None

    def _summary(self, awards: list[Award], rake: int) -> Summary:
        e = self.e
        table = self.table
        rules = self.rules
        pots = [a.amount for a in awards]
        if len(pots) > 1:
            total = TotalPot(e.total_pot, rake, pots[0], tuple(pots[1:]))
        else:
            total = TotalPot(e.total_pot, rake)
        board = None
        if self.game is Game.CHIRIBITO and e.board:
            board = Board(tuple(e.board))
        elif self.game is Game.ACES:
            board = Board((JOKER,))
        deck = DeckLine(tuple(self.deck), self.salt) if self.sim.deck else None
        won: dict[int, int] = {}
        for a in awards:
            for i, share in zip(a.winners, a.shares, strict=True):
                won[i] = won.get(i, 0) + share
        outcomes = []
        for s, sitter in sorted(table.seats.items()):
            if sitter.sitting_out:
                outcomes.append(SeatOutcome(s, sitter.name, "sat_out"))
                continue
            p = e.by_name[sitter.name]
            if p.folded:
                assert p.folded_on is not None
                street = rules.streets[p.folded_on].name
                outcomes.append(SeatOutcome(s, p.name, "folded", street=street))
            elif p.index in self.shown:
                show = self.shown[p.index]
                amount = won.get(p.index, 0)
                ev = self.evaluations.get(p.index)
                desc = ev.category.value if ev is not None else None
                if amount or p.index == self.voluntary:
                    outcomes.append(
                        SeatOutcome(s, p.name, "showed_won", show.cards, amount, description=desc)
                    )
                else:
                    outcomes.append(
                        SeatOutcome(s, p.name, "showed_lost", show.cards, description=desc)
                    )
            elif p.index in self.mucked:
                outcomes.append(SeatOutcome(s, p.name, "mucked"))
            else:
                outcomes.append(SeatOutcome(s, p.name, "won", amount=won.get(p.index, 0)))
        return Summary(total, board, deck, tuple(outcomes))

    def _hero_view(self, sections: list[Section]) -> list[Section]:
        """What the viewer's log shows: others' down cards are ?? unless shown."""
        hero = self.sim.view
        shown = {self.e.players[i].name for i in self.shown}
        out = []
        for section in sections:
            lines: list[Line] = []
            for line in section.lines:
                if isinstance(line, Deal) and line.name != hero and line.name not in shown:
                    down = tuple(UNKNOWN for _ in line.down) if line.down else None
                    line = Deal(line.name, down, line.up)
                lines.append(line)
            out.append(Section(section.marker, tuple(lines)))
        return out


__all__ = ["STYLES", "Simulator", "Style"]
