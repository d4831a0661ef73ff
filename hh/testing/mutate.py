"""Single corruptions of valid hands, to prove the validator catches them.

Each kind takes a valid hand and returns a copy with one fault, or None when
the hand offers no place for it. Every kind is built so that its mutants are
illegal by construction, and the argument for that is written beside it: it
rests on what the valid original already proves (the player who acted on a
line was the one to act; a call's amount is fixed by the state; and so on),
never on asking the validator.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from hh.cards import FRENCH_RANKS, FRENCH_SUITS, JOKER, SPANISH_RANKS, SPANISH_SUITS, UNKNOWN
from hh.games import RULES
from hh.model import (
    SHOWDOWN,
    Action,
    Board,
    Collected,
    Deal,
    Game,
    Hand,
    Line,
    Marker,
    Muck,
    Post,
    Section,
    Show,
    Uncalled,
    cut_body,
    replace,
)

Item = Line | Marker
Mutation = Callable[[Hand, random.Random], Hand | None]


# ------------------------------------------------------------ plumbing


def _flat(hand: Hand) -> list[Item]:
    out: list[Item] = list(hand.preamble)
    for s in hand.sections:
        out.append(s.marker)
        out.extend(s.lines)
    return out


def _rebuild(hand: Hand, flat: list[Item]) -> Hand:
    preamble, sections = cut_body(flat)
    return replace(hand, preamble=preamble, sections=sections)


def _pick(rng: random.Random, flat: list[Item], test: Callable[[Item], bool]) -> int | None:
    places = [i for i, x in enumerate(flat) if test(x)]
    return rng.choice(places) if places else None


def _swap(hand: Hand, rng: random.Random, test: Callable[[Any], bool],
          change: Callable[[Any], Item | None]) -> Hand | None:
    """The hand with one of the lines ``test`` picks changed by ``change``
    (None when there is no such line, or ``change`` gives none). Both take
    Any: ``test`` checks the line's class, ``change`` gets what it picked."""
    flat = _flat(hand)
    i = _pick(rng, flat, test)
    if i is None:
        return None
    new = change(flat[i])
    if new is None:
        return None
    flat[i] = new
    return _rebuild(hand, flat)


def _players(hand: Hand) -> list[str]:
    return [s.name for s in hand.seats if not s.sitting_out]


def _delta(rng: random.Random, amount: int) -> int:
    """A non-zero change that keeps the amount positive."""
    d = rng.randint(1, 3)
    return -d if amount - d > 0 and rng.random() < 0.5 else d


def _is(verb: str) -> Callable[[Item], bool]:
    return lambda x: isinstance(x, Action) and x.verb == verb


def _in_showdown(hand: Hand) -> set[int]:
    """ids of the lines of the SHOWDOWN section (voluntary shows are elsewhere)."""
    out: set[int] = set()
    for s in hand.sections:
        if s.marker.street == SHOWDOWN:
            out.update(id(x) for x in s.lines)
    return out


# ---------------------------------------------------------------- kinds
# Betting lines. The original hand is valid, so on each action line the
# actor was the player to act, and his amount was the only legal one for a
# call; a raise's "by" equalled total minus the bet before it.


def call_amount(hand: Hand, rng: random.Random) -> Hand | None:
    """A call of another amount: a call's amount is fixed by the state."""
    return _swap(hand, rng, _is("calls"),
                 lambda a: replace(a, amount=a.amount + _delta(rng, a.amount)))


def raise_by(hand: Hand, rng: random.Random) -> Hand | None:
    """``raises <by> to <total>`` with <by> off: by must equal the rise."""
    return _swap(hand, rng, _is("raises"),
                 lambda a: replace(a, amount=a.amount + _delta(rng, a.amount)))


def raise_size(hand: Hand, rng: random.Random) -> Hand | None:
    """A raise that breaks the structure's size rule. Only raises that were
    not all-in are used, so the player had chips beyond the original total.
    No limit: to the current bet + 1, below double (current >= the blind >= 2
    is checked). Fixed limit: one chip more than the fixed amount. Spread:
    one chip over the maximum."""
    stakes = hand.header.stakes
    game = hand.game

    def change(a: Item) -> Item | None:
        assert isinstance(a, Action) and a.amount is not None and a.total is not None
        current = a.total - a.amount
        if game is Game.CHIRIBITO:
            if current < 2:
                return None
            by = 1
        elif game is Game.ACES:
            by = a.amount + 1
        else:
            by = (stakes.high or 0) + 1
        return replace(a, amount=by, total=current + by)

    return _swap(hand, rng, lambda x: _is("raises")(x) and not x.all_in, change)


def bet_size(hand: Hand, rng: random.Random) -> Hand | None:
    """A bet of the wrong size, from a bet that was not all-in (so the player
    had more chips): no limit, one chip under the blind; fixed limit, the
    fixed bet + 1; spread, one chip over the maximum."""
    stakes = hand.header.stakes
    game = hand.game

    def change(a: Item) -> Item | None:
        assert isinstance(a, Action) and a.amount is not None
        if game is Game.CHIRIBITO:
            n = stakes.forced - 1
            if n < 1:
                return None
        elif game is Game.ACES:
            n = a.amount + 1
        else:
            n = (stakes.high or 0) + 1
        return replace(a, amount=n)

    return _swap(hand, rng, lambda x: _is("bets")(x) and not x.all_in, change)


def check_facing_bet(hand: Hand, rng: random.Random) -> Hand | None:
    """A call becomes a check: there was a bet to call, so checking is illegal."""
    return _swap(hand, rng, _is("calls"), lambda a: replace(a, verb="checks", amount=None,
                                                          all_in=False))


def bet_over_bet(hand: Hand, rng: random.Random) -> Hand | None:
    """A raise written as a bet: there was a bet to raise, so a bet is illegal."""
    return _swap(hand, rng, _is("raises"),
                 lambda a: replace(a, verb="bets", amount=a.total, total=None))


def timed_out_action(hand: Hand, rng: random.Random) -> Hand | None:
    """A bet, call or raise marked as timed out: a timed-out player only checks or folds."""
    return _swap(
        hand, rng,
        lambda x: isinstance(x, Action) and x.verb in ("bets", "calls", "raises"),
        lambda a: replace(a, timed_out=True),
    )


def removed_all_in(hand: Hand, rng: random.Random) -> Hand | None:
    """The all-in mark removed: the player still put in his last chip."""
    return _swap(hand, rng, lambda x: isinstance(x, (Action, Post)) and x.all_in,
                 lambda a: replace(a, all_in=False))


def wrong_actor(hand: Hand, rng: random.Random) -> Hand | None:
    """Another player on an action line: the original actor was the one to act."""
    names = _players(hand)

    def change(a: Item) -> Item | None:
        assert isinstance(a, Action)
        others = [n for n in names if n != a.name]
        return replace(a, name=rng.choice(others)) if others else None

    return _swap(hand, rng, lambda x: isinstance(x, Action), change)


def _actors(a: Item, b: Item) -> bool:
    """Whether two lines are actions of different players."""
    return isinstance(a, Action) and isinstance(b, Action) and a.name != b.name


def swapped_actions(hand: Hand, rng: random.Random) -> Hand | None:
    """Two consecutive actions of different players swapped: the first of
    them was the player to act, and now the other acts in his place."""
    flat = _flat(hand)
    places = [
        i for i in range(len(flat) - 1)
        if _actors(flat[i], flat[i + 1])
    ]
    if not places:
        return None
    i = rng.choice(places)
    flat[i], flat[i + 1] = flat[i + 1], flat[i]
    return _rebuild(hand, flat)


def deleted_action(hand: Hand, rng: random.Random) -> Hand | None:
    """An action line removed: its actor was to act, so whatever follows is
    out of turn, or the round is left open."""
    flat = _flat(hand)
    i = _pick(rng, flat, lambda x: isinstance(x, Action))
    if i is None:
        return None
    del flat[i]
    return _rebuild(hand, flat)


def deleted_line(hand: Hand, rng: random.Random) -> Hand | None:
    """A required line removed: a deal, a forced bet, an uncalled bet, a
    collected amount, a show or a muck at the showdown. (Chat, top-ups and
    voluntary shows may be left out, so they are not chosen.)"""
    flat = _flat(hand)
    showdown = _in_showdown(hand)

    def required(x: Item) -> bool:
        if isinstance(x, (Deal, Post, Uncalled)):
            return True
        if isinstance(x, Collected):
            return x.amount > 0
        return isinstance(x, (Show, Muck)) and id(x) in showdown

    i = _pick(rng, flat, required)
    if i is None:
        return None
    del flat[i]
    return _rebuild(hand, flat)


def extra_street(hand: Hand, rng: random.Random) -> Hand | None:
    """A street marker after the hand's end (all folded, a round all
    checked, or the showdown): nothing can be dealt after the end."""
    rules = RULES[hand.game]
    played = [s.marker.street for s in hand.sections if s.marker.street != SHOWDOWN]
    last = rules.street_index.get(played[-1], 0) if played else 0
    nxt = rules.streets[min(last + 1, len(rules.streets) - 1)].name
    groups: tuple[tuple[str, ...], ...] = ()
    if rules.streets[rules.street_index[nxt]].board:
        board = tuple(c for s in hand.sections for c in s.marker.new_cards)
        free = [c for c in _deck_cards(hand) if c not in set(_dealt(hand))]
        new = (rng.choice(free),)
        groups = (board, new) if board else (new,)
    marker = Marker(nxt, groups)
    flat = _flat(hand)
    flat.append(marker)
    return _rebuild(hand, flat)


def action_after_end(hand: Hand, rng: random.Random) -> Hand | None:
    """When all but one folded: the winner acts after the end."""
    last = hand.sections[-1] if hand.sections else None
    if last is None or last.marker.street == SHOWDOWN:
        return None
    if not any(isinstance(x, Collected) for x in last.lines):
        return None
    winner = next(x.name for x in last.lines if isinstance(x, Collected))
    flat = _flat(hand)
    flat.append(Action(winner, "checks"))
    return _rebuild(hand, flat)


def swapped_streets(hand: Hand, rng: random.Random) -> Hand | None:
    """Two consecutive street markers exchange names: the first is now out of order."""
    secs = [i for i, s in enumerate(hand.sections) if s.marker.street != SHOWDOWN]
    pairs = [(a, b) for a, b in itertools.pairwise(secs) if b == a + 1]
    pairs = [(a, b) for a, b in pairs
             if not hand.sections[a].marker.groups and not hand.sections[b].marker.groups]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    sections = list(hand.sections)
    ma, mb = sections[a].marker, sections[b].marker
    sections[a] = Section(replace(ma, street=mb.street), sections[a].lines)
    sections[b] = Section(replace(mb, street=ma.street), sections[b].lines)
    return replace(hand, sections=tuple(sections))


# Cards.


def _dealt(hand: Hand) -> list[str]:
    out: list[str] = []
    for x in _flat(hand):
        if isinstance(x, Deal):
            out.extend(c for c in (*(x.down or ()), *(x.up or ())) if c != UNKNOWN)
        elif isinstance(x, Marker):
            out.extend(x.new_cards)
    return out


def duplicated_card(hand: Hand, rng: random.Random) -> Hand | None:
    """A dealt card replaced by a card dealt earlier in the hand."""
    flat = _flat(hand)
    seen: list[str] = []
    places = []
    for i, x in enumerate(flat):
        if isinstance(x, Deal):
            if seen:
                places.append((i, list(seen)))
            seen.extend(c for c in (*(x.down or ()), *(x.up or ())) if c != UNKNOWN)
        elif isinstance(x, Marker):
            seen.extend(x.new_cards)
    if not places:
        return None
    i, earlier = rng.choice(places)
    deal = flat[i]
    assert isinstance(deal, Deal)
    dup = rng.choice(earlier)
    if deal.down and deal.down[0] != UNKNOWN:
        flat[i] = replace(deal, down=(dup, *deal.down[1:]))
    elif deal.up:
        flat[i] = replace(deal, up=(dup, *deal.up[1:]))
    else:
        return None
    return _rebuild(hand, flat)


def foreign_card(hand: Hand, rng: random.Random) -> Hand | None:
    """A dealt card from another deck: a French card in Chiribito, a Spanish
    one in the stud games (neither is in the game's notation), or the joker
    dealt to a player (it lies in the centre)."""
    if hand.game is Game.CHIRIBITO:
        choices = [r + s for r in "2349TJQK" for s in "dh"]
    else:
        choices = [r + s for r in "SCR" for s in "oeb"] + [JOKER]

    def change(d: Item) -> Item | None:
        assert isinstance(d, Deal)
        card = rng.choice(choices)
        if d.up:
            return replace(d, up=(card, *d.up[1:]))
        assert d.down
        return replace(d, down=(card, *d.down[1:]))

    return _swap(hand, rng, lambda x: isinstance(x, Deal), change)


def wrong_shown_card(hand: Hand, rng: random.Random) -> Hand | None:
    """A shown card that the player was not dealt."""
    dealt_to: dict[str, set[str]] = {}
    for x in _flat(hand):
        if isinstance(x, Deal):
            dealt_to.setdefault(x.name, set()).update((*(x.down or ()), *(x.up or ())))
    deck = _deck_cards(hand)

    def change(s: Item) -> Item | None:
        assert isinstance(s, Show)
        mine = dealt_to.get(s.name, set())
        if UNKNOWN in mine:
            return None
        free = [c for c in deck if c not in mine]
        k = rng.randrange(len(s.cards))
        cards = list(s.cards)
        cards[k] = rng.choice(free)
        return replace(s, cards=tuple(cards))

    return _swap(hand, rng, lambda x: isinstance(x, Show), change)


def _deck_cards(hand: Hand) -> list[str]:
    if hand.game is Game.CHIRIBITO:
        return [r + s for r in SPANISH_RANKS for s in SPANISH_SUITS]
    return [r + s for r in FRENCH_RANKS for s in FRENCH_SUITS]


def wrong_board(hand: Hand, rng: random.Random) -> Hand | None:
    """Chiribito's summary Board with a card that was not dealt to the board."""
    board = hand.summary.board
    if hand.game is not Game.CHIRIBITO or board is None or not board.cards:
        return None
    free = [c for c in _deck_cards(hand) if c not in board.cards]
    k = rng.randrange(len(board.cards))
    cards = list(board.cards)
    cards[k] = rng.choice(free)
    return replace(hand, summary=replace(hand.summary, board=Board(tuple(cards), board.line)))


def wrong_marker_board(hand: Hand, rng: random.Random) -> Hand | None:
    """A Chiribito marker repeating the board with a card that is not on it."""
    secs = [i for i, s in enumerate(hand.sections) if len(s.marker.groups) == 2]
    if not secs:
        return None
    i = rng.choice(secs)
    s = hand.sections[i]
    before, new = s.marker.groups
    free = [c for c in _deck_cards(hand) if c not in before]
    k = rng.randrange(len(before))
    changed = list(before)
    changed[k] = rng.choice(free)
    sections = list(hand.sections)
    sections[i] = Section(replace(s.marker, groups=(tuple(changed), new)), s.lines)
    return replace(hand, sections=tuple(sections))


def deck_swap(hand: Hand, rng: random.Random) -> Hand | None:
    """Two cards of the Deck line swapped: the committed hash no longer matches."""
    deck = hand.summary.deck
    if deck is None or hand.commitment is None or deck.salt is None:
        return None
    i, j = rng.sample(range(len(deck.cards)), 2)
    cards = list(deck.cards)
    cards[i], cards[j] = cards[j], cards[i]
    return replace(hand, summary=replace(hand.summary, deck=replace(deck, cards=tuple(cards))))


# Showdown.


def wrong_description(hand: Hand, rng: random.Random) -> Hand | None:
    """A shown hand described with another category than the one it has
    (in a valid hand the stated category is the real one)."""
    from hh.evaluate import Category
    from hh.validate import description_category

    def change(s: Item) -> Item | None:
        assert isinstance(s, Show)
        stated = description_category(s.description)
        others = [c.value for c in Category if c.value != stated and c is not Category.LA_PERLA]
        return replace(s, description=rng.choice(others))

    return _swap(hand, rng, lambda x: isinstance(x, Show) and x.description is not None, change)


def wrong_declaration(hand: Hand, rng: random.Random) -> Hand | None:
    """A Calatone declaration with a card that is not the player's own."""
    deck = _deck_cards(hand)

    def change(s: Item) -> Item | None:
        assert isinstance(s, Show) and s.declared is not None
        free = [c for c in deck if c not in s.cards]
        declared = list(s.declared)
        declared[rng.randrange(5)] = rng.choice(free)
        return replace(s, declared=tuple(declared))

    return _swap(hand, rng, lambda x: isinstance(x, Show) and x.declared is not None, change)


# The log's claims.


def wrong_collected(hand: Hand, rng: random.Random) -> Hand | None:
    """A collected amount off by a few chips."""
    return _swap(hand, rng, lambda x: isinstance(x, Collected) and x.amount > 0,
                 lambda c: replace(c, amount=c.amount + _delta(rng, c.amount)))


def wrong_winner(hand: Hand, rng: random.Random) -> Hand | None:
    """A collected line given to a player who collects nothing from that pot."""
    names = _players(hand)
    flat = _flat(hand)
    takers: dict[int | None, set[str]] = {}
    for x in flat:
        if isinstance(x, Collected):
            takers.setdefault(x.pot, set()).add(x.name)

    def change(c: Item) -> Item | None:
        assert isinstance(c, Collected)
        others = [n for n in names if n not in takers.get(c.pot, set())]
        return replace(c, name=rng.choice(others)) if others else None

    return _swap(hand, rng, lambda x: isinstance(x, Collected) and x.amount > 0, change)


def wrong_uncalled(hand: Hand, rng: random.Random) -> Hand | None:
    """An uncalled bet of another amount."""
    return _swap(hand, rng, lambda x: isinstance(x, Uncalled),
                 lambda u: replace(u, amount=u.amount + _delta(rng, u.amount)))


def wrong_post(hand: Hand, rng: random.Random) -> Hand | None:
    """A forced bet of another size (a short one was all-in: more is too much)."""
    return _swap(hand, rng, lambda x: isinstance(x, Post),
                 lambda p: replace(p, amount=p.amount + _delta(rng, p.amount)))


def wrong_total(hand: Hand, rng: random.Random) -> Hand | None:
    """Total pot off by a few chips."""
    t = hand.summary.total
    new = replace(t, total=t.total + (_delta(rng, t.total) if t.total else 1))
    return replace(hand, summary=replace(hand.summary, total=new))


def wrong_side_pot(hand: Hand, rng: random.Random) -> Hand | None:
    """A listed side pot off by a few chips."""
    t = hand.summary.total
    if not t.side:
        return None
    k = rng.randrange(len(t.side))
    side = list(t.side)
    side[k] += _delta(rng, side[k])
    return replace(hand, summary=replace(hand.summary, total=replace(t, side=tuple(side))))


def big_rake(hand: Hand, rng: random.Random) -> Hand | None:
    """A rake bigger than the whole pot (so bigger than the main pot)."""
    t = hand.summary.total
    return replace(hand, summary=replace(hand.summary, total=replace(t, rake=t.total + 1)))


def wrong_fold_street(hand: Hand, rng: random.Random) -> Hand | None:
    """A summary seat line naming another street for a fold."""
    names = [s.name for s in RULES[hand.game].streets]
    seats = list(hand.summary.seats)
    places = [i for i, s in enumerate(seats) if s.outcome == "folded"]
    if not places:
        return None
    i = rng.choice(places)
    others = [n for n in names if n != seats[i].street]
    seats[i] = replace(seats[i], street=rng.choice(others))
    return replace(hand, summary=replace(hand.summary, seats=tuple(seats)))


def wrong_won(hand: Hand, rng: random.Random) -> Hand | None:
    """A summary seat line with another amount won."""
    seats = list(hand.summary.seats)
    places = [i for i, s in enumerate(seats) if s.outcome in ("won", "showed_won")]
    if not places:
        return None
    i = rng.choice(places)
    amount = seats[i].amount or 0
    seats[i] = replace(seats[i], amount=amount + (_delta(rng, amount) if amount else 1))
    return replace(hand, summary=replace(hand.summary, seats=tuple(seats)))


KINDS: dict[str, Mutation] = {
    "call_amount": call_amount,
    "raise_by": raise_by,
    "raise_size": raise_size,
    "bet_size": bet_size,
    "check_facing_bet": check_facing_bet,
    "bet_over_bet": bet_over_bet,
    "timed_out_action": timed_out_action,
    "removed_all_in": removed_all_in,
    "wrong_actor": wrong_actor,
    "swapped_actions": swapped_actions,
    "deleted_action": deleted_action,
    "deleted_line": deleted_line,
    "extra_street": extra_street,
    "action_after_end": action_after_end,
    "swapped_streets": swapped_streets,
    "duplicated_card": duplicated_card,
    "foreign_card": foreign_card,
    "wrong_shown_card": wrong_shown_card,
    "wrong_board": wrong_board,
    "wrong_marker_board": wrong_marker_board,
    "deck_swap": deck_swap,
    "wrong_description": wrong_description,
    "wrong_declaration": wrong_declaration,
    "wrong_collected": wrong_collected,
    "wrong_winner": wrong_winner,
    "wrong_uncalled": wrong_uncalled,
    "wrong_post": wrong_post,
    "wrong_total": wrong_total,
    "wrong_side_pot": wrong_side_pot,
    "big_rake": big_rake,
    "wrong_fold_street": wrong_fold_street,
    "wrong_won": wrong_won,
}


def mutate(hand: Hand, kind: str, rng: random.Random) -> Hand | None:
    """One mutant of ``hand`` of the given kind, or None if the kind does not apply."""
    return KINDS[kind](hand, rng)


__all__ = ["KINDS", "mutate"]
