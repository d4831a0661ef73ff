"""``hh serve`` in a real browser (headless Chromium driven by Playwright):
the overview, sorting the players, a player's page, a hand in the replayer
stepped through, a hand appended to a watched file appearing on the
overview and the live table view without a reload; a hostile name runs no
script, no console error, and no request leaves the machine."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from import_helpers import session
from serve_helpers import CHROMIUM, HOSTILE, chromium, logs, open_page, running

from hh.model import Game
from reports.web.app import Config, create_app

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """A server watching a folder (the logs of serve_helpers), its URL, the
    folder and the live file to append to."""
    tmp = tmp_path_factory.mktemp("browser")
    folder, _ = logs(tmp / "logs", 25)
    text = session(Game.ACES, 12, 77, tables=1)
    hands = text.strip("\n").split("\n\n")
    live = folder / "live.txt"
    live.write_text("\n\n".join(hands[:6]) + "\n\n", encoding="utf-8")
    (tmp / "rest.txt").write_text("\n\n".join(hands[6:]) + "\n", encoding="utf-8")
    app = create_app(Config(db=str(tmp / "hands.duckdb"), watch=[str(folder)], quiet=0.8))
    with running(app) as url:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if app.state.status.cycles >= 2:  # the first import and the quiet one
                break
            time.sleep(0.1)
        yield url, folder, live


def _open(browser: object, url: str) -> tuple[Any, list[str]]:
    return open_page(browser, url, init="window.x = 0")


def test_overview_players_player_hand(browser: object, served: tuple[str, Path, Path]) -> None:
    url, _, _ = served
    pg, problems = _open(browser, url + "/")
    pg.wait_for_selector("#last-hands tbody tr")
    assert "hands stored" in pg.text_content("#total")
    pg.click("a[href='/players']")
    pg.wait_for_selector("#players tbody tr")
    pg.wait_for_selector("#chart-net .main-svg")
    column = "#players tbody tr td:nth-child(5)"  # draw, player, game, stakes, hands
    pg.click("#players th[data-key='hands']")  # first click: highest first, as --sort
    hands = pg.eval_on_selector_all(column, "tds => tds.map(t => +t.textContent.replace(/,/g, ''))")
    assert hands == sorted(hands, reverse=True) and len(hands) > 5 and hands[0] > hands[-1]
    pg.click("#players th[data-key='hands']")  # then lowest first
    again = pg.eval_on_selector_all(column, "tds => tds.map(t => +t.textContent.replace(/,/g, ''))")
    assert again == sorted(hands)
    names = pg.eval_on_selector_all("#players tbody tr td:nth-child(2)",
                                    "tds => tds.map(t => t.textContent)")  # fmt: skip
    assert HOSTILE in names  # shown as text
    pg.click(f"#players a[href='/player?name={_q(HOSTILE)}']")
    pg.wait_for_selector("#section-overall tbody tr")
    assert pg.text_content("#title") == HOSTILE
    pg.wait_for_selector("#chart-net .main-svg")
    pg.click("#hands tbody tr:first-child td:nth-child(2) a")
    pg.wait_for_selector("#text li")
    steps = pg.evaluate("window.hhReplayer.steps")
    assert steps > 5
    pg.click("#next")
    pg.click("#next")
    assert pg.evaluate("window.hhReplayer.at()") == 2
    pg.keyboard.press("End")
    assert pg.evaluate("window.hhReplayer.at()") == steps - 1
    assert pg.evaluate("window.x") == 0  # the hostile name ran nothing
    assert problems == []


def _q(text: str) -> str:
    from urllib.parse import quote_plus

    return quote_plus(text)


def test_filters_search_pages_and_a_table(browser: object,
                                          served: tuple[str, Path, Path]) -> None:  # fmt: skip
    """The players page's game filter, the hand search by player and its
    pages, a table's page from a hand's table."""
    import json
    import urllib.request

    url, _, _ = served
    pg, problems = _open(browser, url + "/players")
    pg.wait_for_selector("#players tbody tr")
    pg.select_option("#filters select[name='game']", "chiribito")
    pg.click("#filters button")
    pg.wait_for_url("**/players?game=chiribito")
    pg.wait_for_selector("#players tbody tr")
    games = pg.eval_on_selector_all("#players tbody tr td:nth-child(3)",
                                    "tds => tds.map(t => t.textContent)")  # fmt: skip
    assert set(games) == {"Chiribito"}  # the game as a player reads it

    with urllib.request.urlopen(url + "/api/hands?per=500") as r:
        every = json.loads(r.read())
    assert 50 < len(every) <= 100  # two pages of 50
    pg.goto(url + "/hands")
    pg.wait_for_selector("#hands tbody tr")
    assert pg.text_content("#count") == f"{len(every)} hands, newest first"
    assert pg.text_content("#page") == "page 1 of 2"
    first = pg.eval_on_selector_all("#hands tbody tr td:nth-child(2)",
                                    "tds => tds.map(t => t.textContent)")  # fmt: skip
    pg.click("#next")
    pg.wait_for_url("**/hands?page=2")
    pg.wait_for_selector("#hands tbody tr")
    second = pg.eval_on_selector_all("#hands tbody tr td:nth-child(2)",
                                     "tds => tds.map(t => t.textContent)")  # fmt: skip
    assert first + second == [h["hand_id"] for h in every]
    assert pg.text_content("#page") == "page 2 of 2" and pg.is_hidden("#next")

    pg.fill("#search input[name='player']", HOSTILE)
    pg.click("#search button")
    pg.wait_for_url("**/hands?player=*")
    pg.wait_for_selector("#hands tbody tr")
    mine = [h for h in every if h["hand_id"] in pg.eval_on_selector_all(
        "#hands tbody tr td:nth-child(2)", "tds => tds.map(t => t.textContent)")]
    assert pg.text_content("#count") == f"{len(mine)} hands, newest first" and mine
    table = mine[0]["table_name"]
    pg.click("#hands tbody tr:first-child td:nth-child(5) a")
    pg.wait_for_selector("#sessions tbody tr")
    assert table in pg.text_content("#title")
    pg.wait_for_selector("#chart-stacks .main-svg")
    times = pg.eval_on_selector_all("#hands tbody tr td:nth-child(1)",
                                    "tds => tds.map(t => t.textContent)")  # fmt: skip
    assert times == sorted(times) and len(times) > 5
    assert pg.evaluate("window.x") == 0 and problems == []


def test_a_hand_appended_shows_live(browser: object, served: tuple[str, Path, Path]) -> None:
    url, folder, live = served
    pg, problems = _open(browser, url + "/")
    pg.wait_for_selector("#last-hands tbody tr")
    hud, problems2 = _open(browser, url + "/live")
    hud.wait_for_selector("section.live")
    before = hud.eval_on_selector_all("section.live h2", "hs => hs.map(h => h.textContent)")
    rest = (folder.parent / "rest.txt").read_text(encoding="utf-8")
    new = rest.strip("\n").split("\n\n")[0]
    new_id = new.split("\n")[0].split("#")[1].split(" ")[0].rstrip(":")
    with live.open("a", encoding="utf-8") as f:
        f.write(new + "\n\n")
    start = time.monotonic()
    pg.wait_for_function(f"document.querySelector('#last-hands').textContent"
                         f".includes({new_id!r})", timeout=5000)  # fmt: skip
    hud.wait_for_function(f"[...document.querySelectorAll('section.live h2')].some("
                          f"h => h.textContent.includes({new_id!r}))", timeout=5000)  # fmt: skip
    assert time.monotonic() - start < 5
    after = hud.eval_on_selector_all("section.live h2", "hs => hs.map(h => h.textContent)")
    assert after != before
    hud.wait_for_selector("section.live tbody tr td:nth-child(5)")
    assert problems == [] and problems2 == []


def test_hidden_characters_in_a_name_are_shown_as_every_command_shows_them(
    browser: object, tmp_path: Path
) -> None:
    """A name with a right-to-left override reads as another on a page; the
    pages show it escaped, as the terminal does (hh.output.safe), in the
    players table, the player's title and the replayer; the page's script
    escapes exactly the characters hh.output.safe does."""
    from import_helpers import hh_import
    from serve_helpers import first_player

    from hh.output import safe

    text = session(Game.CHIRIBITO, 6, 91, tables=1)
    sneaky = "Pa\u202eoc\u200f"  # reads "Paco" followed by an invisible mark
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "ch.txt").write_text(text.replace(first_player(text), sneaky), encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    assert hh_import(str(folder), "--db", str(db), "--workers", "1")[0] == 0
    with running(create_app(Config(db=str(db)))) as url:
        pg, problems = _open(browser, url + "/players")
        pg.wait_for_selector("#players tbody tr")
        names = pg.eval_on_selector_all("#players tbody tr td:nth-child(2)",
                                        "tds => tds.map(t => t.textContent)")  # fmt: skip
        assert safe(sneaky) == "Pa\\u202eoc\\u200f" and safe(sneaky) in names
        pg.click(f"#players a[href='/player?name={_q(sneaky)}']")  # the link keeps the name
        pg.wait_for_selector("#section-overall tbody tr")
        assert pg.text_content("#title") == safe(sneaky)
        assert pg.title() == "hh · " + safe(sneaky)
        pg.click("#hands tbody tr:first-child td:nth-child(2) a")
        pg.wait_for_selector("#text li")
        page_text = pg.inner_text("body")
        assert safe(sneaky) in page_text and "\u202e" not in page_text
        pg.goto(url + "/players")
        pg.wait_for_selector("#players tbody tr")
        escaped = pg.evaluate(
            "Array.from({length: 0x10000}, (_, i) => i)"
            ".filter(i => new RegExp(UNSAFE.source).test(String.fromCharCode(i)))"
        )
        assert escaped == [i for i in range(0x10000) if safe(chr(i)) != chr(i)]
        assert problems == []
