"""hh.model's records: each class's ``__init__`` takes its fields in the
order ``FIELDS`` lists them and sets each to what it was given, in both
builds (pure and compiled); equality and hashing leave the line number
out; records pickle, copy and ``replace`` by their fields."""

from __future__ import annotations

import ast
import copy
import inspect
import pickle
from pathlib import Path

import pytest

import hh.model as model
from hh.model import Action, Marker, ModelRecord, Seat, Section, Stakes, fields, replace

pytestmark = pytest.mark.compiled

CLASSES = [
    c
    for c in vars(model).values()
    if isinstance(c, type) and issubclass(c, ModelRecord) and c is not ModelRecord
]
COMPILED = not model.__file__.endswith(".py")


def test_every_record_class_is_covered() -> None:
    assert len(CLASSES) == 23


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_init_takes_and_sets_the_fields_in_order(cls: type[ModelRecord]) -> None:
    params = list(inspect.signature(cls).parameters)
    assert params == list(fields(cls))
    assert fields(cls)[-1] == "line" or "line" not in fields(cls)
    values = _sample(cls)  # a distinct value per field, of the field's type
    by_keyword = cls(**values)
    by_position = cls(*values.values())
    for name in fields(cls):
        assert getattr(by_keyword, name) == values[name]
        assert getattr(by_position, name) == values[name]
    assert by_keyword == by_position
    assert pickle.loads(pickle.dumps(by_keyword)) == by_keyword
    with pytest.raises(TypeError):
        cls(*values.values(), object())  # one argument too many


@pytest.mark.skipif(not COMPILED, reason="pure build: mypy (make lint) refuses assignments")
def test_compiled_records_are_read_only() -> None:
    seat = Seat(1, "Ana", 40)
    with pytest.raises(AttributeError):
        seat.chips = 41  # type: ignore[misc]


def _sample(cls: type[ModelRecord]) -> dict[str, object]:
    """A distinct value per field, of its parameter's declared type (read
    from the module's source: compiled, the records check their arguments'
    types, and the annotations are not kept at run time)."""
    return {name: _value(kind, k) for k, (name, kind) in enumerate(_PARAMETERS[cls.__name__])}


def _parameters() -> dict[str, list[tuple[str, str]]]:
    source = Path(model.__file__).with_name("model.py").read_text("utf-8")
    out: dict[str, list[tuple[str, str]]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    out[node.name] = [
                        (a.arg, ast.unparse(a.annotation))
                        for a in item.args.args[1:]
                        if a.annotation is not None
                    ]
    return out


_PARAMETERS = _parameters()


def _value(annotation: str, k: int) -> object:
    kind = annotation.removesuffix(" | None")
    if kind == "str" or kind in ("Verb", "Outcome") or kind.startswith("Literal["):
        return f"value {k}"
    if kind == "int":
        return 1000 + k
    if kind == "bool":
        return bool(k % 2)
    if kind == "Game":
        return model.Game.CALATONE
    if kind.startswith("tuple["):
        return (f"value {k}",)
    record = getattr(model, kind)  # a record in a record
    return record(**_sample(record))


def test_equality_and_hashing_leave_the_line_out() -> None:
    a = Action("Ana", "calls", 20, None, False, False, 3)
    assert a == Action("Ana", "calls", 20, line=9)
    assert hash(a) == hash(Action("Ana", "calls", 20))
    assert a != Action("Ana", "calls", 21, line=3)
    assert a != Action("Ben", "calls", 20, line=3)
    assert Stakes(1, 2, 4) != (1, 2, 4)
    assert {Stakes(1, 2, 4), Stakes(1, 2, 4), Stakes(1)} == {Stakes(1), Stakes(1, 2, 4)}


def test_repr_names_every_field() -> None:
    assert repr(Action("Ana", "raises", 10, 20, line=7)) == (
        "Action(name='Ana', verb='raises', amount=10, total=20, all_in=False, "
        "timed_out=False, line=7)"
    )
    assert repr(Stakes(2)) == "Stakes(forced=2, low=None, high=None)"


def test_records_pickle_copy_and_replace_by_their_fields() -> None:
    a = Action("Ana", "calls", 20, None, False, False, 3)
    assert pickle.loads(pickle.dumps(a)).line == 3  # the line travels too
    section = Section(Marker("4TH STREET", line=2), (a,))
    assert copy.deepcopy(section).lines[0].line == 3
    b = replace(a, amount=40)
    assert (b.name, b.amount, b.line, a.amount) == ("Ana", 40, 3, 20)
    with pytest.raises(TypeError, match="Action has no field colour"):
        replace(a, colour="red")
