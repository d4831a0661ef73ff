"""``hh serve``'s JSON API and pages through an HTTP client (Starlette's
TestClient): every endpoint, the same figures as ``hh report players
--format json``, bad input as a clear 4xx (never a 500), the token, escaping."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from serve_helpers import HOSTILE, build_db
from starlette.testclient import TestClient
from typer.testing import CliRunner

from hh.games import RULES
from hh.model import Game
from reports.cli import register as register_report
from reports.web.app import Config, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("serve"))


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        yield c


def _report_json(db: Path, *args: str) -> list[dict]:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """hh"""

    register_report(app)
    result = CliRunner().invoke(app, ["report", "players", "--db", str(db), "--format", "json",
                                      *args])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("query, args", [
    ({}, ()),
    ({"game": "chiribito", "min_hands": "5"}, ("--game", "chiribito", "--min-hands", "5")),
    ({"valid_only": "true", "position": "1"}, ("--valid-only", "--position", "1")),
    ({"since": "2026-01-01 00:30:00", "sort": "net"}, ("--since", "2026-01-01 00:30:00",
                                                       "--sort", "net")),
])  # fmt: skip
def test_players_is_the_reports_json(client: TestClient, db: Path, query: dict,
                                     args: tuple[str, ...]) -> None:  # fmt: skip
    r = client.get("/api/players", params=query)
    assert r.status_code == 200
    assert r.json() == _report_json(db, *args)
    assert len(r.json()) > 0


def test_hands_of_a_player_newest_first(client: TestClient, db: Path) -> None:
    import duckdb

    player = "Ana María" if any(p["player"] == "Ana María" for p in
                                client.get("/api/players").json()) else HOSTILE  # fmt: skip
    r = client.get("/api/hands", params={"player": player, "per": "500"})
    assert r.status_code == 200
    got = [(h["site"], h["hand_id"]) for h in r.json()]
    con = duckdb.connect(str(db), read_only=True)
    want = con.execute(
        "SELECT h.site, h.hand_id FROM hands h JOIN seats s USING (site, hand_id) "
        "WHERE s.player = ? ORDER BY h.started_at DESC, h.site DESC, h.hand_id DESC",
        [player]).fetchall()  # fmt: skip
    con.close()
    assert got == [tuple(w) for w in want] and got
    assert int(r.headers["X-Total-Count"]) == len(want)


def test_search_filters(client: TestClient) -> None:
    invalid = client.get("/api/hands", params={"invalid": "true", "per": "500"}).json()
    assert invalid and all(not h["valid"] for h in invalid)
    code = client.get("/api/hand", params={"site": invalid[0]["site"],
                                           "id": invalid[0]["hand_id"]}).json()  # fmt: skip
    first = code["meta"]["violations"][0]["code"]
    by_code = client.get("/api/hands", params={"code": first, "per": "500"}).json()
    assert invalid[0]["hand_id"] in {h["hand_id"] for h in by_code}
    big = client.get("/api/hands", params={"min_pot": "100", "max_pot": "200"}).json()
    assert all(100 <= h["total_pot"] <= 200 for h in big)
    one = client.get("/api/hands", params={"id": invalid[0]["hand_id"]}).json()
    assert invalid[0]["hand_id"] in [h["hand_id"] for h in one]
    page2 = client.get("/api/hands", params={"per": "5", "page": "2"}).json()
    page1 = client.get("/api/hands", params={"per": "10"}).json()
    assert page2 == page1[5:10]
    day = client.get("/api/hands", params={"since": "2026-01-01", "until": "2026-01-01 00:10"})
    assert all("2026-01-01T00:0" in h["started_at"] for h in day.json())


def test_every_page_and_endpoint_answers(client: TestClient) -> None:
    player = client.get("/api/players").json()[0]["player"]
    hand = client.get("/api/hands", params={"per": "1"}).json()[0]
    table = client.get("/api/tables").json()[0]
    urls = ["/", "/players", "/tables", "/hands", "/live", "/static/app.js", "/static/app.css",
            "/static/plotly.min.js", "/api/overview", "/api/tables", "/api/live", "/api/status"]
    for url in urls:
        assert client.get(url).status_code == 200, url
    for url, params in (("/player", {"name": player}), ("/api/player", {"name": player}),
                        ("/table", {"site": table["site"], "name": table["table_name"]}),
                        ("/api/table", {"site": table["site"], "name": table["table_name"]}),
                        ("/hand", {"site": hand["site"], "id": hand["hand_id"]}),
                        ("/api/hand", {"site": hand["site"], "id": hand["hand_id"]}),
                        ("/api/series", {"pick": player})):  # fmt: skip
        r = client.get(url, params=params)
        assert r.status_code == 200, (url, r.text[:200])
    detail = client.get("/api/player", params={"name": player}).json()
    assert set(detail["sections"]) == {"overall", "by_position", "by_table_size", "by_session",
                                       "by_day", "by_round"}  # fmt: skip
    assert detail["series"] and detail["hands"]
    # each round named as the game's hands name it, by hh's rules, in their order
    by_round = detail["sections"]["by_round"]
    assert by_round["rows"] and "round" not in by_round["columns"]
    for (game, stakes), rows in itertools.groupby(by_round["rows"],
                                                  lambda r: (r["game"], r["stakes"])):  # fmt: skip
        streets = [s.name for s in RULES[Game(game)].streets]
        named = [r["street"] for r in rows]
        assert named == sorted(named, key=streets.index), (game, stakes, named)
    t = client.get("/api/table", params={"site": table["site"], "name": table["table_name"]})
    assert [h["hand_id"] for h in t.json()["hands"]] and t.json()["stacks"]
    overview = client.get("/api/overview").json()
    assert sum(g["hands"] for g in overview["games"]) == len(
        client.get("/api/hands", params={"per": "500"}).json())
    assert "<script" in client.get("/hand", params={"site": hand["site"],
                                                    "id": hand["hand_id"]}).text  # fmt: skip


@pytest.mark.parametrize("url, params, status, words", [
    ("/api/hand", {"site": "hh-sim", "id": "NOPE-1"}, 404, "no hand #NOPE-1"),
    ("/api/hand", {}, 400, "missing parameter 'id'"),
    ("/api/hands", {"since": "yesterday"}, 400, "since='yesterday'"),
    ("/api/hands", {"page": "99999999999"}, 400, "page=99999999999"),
    ("/api/hands", {"page": "5000"}, 404, "page=5000: there are"),
    ("/api/hands", {"player": "Nobody", "page": "2"}, 404,
     "page=2: there are 1 pages of 50 hands (0 hands)"),
    ("/api/hands", {"game": "calatone", "page": "x"}, 400, "page='x': expected a whole number"),
    ("/api/hands", {"code": "RAISE_SIZE", "per": "501"}, 400, "per=501"),
    ("/api/hands", {"per": "-1"}, 400, "per=-1"),
    ("/api/hands", {"min_pot": "lots"}, 400, "min_pot='lots'"),
    ("/api/hands", {"game": "poker"}, 400, "game='poker'"),
    ("/api/hands", {"bogus": "1"}, 400, "unknown parameter 'bogus'"),
    ("/api/players", {"game": "poker"}, 400, "game='poker'"),
    ("/api/players", {"until": "2026-13-45"}, 400, "until='2026-13-45'"),
    ("/api/players", {"min_hands": "x"}, 400, "min_hands='x'"),
    ("/api/players", {"sort": "nope"}, 400, "sort='nope': no such column"),
    ("/api/players", {"valid_only": "maybe"}, 400, "valid_only='maybe'"),
    ("/api/player", {"name": "Nobody"}, 404, "no player 'Nobody' in the database"),
    ("/api/nowhere", {}, 404, "no such page"),
    ("/api/table", {"site": "hh-sim", "name": "Nowhere"}, 404, "no table 'Nowhere'"),
    ("/api/series", {"pick": [str(i) for i in range(60)]}, 400, "at most 50"),
    ("/static/..%2F..%2Fpyproject.toml", {}, 404, "no such"),
])  # fmt: skip
def test_bad_input_is_a_clear_4xx(client: TestClient, url: str, params: dict, status: int,
                                  words: str) -> None:  # fmt: skip
    r = client.get(url, params=params)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


@pytest.mark.parametrize("url, params, words", [
    ("/hand", {"site": "x", "id": "../../etc/passwd"}, "no hand #../../etc/passwd"),
    ("/hand", {"id": "NOPE-1"}, "no hand #NOPE-1"),
    ("/player", {"name": "Nobody"}, "no player &#39;Nobody&#39; in the database"),
    ("/player", {"name": "<b>x</b>"}, "no player &#39;&lt;b&gt;x&lt;/b&gt;&#39;"),
    ("/nowhere", {}, "no such page"),
    ("/static/../../pyproject.toml", {}, "no such page or file"),  # asked as /pyproject.toml
])  # fmt: skip
def test_an_unknown_hand_player_or_page_is_the_html_404_page(
        client: TestClient, url: str, params: dict, words: str) -> None:  # fmt: skip
    """In a browser an unknown hand, player or page answers a page (404),
    the message escaped; the API keeps answering JSON."""
    r = client.get(url, params=params)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert words in r.text and "<b>x" not in r.text
    assert 'id="title">Not found<' in r.text


def test_names_any_case_and_accents_find_the_stored_name(client: TestClient) -> None:
    """As the CLI: ``/api/player`` and the hand search by player take the
    name in any case, then without accents; the stored name is shown."""
    players = client.get("/api/players").json()
    stored = next(p["player"] for p in players if any(ord(c) > 127 for c in p["player"])
                  and "<" not in p["player"])  # fmt: skip
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", stored)
                    if not unicodedata.combining(c)).lower()  # fmt: skip
    exact = client.get("/api/hands", params={"player": stored, "per": "500"})
    for typed in (stored.lower(), stored.upper(), plain):
        d = client.get("/api/player", params={"name": typed}).json()
        assert d["player"] == stored and d["names"] == [stored], typed
        found = client.get("/api/hands", params={"player": typed, "per": "500"})
        assert found.json() == exact.json() and int(found.headers["x-total-count"]) > 0
        assert client.get("/player", params={"name": typed}).status_code == 200


def test_hostile_names_are_escaped_in_pages_and_json(client: TestClient) -> None:
    players = client.get("/api/players").json()
    assert HOSTILE in {p["player"] for p in players}  # the name itself, as the report says
    hands = client.get("/api/hands", params={"player": HOSTILE}).json()
    page = client.get("/hand", params={"site": hands[0]["site"], "id": hands[0]["hand_id"]})
    assert page.status_code == 200
    assert HOSTILE not in page.text and "\\u003cscript\\u003ewindow.x=1" in page.text
    who = client.get("/player", params={"name": HOSTILE})
    assert HOSTILE not in who.text  # the page fills itself with textContent from the API
    assert "script-src 'self'" in who.headers["content-security-policy"]


def test_a_token_is_required_when_set(db: Path) -> None:
    app = create_app(Config(db=str(db), token="s3cret"))
    with TestClient(app, raise_server_exceptions=False) as c:
        for url in ("/", "/api/players", "/static/app.js", "/api/events", "/hand?id=x"):
            r = c.get(url)
            assert r.status_code == 401 and "token" in r.json()["error"], url
        assert c.get("/api/players", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/api/tables", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        first = c.get("/", params={"token": "s3cret"})
        assert first.status_code == 200 and "hh_token=s3cret" in first.headers["set-cookie"]
        assert c.get("/api/tables").status_code == 200  # the cookie, from now on


def test_lake_and_missing_database(tmp_path: Path) -> None:
    from reports.web.cli import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    app = create_app(Config(db=str(tmp_path / "none.duckdb")))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/overview")
        assert r.status_code == 503 and "none.duckdb" in r.json()["error"]


def test_a_lake_is_served_read_only_with_the_same_figures(tmp_path: Path) -> None:
    from distributed import Client, LocalCluster
    from import_helpers import hh_import, session

    from hh.model import Game
    from pipelines.cluster import run_import

    files = []
    for k, game in enumerate(Game):
        path = tmp_path / f"{game.value}.txt"
        path.write_text(session(game, 15, 41 + k), encoding="utf-8")
        files.append(str(path))
    db = tmp_path / "hands.duckdb"
    assert hh_import(*files, "--db", str(db), "--workers", "1")[0] == 0
    lake = str(tmp_path / "lake")
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                     dashboard_address=None, silence_logs=40) as cluster,
        Client(cluster) as dask,
    ):  # fmt: skip
        assert run_import(files, lake, client=dask).imported == 45
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        want = c.get("/api/players").json()
        want_hands = c.get("/api/hands", params={"per": "500"}).json()
    with TestClient(create_app(Config(lake=lake)), raise_server_exceptions=False) as c:
        assert c.get("/api/players").json() == want and want
        assert c.get("/api/hands", params={"per": "500"}).json() == want_hands
        hand = want_hands[0]
        for url, params in (("/", {}), ("/players", {}), ("/api/overview", {}),
                            ("/api/tables", {}), ("/api/live", {}),
                            ("/api/player", {"name": want[0]["player"]}),
                            ("/hand", {"site": hand["site"], "id": hand["hand_id"]})):  # fmt: skip
            assert c.get(url, params=params).status_code == 200, url


@pytest.mark.parametrize("search", [
    {},
    {"game": "chiribito"},
    {"player": HOSTILE},
    {"player": HOSTILE, "min_pot": "40"},
])  # fmt: skip
def test_search_pages_make_the_whole_list(client: TestClient, db: Path, search: dict) -> None:
    """Paged 7 at a time, a search gives every hand of its filter once,
    newest first, as an independent SQL query lists them; past the last
    page a 404 that says how many pages there are."""
    _pages_are_the_whole_list(client, db, search)


@pytest.fixture(scope="module")
def spread(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same hands, their times spread over four years (a few days
    apart, the newest first in storage order), some without a time: the
    pages of a search are then found in several of the windows of time the
    server looks in first, or only in the whole table."""
    import shutil

    import duckdb

    copy = tmp_path_factory.mktemp("spread") / "spread.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("""UPDATE hands SET started_at = CASE WHEN k % 11 = 0 THEN NULL
                   ELSE TIMESTAMP '2026-06-01' - to_days(CAST(k * k % 1461 AS INTEGER)) END
                   FROM (SELECT site AS s, hand_id AS i, row_number() OVER (ORDER BY site, hand_id)
                         AS k FROM hands) WHERE site = s AND hand_id = i""")  # fmt: skip
    con.close()
    return copy


@pytest.mark.parametrize("search", [
    {"player": "Ana María"},
    {"player": HOSTILE, "min_pot": "40"},
    {"game": "chiribito"},
])  # fmt: skip
def test_search_pages_over_years_make_the_whole_list(spread: Path, search: dict) -> None:
    with TestClient(create_app(Config(db=str(spread))), raise_server_exceptions=False) as c:
        _pages_are_the_whole_list(c, spread, search)


def _pages_are_the_whole_list(client: TestClient, db: Path, search: dict) -> None:
    import duckdb

    cond = ["TRUE"]
    params: list[object] = []
    if "game" in search:
        cond.append("h.game = ?")
        params.append(search["game"])
    if "player" in search:
        cond.append("(h.site, h.hand_id) IN (SELECT site, hand_id FROM seats WHERE player = ?)")
        params.append(search["player"])
    if "min_pot" in search:
        cond.append("h.total_pot >= ?")
        params.append(int(search["min_pot"]))
    con = duckdb.connect(str(db), read_only=True)
    want = con.execute(f"SELECT h.site, h.hand_id FROM hands h WHERE {' AND '.join(cond)} "
                       "ORDER BY h.started_at DESC NULLS LAST, h.site DESC, h.hand_id DESC",
                       params).fetchall()  # fmt: skip
    con.close()
    want = [tuple(w) for w in want]
    assert len(want) > 7
    got: list[tuple[str, str]] = []
    pages = -(-len(want) // 7)
    for page in range(1, pages + 1):
        r = client.get("/api/hands", params={**search, "per": "7", "page": str(page)})
        assert r.status_code == 200 and int(r.headers["X-Total-Count"]) == len(want)
        assert len(r.json()) == (7 if page < pages else len(want) - 7 * (pages - 1))
        got += [(h["site"], h["hand_id"]) for h in r.json()]
    assert got == want
    past = client.get("/api/hands", params={**search, "per": "7", "page": str(pages + 1)})
    assert past.status_code == 404
    assert past.json()["error"] == (f"page={pages + 1}: there are {pages} pages of 7 hands "
                                    f"({len(want):,} hands)")  # fmt: skip


def test_the_version_changes_with_the_data_not_with_every_write(tmp_path: Path) -> None:
    """A write that stores nothing new (what a cycle of the watch over a hand
    not yet complete does) keeps what the pages computed; another import
    makes a new version, and the pages show its hands."""
    import os
    import subprocess
    import sys
    import time

    from import_helpers import session

    from hh.model import Game
    from reports.web.results import Results
    from reports.web.source import IDLE, Source

    db = build_db(tmp_path)
    source = Source(str(db))
    results = Results(source)
    try:
        counted = results.cached(("n",), lambda con: con.execute(
            "SELECT count(*) FROM hands").fetchall()[0][0])  # fmt: skip
        before = source.version()
        files = [(os.stat(db).st_mtime_ns, os.stat(db).st_size)]
        time.sleep(IDLE + 0.5)  # the server lets go of the file when idle
        write = ("import duckdb, sys; con = duckdb.connect(sys.argv[1]); "
                 "con.execute('CREATE TABLE scratch AS SELECT range AS x FROM range(50000)'); "
                 "con.execute('DROP TABLE scratch'); con.execute('CHECKPOINT'); con.close()")
        subprocess.run([sys.executable, "-c", write, str(db)], check=True, timeout=60)
        files.append((os.stat(db).st_mtime_ns, os.stat(db).st_size))
        assert files[0] != files[1]  # the file was written
        assert source.refresh() == before
        assert results.cached(("n",), lambda con: -1) == counted  # kept, not computed again
        more = tmp_path / "more.txt"
        more.write_text(session(Game.ACES, 5, 99, tables=1), encoding="utf-8")
        time.sleep(IDLE + 0.5)
        r = subprocess.run([sys.executable, "-m", "hh", "import", str(more), "--db", str(db),
                            "--workers", "1"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert source.refresh() != before
        assert results.cached(("n",), lambda con: con.execute(
            "SELECT count(*) FROM hands").fetchall()[0][0]) == counted + 5  # fmt: skip
    finally:
        source.close()


def test_a_computation_asked_twice_at_once_runs_once(db: Path) -> None:
    import threading
    import time

    from reports.web.results import Results
    from reports.web.source import Source

    source = Source(str(db))
    results = Results(source)
    runs: list[int] = []

    def slow(con: object) -> int:
        runs.append(1)
        time.sleep(0.5)
        return 42

    got: list[int] = []
    threads = [threading.Thread(target=lambda: got.append(results.cached(("slow",), slow)))
               for _ in range(4)]  # fmt: skip
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        source.close()
    assert got == [42, 42, 42, 42] and runs == [1]


def test_the_live_view_shows_the_reports_figures_at_the_tables_stakes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Two watched Chiribito tables at blinds 20 and 40 that share players
    (Ramón and Luca sit in the last hand of both): each seated player shows
    his row of ``hh report players`` for that game at that table's stakes."""
    import time

    from import_helpers import session

    from hh import simulate
    from hh.model import Game, Stakes
    from pipelines.importer import connect

    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "low.txt").write_text(session(Game.CHIRIBITO, 30, 5, tables=1), encoding="utf-8")
    monkeypatch.setitem(simulate.SETUPS, Game.CHIRIBITO, simulate.Setup(Stakes(40), 2000))
    (folder / "high.txt").write_text(session(Game.CHIRIBITO, 30, 8, tables=1), encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    connect(str(db)).close()
    app = create_app(Config(db=str(db), watch=[str(folder)], quiet=0.3))
    with TestClient(app, raise_server_exceptions=False) as c:
        deadline = time.monotonic() + 60
        while c.get("/api/status").json()["watch"]["imported"] < 60:
            assert time.monotonic() < deadline, c.get("/api/status").json()
            time.sleep(0.2)
        live = c.get("/api/live").json()["tables"]
    want = {(r["player"], r["stakes"]): r for r in _report_json(db)}
    assert sorted(t["stakes"] for t in live) == ["20", "40"]
    shared = 0
    for t in live:
        for s in t["seated"]:
            row = want[(s["player"], t["stakes"])]
            assert s["hands"] == row["hands"]
            assert t["stats"] == ["vpip", "pfr", "three_bet", "af", "cbet", "fold_to_cbet",
                                  "wtsd", "wsd", "la_perla", "la_perla_won"]  # fmt: skip
            for k in t["stats"]:  # each with its count and opportunities
                assert s["stats"][k] == {"value": row[k], "n": row[f"{k}_n"],
                                         "opp": row[f"{k}_opp"]}, k  # fmt: skip
            other = "40" if t["stakes"] == "20" else "20"
            shared += (s["player"], other) in want
    assert shared == 4  # Ramón and Luca, at each table
    # active tables first, then by name (not by the time of their last hand)
    order = [(not t["active"], t["table_name"].casefold()) for t in live]
    assert order == sorted(order)


def test_a_finished_table_leaves_the_live_view() -> None:
    """A watched table whose last hand was imported longer ago than a
    session's gap has finished: it leaves; imported within ACTIVE it is
    active; active tables first, then by name."""
    import duckdb

    from reports.web import data

    con = duckdb.connect()
    con.execute("CREATE TABLE hands (site VARCHAR, table_name VARCHAR, game VARCHAR, "
                "hand_id VARCHAR, started_at TIMESTAMP, file VARCHAR, line INT, "
                "small_bet BIGINT, big_bet BIGINT, forced BIGINT, import_run INT)")
    con.execute("CREATE TABLE seats (site VARCHAR, hand_id VARCHAR, seat INT, player VARCHAR, "
                "stack_start BIGINT, sitting_out BOOLEAN)")
    con.execute("CREATE TABLE imports (import_run INT, started_at TIMESTAMP)")
    tables = (("b-now", 1, 1), ("A-idle", 2, 15), ("c-gone", 3, 45), ("d-also-now", 4, 0))
    for name, run, minutes in tables:
        con.execute("INSERT INTO imports VALUES (?, now()::TIMESTAMP - to_minutes(?))",
                    [run, minutes])  # fmt: skip
        con.execute("INSERT INTO hands VALUES ('s', ?, 'chiribito', ?, "
                    "TIMESTAMP '2020-01-01 00:00:00', '/w/x.txt', 1, 10, 20, 20, ?)",
                    [name, name + "-1", run])  # fmt: skip
    live = data.live(con, ["/w"], [])
    assert [(t["table_name"], t["active"]) for t in live] == [
        ("b-now", True), ("d-also-now", True), ("A-idle", False)]


def test_off_loopback_hh_serve_makes_up_a_token_and_prints_it(db: Path) -> None:
    """``hh serve --host 0.0.0.0`` without ``--token``: a token is made up
    and printed in the address; every request without it gets 401."""
    import re
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from serve_helpers import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hh", "serve", "--db", str(db), "--host",
                             "0.0.0.0", "--port", str(port)], stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        found = re.search(rf"at http://0\.0\.0\.0:{port}/\?token=([A-Za-z0-9_-]{{20,}})$",
                          first.strip())  # fmt: skip
        assert found, first
        token = found.group(1)
        base = f"http://127.0.0.1:{port}"

        def status(url: str, headers: dict[str, str] | None = None) -> int:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(urllib.request.Request(
                            base + url, headers=headers or {}), timeout=30) as r:  # fmt: skip
                        return int(r.status)
                except urllib.error.HTTPError as e:
                    return int(e.code)
                except OSError:  # not listening yet
                    assert time.monotonic() < deadline
                    time.sleep(0.2)

        assert status("/api/tables") == 401
        assert status("/") == 401
        assert status("/api/tables?token=wrong") == 401
        assert status(f"/api/tables?token={token}") == 200
        assert status("/api/players", {"Authorization": f"Bearer {token}"}) == 200
    finally:
        proc.terminate()
        proc.wait(30)




def test_a_kept_result_is_encoded_once_and_a_new_one_again() -> None:
    """The JSON text of a kept result is JSONResponse's, encoded once for
    that result: the same object gives the same body without encoding it
    again, a new result under the same key (a new version) its own."""
    from starlette.responses import JSONResponse

    from reports.web.results import Bodies

    bodies = Bodies(keep=2)
    first = [{"player": "Ana María", "net": 1.5, "x": None}]
    one = bodies.response(("players",), first)
    assert one.body == JSONResponse(first).body
    assert one.headers["content-type"] == "application/json"
    assert bodies.response(("players",), first).body is one.body  # not encoded again
    second = [{"player": "<b>", "net": -2}]
    assert bodies.response(("players",), second).body == JSONResponse(second).body
    for k in range(3):  # bounded: older bodies go, answers stay right
        assert bodies.response(("other", k), [k]).body == b"[%d]" % k
    assert bodies.response(("players",), second, {"X-Total-Count": "2"}).headers[
        "x-total-count"] == "2"  # fmt: skip


def test_every_column_shown_has_a_header_from_the_catalogue(client: TestClient) -> None:
    """No column a page, the terminal or the HTML report heads is headed
    by its own name (``bb_per_100``): the catalogue (reports.render.columns)
    names every one; and the catalogue's formats are the terminal's."""
    import re

    from reports.render.columns import PLAYER_COLUMNS, catalogue, label, number_format

    snake = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")
    player = client.get("/api/players").json()[0]["player"]
    d = client.get("/api/player", params={"name": player}).json()
    shown = {c for sec in d["sections"].values() for c in sec["columns"]}
    shown |= {c for c, _ in PLAYER_COLUMNS} | set(d["hands"][0])
    shown |= set(client.get("/api/sessions").json()["sessions"][0]) - {"hero", "session"}
    assert not [c for c in shown if snake.match(label(c))], sorted(shown)
    cat = catalogue()
    assert cat["labels"]["bb_per_100"] == "bb/100" and cat["formats"]["vpip"] == "pct"
    assert {c: number_format(c) for c in cat["formats"]} == cat["formats"]
    assert cat["formats"]["af"] == "ratio" and cat["formats"]["la_perla"] == "pct"
