"""hh.model's record classes write out their __init__ (compiled, they are
native classes the parser builds ~10x faster) and the pure build gives them
a quicker one (_quick_init): in both builds it must take the same arguments,
with the same defaults, and set every field to what it was given, as the
dataclass's would."""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import pickle
from pathlib import Path

import pytest

import hh.model as model

CLASSES = [
    c
    for c in vars(model).values()
    if isinstance(c, type) and c.__module__ == "hh.model" and dataclasses.is_dataclass(c)
]


def test_every_record_class_is_covered() -> None:
    assert len(CLASSES) >= 20


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_quick_init_takes_and_sets_what_the_dataclass_declares(cls: type) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected
    values = _sample(cls)  # a distinct value per field, of the field's type
    by_keyword = cls(**values)
    by_position = cls(*values.values())
    for f in fields:
        assert getattr(by_keyword, f.name) == values[f.name]  # compiled, ints are unboxed
        assert getattr(by_position, f.name) == values[f.name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_keyword, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*values.values(), object())  # one argument too many


def _sample(cls: type) -> dict[str, object]:
    """A distinct value per field, of the field's declared type: compiled,
    the records are native classes that check what they are given, and
    their fields' types at run time are too coarse (``type`` for a union),
    so the types are read from the module's source."""
    return {name: _value(kind, k) for k, (name, kind) in enumerate(_ANNOTATIONS[cls.__name__])}


def _annotations() -> dict[str, list[tuple[str, str]]]:
    source = Path(model.__file__).with_name("model.py").read_text("utf-8")
    out: dict[str, list[tuple[str, str]]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = [
                (x.target.id, ast.unparse(x.annotation))
                for x in node.body
                if isinstance(x, ast.AnnAssign) and isinstance(x.target, ast.Name)
            ]
    return out


_ANNOTATIONS = _annotations()


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


def test_records_still_pickle_compare_and_replace() -> None:
    a = model.Action("Ana", "calls", 20, None, False, False, 3)
    assert pickle.loads(pickle.dumps(a)) == a
    assert pickle.loads(pickle.dumps(a)).line == 3  # by its fields, the line included
    section = model.Section(model.Marker("4TH STREET", line=2), (a,))
    assert copy.deepcopy(section).lines[0].line == 3
    assert a == model.Action("Ana", "calls", 20, line=9)  # line is left out of equality
    assert dataclasses.replace(a, amount=40).amount == 40
    assert hash(a) == hash(model.Action("Ana", "calls", 20))
