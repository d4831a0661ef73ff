"""``hh serve``: registered on the ``hh`` app through the ``hh.commands``
entry point; Starlette, uvicorn and Jinja2 (the ``serve`` extra) are
imported inside the command.

Exit codes: 0 stopped (Ctrl-C), 2 could not start (no database, a
non-loopback address without a token, a port in use, the extra missing).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import sys
from typing import NoReturn

import typer

from hh.cli_support import SPEAKERS, fail, say
from hh.pool import default_workers
from pipelines.dblock import DB_HELP, db_path
from reports.render.columns import SAMPLE

DEFAULT_PORT = 8765
MIN_TOKEN = 16  # visible characters of a --token


def _fail(message: str) -> NoReturn:
    fail(message, "hh serve")


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot guard a server (None: it can): it must be at
    least :data:`MIN_TOKEN` visible characters, and nothing else (a blank
    or a control character does not survive an address or a header)."""
    if any(not c.isprintable() or c.isspace() for c in token):
        return "a token is made of visible characters only (no blanks, no control characters)"
    if len(token) < MIN_TOKEN:
        return (f"a token of {len(token)} characters is guessed too easily: give at least "
                f"{MIN_TOKEN} (or leave --token out off loopback: one is made up)")
    return None


def register(app: typer.Typer) -> None:
    """Add ``hh serve`` to the ``hh`` command line."""
    SPEAKERS["serve"] = "hh serve"

    @app.command("serve")
    def serve(
        db: str | None = typer.Option(
            None, "--db", help=DB_HELP
        ),
        lake: str | None = typer.Option(None, "--lake", help="Serve this lake, read-only."),
        watch: list[str] = typer.Option(  # noqa: B008
            [], "--watch", help="Import this folder (or file) as it is written (repeatable)."
        ),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(
            DEFAULT_PORT, "--port", min=0, max=65535, help="Port to listen on."
        ),
        token: str | None = typer.Option(
            None, "--token", help="Require this token (made up and printed when --host is "
            f"not loopback and none is given; at least {MIN_TOKEN} visible characters)."
        ),
        allow_host: list[str] = typer.Option(  # noqa: B008
            [], "--allow-host", help="Also answer requests for this name (repeatable): "
            "requests for any other name than loopback's and --host's get 400."
        ),
        workers: int = typer.Option(
            1, "--workers", min=0, help="--watch: processes that parse (0: the cores)."
        ),
        quiet: float = typer.Option(
            1.0, "--quiet", help="--watch: seconds without change after which the last "
            "hand of a file is complete."
        ),
        hero: list[str] = typer.Option(  # noqa: B008
            [], "--hero", help="Your own name (repeatable: one per site); the overview and "
            "the sessions start with you. Default: found in hero-view logs."
        ),
        sample: int = typer.Option(
            SAMPLE, "--sample", min=1, help="The HUD greys a statistic seen on fewer "
            "opportunities than this."
        ),
    ) -> None:
        """The tracker in a browser: overview, players, tables, hands (each in
        the replayer), live tables; a JSON API under /api/ (docs/serve.md).
        With --watch it imports the folders as a poker client writes them."""
        try:
            import uvicorn

            from reports.web.app import Config, create_app
        except ImportError as error:
            _fail(f"needs the serve extra (pip install 'hh[serve]'): {error}")
        if db is not None and lake is not None:
            _fail("--db and --lake: give one of them")
        if lake is not None and watch:
            _fail("--watch imports into a database: it cannot be used with --lake")
        path = None if lake is not None else db_path(db)
        folders = [os.path.abspath(w) for w in watch]
        for w in folders:
            if not os.path.exists(w):
                _fail(f"--watch {w}: no such file or folder")
        if path is not None and not os.path.exists(path):
            if not folders:
                _fail(f"no database at {path} (run `hh import` first, pass --db FILE, "
                      "or --watch a folder to import)")  # fmt: skip
            from pipelines.importer import ImportFailure, connect

            try:
                connect(path).close()
            except ImportFailure as failure:
                _fail(str(failure))
        elif path is not None:  # a file that cannot be read says so now, not on every page
            from pipelines.database import open_db
            from pipelines.dblock import DatabaseBusy, DatabaseUnusable

            try:
                open_db(path, read_only=True, timeout=0).close()
            except DatabaseBusy:  # an import writes it: the pages wait their turn
                pass
            except DatabaseUnusable as unusable:  # damaged, not a database
                _fail(str(unusable))
        if lake is not None:
            from pipelines.lake import Lake, NoLake

            try:
                Lake(lake).require()
            except NoLake as no:
                _fail(str(no))
        if token is not None and (problem := token_problem(token)):
            _fail(f"--token: {problem}")
        if not is_loopback(host) and not token:
            token = secrets.token_urlsafe(18)
        try:  # a port in use says so now, not in a traceback
            with socket.create_server((host, port), reuse_port=False):
                pass
        except OSError as error:
            _fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
        config = Config(db=path, lake=lake, watch=folders, workers=workers or default_workers(),
                        quiet=quiet, token=token, sample=sample, heroes=list(hero))  # fmt: skip
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
        what = f"the lake {lake}" if lake else path
        say(f"{what} at {url}", "hh serve")
        if folders:
            say(f"watching {', '.join(folders)}", "hh serve")
        say("Ctrl-C stops", "hh serve")
        sys.stderr.flush()
        from reports.web.hosts import HEAD_LIMIT, HostCheck, own_hosts

        uvicorn.run(HostCheck(create_app(config), own_hosts(host, allow_host)),
                    host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                    access_log=False, h11_max_incomplete_event_size=HEAD_LIMIT)  # fmt: skip
