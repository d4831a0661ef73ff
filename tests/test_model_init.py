"""hh.model gives its frozen dataclasses a quicker __init__ (the parser
builds one record per line): it must take the same arguments, with the same
defaults, and set every field to what it was given, as the dataclass's did."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

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
    values = {f.name: object() for f in fields}  # a distinct sentinel per field
    by_keyword = cls(**values)
    by_position = cls(*values.values())
    for f in fields:
        assert getattr(by_keyword, f.name) is values[f.name]
        assert getattr(by_position, f.name) is values[f.name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_keyword, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*values.values(), object())  # one argument too many


def test_records_still_pickle_compare_and_replace() -> None:
    a = model.Action("Ana", "calls", 20, None, False, False, 3)
    assert pickle.loads(pickle.dumps(a)) == a
    assert a == model.Action("Ana", "calls", 20, line=9)  # line is left out of equality
    assert dataclasses.replace(a, amount=40).amount == 40
    assert hash(a) == hash(model.Action("Ana", "calls", 20))
