"""Colluding bots for the simulator, and the one measure of "who is ahead
now" that the colluders and the integrity report share.

Ground truth for ``hh report integrity``: ``hh simulate --colluders A,B
--collusion MODE`` seats the pair at every table of the session, and their
decisions are those of their honest style, changed where the mode says:

- ``soft-play``: never bet or raise while the partner is still in the hand
  (a bet becomes a check, a raise a call); heads-up with the partner, never
  fold a hand that can be checked or called: the pair checks it down.
- ``chip-dump``: the first named (the dumper) loses chips to the second (the
  receiver). Heads-up with the dumper the receiver bets whenever it may and
  never folds to him; the dumper, who knows the receiver's cards, never bets
  or raises while he is in, and facing his bet or raise (all-ins included,
  in any pot) folds when ahead of him (by :func:`standing`) and calls when
  behind.
- ``card-share``: in a pot with the partner and someone else, a colluder
  acts as if he saw the partner's cards: behind the partner (by
  :func:`standing`), he never bets or raises and folds to a bet; ahead of
  him, he does not fold to a bet.
- ``dump-fold``: the dumper as a real one plays, not as the report's
  signals measure: facing the receiver's bet or raise, in any pot, he folds
  whatever he holds; he never bets or raises while the receiver is in.
  Heads-up with him the receiver bets whenever he may.
- ``friends``: two honest players who always sit together: seated at every
  table, no decision changed (the report must not accuse them).

A pair colludes in a share of the hands only (``Collusion.rate``, e.g. 0.3):
which hands is drawn from the seed, the hand's number and the pair, apart
from the simulator's own draws, so the honest decisions stay as they were.

Every changed decision is one of the engine's legal options, so the hands
stay valid; decisions of everyone else (and the random draws they use) are
untouched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from hh.model import Game

# a betting decision as the simulator makes it: (verb, chips added, raise total)
Verb = Literal["checks", "folds", "bets", "calls", "raises"]
Decision = tuple[Verb, int, int | None]

if TYPE_CHECKING:
    from hh.engine import Engine, Options, Player
    from hh.evaluate import Evaluator
    from hh.games.base import Variant


class Session(Protocol):
    """What a colluder reads of the simulator's session (hh.simulate's
    Simulator): its seed and the number of the hand being played."""

    @property
    def seed(self) -> int: ...

    @property
    def number(self) -> int: ...


class Play(Protocol):
    """What a colluder reads of the hand the simulator is playing
    (hh.simulate's hand, which gives itself to :meth:`Ring.adjust`): the
    engine's state, the game and its variant, the session, and the bet his
    honest style would make."""

    @property
    def e(self) -> Engine: ...

    @property
    def game(self) -> Game: ...

    @property
    def variant(self) -> Variant: ...

    @property
    def sim(self) -> Session: ...

    def bet_size(self, bounds: tuple[int, int], p: Player) -> int:
        """The chips ``p``'s own style bets, within ``bounds`` (the engine's)."""
        ...

MODES = ("soft-play", "chip-dump", "card-share", "dump-fold", "friends")

_SPANISH = "567SCRA"
_FRENCH = "23456789TJQKA"


def standing(game: Game | str, evaluator: Evaluator, cards: Sequence[str],
             board: Sequence[str] = ()) -> int:  # fmt: skip
    """How good a player's cards are now, to compare players of one hand at
    one moment (higher is better; players compared hold as many cards).

    The game's evaluator where it takes that many cards (Chiribito with its
    five common cards, Aces Straights and Flushes with four to six own cards
    and the joker, Calatone always); otherwise (Chiribito before the fifth
    common card, Aces Straights and Flushes on third street) groups of equal
    rank, then high cards, of the cards held and the common cards so far.
    """
    # (a Game is a str: compared by value, without an enum look-up per call)
    if game == Game.CALATONE:
        return evaluator.value(cards)
    if game == Game.ACES:
        if 4 <= len(cards) <= 6:
            return evaluator.value(cards)
        return evaluator.exposed(cards[:4])
    if game != Game.CHIRIBITO:
        raise ValueError(f"not a game: {game!r}")
    if len(board) == 5 and len(cards) == 2:
        return evaluator.value(cards, board)
    counts: dict[int, int] = {}
    for c in (*cards, *board):
        r = _SPANISH.find(c[0])
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)[:5]
    value = 0
    for n, r in groups + [(0, 0)] * (5 - len(groups)):
        value = value * 64 + n * 8 + r + 1
    return value


def standings(
    game: str,
    evaluator: Evaluator,
    cards: Sequence[str],
    rounds: Sequence[int | None],
    board: Sequence[str],
    board_rounds: Sequence[int | None],
    last: int,
) -> list[tuple[int, int]]:
    """A seat's (round, :func:`standing`) on every round from the first to
    ``last`` on which it held cards, all of them known: ``cards`` its down
    and up cards with the round each was dealt in (``rounds``; None: not
    dealt as the hand was played), ``board`` the common cards with theirs.
    A round on which it held a ``??`` card, or cards the evaluator refuses
    (an invalid hand's), has no entry."""
    out: list[tuple[int, int]] = []
    for rnd in range(last + 1):
        own = [c for c, r in zip(cards, rounds, strict=True) if r is not None and r <= rnd]
        if not own or "??" in own:
            continue
        common = [c for c, r in zip(board, board_rounds, strict=True) if r is not None and r <= rnd]
        try:
            out.append((rnd, standing(game, evaluator, own, common)))
        except ValueError:
            continue
    return out


# what :func:`seats_standings` needs of a hand: its game, its evaluator, the
# common cards with the round each was dealt in, its last round
HandCards = tuple[str, "Evaluator", list[str], list[int | None], int]


def seats_standings(
    hands: dict[int, HandCards],
    ords: list[int],
    players: list[str],
    downs: list[list[str] | None],
    down_rounds: list[list[int | None] | None],
    ups: list[list[str] | None],
    up_rounds: list[list[int | None] | None],
    folded: list[int | None],
) -> tuple[list[int], list[str], list[int], list[int]]:
    """:func:`standings` of many seats at once, given as columns: each seat's
    hand (``ords``, a key of ``hands``), player, down and up cards with the
    round each was dealt in, and the round it folded on (None: it did not).
    Returns the columns (hand, player, round, standing) of every seat's rounds
    up to the one it folded on or its hand's last; a seat of no hand in
    ``hands``, or dealt no cards, has none."""
    out_ords: list[int] = []
    out_players: list[str] = []
    out_rounds: list[int] = []
    out_values: list[int] = []
    for k, player, down, down_at, up, up_at, fold in zip(
        ords, players, downs, down_rounds, ups, up_rounds, folded, strict=True
    ):
        hand = hands.get(k)
        if hand is None or (down_at is None and up_at is None):
            continue  # no cards dealt, or imported before the rounds were stored
        game, evaluator, board, board_at, last = hand
        if fold is not None and fold < last:
            last = fold
        cards = (down or []) + (up or [])
        rounds = (down_at or []) + (up_at or [])
        for rnd, value in standings(game, evaluator, cards, rounds, board, board_at, last):
            out_ords.append(k)
            out_players.append(player)
            out_rounds.append(rnd)
            out_values.append(value)
    return out_ords, out_players, out_rounds, out_values


@dataclass(frozen=True, slots=True)
class Collusion:
    """One colluding pair and how it cooperates. In ``chip-dump`` the first
    player loses chips to the second."""

    first: str
    second: str
    mode: str
    rate: float = 1.0  # the share of the hands the pair colludes in

    def __post_init__(self) -> None:
        if not 0.0 < self.rate <= 1.0:
            raise ValueError(f"collusion rate {self.rate}: expected more than 0, at most 1")
        if self.mode not in MODES:
            raise ValueError(f"collusion mode {self.mode!r}: expected one of {', '.join(MODES)}")
        if self.first == self.second:
            raise ValueError(f"a colluding pair needs two players, got {self.first!r} twice")


class Ring:
    """The colluding pairs of a session: who cooperates with whom, and the
    changed decisions (:meth:`adjust`)."""

    def __init__(self, pairs: Sequence[Collusion]) -> None:
        self.pairs = tuple(pairs)
        self.partners: dict[str, list[tuple[str, Collusion]]] = {}
        for pair in self.pairs:
            self.partners.setdefault(pair.first, []).append((pair.second, pair))
            self.partners.setdefault(pair.second, []).append((pair.first, pair))
        self.names = tuple(self.partners)

    def adjust(self, play: Play, p: Player, opts: Options, verb: Verb, added: int,
               total: int | None) -> Decision:  # fmt: skip
        """The colluder ``p``'s decision, given his honest one (``verb``,
        chips ``added``, raise ``total``), on the simulator's hand ``play``."""
        e = play.e
        for partner_name, pair in self.partners.get(p.name, ()):
            q = e.by_name.get(partner_name)
            if q is None or q.folded or not _colludes(play, pair):
                continue
            others = [x for x in e.players if not x.folded and x is not p and x is not q]
            changed = _MODES[pair.mode](play, pair, p, q, others, opts, verb, added, total)
            if changed is not None:
                return changed
        return verb, added, total


def _colludes(play: Play, pair: Collusion) -> bool:
    """Whether the pair colludes in this hand: always at rate 1, else a draw
    of its own from the seed, the hand's number and the pair (a string seed
    is hashed the same in every process)."""
    if pair.rate >= 1.0:
        return True
    key = f"{play.sim.seed}:{play.sim.number}:{pair.first}:{pair.second}"
    return random.Random(key).random() < pair.rate


def _passive(opts: Options, verb: Verb, added: int, total: int | None) -> Decision:
    """A bet made a check, a raise made a call."""
    if verb == "bets":
        return "checks", 0, None
    if verb == "raises":
        assert opts.call is not None
        return "calls", opts.call, None
    return verb, added, total


def _stay(opts: Options, verb: Verb, added: int, total: int | None) -> Decision:
    """A fold made a check or a call."""
    if verb == "folds":
        if opts.check:
            return "checks", 0, None
        if opts.call is not None:
            return "calls", opts.call, None
    return verb, added, total


def _soft_play(play: Play, pair: Collusion, p: Player, q: Player, others: list[Player],
               opts: Options, verb: Verb, added: int, total: int | None
               ) -> Decision | None:  # fmt: skip
    """Soft play: no bet or raise into the partner; heads-up with him, no fold."""
    verb, added, total = _passive(opts, verb, added, total)
    if not others:
        verb, added, total = _stay(opts, verb, added, total)
    return verb, added, total


def _chip_dump(play: Play, pair: Collusion, p: Player, q: Player, others: list[Player],
               opts: Options, verb: Verb, added: int, total: int | None
               ) -> Decision | None:  # fmt: skip
    """Chip dumping: the first of the pair loses chips to the second."""
    e = play.e
    facing_partner = e.current_bet > p.bet and e.last_aggressor == q.index
    if p.name == pair.second:  # the receiver
        if not others and opts.check and opts.bet is not None:
            return "bets", play.bet_size(opts.bet, p), None
        if facing_partner:
            return _stay(opts, verb, added, total)
        return None
    # the dumper, who knows the receiver's cards: facing his bet, in any pot,
    # he folds when ahead and calls when behind; he never bets into him
    if facing_partner and opts.call is not None:
        ev = play.variant.evaluator
        mine = standing(play.game, ev, [*p.down, *p.up], e.board)
        theirs = standing(play.game, ev, [*q.down, *q.up], e.board)
        if mine > theirs:
            return "folds", 0, None
        return "calls", opts.call, None
    if not others and opts.check:
        return "checks", 0, None
    return _passive(opts, verb, added, total)


def _card_share(play: Play, pair: Collusion, p: Player, q: Player, others: list[Player],
                opts: Options, verb: Verb, added: int, total: int | None
                ) -> Decision | None:  # fmt: skip
    """Card sharing: behind the partner with someone else in, give way to
    him; ahead of him, stay in."""
    if not others:
        return None
    e = play.e
    ev = play.variant.evaluator
    mine = standing(play.game, ev, [*p.down, *p.up], e.board)
    theirs = standing(play.game, ev, [*q.down, *q.up], e.board)
    if theirs > mine:
        if not opts.check:
            return "folds", 0, None
        return _passive(opts, verb, added, total)
    if mine > theirs:
        return _stay(opts, verb, added, total)
    return None


def _dump_fold(play: Play, pair: Collusion, p: Player, q: Player, others: list[Player],
               opts: Options, verb: Verb, added: int, total: int | None
               ) -> Decision | None:  # fmt: skip
    """Chip dumping as it is done: the dumper folds to the receiver's bet
    whatever he holds and never bets into him; the receiver bets into him
    heads-up whenever he may."""
    e = play.e
    if p.name == pair.second:  # the receiver
        if not others and opts.check and opts.bet is not None:
            return "bets", play.bet_size(opts.bet, p), None
        return None
    if e.current_bet > p.bet and e.last_aggressor == q.index:
        return "folds", 0, None
    return _passive(opts, verb, added, total)


def _friends(play: Play, pair: Collusion, p: Player, q: Player, others: list[Player],
             opts: Options, verb: Verb, added: int, total: int | None) -> Decision | None:
    """Honest friends: they sit together, nothing else."""
    return None


# a mode's change of one decision (None: the honest one stands)
Mode = Callable[[Play, Collusion, "Player", "Player", "list[Player]", "Options", Verb, int,
                 "int | None"], "Decision | None"]  # fmt: skip
_MODES: dict[str, Mode] = {
    "soft-play": _soft_play,
    "chip-dump": _chip_dump,
    "card-share": _card_share,
    "dump-fold": _dump_fold,
    "friends": _friends,
}


__all__ = ["MODES", "Collusion", "Play", "Ring", "Session", "seats_standings", "standing",
           "standings"]
