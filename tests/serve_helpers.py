"""Test-only: databases and live servers for the ``hh serve`` tests."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
