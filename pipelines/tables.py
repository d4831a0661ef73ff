"""Every stored table, declared once: its name, its columns (name, kind,
nullability, one line of meaning) and its key.

Everything else about the store's layout is derived from :data:`TABLES`:

- the database's ``CREATE TABLE`` statements (:func:`create_sql`, run by
  ``pipelines.schema.ensure`` and by the migration steps that add a table);
- the Arrow schemas of a worker's batch (``pipelines.rows.SCHEMAS``:
  :func:`batch_columns`) and the column builder's lists
  (``pipelines.columns.COLUMNS``: :func:`builder_columns`);
- the Delta schemas of the lake (``pipelines.lake``: :func:`lake_columns`,
  with the lake's own tables :data:`LAKE_TABLES`);
- the tables of docs/schema.md (:func:`markdown`; a test holds the page to
  it; ``python -m pipelines.tables --markdown docs/schema.md`` writes it).

A column's kind is one of :data:`KINDS` (its DuckDB and Arrow types side
by side). ``NOT NULL`` is the database's only: the Arrow and Delta schemas
leave every column nullable, as a lake written before expects.

A batch (a chunk's rows, as the workers send them) carries a table's
columns less its bookkeeping ones (which run, when: the writer adds them),
with ``_ord`` first (:data:`ORD`); the tables of a hand's parts (seats,
actions, ...) begin with the hand's key, which the builder leaves out and
the store takes from the hand's row. The lake stores a batch's columns,
then the bookkeeping ones, then the lake's own (its partition columns).

Views stay SQL (:data:`VIEWS`); their columns are declared for the page
and a test holds the view to them.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pyarrow as pa

# The version of the layout declared here: pipelines.schema creates a new
# database at it, or migrates an older one to it.
SCHEMA_VERSION: Final = 5

# kind -> (DuckDB type, Arrow type). ts: an instant to the microsecond;
# "strs" a list of str, "strss" a list of lists of str, ...
KINDS: Final[dict[str, tuple[str, pa.DataType]]] = {
    "str": ("VARCHAR", pa.string()),
    "bool": ("BOOLEAN", pa.bool_()),
    "i16": ("SMALLINT", pa.int16()),
    "i32": ("INTEGER", pa.int32()),
    "i64": ("BIGINT", pa.int64()),
    "ts": ("TIMESTAMP", pa.timestamp("us")),
    "date": ("DATE", pa.date32()),
    "strs": ("VARCHAR[]", pa.list_(pa.string())),
    "i16s": ("SMALLINT[]", pa.list_(pa.int16())),
    "i64s": ("BIGINT[]", pa.list_(pa.int64())),
    "strss": ("VARCHAR[][]", pa.list_(pa.list_(pa.string()))),
}


@dataclass(frozen=True, slots=True)
class Column:
    """One column: ``kind`` one of :data:`KINDS`; ``bookkeeping``: it says
    when or by which run a row was written (it differs between two imports
    of the same files, nothing else may); ``compression``: the database's
    compression for it (``USING COMPRESSION``), None for DuckDB's choice."""

    name: str
    kind: str
    meaning: str
    not_null: bool = False
    bookkeeping: bool = False
    compression: str | None = None

    @property
    def sql_type(self) -> str:
        return KINDS[self.kind][0]

    @property
    def arrow_type(self) -> pa.DataType:
        return KINDS[self.kind][1]

    def sql(self) -> str:
        """The column as a ``CREATE TABLE`` or ``ADD COLUMN`` says it."""
        out = f"{self.name} {self.sql_type}"
        if self.compression:
            out += f" USING COMPRESSION {self.compression}"
        return out + (" NOT NULL" if self.not_null else "")


@dataclass(frozen=True, slots=True)
class Table:
    """One table: ``about`` the words before its columns on the page,
    ``after`` the words after them; ``key`` the columns that identify a
    row (kept unique by the writer: no key is declared to DuckDB);
    ``batch``: a worker's batch carries its rows; ``of_hand``: its rows are
    a hand's parts, keyed by the hand's ``(site, hand_id)``; ``lake``: the
    columns the lake adds (None: not in the lake)."""

    name: str
    about: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    batch: bool = False
    of_hand: bool = False
    lake: tuple[Column, ...] | None = None
    after: str = ""

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(f"{self.name} has no column {name!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


@dataclass(frozen=True, slots=True)
class View:
    """A view: its SQL (``CREATE OR REPLACE VIEW name AS`` + ``sql``) and
    the columns it gives, for the page."""

    name: str
    about: str
    sql: str
    columns: tuple[Column, ...]


def _c(name: str, kind: str, meaning: str = "", *, not_null: bool = False,
       bookkeeping: bool = False, compression: str | None = None) -> Column:
    return Column(name, kind, meaning, not_null, bookkeeping, compression)


# The hand's place in its batch (in the lake: in its task), first in every
# batch table: the writer drops a duplicate's rows by it.
ORD: Final = _c("_ord", "i32", "the hand's (or reject's) place in its batch; the lake: in its task")
_SITE = _c("site", "str", "the hand's site (`''` when the log has none)", not_null=True)
_HAND_ID = _c("hand_id", "str", "the hand's id", not_null=True)
_GAME = _c("game", "str", "partition: the hand's game")
_DATE = _c("date", "date", "partition: the day of the hand's `started_at`")

TABLES: Final[tuple[Table, ...]] = (
    Table("schema_version", "One row per version the database was created at or migrated to.", (
        _c("version", "i32", "the schema's version", not_null=True),
        _c("applied_at", "ts", "when that version was created or migrated to", not_null=True,
           bookkeeping=True),
    )),
    Table("imports", "One row per run of `hh import` (also `--watch`, `--revalidate`). "
          "Bookkeeping.", (
        _c("import_run", "i32", "1, 2, ...", not_null=True, bookkeeping=True),
        _c("started_at", "ts", "UTC", not_null=True),
        _c("finished_at", "ts", "UTC (NULL: the run did not finish)"),
        _c("hh_version", "str", "the `hh` version that ran it", not_null=True),
        _c("command", "str", "`import`, `import --watch`, `import --revalidate`", not_null=True),
        _c("summary", "str", "the summary as JSON (NULL: the run did not finish)"),
    )),
    Table("files", "One row per input file (a path as given, made absolute; `-` for "
          "standard input).", (
        _c("path", "str", "absolute path", not_null=True),
        _c("sha256", "str", "of the bytes imported so far (NULL while `partial` after a plain "
           "import's first batches)"),
        _c("size", "i64", "bytes imported so far (a file being written grows)"),
        _c("lines", "i64", "lines imported so far (where a grown file is read on from)"),
        _c("hands", "i32", "hands (and rejected runs) read from it so far"),
        _c("imported_at", "ts", "last import that touched it (UTC)", bookkeeping=True),
        _c("status", "str", "`done` (every hand committed), `partial` (some batches committed, "
           "`--watch` holds its last hand back, or its last hand is unfinished: cut at the end "
           "of the file, read again when it grows), `error` (it could not be read; or it is no "
           "text: then its `sha256` and `size` are kept and no import reads it again while "
           "they are the same)", not_null=True),
        _c("error", "str", "why it could not be read, when status is `error`"),
        _c("open_at", "i64", "`done` files whose last hand has nothing after it (no blank "
           "line, no hand): the byte where that hand begins. Should the file grow, that hand "
           "is read again from there and, if its text grew, replaces the stored one "
           "(docs/decisions.md, \"A hand is judged only when it is whole\"). NULL when a "
           "blank line ends the file's last hand"),
        _c("open_line", "i32", "the line where that hand begins"),
    ), key=("path",)),
    Table("hands", "One row per hand that parsed.", (
        _SITE,
        _HAND_ID,
        _c("game", "str", "`chiribito`, `aces-straights-flushes`, `calatone`", not_null=True),
        _c("table_name", "str", "the Table line's name: the hands of one site and name are a "
           "chain", not_null=True),
        _c("max_seats", "i16", "the table's n-max"),
        _c("dealer_seat", "i16", "the seat the Table line names as the dealer's"),
        _c("started_at", "ts", "UTC when the zone is known (UTC GMT WET WEST CET CEST EET EEST "
           "or an offset), else as written"),
        _c("started_local", "str", "date and time as written (`2026/11/29 21:14:03`)"),
        _c("zone", "str", "as written, NULL when absent"),
        _c("forced", "i64", "the blind (Chiribito) or the ante"),
        _c("small_bet", "i64", "ASF small bet; Calatone minimum; NULL for Chiribito"),
        _c("big_bet", "i64", "ASF big bet; Calatone maximum; NULL for Chiribito"),
        _c("house_rules", "strs", "as written, in order"),
        _c("players", "i16", "players dealt in"),
        _c("total_pot", "i64", "chips put in less uncalled bets returned, by the rules"),
        _c("rake", "i64", "the rake used (the logged one when 0 <= rake <= main pot, else 0)"),
        _c("last_round", "i16", "the highest round whose marker was played (-1: none)"),
        _c("showdown", "bool", "a `*** SHOWDOWN ***` was reached"),
        _c("judged", "bool", "the referee judged it (false: INTERNAL_ERROR, no pots; it breaks "
           "its table's chain)", not_null=True),
        _c("valid", "bool", "no violation, cross-hand checks included", not_null=True),
        _c("n_violations", "i32", "violations, cross-hand checks included", not_null=True),
        _c("n_hand_violations", "i32", "violations of the hand on its own (the rest are in "
           "`cross_violations`)", not_null=True),
        _c("n_unchecked", "i32", "checks the `??` cards made impossible", not_null=True),
        _c("hero_view", "bool", "the log has `??` cards"),
        _c("file", "str", "the file it was read from (absolute)"),
        _c("line", "i32", "its first line in that file"),
        _c("table_line", "i32", "its Table line (where DEALER_ROTATION is reported)"),
        _c("content_hash", "str", "SHA-256 of the hand's raw text: a re-import with the same "
           "key and hash is a duplicate, with another hash a conflict", not_null=True),
        _c("hh_version", "str", "the `hh` version that judged it, `+mypyc` for the compiled "
           "build", not_null=True),
        _c("import_run", "i32", "the run that wrote the row", bookkeeping=True),
        _c("board", "strs", "Chiribito's common cards in the order dealt (each marker's new "
           "cards); empty in the stud games"),
        _c("board_rounds", "i16s", "the round (0 = first street) of each of `board`"),
    ), key=("site", "hand_id"), batch=True, lake=(_DATE, _c(
        "_task", "str", "the task that committed it (with `_ord`: a resumed task takes the "
        "same hands)"))),
    Table("hand_text", "One row per hand: its text.", (
        _SITE,
        _HAND_ID,
        _c("raw_text", "str", "the hand's lines exactly as read, joined with LF", not_null=True,
           compression="zstd"),
    ), key=("site", "hand_id"), batch=True, of_hand=True, lake=(_GAME, _DATE), after=(
        "`raw_text` is the largest column by far, and is stored with DuckDB's zstd\n"
        "compression (`USING COMPRESSION zstd`, new databases): about half the bytes\n"
        "of the compression DuckDB would pick by itself, for less work when the import\n"
        "writes it. A database created before keeps its own choice; the column\n"
        "reads the same either way.")),
    Table("seats", "One row per player seated in a hand (sitting out included).", (
        _SITE,
        _HAND_ID,
        _c("seat", "i16", "seat number"),
        _c("line", "i32", "the seat line (where STACK_CARRYOVER is reported)"),
        _c("player", "str", "his name as in the log"),
        _c("sitting_out", "bool", "seated but not dealt in"),
        _c("dealt_in", "bool", "his name is among the players the referee dealt in"),
        _c("position", "i16", "place in the dealing order: 1 = first dealt (Chiribito: the "
           "blind), `players` = the dealer; NULL when sitting out"),
        _c("is_dealer", "bool", "his seat is `dealer_seat`"),
        _c("stack_start", "i64", "the seat line's chips"),
        _c("top_up", "i64", "his `adds <n> chips` before the first marker (the last one), NULL "
           "if none"),
        _c("stack_end", "i64", "by the rules: start - put_in + won (the verdict's), NULL when "
           "not judged"),
        _c("down_cards", "strs", "as dealt (`??` when unknown)"),
        _c("up_cards", "strs", "as dealt"),
        _c("shown", "bool", "showed his cards (at the showdown or voluntarily)"),
        _c("mucked", "bool", "mucked his cards (a muck line, or `mucked` in the summary)"),
        _c("put_in", "i64", "chips put in, less uncalled bets returned to him"),
        _c("uncalled", "i64", "uncalled bets returned to him"),
        _c("won", "i64", "payouts from the pots (the verdict's `payouts`)"),
        _c("net", "i64", "won - put_in (the verdict's `net`)"),
        _c("rake_paid", "i64", "his part of the rake, as the referee settles it (the verdict's "
           "`rake_paid`): the main pot's winners bear it, each the rake times his share of the "
           "main pot's payout, floored, the remainder to the first winner in odd-chip order; "
           "the parts add up to `hands.rake`"),
        _c("went_to_showdown", "bool", "not folded when `*** SHOWDOWN ***` came"),
        _c("folded_round", "i16", "round of his fold, NULL if he never folded"),
        _c("all_in_round", "i16", "round in which he went all-in, NULL if never"),
        _c("hand_category", "str", "category words of the hand shown/declared, NULL if none"),
        _c("down_rounds", "i16s", "the round (0 = first street) each of `down_cards` was dealt "
           "in, same order"),
        _c("up_rounds", "i16s", "the round each of `up_cards` was dealt in, same order"),
        _c("declared", "strss", "Calatone: the five cards of each declaration he made at the "
           "showdown (one in a valid hand), NULL if none"),
    ), key=("site", "hand_id", "seat"), batch=True, of_hand=True, lake=(_GAME, _DATE)),
    Table("actions", "One row per forced bet, betting action and uncalled bet returned.", (
        _SITE,
        _HAND_ID,
        _c("seq", "i32", "order within the hand, from 0"),
        _c("line", "i32", "line in the file"),
        _c("round", "i16", "-1 for forced bets, else the round (see conventions)"),
        _c("street", "str", "NULL for forced bets"),
        _c("player", "str", "who acts, as in the log"),
        _c("kind", "str", "`blind`, `ante`, `check`, `fold`, `bet`, `call`, `raise`, "
           "`uncalled`"),
        _c("amount", "i64", "chips this line moves: added to the pot (`raise`: the total minus "
           "his bet before), or returned (`uncalled`); 0 for check and fold"),
        _c("raise_by", "i64", "`raises <by>` as written, NULL otherwise"),
        _c("total_after", "i64", "his bet in this round after the line"),
        _c("all_in", "bool", "the line's ` and is all-in` mark"),
        _c("timed_out", "bool", "` (timed out)`"),
        _c("pot_before", "i64", "the pot (all chips in, less uncalled returned) before the line"),
        _c("to_call_before", "i64", "what he had to add to call before the line (0 when not "
           "facing a bet)"),
        _c("stack_before", "i64", "his chips behind before the line"),
        _c("code", "str", "the referee's violation code on this line, NULL when legal"),
    ), key=("site", "hand_id", "seq"), batch=True, of_hand=True, lake=(_GAME, _DATE)),
    Table("pots", "One row per pot of a hand (pots of 0 left out).", (
        _SITE,
        _HAND_ID,
        _c("pot_index", "i16", "0 = main pot, 1 = side pot-1, ..."),
        _c("amount", "i64", "net of rake"),
        _c("eligible", "strs", "player names, in seat order (the verdict's `pots`)"),
        _c("winners", "strs", "player names, in seat order"),
        _c("shares", "i64s", "chips of each of `winners`, same order (odd chips given in "
           "dealing order)"),
    ), key=("site", "hand_id", "pot_index"), batch=True, of_hand=True, lake=(_GAME, _DATE)),
    Table("hand_violations", "The violations of each hand on its own, stored at import (and "
          "the checks its `??` cards made impossible).", (
        _SITE,
        _HAND_ID,
        _c("code", "str", "FORMAT.md's codes (and INTERNAL_ERROR)"),
        _c("line", "i32", "line in the file"),
        _c("message", "str", "what is wrong, in words"),
        _c("unchecked", "bool", "true: could not be checked (hero view), never makes a hand "
           "invalid"),
    ), batch=True, of_hand=True, lake=(_GAME, _DATE)),
    Table("cross_violations", "The violations found across the hands of a table's chain by "
          "`hh validate`'s cross-hand checks: recomputed for every table an import touches "
          "(pipelines/crosshand.py).", (
        _SITE,
        _HAND_ID,
        _c("code", "str", "FORMAT.md's codes"),
        _c("line", "i32", "line in the file"),
        _c("message", "str", "what is wrong, in words"),
    ), lake=(_c("table_name", "str", "the hand's table (the lake replaces a chain's rows by "
             "it)"), _GAME, _DATE)),
    Table("rejects", "Runs of lines that did not parse, and conflicts (same key, other text).", (
        _c("file", "str", "the file it was read from (absolute)"),
        _c("line", "i32", "first line of the run"),
        _c("raw_text", "str", "the run's lines as read"),
        _c("error", "str", "the parse error (what, where, what was expected) or the conflict"),
        _c("error_line", "i32", "the line of the error in the file"),
        _c("error_column", "i32", "its column (1 = first)"),
        _c("kind", "str", "`parse` or `conflict`", not_null=True),
        _c("site", "str", "when the header could be read (`''` for none), else NULL"),
        _c("hand_id", "str", "when the header could be read, else NULL"),
        _c("game", "str", "when it could be read"),
        _c("table_name", "str", "when the Table line could be read: the run breaks that "
           "table's chain"),
        _c("started_at", "ts", "when the header's date could be read (as `hands.started_at`)"),
        _c("content_hash", "str", "SHA-256 of raw_text"),
        _c("other_file", "str", "conflict: where the stored hand came from"),
        _c("other_line", "i32", "conflict: the stored hand's first line"),
        _c("import_run", "i32", "the run that wrote the row", bookkeeping=True),
        _c("imported_at", "ts", "when the row was written (UTC)", bookkeeping=True),
    ), batch=True, lake=(_DATE,)),
    Table("dirty_tables", "The poker tables whose cross-hand checks are due: written in the "
          "transaction of the hands, emptied by the checks' transaction.", (
        _c("site", "str", "the table's site (`''` for none)", not_null=True),
        _c("table_name", "str", "the table's name", not_null=True),
        _c("since", "ts", "the earliest `started_at` of the rows that batch wrote to the table "
           "(NULL when one of them has none): the checks then read the table's chain from "
           "there on, with the one element before it as an anchor whose own findings stand "
           "(a pair check only ever looks one hand back). A NULL `since` (and the lake's "
           "pass) reads the whole chain"),
    )),
    Table("notes", "The notes and tags a user writes on a player or a hand (`hh note`, "
          "`hh tag`, the pages of `hh serve`; pipelines.notes), and the reviewers' marks on the "
          "integrity report's pairs (`hh review`, the integrity page; subject `pair`). Written "
          "by the user only: no import, re-import or `--revalidate` touches this table, so they "
          "outlive them all. A player's are keyed by his name as stored, a hand's by its (site, "
          "hand id).", (
        _c("subject", "str", "`player`, `hand` or `pair`", not_null=True),
        _c("site", "str", "the hand's site (`''` for a player; a pair's: the game's key)",
           not_null=True),
        _c("target", "str", "the player's stored name, the hand's id, or a pair's two stored "
           "names as a JSON list, sorted (`[\"Ana\", \"Bo\"]`)", not_null=True),
        _c("kind", "str", "`note` (free text) or `tag` (one word); a pair's: its mark, "
           "`cleared`, `confirmed` or `open`", not_null=True),
        _c("text", "str", "the note's text or the tag; a pair's: the reviewer's note (may be "
           "empty)", not_null=True),
        _c("written_at", "ts", "when it was written", not_null=True, bookkeeping=True),
    )),
)  # fmt: skip

VIEWS: Final[tuple[View, ...]] = (
    View("violations", "Every violation: the per-hand ones stored at import (`hand_violations`) "
         "and the cross-hand ones (`cross_violations`).", """
    SELECT site, hand_id, code, line, message, unchecked, 'hand' AS source
    FROM hand_violations
    UNION ALL
    SELECT site, hand_id, code, line, message, false AS unchecked, 'cross' AS source
    FROM cross_violations""", (
        _SITE,
        _HAND_ID,
        _c("code", "str", "FORMAT.md's codes (and INTERNAL_ERROR)"),
        _c("line", "i32", "line in the file"),
        _c("message", "str", "what is wrong, in words"),
        _c("unchecked", "bool", "true: could not be checked (hero view), never makes a hand "
           "invalid"),
        _c("source", "str", "`hand` or `cross`"),
    )),
)  # fmt: skip

# The lake's own tables (pipelines.lake), beside the database's it holds:
# not partitioned, and not in the database.
LAKE_TABLES: Final[tuple[Table, ...]] = (
    Table("chunks", "One row per chunk a task committed: a committed chunk is not read again; "
          "the database's `files` is read from it.", (
        _c("task", "str", "the task's id (a hash of its chunks)"),
        _c("run", "i32", "the run that committed it (1, 2, ...)"),
        _c("path", "str", "the file (absolute)"),
        _c("start", "i64", "the chunk's first byte"),
        _c("end", "i64", "the byte after its last, NULL for a file's last chunk"),
        _c("first_line", "i64", "its first line"),
        _c("size", "i64", "the file's size when it was read"),
        _c("mtime_ns", "i64", "the file's modification time when it was read"),
        _c("hands", "i32", "hands (and rejected runs) read from it"),
        _c("lines", "i64", "the file's lines (its last chunk)"),
        _c("sha256", "str", "the file's SHA-256 (its last chunk)"),
        _c("committed_at", "ts", "when (UTC)", bookkeeping=True),
    )),
    Table("dirty_tables", "A task's intent record, written before its hands: the poker "
          "tables it may touch and its chunks; deleted by the cross-hand pass that checked "
          "them.", (
        _c("task", "str", "the task's id"),
        _c("site", "str", "a poker table's site"),
        _c("table_name", "str", "its name (`''` with `site` `''`: the task touched no table)"),
        _c("game", "str", "its game (NULL: a reject whose game could not be read)"),
        _c("chunks", "str", "the task's chunks as JSON: [path, start, end, first line] each"),
    )),
)  # fmt: skip

TABLE: Final[dict[str, Table]] = {t.name: t for t in TABLES}
LAKE_TABLE: Final[dict[str, Table]] = {t.name: t for t in LAKE_TABLES}
# The tables a worker's batch carries, in this order.
BATCH: Final[tuple[str, ...]] = tuple(t.name for t in TABLES if t.batch)
# Columns that say when or by which run a row was written: they differ
# between two imports of the same files, everything else must not.
BOOKKEEPING: Final[frozenset[str]] = frozenset(
    c.name for t in TABLES for c in t.columns if c.bookkeeping)


# ------------------------------------------------------------------ derived


def create_sql(table: Table) -> str:
    """The table's ``CREATE TABLE`` statement: the one source of them."""
    cols = ",\n".join(f"    {c.sql()}" for c in table.columns)
    return f"CREATE TABLE IF NOT EXISTS {table.name} (\n{cols}\n);\n"


def view_sql(view: View) -> str:
    return f"CREATE OR REPLACE VIEW {view.name} AS{view.sql};\n"


def ddl() -> str:
    """Every table and view of a new database."""
    return "".join(map(create_sql, TABLES)) + "".join(map(view_sql, VIEWS))


def add_column_sql(table: str, column: str) -> str:
    """A migration step's ``ALTER TABLE ... ADD COLUMN``, typed as declared
    (``IF NOT EXISTS``: a table an earlier step created whole has it)."""
    return f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {TABLE[table].column(column).sql()};"


def batch_columns(name: str) -> tuple[Column, ...]:
    """A batch's columns of table ``name``: ``_ord``, then the table's
    columns less the bookkeeping ones (the writer adds those)."""
    return (ORD, *(c for c in TABLE[name].columns if not c.bookkeeping))


def builder_columns(name: str) -> tuple[str, ...]:
    """The columns the column builder fills for table ``name``: the batch's,
    less the hand's key for a hand's parts (taken from the hand's row)."""
    cols = batch_columns(name)
    if TABLE[name].of_hand:
        cols = tuple(c for c in cols if c.name not in ("site", "hand_id"))
    return tuple(c.name for c in cols)


def lake_columns(name: str) -> tuple[Column, ...]:
    """The Delta table's columns: a lake-only table's own; else the batch's
    (or the table's, for a table no batch carries), then the bookkeeping
    columns, then the lake's."""
    if name in LAKE_TABLE:
        return LAKE_TABLE[name].columns
    table = TABLE[name]
    assert table.lake is not None, f"{name} is not in the lake"
    own = batch_columns(name) if table.batch else tuple(
        c for c in table.columns if not c.bookkeeping)
    return (*own, *(c for c in table.columns if c.bookkeeping), *table.lake)


def columns_of(table: str, *names: str, batch: bool = False) -> tuple[str, ...]:
    """A reader's choice of ``table``'s stored columns, each checked against
    the declaration when the reader is imported (KeyError for a column not
    declared: a renamed column fails there, not in a query); ``batch``: the
    reader also reads a worker's batch, whose ``_ord`` it may name."""
    known = {c.name for c in (batch_columns(table) if batch else TABLE[table].columns)}
    missing = [n for n in names if n not in known]
    if missing:
        raise KeyError(f"{table} has no column {', '.join(missing)}")
    return names


def sql_type(table: str, column: str) -> str:
    """The DuckDB type of a stored column, for a reader that keeps a copy."""
    return TABLE[table].column(column).sql_type


def arrow_schema(columns: tuple[Column, ...]) -> pa.Schema:
    """Columns as an Arrow schema (every field nullable)."""
    return pa.schema([(c.name, c.arrow_type) for c in columns])


# ------------------------------------------------------------------ the page

BEGIN: Final = ("<!-- The tables below are generated from pipelines/tables.py: "
                "python -m pipelines.tables --markdown docs/schema.md -->")
END: Final = "<!-- end of the generated tables -->"


def _rows(columns: tuple[Column, ...], nulls: bool = True) -> list[str]:
    out = ["| column | type | meaning |", "|---|---|---|"]
    for c in columns:
        kind = c.sql_type + (" NOT NULL" if nulls and c.not_null else "")
        if c.compression:
            kind += f" ({c.compression})"
        meaning = c.meaning + (" (bookkeeping)" if c.bookkeeping else "")
        out.append(f"| {c.name} | {kind} | {meaning} |")
    return out


def markdown() -> str:
    """docs/schema.md's tables, from the declaration (between
    :data:`BEGIN` and :data:`END`)."""
    out = [BEGIN, "", f"The tables of schema version {SCHEMA_VERSION}.", ""]
    for t in TABLES:
        out += [f"## `{t.name}`", t.about + (f" Key `({', '.join(t.key)})`." if t.key else ""),
                "", *_rows(t.columns), ""]
        if t.after:
            out += [t.after, ""]
    for v in VIEWS:
        out += [f"## `{v.name}` (a view)", v.about, "", *_rows(v.columns, nulls=False), ""]
    out += ["## The lake's tables",
            "The lake (`hh import --engine dask --lake DIR`, docs/scale.md) holds these "
            "tables of the database as Delta tables, partitioned by `game` and `date`: the "
            "tables a worker's batch carries begin with its `_ord` (a hand's place in its "
            "task); the bookkeeping columns come after the others, then the columns the lake "
            "adds. The database's other tables are not in it; the lake has two of its own.",
            "",
            "| table | the lake adds |", "|---|---|"]
    for t in TABLES:
        if t.lake is not None:
            added = ", ".join(f"`{c.name}` {c.sql_type}" for c in t.lake)
            out.append(f"| {t.name} | {added} |")
    out.append("")
    for t in LAKE_TABLES:
        out += [f"### the lake's `{t.name}`", t.about, "", *_rows(t.columns, nulls=False), ""]
    out.append(END)
    return "\n".join(out) + "\n"


def replace_section(page: str) -> str:
    """``page`` with its generated section (:data:`BEGIN` ... :data:`END`)
    replaced by :func:`markdown`."""
    found = re.search(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n", page, re.S)
    if found is None:
        raise ValueError("the page has no generated section")
    return page[: found.start()] + markdown() + page[found.end():]


def main(argv: list[str]) -> int:
    """``--markdown``: print the page's tables; ``--markdown FILE``: write
    them into FILE's generated section."""
    if not argv or argv[0] != "--markdown" or len(argv) > 2:
        sys.stderr.write("usage: python -m pipelines.tables --markdown [docs/schema.md]\n")
        return 2
    if len(argv) == 1:
        sys.stdout.write(markdown())
        return 0
    path = Path(argv[1])
    path.write_text(replace_section(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
