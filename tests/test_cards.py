"""Decks and card notation (RULES.md decks, FORMAT.md cards)."""

from __future__ import annotations

import pytest

from hh.cards import (
    FRENCH_52,
    FRENCH_52_JOKER,
    JOKER,
    SPANISH_28,
    CardError,
    is_french,
    is_spanish,
    stripped_deck,
)


def test_rule_chiribito_deck_is_28_spanish_cards() -> None:
    assert len(SPANISH_28) == 28
    assert SPANISH_28.ranks == "567SCRA"  # low to high: 5 6 7 Sota Caballo Rey As
    assert {c[1] for c in SPANISH_28.cards} == set("oceb")
    assert "So" in SPANISH_28 and "Ah" not in SPANISH_28
    assert SPANISH_28.rank("Ae") > SPANISH_28.rank("Re") > SPANISH_28.rank("Cc")
    assert SPANISH_28.rank("Cc") > SPANISH_28.rank("So") > SPANISH_28.rank("7b")


def test_rule_asf_deck_is_52_french_cards_plus_the_joker() -> None:
    assert len(FRENCH_52) == 52 and JOKER not in FRENCH_52
    assert len(FRENCH_52_JOKER) == 53 and JOKER in FRENCH_52_JOKER
    assert len(set(FRENCH_52_JOKER.cards)) == 53


@pytest.mark.parametrize(("lowest", "size"), [("3", 48), ("7", 32), ("9", 24)])
def test_rule_calatone_deck_from_r(lowest: str, size: int) -> None:
    deck = stripped_deck(lowest)
    assert len(deck) == size
    assert deck.ranks[0] == lowest and deck.ranks[-1] == "A"
    assert "2c" not in deck and f"{lowest}c" in deck


@pytest.mark.parametrize("bad", ["2", "T", "A", "10", ""])
def test_deck_from_an_impossible_rank_is_refused(bad: str) -> None:
    with pytest.raises(CardError, match="3 4 5 6 7 8 9"):
        stripped_deck(bad)


def test_parse_gives_the_cards_and_names_a_bad_one_with_what_the_deck_holds() -> None:
    assert SPANISH_28.parse("Ao Rc") == ("Ao", "Rc")
    assert FRENCH_52_JOKER.parse("Jk As") == ("Jk", "As")
    assert FRENCH_52.parse("") == ()
    with pytest.raises(CardError) as info:
        SPANISH_28.parse("Ao Kh")
    message = str(info.value)
    assert "'Kh'" in message
    assert "5 6 7 S C R A" in message and "o c e b" in message
    with pytest.raises(CardError, match="joker Jk"):
        FRENCH_52_JOKER.parse("1s")
    with pytest.raises(CardError, match="'Jk'"):
        FRENCH_52.parse("Jk")


def test_notation_of_each_game() -> None:
    # ranks and suits overlap between the decks: Ac, 5c, Cc, Sc...
    assert is_spanish("Cc") and not is_french("Cc")
    assert is_french("Ac") and is_spanish("Ac")
    assert is_french("Jk") and not is_spanish("Jk")
    assert not is_spanish("Ah") and not is_french("So")
    assert not is_french("??") and not is_spanish("??")
    assert all(is_spanish(c) for c in SPANISH_28.cards)
    assert all(is_french(c) for c in FRENCH_52_JOKER.cards)
