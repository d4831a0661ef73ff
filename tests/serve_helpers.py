"""Test-only: databases and live servers for the ``hh serve`` tests."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from handtext import EX_CHIRIBITO
from import_helpers import hh_import, session

from hh.model import Game

HOSTILE = "<script>window.x=1</script>"


def first_player(text: str) -> str:
    m = re.search(r"^Seat \d+: (.+?) \(", text, re.M)
    assert m is not None
    return m.group(1)


def logs(folder: Path, hands: int = 40) -> tuple[Path, str]:
    """Three games' sessions in ``folder``, one player renamed to a script
    tag, and a hand made invalid (a raise too small, ``disputed.txt``); returns (folder, the
    renamed player's old name)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = session(Game.CHIRIBITO, hands, 5, tables=2)
    old = first_player(text)
    text = text.replace(old, HOSTILE)
    (folder / "chiribito.txt").write_text(text, encoding="utf-8")
    (folder / "aces.txt").write_text(session(Game.ACES, hands, 6, tables=1), encoding="utf-8")
    (folder / "calatone.txt").write_text(session(Game.CALATONE, hands, 7, tables=1),
                                         encoding="utf-8")  # fmt: skip
    # an invalid hand: the rules' example with a raise too small (RAISE_SIZE)
    disputed = EX_CHIRIBITO.text.replace("Lucía: raises 40 to 80", "Lucía: raises 20 to 60")
    assert disputed != EX_CHIRIBITO.text
    (folder / "disputed.txt").write_text(disputed + "\n", encoding="utf-8")
    return folder, old


def build_db(tmp: Path, hands: int = 40) -> Path:
    folder, _ = logs(tmp / "logs", hands)
    db = tmp / "hands.duckdb"
    _, summary, err = hh_import(str(folder), "--db", str(db), "--workers", "1")
    assert summary is not None and summary["imported"] > 0, err
    return db


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: object, port: int | None = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on loopback; yield its URL."""
    import uvicorn

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                           timeout_graceful_shutdown=1))  # type: ignore[arg-type]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium through Playwright, for the browser tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"])  # fmt: skip
        yield b
        b.close()


def open_page(browser: Any, url: str, width: int = 1400, height: int = 900,
              init: str | None = None) -> tuple[Any, list[str]]:  # fmt: skip
    """A page of ``url`` in a new window of that size, and the problems seen
    there: console errors, page errors, any request leaving the machine
    (aborted). ``init``: a script run before the page's own."""
    context = browser.new_context(viewport={"width": width, "height": height})
    problems: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith("http://127.0.0.1:"):
            r.continue_()
        else:
            problems.append(f"request left the machine: {r.request.url}")
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    if init is not None:
        pg.add_init_script(init)
    pg.goto(url)
    return pg, problems
