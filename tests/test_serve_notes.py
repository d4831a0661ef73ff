"""Notes and tags on players and hands (issue 44): written by ``hh note``,
``hh tag`` and the pages (POST /api/notes), kept in the database's
``notes`` table through re-imports and ``--revalidate``, shown on the
player's page, the HUD, the hand page and the hand search (by tag); bad
input is a 4xx with a message, a hostile note is escaped; a note written
while ``--watch`` imports is never lost."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from serve_helpers import HOSTILE, build_db
from starlette.testclient import TestClient

from reports.web.app import Config, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("notes"), 20)


@pytest.fixture()
def db(base: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "h.duckdb"
    shutil.copy(base, copy)
    return copy


@pytest.fixture()
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        yield c


def _notes(db: Path) -> list[tuple[str, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [tuple(r) for r in con.execute("SELECT subject, site, target, kind, text "
                                              "FROM notes ORDER BY written_at").fetchall()]
    finally:
        con.close()


def _a_player(client: TestClient) -> str:
    return str(next(p["player"] for p in client.get("/api/players").json()
                    if p["player"] != HOSTILE and p["player"].isascii()))  # fmt: skip


def _hh(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hh", *args], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_notes_and_tags_from_the_pages_show_everywhere(client: TestClient, db: Path) -> None:
    player = _a_player(client)
    hand = client.get("/api/hands", params={"player": player, "per": "1"}).json()[0]
    post = {"subject": "player", "name": player.upper(), "kind": "note", "text": HOSTILE}
    r = client.post("/api/notes", json=post)
    assert r.status_code == 200, r.text
    assert r.json()["target"] == player and r.json()["changed"]  # the stored name
    r = client.post("/api/notes", json={"subject": "player", "name": player, "kind": "tag",
                                        "text": " Fish "})  # fmt: skip
    assert r.json()["text"] == "fish"
    assert client.post("/api/notes", json={"subject": "hand", "id": hand["hand_id"],
                                           "kind": "tag", "text": "bluff"}).status_code == 200
    assert _notes(db) == [("player", "", player, "note", HOSTILE),
                          ("player", "", player, "tag", "fish"),
                          ("hand", hand["site"], hand["hand_id"], "tag", "bluff")]
    # the player's page, the HUD's popup (the same API), the notes API
    d = client.get("/api/player", params={"name": player.lower()}).json()
    assert [(n["kind"], n["text"]) for n in d["notes"]] == [("note", HOSTILE), ("tag", "fish")]
    assert [n["text"] for n in client.get("/api/notes", params={"name": player}).json()] == [
        HOSTILE, "fish"]
    # the hand search by tag, each row with its tags
    tagged = client.get("/api/hands", params={"tag": "BLUFF"})
    assert [h["hand_id"] for h in tagged.json()] == [hand["hand_id"]]
    assert tagged.json()[0]["tags"] == ["bluff"] and tagged.headers["x-total-count"] == "1"
    assert client.get("/api/hands", params={"tag": "nothing"}).json() == []
    # the hand page shows them escaped
    page = client.get("/hand", params={"site": hand["site"], "id": hand["hand_id"]}).text
    assert '<span class="hh-tag">bluff</span>' in page
    # a tag is not doubled, and can be taken away
    again = client.post("/api/notes", json={"subject": "hand", "id": hand["hand_id"],
                                            "kind": "tag", "text": "bluff"})  # fmt: skip
    assert again.json()["changed"] is False
    gone = client.post("/api/notes", json={"subject": "hand", "id": hand["hand_id"],
                                           "kind": "tag", "text": "bluff", "remove": True})
    assert gone.json()["changed"] is True and len(_notes(db)) == 2
    # the player's page shows the note only as text (the page fills itself by textContent)
    assert HOSTILE not in client.get("/player", params={"name": player}).text


@pytest.mark.parametrize("body, status, words", [
    ({"subject": "player", "name": "Nobody", "kind": "note", "text": "x"}, 400,
     "no player 'Nobody'"),
    ({"subject": "hand", "id": "NOPE-1", "kind": "tag", "text": "x"}, 400, "no hand #NOPE-1"),
    ({"subject": "table", "name": "x", "kind": "note", "text": "x"}, 400, "subject='table'"),
    ({"subject": "player", "name": "PLAYER", "kind": "mood", "text": "x"}, 400, "kind='mood'"),
    ({"subject": "player", "name": "PLAYER", "kind": "note", "text": "   "}, 400, "empty note"),
    ({"subject": "player", "name": "PLAYER", "kind": "note", "text": "x" * 2001}, 400,
     "at most 2,000"),
    ({"subject": "player", "name": "PLAYER", "kind": "tag", "text": "two words"}, 400,
     "a tag is one word"),
    ({"subject": "player", "name": "PLAYER", "kind": "tag", "text": "<b>"}, 400, "tag '<b>'"),
    ({"subject": "player", "name": 3, "kind": "note", "text": "x"}, 400, "are strings"),
    ({"subject": "player", "name": "PLAYER", "kind": "note", "text": "x", "why": 1}, 400,
     "unknown field 'why'"),
    ({"subject": "player", "kind": "note", "text": "x"}, 400, "which player?"),
    (["not", "an", "object"], 400, "expected a JSON object"),
])  # fmt: skip
def test_bad_notes_are_a_clear_4xx(client: TestClient, db: Path, body: object, status: int,
                                   words: str) -> None:  # fmt: skip
    if isinstance(body, dict) and body.get("name") == "PLAYER":
        body = {**body, "name": _a_player(client)}
    r = client.post("/api/notes", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert _notes(db) == []


def test_a_note_must_be_json_from_this_site(client: TestClient, db: Path) -> None:
    player = _a_player(client)
    form = client.post("/api/notes", data={"subject": "player", "name": player,
                                           "kind": "note", "text": "x"})  # fmt: skip
    assert form.status_code == 415 and "JSON" in form.json()["error"]
    body = {"subject": "player", "name": player, "kind": "note", "text": "x"}
    other = client.post("/api/notes", json=body, headers={"Origin": "http://evil.example"})
    assert other.status_code == 403
    broken = client.post("/api/notes", content=b"{nope", headers={"Content-Type":
                                                                  "application/json"})
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    assert client.delete("/api/notes").status_code == 405
    assert _notes(db) == []


def test_notes_outlive_a_reimport_and_a_revalidation(db: Path, tmp_path: Path) -> None:
    """``hh note`` and ``hh tag`` write beside the hands; ``hh import`` of
    the same files again and ``hh import --revalidate`` leave them."""
    con = duckdb.connect(str(db), read_only=True)
    player, site, hand_id = con.execute(
        "SELECT s.player, h.site, h.hand_id FROM seats s JOIN hands h USING (site, hand_id) "
        "WHERE s.player NOT LIKE '<%' ORDER BY h.hand_id LIMIT 1").fetchall()[0]
    files = [r[0] for r in con.execute("SELECT DISTINCT file FROM hands").fetchall()]
    con.close()
    note = _hh("note", player.lower(), "plays every hand", "--db", str(db))
    assert note.returncode == 0, note.stderr
    tag = _hh("tag", f"#{hand_id}", "Review", "--db", str(db))
    assert tag.returncode == 0, tag.stderr
    want = [("player", "", player, "note", "plays every hand"),
            ("hand", site, hand_id, "tag", "review")]
    assert _notes(db) == want
    assert _hh("import", *files, "--db", str(db), "--workers", "1").returncode in (0, 1)
    again = _hh("import", "--revalidate", "--db", str(db), "--workers", "1")
    assert again.returncode in (0, 1), again.stderr  # 1: the disputed hand is still invalid
    assert _notes(db) == want
    bad = _hh("tag", hand_id, "two words", "--db", str(db))
    assert bad.returncode == 2 and "a tag is one word" in bad.stderr
    nobody = _hh("note", "Nobody At All", "x", "--db", str(db))
    assert nobody.returncode == 2 and "no player 'Nobody At All'" in nobody.stderr
    assert _notes(db) == want


def test_a_note_written_while_the_watch_imports_is_kept(tmp_path: Path) -> None:
    """Notes posted while ``--watch`` imports file after file: every one is
    stored, and every hand too (the note waits for the watch's lease)."""
    from import_helpers import session

    from hh.model import Game

    folder = tmp_path / "live"
    folder.mkdir()
    text = session(Game.CHIRIBITO, 40, 3, tables=1)
    hands = text.strip("\n").split("\n\n")
    live = folder / "t.txt"
    live.write_text("\n\n".join(hands[:5]) + "\n\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    app = create_app(Config(db=str(db), watch=[str(folder)], quiet=0.3))
    with TestClient(app, raise_server_exceptions=False) as c:
        deadline = time.monotonic() + 60
        while c.get("/api/status").json()["watch"]["imported"] < 4:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        player = c.get("/api/players").json()[0]["player"]
        for k in range(6):
            with live.open("a", encoding="utf-8") as f:
                f.write("\n\n".join(hands[5 + 5 * k:10 + 5 * k]) + "\n\n")
            r = c.post("/api/notes", json={"subject": "player", "name": player,
                                           "kind": "note", "text": f"note {k}"})  # fmt: skip
            assert r.status_code == 200, r.text
            time.sleep(0.15)
        while c.get("/api/status").json()["watch"]["imported"] < 34:
            assert time.monotonic() < deadline + 60
            time.sleep(0.1)
        notes = c.get("/api/notes", params={"name": player}).json()
    assert [n["text"] for n in notes] == [f"note {k}" for k in range(6)]


def test_sessions_and_the_hero(tmp_path: Path) -> None:
    """/api/sessions: each player's sessions per game and stakes, their
    figures from the hands; the hero (found in a hero-view log, or named by
    --hero in any case) first, and in the overview."""
    from import_helpers import hh_import, session

    from hh.model import Game

    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "hero.txt").write_text(session(Game.CALATONE, 12, 4, tables=1, view="Ana María"),
                                     encoding="utf-8")  # fmt: skip
    (folder / "ch.txt").write_text(session(Game.CHIRIBITO, 30, 5, tables=2), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    assert hh_import(str(folder), "--db", str(db), "--workers", "1")[0] in (0, 1)
    con = duckdb.connect(str(db), read_only=True)
    want = {(p, t): (n, net) for p, t, n, net in con.execute(
        "SELECT s.player, h.table_name, count(*), sum(s.net) FROM seats s "
        "JOIN hands h USING (site, hand_id) WHERE NOT coalesce(s.sitting_out, FALSE) "
        "GROUP BY ALL").fetchall()}  # fmt: skip
    con.close()
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        d = c.get("/api/sessions").json()
        assert d["heroes"] == ["Ana María"]  # her cards alone are known in her log
        rows = d["sessions"]
        assert rows[0]["player"] == "Ana María" and rows[0]["hero"]
        assert sum(r["hero"] for r in rows) == 1
        got: dict[tuple[str, str], list[int]] = {}
        for r in rows:  # every hand of a (player, table) is in one of its sessions
            got.setdefault((r["player"], r["table_name"]), [0, 0])
            got[(r["player"], r["table_name"])][0] += r["hands"]
            got[(r["player"], r["table_name"])][1] += r["net"]
            assert r["start"] <= r["end"] and r["minutes"] >= 0
            if r["minutes"]:
                assert r["hands_per_hour"] == pytest.approx(r["hands"] * 60 / r["minutes"])
        assert {k: tuple(v) for k, v in got.items()} == want
        assert c.get("/api/overview").json()["heroes"] == ["Ana María"]
        mine = c.get("/api/sessions", params={"player": "ana maria"}).json()["sessions"]
        assert {r["player"] for r in mine} == {"Ana María"}
        assert c.get("/api/sessions", params={"player": "Nobody"}).status_code == 404
        other = next(p for p, _ in want if p != "Ana María")
        chosen = c.get("/api/sessions", params={"hero": other.lower()}).json()  # the page's
        assert chosen["heroes"] == [other] and chosen["sessions"][0]["player"] == other
        assert c.get("/api/overview", params={"hero": other}).json()["heroes"] == [other]
    other = next(p for p, _ in want if p != "Ana María")
    app = create_app(Config(db=str(db), heroes=[other.upper(), "not stored"]))
    with TestClient(app, raise_server_exceptions=False) as c:
        d = c.get("/api/sessions").json()
        assert d["heroes"] == [other] and d["sessions"][0]["player"] == other


def test_the_hand_search_by_cards_action_and_amount_won(client: TestClient, db: Path) -> None:
    """Hole cards with wildcards, an action on a street, the amount won:
    the same hands as an independent query over the stored seats."""
    con = duckdb.connect(str(db), read_only=True)
    player, cards = con.execute(
        "SELECT player, down_cards FROM seats WHERE len(down_cards) = 2 AND player NOT LIKE '<%' "
        "AND NOT list_contains(down_cards, '??') ORDER BY site, hand_id LIMIT 1").fetchall()[0]

    def ids(sql: str, params: list[object]) -> set[str]:
        return {r[0] for r in con.execute(sql, params).fetchall()}

    rank = cards[0][0]
    want = ids("SELECT hand_id FROM seats WHERE player = ? AND "
               "len(list_filter(down_cards, lambda c: c[1] = ?)) >= 1", [player, rank])
    raised = ids("SELECT DISTINCT hand_id FROM actions WHERE player = ? AND kind = 'raise'",
                 [player])  # fmt: skip
    won = ids("SELECT hand_id FROM seats WHERE player = ? AND net >= 10", [player])
    pair = ids("SELECT hand_id FROM seats WHERE len(down_cards) > 0 AND "
               "len(list_filter(down_cards, lambda c: c[1] = ?)) >= 2", [rank])
    con.close()

    def search(**params: str) -> set[str]:
        r = client.get("/api/hands", params={"per": "500", **params})
        assert r.status_code == 200, r.text
        return {h["hand_id"] for h in r.json()}

    assert search(player=player.lower(), cards=f"{rank.lower()}?") == want and want
    assert search(player=player, action="RAISE") == raised
    assert search(player=player, action="raise", cards=f"{rank}?") == raised & want
    assert search(player=player, min_won="10") == won
    assert search(cards=f"{rank}? {rank}?") == pair
    street = search(player=player, action="call", street="hole cards")
    assert street <= search(player=player, action="call")
    for bad, words in (({"cards": "A"}, "'A' is not a card"), ({"cards": "Ace"}, "not a card"),
                       ({"action": "dance"}, "action='dance'"),
                       ({"min_won": "lots"}, "min_won='lots'")):  # fmt: skip
        r = client.get("/api/hands", params=bad)
        assert r.status_code == 400 and words in r.json()["error"], r.text
