"""Each player's hands (reports.search.handlist), which ``hh serve``'s search by
player reads: filled by the import's hook, complete and in order as plain
SQL over the seats says, sorted again by ``hh serve`` when enough was
appended, and searches through it give exactly the search over the hands."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import duckdb
import pytest
from import_helpers import hh_import, session
from serve_helpers import HOSTILE, build_db
from starlette.testclient import TestClient

from hh.model import Game
from reports.cache import Cache, default_path
from reports.search.handlist import KIND, ORDER, SORTED, ensure
from reports.web import data
from reports.web.app import Config, create_app
from reports.web.results import Results
from reports.web.source import Source

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# what a search by player finds, as plain SQL over the seats and the hands
SEATED = ("SELECT DISTINCT s.player, h.started_at, h.site, h.hand_id FROM seats s "
          "JOIN hands h ON h.site = s.site AND h.hand_id = s.hand_id "
          "WHERE s.player IS NOT NULL")  # fmt: skip


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("handlist"))


def _listed(db: Path) -> tuple[list[tuple], int, set[tuple]]:
    """The list's rows in storage order, the rows recorded as sorted, and
    what plain SQL says it should hold."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute(f"ATTACH '{default_path(db)}' AS c (READ_ONLY)")
        rows = con.execute(f"SELECT player, started_at, site, hand_id FROM c.{KIND}").fetchall()
        done = con.execute(f"SELECT max(rows) FROM c.{SORTED}").fetchall()[0][0]
        want = set(con.execute(SEATED).fetchall())
    finally:
        con.close()
    return rows, done, want


def _in_order(rows: list[tuple]) -> bool:
    con = duckdb.connect()
    con.execute("CREATE TABLE t (player VARCHAR, started_at TIMESTAMP, site VARCHAR, "
                "hand_id VARCHAR)")  # fmt: skip
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
    return con.execute(f"SELECT * FROM t ORDER BY {ORDER}").fetchall() == rows


def test_the_import_lists_each_players_hands_in_order_and_serve_sorts_what_it_added(
        db: Path, tmp_path: Path) -> None:  # fmt: skip
    copy = tmp_path / "h.duckdb"
    shutil.copy(db, copy)
    shutil.copy(default_path(db), default_path(copy))
    rows, done, want = _listed(copy)
    assert len(rows) == len(set(rows)) and set(rows) == want and len(want) > 300
    assert HOSTILE in {r[0] for r in rows}
    assert done == len(rows) and _in_order(rows)  # the first import: sorted as it fills
    (tmp_path / "more.txt").write_text(session(Game.CALATONE, 60, 41, tables=1),
                                       encoding="utf-8")  # fmt: skip
    _, summary, err = hh_import(str(tmp_path / "more.txt"), "--db", str(copy), "--workers",
                                   "1")  # fmt: skip
    assert summary is not None and summary["imported"] == 60, err
    rows, after, want = _listed(copy)
    assert set(rows) == want and len(rows) == len(set(rows))  # the hook added them ...
    assert after == done and not _in_order(rows)  # ... after the sorted rows
    con = duckdb.connect(str(copy), read_only=True)
    assert ensure(con, default_path(copy))  # more than a quarter added: sorted again
    con.close()
    rows, done, want = _listed(copy)
    assert set(rows) == want and done == len(rows) and _in_order(rows)


def test_serve_completes_a_list_the_import_did_not_fill(db: Path, tmp_path: Path) -> None:
    """A database imported without the hooks (or whose hook found the cache
    file held) gets its list from ``hh serve`` before a search reads it."""
    copy = tmp_path / "h.duckdb"
    shutil.copy(db, copy)  # no cache file
    source = Source(str(copy), hand_list=default_path(copy))
    try:
        assert source.prepare_hand_list()
        con_rows, done, want = _listed(copy)
        assert set(con_rows) == want and done == len(con_rows) and _in_order(con_rows)
    finally:
        source.close()


def _plain(db: Path, player: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [tuple(r) for r in con.execute(
            "SELECT site, hand_id FROM hands h WHERE (h.site, h.hand_id) IN "
            "(SELECT site, hand_id FROM seats WHERE player = ?) "
            "ORDER BY h.started_at DESC NULLS LAST, h.site DESC, h.hand_id DESC",
            [player]).fetchall()]  # fmt: skip
    finally:
        con.close()


@pytest.fixture(scope="module")
def spread(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same hands, their times spread over four years, some without a
    time (its list is then made by ``hh serve``: no cache file is copied)."""
    copy = tmp_path_factory.mktemp("spread") / "spread.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("""UPDATE hands SET started_at = CASE WHEN k % 5 = 0 THEN NULL
                   ELSE TIMESTAMP '2026-06-01' - to_days(CAST(k * k % 1461 AS INTEGER)) END
                   FROM (SELECT site AS s, hand_id AS i, row_number() OVER (ORDER BY site, hand_id)
                         AS k FROM hands) WHERE site = s AND hand_id = i""")  # fmt: skip
    con.close()
    return copy


@pytest.mark.parametrize("which", ["db", "spread"])
def test_a_search_by_player_through_the_list_is_the_search_over_the_hands(
        which: str, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Every player's hands, paged 7 at a time, as plain SQL lists them,
    with the total; every page read from the list."""
    db = request.getfixturevalue(which)
    read: list[int] = []
    real = data.listed_page

    def counted(*args: object) -> object:
        read.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(data, "listed_page", counted)
    con = duckdb.connect(str(db), read_only=True)
    players = [r[0] for r in con.execute("SELECT DISTINCT player FROM seats "
                                         "WHERE player IS NOT NULL ORDER BY player").fetchall()]
    con.close()
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        assert c.app.state.source.prepare_hand_list()  # type: ignore[attr-defined]
        for t in threading.enumerate():  # the server's own, started with it, done too
            if t.name == "hh-serve-hand-list":
                t.join(30)
        pages = 0
        for player in players:
            want = _plain(db, player)
            got: list[tuple] = []
            for page in range(1, -(-len(want) // 7) + 1):
                r = c.get("/api/hands", params={"player": player, "per": "7", "page": str(page)})
                assert r.status_code == 200 and int(r.headers["X-Total-Count"]) == len(want)
                got += [(h["site"], h["hand_id"]) for h in r.json()]
                pages += 1
            assert got == want, player
            r = c.get("/api/hands", params={"player": player, "per": "7",
                                            "page": str(-(-len(want) // 7) + 1)})  # fmt: skip
            assert r.status_code == 404
        assert len(read) == pages > len(players)
        # the fields are the hands' own, as the search over the hands gives them
        one = c.get("/api/hands", params={"player": players[0], "per": "500"}).json()
        con = duckdb.connect(str(db), read_only=True)
        s = data.parse_search({"player": [players[0]], "per": ["500"]})
        assert one == data.with_tags(con, data.page(con, s))
        con.close()


def test_a_hand_listed_but_not_stored_sends_the_page_to_the_hands(db: Path) -> None:
    """A list that says more than the database (the data changed since it
    was made) is not trusted for that page: the page comes from the hands."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        player = con.execute("SELECT player FROM seats GROUP BY player "
                             "ORDER BY count(*) DESC, player LIMIT 1").fetchall()[0][0]  # fmt: skip
        con.execute(f"CREATE TEMP TABLE listed AS {SEATED}")
        con.execute("INSERT INTO listed VALUES (?, TIMESTAMP '2099-01-01', 'x', 'gone')", [player])
        s = data.parse_search({"player": [player], "per": ["5"]})
        assert data.listed_page(con, s, "listed") is None
        assert data.page(con, s, "listed") == data.page(con, s)
        assert [h["hand_id"] for h in data.page(con, s)] == [k for _, k in _plain(db, player)[:5]]
    finally:
        con.close()


def test_a_computation_waits_for_searches_reading_the_list(db: Path, tmp_path: Path) -> None:
    """A report's computation attaches the cache file read-write: it waits
    for the searches that read the list, and new searches meanwhile go
    without it (DuckDB attaches a file once per process: otherwise the
    computation would find it attached and keep nothing)."""
    copy = tmp_path / "h.duckdb"
    shutil.copy(db, copy)
    shutil.copy(default_path(db), default_path(copy))
    source = Source(str(copy), hand_list=default_path(copy))
    reading, release = threading.Event(), threading.Event()

    def search() -> None:
        with source.reading() as con, source.hand_list(con) as table:
            assert table is not None
            reading.set()
            release.wait(10)

    def kept(con: duckdb.DuckDBPyConnection) -> bool:
        cache = Cache(con, default_path(copy))
        try:
            return cache.persistent
        finally:
            cache.close()

    try:
        assert source.prepare_hand_list()
        reader = threading.Thread(target=search)
        reader.start()
        assert reading.wait(10)
        result: list[bool] = []
        computing = threading.Thread(
            target=lambda: result.append(Results(source).cached(("k",), kept, report=True)))
        computing.start()
        time.sleep(0.3)
        assert not result  # waits for the search
        with source.reading() as con, source.hand_list(con) as table:
            assert table is None  # a search meanwhile goes without the list
        release.set()
        reader.join(10)
        computing.join(10)
        assert result == [True]
        with source.reading() as con, source.hand_list(con) as table:
            assert table is not None
    finally:
        release.set()
        source.close()
