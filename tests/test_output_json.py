"""``hh validate --json`` writes each verdict's pieces directly
(hh/output.py, _json_head and _json_tail) rather than through a dict and
json.dumps: the bytes must be those of ``json.dumps(v.to_json(),
ensure_ascii=False)``, the definition, on every kind of verdict and on any
text a log can hold."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hh.model import Game
from hh.output import finish, render, safe_json
from hh.parallel import failed_verdict
from hh.parse import parse_text
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import Verdict, Violation, validate
from hh.verdict import PotResult
from hh.write import write_hand

pytestmark = pytest.mark.compiled


def _by_json(v: Verdict) -> str:
    """The verdict's line as json.dumps writes it, odd characters escaped."""
    return safe_json(json.dumps(v.to_json(), ensure_ascii=False)) + "\n"


def _written(v: Verdict) -> str:
    text, valid = finish(render(v, "", True), (), True)
    assert valid == v.valid
    return text


def _verdicts() -> list[Verdict]:
    rng = random.Random(11)
    out = []
    for game in Game:
        for hand in Simulator(game, 4, tables=2).hands(25):
            out.append(validate(hand, "s.txt"))
            kind = rng.choice(sorted(KINDS))
            bad = mutate(hand, kind, rng)
            if bad is not None:
                out.append(validate(bad, "m.txt"))
        text = write_hand(next(iter(Simulator(game, 5).hands(1))))
        for record in parse_text(text.replace("*** SUMMARY ***", "*** SUMMARY"), file="p.txt"):
            out.append(failed_verdict(record))
    return out


def test_every_kind_of_verdict_is_written_as_json_dumps_writes_it() -> None:
    verdicts = _verdicts()
    assert any(v.valid for v in verdicts) and any(not v.valid for v in verdicts)
    assert any(v.pots is None for v in verdicts) and any(v.pots for v in verdicts)
    for v in verdicts:
        assert _written(v) == _by_json(v)


_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(
    file=st.none() | _TEXT,
    hand_id=st.none() | _TEXT,
    site=st.none() | _TEXT,
    names=st.lists(_TEXT, min_size=1, max_size=4, unique=True),
    amount=st.integers(0, 10**18),
    unchecked=st.booleans(),
)
def test_any_text_is_written_as_json_dumps_writes_it(
    file: str | None,
    hand_id: str | None,
    site: str | None,
    names: list[str],
    amount: int,
    unchecked: bool,
) -> None:
    note = Violation("UNVERIFIABLE", 3, f"about {names[0]}")
    v = Verdict(
        file=file,
        line=7,
        hand_id=hand_id,
        site=site,
        game="calatone",
        violations=(Violation("POT", 9, f"{names[-1]} \u2028 \x85 \"quoted\"", 4),),
        pots=(PotResult(amount, tuple(names), tuple(names[:1])),),
        payouts={n: amount for n in names},
        net={n: -amount for n in names},
        unchecked=(note,) if unchecked else (),
    )
    assert _written(v) == _by_json(v)
