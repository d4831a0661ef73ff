"""The HTML replayer in a real browser (headless Chromium, Playwright).

Steps through a disputed hand with the arrow keys and the buttons, checks
the table at the end against the verdict, the violation's highlight, and
that players named like HTML or script run nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from handtext import EX_CALATONE, EX_CHIRIBITO, HandText

from hh.model import Game
from hh.parse import parse_hand
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand
from reports.show.explain import explain, hand_meta
from reports.show.replayer import page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine")

IMG = "<img src=x onerror=window.x=1>"
SCRIPT = "</script><script>x=1</script>"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


def _rename(text: HandText, old: str, new: str) -> HandText:
    return HandText(tuple(line.replace(old, new) for line in text.lines))


def _page_file(tmp_path: Path, text: str) -> tuple[Path, object]:
    hand = parse_hand(text)
    trace: list = []
    verdict = validate(hand, None, trace)
    path = tmp_path / "hand.html"
    path.write_text(page(explain(hand, verdict, trace, text), hand_meta(hand, verdict)),
                    encoding="utf-8")  # fmt: skip
    return path, verdict


def _open(browser: object, path: Path) -> tuple[object, list[str]]:
    pg = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: errors.append(f"request {r.url}") if not r.url.startswith(
        "file:") else None)  # fmt: skip
    pg.goto(path.as_uri())
    return pg, errors


def _seat_stacks(pg: object) -> dict[str, int]:
    return pg.evaluate(  # type: ignore[attr-defined]
        """() => Object.fromEntries([...document.querySelectorAll('.seat[data-name]')]
              .map(s => [s.getAttribute('data-name'), +s.querySelector('.stack').textContent]))"""
    )


def test_step_through_a_disputed_hand(browser: object, tmp_path: Path) -> None:
    text = _rename(_rename(EX_CHIRIBITO, "Paco", IMG), "Marta", SCRIPT)
    text = text.replace("Lucía: raises 40 to 80", "Lucía: raises 20 to 60")
    path, verdict = _page_file(tmp_path, text.text)
    assert not verdict.valid
    pg, errors = _open(browser, path)
    steps = pg.evaluate("window.hhReplayer.steps")
    assert pg.evaluate("window.hhReplayer.at()") == 0
    # forward to the end: arrow keys for the first half, the button for the rest
    for k in range(steps - 1):
        if k < steps // 2:
            pg.keyboard.press("ArrowRight")
        else:
            pg.click("#next")
        assert pg.evaluate("window.hhReplayer.at()") == k + 1
    assert pg.is_disabled("#next")
    pg.keyboard.press("ArrowRight")  # past the end: stays
    assert pg.evaluate("window.hhReplayer.at()") == steps - 1
    # the end: the pot and the stacks the verdict gives
    ends = {s.name: s.end for s in verdict.stacks}
    assert _seat_stacks(pg) == ends
    total = sum(p.amount for p in verdict.pots)
    assert int(pg.text_content("#pot-amount")) == total
    assert pg.text_content("#paid") == "paid: " + ", ".join(
        f"{n} {v}" for n, v in verdict.payouts.items())  # fmt: skip
    # names are shown as text, never as markup
    assert pg.locator(".seat .name", has_text=IMG).count() == 1
    assert pg.locator(".seat .name", has_text=SCRIPT).count() == 1
    assert pg.evaluate("typeof window.x") == "undefined"
    assert pg.locator("img").count() == 0
    # back with the key and the button
    pg.keyboard.press("ArrowLeft")
    pg.click("#prev")
    assert pg.evaluate("window.hhReplayer.at()") == steps - 3
    # jump to the first violation: highlighted, with its explanation
    pg.click("#violation")
    line = text.line("Lucía: raises 20 to 60")
    current = pg.locator("#text li.cur")
    assert current.count() == 1
    assert "bad" in current.get_attribute("class").split()
    assert current.locator(".no").text_content() == str(line)
    assert "RAISE_SIZE" in pg.text_content("#explain .fault")
    assert "a raise is to 80 at least" in pg.text_content("#explain .dispute")
    assert "culprit" in pg.get_attribute('.seat[data-name="Lucía"]', "class")
    pg.keyboard.press("Home")
    assert pg.evaluate("window.hhReplayer.at()") == 0
    assert errors == []
    pg.close()


def test_cards_drawn_per_deck(browser: object, tmp_path: Path) -> None:
    path, _ = _page_file(tmp_path, EX_CHIRIBITO.text)
    pg, errors = _open(browser, path)
    pg.keyboard.press("End")
    suits = pg.evaluate("[...document.querySelectorAll('#board .card')].map(c => c.dataset.suit)")
    assert suits == ["copas", "copas", "espadas", "copas", "oros"]  # 7c Sc Re Cc 6o
    assert pg.locator("#board .card svg").count() == 5
    pg.close()
    path, _ = _page_file(tmp_path, EX_CALATONE.text)
    pg, errors2 = _open(browser, path)
    pg.keyboard.press("End")
    dario = pg.locator('.seat[data-name="Dario"] .card')
    assert dario.count() == 7 and dario.first.text_content() == "K\u2665"
    assert pg.locator('.seat[data-name="Dario"] .card.used').count() == 5  # his declaration
    assert errors == [] and errors2 == []
    pg.close()


@pytest.mark.parametrize("game", list(Game))
def test_simulated_hero_view_pages(browser: object, tmp_path: Path, game: Game) -> None:
    """Hero-view hands: others' cards drawn face down, every step without error."""
    hands = list(Simulator(game, seed=5, view="Hero").hands(12))
    hand = max(hands, key=lambda h: len(h.sections))  # the longest: a showdown, likely
    path, _ = _page_file(tmp_path, write_hand(hand))
    pg, errors = _open(browser, path)
    steps = pg.evaluate("window.hhReplayer.steps")
    backs = 0
    for _ in range(steps):
        backs = max(backs, pg.locator(".card.back").count())
        pg.keyboard.press("ArrowRight")
    assert backs > 0
    assert errors == []
    pg.close()


def test_consequences_are_subdued_beside_their_cause(browser: object, tmp_path: Path) -> None:
    """A call one chip short: its line is the one violation shown as such;
    the eight that follow from it are subdued and link back to it."""
    from test_follows import BAD_CALL, LATER, SHORT

    path, verdict = _page_file(tmp_path, SHORT.text)
    call = SHORT.line(BAD_CALL)
    later = [SHORT.line(x) for x in LATER]
    assert [v.follows for v in verdict.violations] == [None] + [call] * len(later)
    pg, errors = _open(browser, path)
    assert "(8 follow from earlier ones)" in pg.text_content("#head .badge.bad")
    classes = pg.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#text li')]"
        ".map(li => [+li.querySelector('.no').textContent, li.className]))"
    )
    marks = {n: set(c.split()) & {"bad", "after"} for n, c in classes.items()}
    assert marks[str(call)] == {"bad"}
    for n in later:
        assert marks[str(n)] == {"bad", "after"}
    assert sum(1 for m in marks.values() if m) == 1 + len(later)
    # the first violation is the cause, with the lines that follow from it
    pg.click("#violation")
    assert pg.locator("#text li.cur .no").text_content() == str(call)
    assert pg.locator("#explain .fault.after").count() == 0
    links = pg.locator("#explain .fault .later button.goto")
    assert [links.nth(k).text_content() for k in range(links.count())] == [
        f"line {n}" for n in later
    ]
    assert "culprit" in pg.get_attribute('.seat[data-name="Íñigo"]', "class")
    # to a consequence and back to its cause by the links
    links.first.click()
    assert pg.locator("#text li.cur .no").text_content() == str(later[0])
    after = pg.locator("#explain .fault.after")
    assert after.count() == 1
    assert "ROUND_NOT_CLOSED" in after.text_content()
    assert f"follows from line {call}" in after.text_content()
    assert not pg.get_attribute("#table", "class")  # the table flags causes only
    after.locator("button.goto").click()
    assert pg.locator("#text li.cur .no").text_content() == str(call)
    assert errors == []
    pg.close()


def _calatone_seven(seed: int = 5) -> str:
    """A simulated 7-player Calatone hand where the player at seat 6 or 7
    (the table's right side, beside the log) shows his seven cards."""
    import re

    for hand in Simulator(Game.CALATONE, seed=seed, players=7).hands(2000):
        text = write_hand(hand)
        if "7-max" in text and "7TH STREET" in text and re.search(
                r"^Seat 6: .*showed", text, re.M):
            return text
    raise AssertionError("no 7-player hand reached 7th street")


def test_seven_calatone_seats_stay_on_the_table(browser: object, tmp_path: Path) -> None:
    path, _ = _page_file(tmp_path, _calatone_seven())
    pg, errors = _open(browser, path)
    pg.set_viewport_size({"width": 1280, "height": 800})
    pg.keyboard.press("End")
    boxes = pg.evaluate(
        """() => { const log = document.getElementById('text').getBoundingClientRect();
             const main = document.querySelector('main').getBoundingClientRect();
             return [...document.querySelectorAll('.seat[data-name]')].map(s => {
               const r = s.getBoundingClientRect();
               return [s.getAttribute('data-seat'), s.querySelectorAll('.card').length,
                       r.left >= main.left, r.right <= log.left]; }); }"""
    )
    assert len(boxes) == 7
    assert boxes[5][:2] == ["6", 7]  # seat 6, at the right, shows his seven cards
    assert [b for b in boxes if not (b[2] and b[3])] == []
    assert errors == []


def test_long_line_numbers_do_not_wrap(browser: object, tmp_path: Path) -> None:
    from reports.show.explain import explain, hand_meta

    text = EX_CHIRIBITO.text
    hand = parse_hand(text)
    trace: list = []
    verdict = validate(hand, None, trace)
    rows = explain(hand, verdict, trace, text)
    for k, row in enumerate(rows):  # as if the hand began deep in a big file
        row["line"] = 123456 + k
    path = tmp_path / "hand.html"
    path.write_text(page(rows, hand_meta(hand, verdict)), encoding="utf-8")
    pg, errors = _open(browser, path)
    # each number's text on one line (a Range's rects: one per line it spans)
    lines = pg.evaluate(
        """() => [...document.querySelectorAll('#text li .no')].map(n => {
              const r = document.createRange(); r.selectNodeContents(n);
              return [n.textContent, r.getClientRects().length]; })"""
    )
    assert lines[0] == ["123456", 1]
    assert [n for n in lines if n[1] != 1] == []
    assert errors == []
