"""The import's hooks: what the layers above it may do with the hands it
stores, declared here as :class:`typing.Protocol`\\ s (as Datasette declares
its hookspecs), and the implementations, named in the tables below.

Data flows one way: the import knows its hooks only as the strings of
:data:`DERIVERS` and :data:`AFTER_IMPORT`, imported by importlib when an
import first needs them and checked against their Protocol then (mypy
checks each implementation where it is written, and
tests/test_wiring.py loads every one). pipelines/ never imports reports/.

Two hooks:

- a :class:`Deriver` runs in the import's workers, on each batch of rows
  just built (Arrow tables: the workers load neither DuckDB nor polars),
  and its rows are stored by the writer's process after each commit: what
  costs Python per hand (the reports' all-in equity, the seats' standings);
- an :class:`AfterImport` runs once after the import, on the database just
  written: what one SQL statement over the new hands computes (the
  reports' per-hand counts, the integrity report's facts).

A hook that fails is said on standard error (:func:`hook_failed`) and never
fails the import: what it lacks is computed later, by a report.
``HH_NO_IMPORT_HOOKS=1`` runs none (:func:`enabled`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa


@runtime_checkable
class Deriver(Protocol):
    """Rows of each batch of hands, computed in the import's workers and kept
    by the writer's process (a module implements it: reports.players.imported)."""

    def wants(self, con: duckdb.DuckDBPyConnection) -> frozenset[str]:
        """What it computes for the database ``con`` has open (the kinds of
        rows, none: nothing), asked once per import by the import's process
        and given to every :meth:`derive` call."""
        ...

    def derive(
        self, tables: Mapping[str, pa.Table], wants: frozenset[str]
    ) -> dict[str, pa.Table]:
        """In a worker: the rows of one batch (the writer's tables by name,
        pipelines.rows) of the kinds ``wants`` names."""
        ...

    def keep(
        self, con: duckdb.DuckDBPyConnection, derived: Sequence[Mapping[str, pa.Table]]
    ) -> None:
        """In the writer's process, after a group of batches is committed:
        store what :meth:`derive` gave for them."""
        ...


@runtime_checkable
class AfterImport(Protocol):
    """Run after an import on the database just written: ``con`` the
    import's read-write connection, committed; ``cache``, for a lake, where
    the layers above keep what they derive (None: they choose, beside the
    database file); ``stored``, when the import knows them (a watch's
    cycle), a table on ``con`` of the ``site, hand_id`` of the hands it
    stored since the hooks last ran, the only hands that can be new to the
    hook (None: any stored hand may be). A cycle of the watch then costs
    the hook its new hands, not a look over every stored one."""

    def __call__(self, con: duckdb.DuckDBPyConnection, cache: str | None = None,
                 stored: str | None = None) -> None: ...


# the table of :class:`AfterImport`'s ``stored`` (a temporary table of the
# import's connection, filled by the writer: pipelines.importer.Importer.track)
STORED = "_stored_hands"


# The implementations, by the name a failure is said with, run in the order
# written. Derivers: "module" (the module is the Deriver); after-import
# hooks: "module:function".
DERIVERS: dict[str, str] = {
    # the reports' all-in equity and the seats' standings (docs/statistics.md)
    "reports": "reports.players.imported",
}
AFTER_IMPORT: dict[str, str] = {
    # the reports' per-hand counts of the new hands (docs/statistics.md)
    "counts": "reports.players.counts:after_import",
    # the integrity report's per-hand facts (docs/integrity.md)
    "integrity": "reports.integrity.facts:after_import",
}


def enabled() -> bool:
    """Whether the import runs its hooks (``HH_NO_IMPORT_HOOKS=1``: none)."""
    return not os.environ.get("HH_NO_IMPORT_HOOKS")


def load(where: str) -> object:
    """What ``"module"`` or ``"module:name"`` names, imported."""
    module, _, name = where.partition(":")
    found = import_module(module)
    return getattr(found, name) if name else found


@functools.cache
def derivers() -> tuple[tuple[str, Deriver], ...]:
    """Every :data:`DERIVERS` entry, by name, imported and checked (once per
    process)."""
    out = []
    for name, where in DERIVERS.items():
        hook = load(where)
        if not isinstance(hook, Deriver):
            raise TypeError(f"import hook {name}: {where} is not a pipelines.hooks.Deriver")
        out.append((name, hook))
    return tuple(out)


def after_import_hook(name: str) -> AfterImport:
    """The :data:`AFTER_IMPORT` hook ``name``, imported and checked."""
    hook = load(AFTER_IMPORT[name])
    if not isinstance(hook, AfterImport):
        raise TypeError(f"import hook {name}: {AFTER_IMPORT[name]} is not callable")
    return hook


def hook_failed(name: str, error: BaseException) -> None:
    """A hook that failed, said on standard error as every command says a
    problem (escaped: the error may quote a name); it never fails the import."""
    from hh.cli_support import say

    say(f"import hook {name} failed: {error}")


__all__ = ["AFTER_IMPORT", "DERIVERS", "STORED", "AfterImport", "Deriver", "after_import_hook",
           "derivers", "enabled", "hook_failed", "load"]
