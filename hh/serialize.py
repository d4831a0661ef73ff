"""Model objects to plain JSON-able values.

Generic on purpose: any model record or dataclass becomes a dict of its
fields, named as in the model, with a ``"type"`` entry naming its class first, because a hand's
body mixes kinds of lines (an Action and a Post look alike once flattened).
Enums become their values, tuples lists. Nothing is renamed or derived, so
the importer can turn the same dicts into columnar rows.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from hh.model import ModelRecord, fields

__all__ = ["to_jsonable"]


def to_jsonable(obj: Any) -> Any:
    """A structure of dicts, lists, str, int, bool and None for ``json.dumps``."""
    if isinstance(obj, ModelRecord):
        out: dict[str, Any] = {"type": type(obj).__name__}
        for name in fields(obj):
            out[name] = to_jsonable(getattr(obj, name))
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {"type": type(obj).__name__}
        for f in dataclasses.fields(obj):
            out[f.name] = to_jsonable(getattr(obj, f.name))
        return out
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    return obj
