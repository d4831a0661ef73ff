"""``hh serve`` answers only requests for its own address (issue 43: DNS
rebinding), with or without a token; a token has at least 16 visible
characters; an oversized request is answered 414/431, not dropped. The
server is the real command, in its own process, spoken to over a socket
with the Host each test names."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from serve_helpers import build_db, free_port

from reports.web.hosts import MAX_PARAMS, MAX_TARGET, own_hosts


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("hosts"), hands=8)


@contextmanager
def serving(db: Path, *args: str) -> Iterator[int]:
    """``hh serve --db DB ARGS`` on a free port; yields the port once it answers."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "hh", "serve", "--db", str(db), "--port",
                             str(port), *args], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=5).connect()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "hh serve did not start"
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(30)
        if proc.stderr is not None:
            proc.stderr.close()


def ask(port: int, target: str, host: str | None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    """GET ``target`` with this ``Host`` header (None: none at all)."""
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        con.putrequest("GET", target, skip_host=True)
        if host is not None:
            con.putheader("Host", host)
        for k, v in (headers or {}).items():
            con.putheader(k, v)
        con.endheaders()
        r = con.getresponse()
        body = r.read()
        kind = r.getheader("content-type") or ""
        return r.status, json.loads(body) if "json" in kind else {}
    finally:
        con.close()


def test_only_its_own_host_is_answered(db: Path) -> None:
    """A rebound name gets 400 (its error says what to do), token or not;
    loopback names, the --host and the --allow-host names are answered."""
    with serving(db, "--allow-host", "tracker.lan") as port:
        for host in ("127.0.0.1", f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST.",
                     f"[::1]:{port}", "tracker.lan", f"Tracker.LAN:{port}"):
            assert ask(port, "/api/tables", host)[0] == 200, host
        for host in ("evil.example", f"evil.example:{port}", "localhost.evil.example",
                     "127.0.0.1.evil.example", "tracker.lan.evil", "192.168.1.20", ""):
            code, body = ask(port, "/api/tables", host)
            assert code == 400, host
            assert "own address" in str(body["error"]) and "--allow-host" in str(body["error"])
        assert ask(port, "/", "evil.example")[0] == 400  # pages too, not only the API
        assert ask(port, "/api/tables", None)[0] == 400  # no Host at all


def test_a_token_does_not_open_it_to_another_host(db: Path) -> None:
    token = "abcdefghijklmnopqrstuvwxyz"
    with serving(db, "--token", token) as port:
        bearer = {"Authorization": f"Bearer {token}"}
        assert ask(port, "/api/tables", "localhost", bearer)[0] == 200
        assert ask(port, "/api/tables", "localhost")[0] == 401
        assert ask(port, "/api/tables", "evil.example", bearer)[0] == 400
        assert ask(port, f"/api/tables?token={token}", "evil.example")[0] == 400


def test_oversized_requests_get_414_or_431(db: Path) -> None:
    """A 1 MB query value, 20,000 repeated parameters, 100 KB of headers:
    each an answer saying the limit, and the server answers after them."""
    with serving(db) as port:
        code, body = ask(port, "/api/hands?player=" + "x" * 1_000_000, "localhost")
        assert code == 414 and f"{MAX_TARGET:,}" in str(body["error"])
        code, body = ask(port, "/api/hands?" + "&".join(["game=c"] * 20_000), "localhost")
        assert code == 414
        code, body = ask(port, "/api/hands?" + "&".join(["g"] * (MAX_PARAMS + 1)), "localhost")
        assert code == 414 and f"{MAX_PARAMS + 1:,} parameters" in str(body["error"])
        code, _ = ask(port, "/api/tables", "localhost", {"X-Big": "y" * 100_000})
        assert code == 431
        assert ask(port, "/api/hands?" + "&".join(["game=chiribito"] * 50), "localhost")[0] \
            == 200
        assert ask(port, "/api/tables", "localhost")[0] == 200


@pytest.mark.parametrize("token", [" ", " " * 20, "short", "fifteen-chars-x", "a b" * 10,
                                   "tab\tinside-a-long-token"])
def test_a_weak_token_is_refused(db: Path, token: str) -> None:
    got = subprocess.run([sys.executable, "-m", "hh", "serve", "--db", str(db), "--token",
                          token, "--port", str(free_port())], capture_output=True, text=True,
                         timeout=120)
    assert got.returncode == 2
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hh serve: --token: "), got.stderr
    assert "at least 16" in lines[0] or "visible characters only" in lines[0]


def test_the_names_compared() -> None:
    hosts = own_hosts("0.0.0.0", ["Box.Local."])
    assert "10.0.0.7:8765" in hosts and "[fe80::1]:80" in hosts  # any address: listens on all
    assert "box.local" in hosts and "other.local" not in hosts
    one = own_hosts("192.168.1.5")
    assert "192.168.1.5:8765" in one and "192.168.1.6" not in one and "::1" in one
    assert "127.8.9.10" in one and "localhost" in one and "" not in one
