"""Reviewers' marks on the integrity report's cases (issue 45): ``hh review
A B cleared|confirmed|open --note TEXT`` and the /integrity page's form
(POST /api/review) keep a mark in the database's notes table; every later
report shows it (terminal, JSON ``review``, CSV, HTML, the page: the
marked cases listed apart, never left out); bad input is a 4xx with a
message (exit 2 on the command line), never a 500; a hostile note is
escaped; the mark outlives a re-import."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from serve_helpers import CHROMIUM, HOSTILE, chromium, open_page, running
from starlette.testclient import TestClient

from hh.collusion import Collusion
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _hh(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hh", *args], capture_output=True, text=True,
                          timeout=300)  # fmt: skip


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session where Ana dumps to Bo (alerted at 1,000 hands,
    tests/test_integrity_policies.py), imported, its report computed once
    (the reports' cache kept beside it)."""
    root = tmp_path_factory.mktemp("review")
    src = root / "s.txt"
    sim = Simulator(Game.CHIRIBITO, 11, players=6, tables=2,
                    colluders=(Collusion("Ana", "Bo", "dump-fold", 1.0),))  # fmt: skip
    src.write_text("".join(write_hand(h) + "\n\n" for h in sim.hands(1000)), encoding="utf-8")
    db = root / "s.duckdb"
    done = _hh("import", str(src), "--db", str(db), "--workers", "1")
    assert done.returncode == 0, done.stderr
    first = _hh("report", "integrity", "--db", str(db), "--format", "json")
    assert first.returncode == 0, first.stderr
    top = json.loads(first.stdout)[0]
    assert top["players"] == ["Ana", "Bo"] and top["alert"] and top["review"] is None
    return db


@pytest.fixture()
def db(base: Path, tmp_path: Path) -> Path:
    for f in base.parent.iterdir():
        if f.name.startswith("s."):
            shutil.copy(f, tmp_path / f.name)
    return tmp_path / "s.duckdb"


def _marks(db: Path) -> list[tuple[str, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [tuple(r) for r in con.execute(
            "SELECT subject, site, target, kind, text FROM notes ORDER BY written_at").fetchall()]
    finally:
        con.close()


def _json(db: Path, *args: str) -> list[dict[str, Any]]:
    done = _hh("report", "integrity", "--db", str(db), "--format", "json", *args)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def test_a_mark_from_the_command_line_shows_on_every_report(db: Path) -> None:
    before = _json(db)
    done = _hh("review", "ana", "BO", "cleared", "--note", HOSTILE, "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert "Ana & Bo: cleared" in done.stderr + done.stdout
    assert _marks(db) == [("pair", "chiribito", '["Ana", "Bo"]', "cleared", HOSTILE)]
    after = _json(db)
    # the verdicts and their order do not move; the mark is a new key
    assert all(p["review"] is None for p in before)
    assert [{k: v for k, v in p.items() if k != "review"} for p in after] == [
        {k: v for k, v in p.items() if k != "review"} for p in before]
    top = after[0]
    assert top["players"] == ["Ana", "Bo"] and top["alert"] is True
    assert top["review"]["mark"] == "cleared" and top["review"]["note"] == HOSTILE
    assert top["review"]["marks"] == 1 and len(top["review"]["at"]) == 16
    assert all(p["review"] is None for p in after[1:])
    # confirmed later: the latest mark is the case's, every one is kept
    assert _hh("review", "Bo", "Ana", "confirmed", "--game", "ch", "--db",
               str(db)).returncode == 0  # fmt: skip
    top = _json(db)[0]
    assert (top["review"]["mark"], top["review"]["note"], top["review"]["marks"]) == (
        "confirmed", "", 2)
    # the terminal lists it apart, with its mark; the CSV and the page carry it escaped
    table = _hh("report", "integrity", "--db", str(db))
    assert "Confirmed by a reviewer (1):" in table.stdout
    assert "confirmed by a reviewer" in table.stdout
    assert "Marked by reviewers: 1 confirmed, 0 cleared" in table.stdout
    assert _hh("review", "Ana", "Bo", "cleared", "--note", "=1+1 " + HOSTILE, "--db",
               str(db)).returncode == 0  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(_hh("report", "integrity", "--db", str(db),
                                               "--format", "csv").stdout)))  # fmt: skip
    assert (rows[0]["review_mark"], rows[0]["review_note"]) == ("cleared", "'=1+1 " + HOSTILE)
    assert rows[1]["review_mark"] == ""
    html = _hh("report", "integrity", "--db", str(db), "--format", "html").stdout
    assert HOSTILE not in html and "&lt;script&gt;window.x=1&lt;/script&gt;" in html
    assert html.index("Cleared by a reviewer") < html.index("Ana &amp; Bo")
    assert "No case waits for review." in html and "<form" not in html and "<script" not in html


def test_a_mark_outlives_a_reimport(db: Path) -> None:
    assert _hh("review", "Ana", "Bo", "confirmed", "--note", "seen live", "--db",
               str(db)).returncode == 0  # fmt: skip
    src = db.parent / "s.txt"
    again = _hh("import", str(src), "--db", str(db), "--workers", "1")
    assert again.returncode == 0, again.stderr
    revalidated = _hh("import", "--revalidate", "--db", str(db), "--workers", "1")
    assert revalidated.returncode == 0, revalidated.stderr
    top = _json(db)[0]
    assert top["players"] == ["Ana", "Bo"]
    assert (top["review"]["mark"], top["review"]["note"]) == ("confirmed", "seen live")


@pytest.mark.parametrize("args, words", [
    (("Ana", "Ana", "cleared"), "twice"),
    (("Ana", "Nobody", "cleared"), "no player 'Nobody'"),
    (("Ana", "Bo", "innocent"), "mark 'innocent'"),
    (("Ana", "Bo", "cleared", "--game", "calatone"), "never dealt into one hand of 'calatone'"),
    (("Ana", "Bo", "cleared", "--game", "poker"), "unknown game"),
    (("Ana", "Bo", "cleared", "--note", "x" * 2001), "at most 2,000"),
])  # fmt: skip
def test_a_bad_mark_is_refused_and_nothing_written(db: Path, args: tuple[str, ...],
                                                   words: str) -> None:  # fmt: skip
    done = _hh("review", *args, "--db", str(db))
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert _marks(db) == []


@pytest.fixture()
def client(db: Path) -> Iterator[TestClient]:
    from reports.web.app import Config, create_app

    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        yield c


def test_a_mark_from_the_page_is_kept_and_shown(client: TestClient, db: Path) -> None:
    page = client.get("/integrity")
    assert page.status_code == 200
    assert "script-src 'self';" in page.headers["content-security-policy"]
    assert "unsafe-inline'; script" in page.headers["content-security-policy"]
    assert '<script src="/static/review.js">' in page.text
    assert 'data-a="Ana" data-b="Bo" data-game="chiribito"' in page.text
    r = client.post("/api/review", json={"players": ["ana", "bo"], "game": "chiribito",
                                         "mark": "cleared", "note": HOSTILE})  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json() == {"players": ["Ana", "Bo"], "game": "chiribito", "mark": "cleared",
                        "note": HOSTILE}  # fmt: skip
    assert _marks(db) == [("pair", "chiribito", '["Ana", "Bo"]', "cleared", HOSTILE)]
    html = client.get("/integrity").text
    assert HOSTILE not in html and "cleared by a reviewer" in html
    cleared = html.index("Cleared by a reviewer")
    assert html.index("Ana &amp; Bo") > cleared
    assert "No case waits for review." in html[:cleared]
    got = client.get("/api/review").json()
    assert [(m["players"], m["game"], m["mark"], m["note"]) for m in got] == [
        (["Ana", "Bo"], "chiribito", "cleared", HOSTILE)]
    # open again: back in the queue, with its history
    assert client.post("/api/review", json={"players": ["Bo", "Ana"], "game": "ch",
                                            "mark": "open"}).status_code == 200
    html = client.get("/integrity").text
    assert html.index("Ana &amp; Bo") < html.index("Confirmed by a reviewer")
    assert "reopened by a reviewer" in html


@pytest.mark.parametrize("body, words", [
    ({"players": ["Ana"], "game": "chiribito", "mark": "cleared"}, "two players"),
    ({"players": "Ana,Bo", "game": "chiribito", "mark": "cleared"}, "two players"),
    ({"players": ["Ana", 3], "game": "chiribito", "mark": "cleared"}, "two players"),
    ({"players": ["Ana", "Bo"], "game": 1, "mark": "cleared"}, "are strings"),
    ({"players": ["Ana", "Bo"], "game": "chiribito", "mark": "guilty"}, "mark 'guilty'"),
    ({"players": ["Ana", "Ana"], "game": "chiribito", "mark": "cleared"}, "twice"),
    ({"players": ["Ana", "Nobody"], "game": "chiribito", "mark": "cleared"}, "no player"),
    ({"players": ["Ana", "Bo"], "game": "calatone", "mark": "cleared"}, "never dealt"),
    ({"players": ["Ana", "Bo"], "game": "poker", "mark": "cleared"}, "unknown game"),
    ({"players": ["Ana", "Bo"], "game": "chiribito", "mark": "cleared", "note": "x" * 2001},
     "at most 2,000"),
    ({"players": ["Ana", "Bo"], "game": "chiribito", "mark": "cleared", "why": 1},
     "unknown field 'why'"),
    (["Ana", "Bo"], "expected a JSON object"),
])  # fmt: skip
def test_a_bad_mark_from_the_page_is_a_clear_4xx(client: TestClient, db: Path, body: object,
                                                 words: str) -> None:  # fmt: skip
    r = client.post("/api/review", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]
    assert _marks(db) == []


def test_a_mark_must_be_json_from_this_site(client: TestClient, db: Path) -> None:
    body = {"players": ["Ana", "Bo"], "game": "chiribito", "mark": "cleared"}
    assert client.post("/api/review", data=body).status_code == 415
    other = client.post("/api/review", json=body, headers={"Origin": "http://evil.example"})
    assert other.status_code == 403
    broken = client.post("/api/review", content=b"{", headers={"Content-Type":
                                                              "application/json"})
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    assert client.delete("/api/review").status_code == 405
    assert _marks(db) == []


def test_a_mark_does_not_compute_the_report_again(client: TestClient, db: Path) -> None:
    """The pairs are kept per version of the hands: a mark changes the
    page, not the computation behind it."""
    from reports.integrity import signals

    client.get("/integrity")
    calls = []
    real = signals.integrity
    signals.integrity = lambda *a, **k: calls.append(1) or real(*a, **k)  # type: ignore[assignment]
    try:
        assert client.post("/api/review", json={"players": ["Ana", "Bo"], "game": "chiribito",
                                                "mark": "confirmed"}).status_code == 200
        assert "confirmed by a reviewer" in client.get("/integrity").text
    finally:
        signals.integrity = real  # type: ignore[assignment]
    assert calls == []


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
def test_a_reviewer_marks_a_case_in_the_browser(db: Path) -> None:
    from reports.web.app import Config, create_app

    with chromium() as browser, running(create_app(Config(db=str(db)))) as url:
        page, problems = open_page(browser, f"{url}/integrity", 1280, 900)
        form = page.locator('form.review[data-a="Ana"][data-b="Bo"]')
        form.locator("select").select_option("confirmed")
        form.locator("input[name=note]").fill(HOSTILE)
        with page.expect_navigation():
            form.locator("button").click()
        page.reload()
        mark = page.locator("section.case p.mark.confirmed")
        assert mark.count() == 1
        assert HOSTILE in mark.inner_text() and "confirmed by a reviewer" in mark.inner_text()
        assert page.evaluate("window.x") is None  # the note was never run
        heads = page.locator("h2").all_inner_texts()
        assert heads.index("Confirmed by a reviewer") < heads.index("Cleared by a reviewer")
        assert problems == []
    assert _marks(db) == [("pair", "chiribito", '["Ana", "Bo"]', "confirmed", HOSTILE)]


def test_marks_written_while_the_watch_imports_are_kept(tmp_path: Path) -> None:
    """Marks posted while ``--watch`` imports file after file: every one is
    stored (it waits for the watch's lease), and every hand too."""
    import time

    from import_helpers import session

    from reports.web.app import Config, create_app

    folder = tmp_path / "live"
    folder.mkdir()
    hands = session(Game.CHIRIBITO, 40, 3, tables=1).strip("\n").split("\n\n")
    live = folder / "t.txt"
    live.write_text("\n\n".join(hands[:5]) + "\n\n", encoding="utf-8")
    app = create_app(Config(db=str(tmp_path / "w.duckdb"), watch=[str(folder)], quiet=0.3))
    with TestClient(app, raise_server_exceptions=False) as c:
        deadline = time.monotonic() + 60
        while c.get("/api/status").json()["watch"]["imported"] < 4:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        a, b = sorted(p["player"] for p in c.get("/api/players").json())[:2]
        for k in range(6):
            with live.open("a", encoding="utf-8") as f:
                f.write("\n\n".join(hands[5 + 5 * k:10 + 5 * k]) + "\n\n")
            r = c.post("/api/review", json={"players": [a, b], "game": "chiribito",
                                            "mark": ("cleared", "confirmed")[k % 2],
                                            "note": f"look {k}"})  # fmt: skip
            assert r.status_code == 200, r.text
            time.sleep(0.15)
        while c.get("/api/status").json()["watch"]["imported"] < 34:
            assert time.monotonic() < deadline + 60
            time.sleep(0.1)
        got = c.get("/api/review").json()
    assert [(m["players"], m["mark"], m["note"], m["marks"]) for m in got] == [
        ([a, b], "confirmed", "look 5", 6)]
