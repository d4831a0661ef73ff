"""Open formats in and out (docs/formats.md): Open Hand History (OHH, JSON)
and PokerKit's hand-history format (PHH, TOML).

Export takes a parsed hand and the referee's verdict, nothing else: it knows
no database. Import reads OHH back into the model (:mod:`hh.openformats.ohh_read`),
whose canonical text then takes the text's own road: the same parser, the
same referee. The JSON Schemas of ``hh validate --json``'s objects and of our
OHH extension ship in ``schemas/`` (:func:`schema`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

SCHEMAS = ("verdict", "ohh-extension")


@cache
def schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with the package: ``verdict`` (one object of
    ``hh validate --json``) or ``ohh-extension`` (the ``x_hh`` object of our
    OHH files)."""
    if name not in SCHEMAS:
        raise KeyError(f"no schema {name!r}: expected one of {', '.join(SCHEMAS)}")
    text = files("hh.openformats").joinpath(f"schemas/{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
