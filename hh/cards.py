"""Decks and the card notation of FORMAT.md.

A card is kept as its two-character text everywhere in the model (``So``,
``Kh``, ``Jk``, ``??``): that is what the log says, it round-trips for free and
it hashes fast. Evaluators and the engine turn cards into small integers at
their own boundary, through the tables a :class:`Deck` builds once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SPANISH_RANKS = "567SCRA"
SPANISH_SUITS = "oceb"
FRENCH_RANKS = "23456789TJQKA"
FRENCH_SUITS = "cdhs"
JOKER = "Jk"
UNKNOWN = "??"


class CardError(ValueError):
    """A card text that is not a card of the deck in play."""


@dataclass(frozen=True)
class Deck:
    """An ordered set of cards: ranks low to high, suits, optionally the joker.

    ``cards`` lists rank by rank, suit by suit (the order of a new pack); the
    ``index`` of a card is its position there, so ``rank * len(suits) + suit``.
    """

    name: str
    ranks: str
    suits: str
    joker: bool = False
    cards: tuple[str, ...] = field(init=False, repr=False, compare=False)
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    # the cards a player can be dealt: all but the joker, which stays in the centre
    dealable: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        natural = tuple(r + s for r in self.ranks for s in self.suits)
        cards = (*natural, JOKER) if self.joker else natural
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "index", {c: i for i, c in enumerate(cards)})
        object.__setattr__(self, "dealable", frozenset(natural))

    def __contains__(self, card: object) -> bool:
        return card in self.index

    def __len__(self) -> int:
        return len(self.cards)

    def rank(self, card: str) -> int:
        """Rank of a card, 0 for the deck's lowest rank."""
        return self.ranks.index(card[0])

    def suit(self, card: str) -> int:
        return self.suits.index(card[1])

    def parse(self, text: str) -> tuple[str, ...]:
        """Cards separated by single spaces, e.g. ``"As Kd"``.

        Raises :class:`CardError` naming the bad text and what the deck holds,
        because a user who typed ``Ah`` in a Chiribito hand needs to learn
        that Chiribito has no hearts, not just that parsing failed.
        """
        out = tuple(text.split(" ")) if text else ()
        for card in out:
            if card not in self.index:
                raise CardError(self.explain(card))
        return out

    def explain(self, card: str) -> str:
        joker = f" or the joker {JOKER}" if self.joker else ""
        return (
            f"{card!r} is not a card of the {self.name} deck: expected a rank of "
            f"{' '.join(self.ranks)} followed by a suit of {' '.join(self.suits)}{joker}"
        )


SPANISH_28 = Deck("Spanish 28-card", SPANISH_RANKS, SPANISH_SUITS)
FRENCH_52 = Deck("French 52-card", FRENCH_RANKS, FRENCH_SUITS)
FRENCH_52_JOKER = Deck("French 52-card with joker", FRENCH_RANKS, FRENCH_SUITS, joker=True)


def stripped_deck(lowest: str) -> Deck:
    """Calatone's ``Deck from R`` house rule: ranks ``lowest`` to ace, R from 3 to 9."""
    if lowest not in "3456789" or len(lowest) != 1:
        raise CardError(f"'Deck from {lowest}': the lowest rank must be one of 3 4 5 6 7 8 9")
    ranks = FRENCH_RANKS[FRENCH_RANKS.index(lowest) :]
    return Deck(f"French deck from {lowest}", ranks, FRENCH_SUITS)


def is_spanish(card: str) -> bool:
    """Well-formed in the Spanish notation (the format's card syntax for Chiribito)."""
    return len(card) == 2 and card[0] in SPANISH_RANKS and card[1] in SPANISH_SUITS


def is_french(card: str) -> bool:
    """Well-formed in the French notation, the joker included."""
    return card == JOKER or (
        len(card) == 2 and card[0] in FRENCH_RANKS and card[1] in FRENCH_SUITS
    )
