"""The line regexes rebuilt from the programs kept in the parser's cache file
(hh/_regex.py) are the regexes ``re.compile`` gives: same groups, same
matches on every line of the examples; bad or foreign data falls back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hh.parse as parse
from hh._lark import line_patterns
from hh._regex import program, rebuild
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

DATA = Path(__file__).parent / "data" / "parse"
LINES = [
    line
    for name in ("chiribito.txt", "aces-straights-flushes.txt", "calatone.txt")
    for line in (DATA / name).read_text(encoding="utf-8").splitlines()
    if line
] + [
    line
    for game in Game
    for hand in Simulator(game, 7, tables=1).hands(40)
    for line in write_hand(hand).splitlines()
    if line
]


@pytest.mark.parametrize("kind", sorted(line_patterns()))
def test_a_rebuilt_regex_is_the_compiled_one(kind: str) -> None:
    pattern = line_patterns()[kind]
    data = program(pattern)
    assert data is not None
    rebuilt, compiled = rebuild(pattern, data), re.compile(pattern)
    assert rebuilt is not compiled  # built from the program, not re's own cache
    assert (rebuilt.pattern, rebuilt.flags, rebuilt.groups, rebuilt.groupindex) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
        compiled.groupindex,
    )
    matched = 0
    for line in LINES:
        a, b = rebuilt.fullmatch(line), compiled.fullmatch(line)
        assert (a and a.groupdict()) == (b and b.groupdict()), line
        matched += a is not None
    assert matched or kind in ("HOUSE_RULES_LINE", "INFO_LINE", "TOP_UP_LINE", "MUCK_LINE")


def test_bad_or_foreign_programs_fall_back_to_compiling() -> None:
    pattern = r"(?P<x>a+)b"
    data = program(pattern)
    assert data is not None
    for bad in (None, [], "junk", [0, *data[1:]], [data[0], data[1], [1, 2, 3], *data[3:]]):
        regex = rebuild(pattern, bad)
        assert regex.fullmatch("aab") is not None and regex.groupindex == {"x": 1}


def test_the_parser_uses_the_programs_in_its_cache() -> None:
    parse._tables.cache_clear()
    try:
        tables = parse._tables()
        assert tables.match["DEAL_LINE"]("Dealt to Anna: up [7s]") is not None
    finally:
        parse._tables.cache_clear()
