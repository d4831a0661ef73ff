"""Random models (every line kind, all three games, optional parts present or
not, names with spaces and any Unicode letters) survive write then parse, and
the writer is a fixed point of parse then write."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import hands, names

from hh.model import Game, Hand
from hh.parse import parse_hand, parse_text, piece_pattern
from hh.write import write_hand, write_hands

MODEST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@MODEST
@given(hands())
def test_parse_inverts_write(hand: Hand) -> None:
    text = write_hand(hand)
    parsed = parse_hand(text)
    assert parsed == hand
    assert write_hand(parsed) == text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(Game)).flatmap(lambda g: st.lists(hands(g, max_lines=3), max_size=4)))
def test_files_of_hands_roundtrip(models: list[Hand]) -> None:
    text = write_hands(models)
    assert text == "" or (text.endswith("\n") and not text.endswith("\n\n"))
    records = list(parse_text(text))
    assert [r.hand for r in records] == models
    assert all(r.error is None for r in records)
    line = 1
    for record, model in zip(records, models, strict=True):
        assert record.line == line and record.hand is not None
        assert record.hand.header.line == line
        line += write_hand(model).count("\n") + 2


@settings(max_examples=200, deadline=None)
@given(names())
def test_generated_names_are_names(name: str) -> None:
    assert re.fullmatch(piece_pattern("NAME"), name)
    assert 1 <= len(name) <= 32 and name == name.strip()
