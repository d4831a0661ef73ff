"""``hh serve``'s pages as a player sees them (issue 44), in Chromium at
1280x800 and 420x800: no page scrolls sideways, no header is a column's
own name (``bb_per_100``), no console error, no request leaves the
machine; the HUD shows each statistic's count on hover and greys it below
its sample; a note written on the player's page shows in the HUD's popup
after a reload; a name typed in lower case finds the player; an unknown
hand answers the 404 page. With ``HH_SCREENSHOTS=DIR`` the HUD, a
player's page and the sessions page are saved there (docs/img/)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from serve_helpers import CHROMIUM, HOSTILE, chromium, logs, open_page, running

from reports.web.app import Config, create_app

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")
SNAKE = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")
SAMPLE = 25


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    tmp = tmp_path_factory.mktemp("pages")
    folder, _ = logs(tmp / "logs", 60)
    app = create_app(Config(db=str(tmp / "hands.duckdb"), watch=[str(folder)], quiet=0.5,
                            sample=SAMPLE))  # fmt: skip
    with running(app) as url:
        deadline = time.monotonic() + 60
        while app.state.status.cycles < 2:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        yield url, app


def _get(url: str) -> Any:
    with urllib.request.urlopen(url) as r:
        return json.loads(r.read())


def _open(browser: Any, url: str, width: int = 1280) -> tuple[Any, list[str]]:
    return open_page(browser, url, width, 800)


def _pages(url: str) -> list[tuple[str, str]]:
    """(path, a selector that shows the page is filled) of every page."""
    players = _get(url + "/api/players")
    top = max((p for p in players if p["player"] != HOSTILE), key=lambda p: p["hands"])
    hand = _get(url + "/api/hands?per=1")[0]
    tables = _get(url + "/api/tables")
    return [
        ("/", "#last-hands tbody tr"),
        ("/players", "#players tbody tr"),
        ("/player?name=" + quote(top["player"].lower()), "#section-overall tbody tr"),
        ("/tables", "#tables tbody tr"),
        ("/table?" + f"site={quote(tables[0]['site'])}&name={quote(tables[0]['table_name'])}",
         "#hands tbody tr"),
        ("/hands", "#hands tbody tr"),
        ("/hands?player=" + quote(top["player"].lower()), "#hands tbody tr"),
        ("/live", "table.hud tbody tr"),
        ("/sessions", "#sessions tbody tr"),
        ("/hand?" + f"site={quote(hand['site'])}&id={quote(hand['hand_id'])}", "#text li"),
        ("/hand?id=NOPE-1", ".notfound"),
        ("/nowhere", ".notfound"),
    ]  # fmt: skip


@pytest.mark.parametrize("width", [1280, 420])
def test_every_page_fits_the_window_and_heads_its_columns(browser: Any, served: tuple[str, Any],
                                                          width: int) -> None:  # fmt: skip
    url, _ = served
    for path, ready in _pages(url):
        pg, problems = _open(browser, url + path, width)
        pg.wait_for_selector(ready)
        pg.wait_for_timeout(300)  # charts drawn
        wide = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{path} at {width} px scrolls sideways by {wide} px"
        heads = pg.eval_on_selector_all("th", "ths => ths.map(t => t.textContent.trim())")
        assert not [h for h in heads if SNAKE.match(h)], (path, heads)
        if ready == ".notfound":  # the page itself answers 404, which Chromium logs
            assert problems == ["Failed to load resource: the server responded with a status "
                                "of 404 (Not Found)"], (path, problems)  # fmt: skip
        else:
            assert problems == [], (path, problems)
        shots = os.environ.get("HH_SCREENSHOTS")
        if shots and width == 1280 and path == "/sessions":
            pg.screenshot(path=str(Path(shots) / "sessions.png"))
        if path.startswith("/hand?id=NOPE"):
            assert "no hand #NOPE-1" in pg.text_content(".notfound")
        pg.context.close()


def test_the_hud_shows_counts_on_hover_and_greys_a_small_sample(
        browser: Any, served: tuple[str, Any]) -> None:  # fmt: skip
    url, _ = served
    live = _get(url + "/api/live")["tables"]
    pg, problems = _open(browser, url + "/live")
    pg.wait_for_selector("table.hud tbody tr")
    # the page fills itself again when its live updates connect: read it after, at once
    pg.wait_for_function("+document.body.getAttribute('data-loaded') >= 2")
    cells = pg.evaluate("""[...document.querySelectorAll('table.hud td.stat')].map(t => ({
        table: t.closest('section').getAttribute('data-table'),
        player: t.parentElement.getAttribute('data-player'), stat: t.getAttribute('data-stat'),
        title: t.title, few: t.classList.contains('few'),
        count: t.querySelector('small').textContent,
        colour: getComputedStyle(t).color}))""")  # fmt: skip
    want = {(t["table_name"], s["player"], k): v for t in live for s in t["seated"]
            for k, v in s["stats"].items()}  # fmt: skip
    assert len(cells) == len(want) > 10
    greyed, firm = set(), set()
    for c in cells:
        st = want[(c["table"], c["player"], c["stat"])]
        assert c["count"] == f"{st['n']:,}/{st['opp']:,}"
        if c["stat"] == "af":  # a ratio: bets and raises over calls, its sample both
            assert c["title"] == f"AF: {st['n']:,} bets and raises, {st['opp']:,} calls"
            assert c["few"] == (st["n"] + st["opp"] < SAMPLE)
        else:
            assert c["title"].endswith(f": {st['n']:,} of {st['opp']:,} opportunities")
            assert c["few"] == (st["opp"] < SAMPLE)
        (greyed if c["few"] else firm).add(c["colour"])
    assert greyed and firm and not greyed & firm  # a small sample looks other than a firm one
    # tables: active first, then by name
    names = pg.evaluate("[...document.querySelectorAll('section.live')]"
                        ".map(s => s.getAttribute('data-table'))")
    assert names == [t["table_name"] for t in live]
    order = [(not t["active"], t["table_name"].casefold()) for t in live]
    assert order == sorted(order)
    assert problems == []
    shots = os.environ.get("HH_SCREENSHOTS")
    if shots:
        pg.set_viewport_size({"width": 1280, "height": 800})
        pg.screenshot(path=str(Path(shots) / "hud.png"), full_page=True)


def test_a_note_on_the_player_page_shows_in_the_hud_popup(
        browser: Any, served: tuple[str, Any]) -> None:  # fmt: skip
    url, _ = served
    live = _get(url + "/api/live")["tables"]
    player = next(s["player"] for t in live for s in t["seated"] if s["player"] != HOSTILE)
    pg, problems = _open(browser, url + "/player?name=" + quote(player.upper()))
    pg.wait_for_selector("#section-overall tbody tr")
    assert pg.text_content("#title") == player  # the stored name
    note = "<img src=x onerror=window.x=1> calls too much"
    pg.fill("#note-form textarea[name='text']", note)
    pg.click("#note-form button[value='note']")
    pg.wait_for_selector("#notes ul.notes li")
    pg.fill("#note-form input[name='tag']", "station")
    pg.click("#note-form button[value='tag']")
    pg.wait_for_selector("#notes .tag")
    shots = os.environ.get("HH_SCREENSHOTS")
    if shots:
        pg.screenshot(path=str(Path(shots) / "player.png"), full_page=True)
    hud, problems2 = _open(browser, url + "/live")
    hud.wait_for_selector("table.hud tbody tr")
    hud.reload()
    row = f"table.hud tr[data-player={json.dumps(player, ensure_ascii=False)}]"
    hud.wait_for_selector(f"{row} button.link")
    assert "station" in hud.text_content(row)
    hud.click(f"{row} button.link")
    hud.wait_for_selector("#popup .popup-notes ul.notes li")
    title = hud.text_content("#popup-title") or ""  # the game as a player reads it
    assert title.startswith(player + " · ") and not any(
        key in title for key in ("chiribito", "aces-straights-flushes", "calatone"))
    assert note in hud.text_content("#popup .popup-notes")
    hud.wait_for_selector("#popup table[data-section='by_position'] tbody tr")
    hud.wait_for_selector("#popup table[data-section='by_round'] tbody tr")
    assert hud.evaluate("window.x") is None  # the note ran nothing
    if shots:
        hud.screenshot(path=str(Path(shots) / "hud-popup.png"))
    assert problems == [] and problems2 == []


def test_a_name_in_lower_case_finds_the_player(browser: Any, served: tuple[str, Any]) -> None:
    url, _ = served
    players = _get(url + "/api/players")
    name = next(p["player"] for p in players if p["player"] != p["player"].lower())
    pg, problems = _open(browser, url + "/hands")
    pg.wait_for_selector("#hands tbody tr")
    pg.fill("#search input[name='player']", name.lower())
    pg.click("#search button")
    pg.wait_for_url("**/hands?player=*")
    pg.wait_for_selector("#hands tbody tr")
    total = int(pg.text_content("#count").split(" ")[0].replace(",", ""))
    exact = _get(url + "/api/hands?per=500&player=" + quote(name))
    assert total == len(exact) > 0
    assert problems == []


@pytest.mark.parametrize("width", [1280, 420])
def test_the_joker_card_shows_whole(browser: Any, served: tuple[str, Any], width: int) -> None:
    """The replayer's joker card (Aces, Straights and Flushes) fits its
    card at either width: a star, named "joker" where the cards have room
    for their suit's name (the word JOKER was once cut to "OKER")."""
    url, _ = served
    hand = _get(url + "/api/hands?per=1&game=aces-straights-flushes")[0]
    pg, problems = _open(browser, url + f"/hand?site={quote(hand['site'])}&id="
                         f"{quote(hand['hand_id'])}", width)  # fmt: skip
    pg.wait_for_selector(".card.joker")
    pg.keyboard.press("End")  # every card dealt
    cards = pg.evaluate("[...document.querySelectorAll('.card.joker')].map(c => "
                        "[c.title, c.textContent, c.scrollWidth, c.clientWidth])")  # fmt: skip
    assert cards and all(title.startswith("joker") and text.startswith("\u2605")
                         and scroll <= client for title, text, scroll, client in cards)
    assert problems == []


def test_a_tag_written_on_the_hand_page_shows_under_its_heading(
        browser: Any, served: tuple[str, Any]) -> None:  # fmt: skip
    """The hand's tags and notes sit under its heading (which hand, its
    verdict), above the table; a tag and a hostile note written there show
    after the reload, the note as text."""
    url, _ = served
    hand = _get(url + "/api/hands?per=1&game=calatone")[0]
    pg, problems = _open(browser, url + f"/hand?site={quote(hand['site'])}&id="
                         f"{quote(hand['hand_id'])}", 420)  # fmt: skip
    pg.wait_for_selector("#head .title")
    order = pg.evaluate("[...document.body.querySelectorAll('#head, #hand-notes, main')]"
                        ".map(e => e.id || e.tagName.toLowerCase())")  # fmt: skip
    assert order == ["head", "hand-notes", "main"]
    pg.fill("#hh-note-form input[name='tag']", "bluff")
    pg.click("#hh-note-form button[value='tag']")
    pg.wait_for_selector("#hh-tags .hh-tag")
    assert pg.text_content("#hh-tags .hh-tag") == "bluff"
    note = "<img src=x onerror=window.x=1> he had it"
    pg.fill("#hh-note-form input[name='text']", note)
    pg.click("#hh-note-form button[value='note']")
    pg.wait_for_selector("#hh-notes li")
    assert note in pg.text_content("#hh-notes li")  # shown as text, run as nothing
    assert pg.evaluate("window.x") is None
    assert pg.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert problems == []
