"""The ``hh serve`` application: Starlette routes over
hh.reports.web.data, pages from Jinja2 templates (autoescape on), the
charts drawn by Plotly served from the installed ``plotly`` package, live
updates by server-sent events (``/api/events``). docs/serve.md documents
the pages and the API.

Safety: every page is rendered with autoescape and fills itself with
``textContent`` from the JSON API (never ``innerHTML``); the Content
Security Policy allows scripts and requests to this server only, so no
request leaves the machine; with a token (required off loopback) every
request without it gets 401; static files are a fixed list of names, and a
hand is looked up by its key as SQL parameters, never as a path.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

import anyio.to_thread
from hh.reports.web import data
from hh.reports.web.integrity import endpoint as integrity_endpoint
from hh.reports.web.source import Busy, Source
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

CSP = ("default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")  # fmt: skip
# the replayer page of hh show carries its own script inline (hh.reports.replayer)
REPLAYER_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                "img-src data:; base-uri 'none'; form-action 'none'")  # fmt: skip
COOKIE = "hh_token"
T = TypeVar("T")
THREADS = 128  # threads for the requests that read (Starlette's default: 40)
Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                Awaitable[None]]  # fmt: skip


@dataclass
class Watching:
    """What the watch of this server has done (the overview's progress)."""

    folders: list[str] = field(default_factory=list)
    state: str = "off"  # off, starting, watching, stopped, failed
    hands: int = 0
    imported: int = 0
    rejected: int = 0
    cycles: int = 0
    error: str | None = None
    updated: float = 0.0

    def json(self) -> dict[str, Any]:
        return {"folders": self.folders, "state": self.state, "hands": self.hands,
                "imported": self.imported, "rejected": self.rejected, "cycles": self.cycles,
                "error": self.error}  # fmt: skip


@dataclass
class Config:
    """One server: where it reads, what it watches, its token."""

    db: str | None = None
    lake: str | None = None
    watch: list[str] = field(default_factory=list)
    workers: int = 1
    quiet: float = 1.0
    token: str | None = None


# --------------------------------------------------------------- assets


@cache
def _template_env() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("hh.reports.web", "templates"),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True)  # fmt: skip


def _plotly_js() -> bytes:
    import plotly

    return (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()


@cache
def _static(name: str) -> tuple[bytes, str] | None:
    """The static files, by fixed name only (no path from a request is opened)."""
    if name == "plotly.min.js":
        return _plotly_js(), "text/javascript; charset=utf-8"
    kinds = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
    if name not in kinds:
        return None
    return files("hh.reports.web").joinpath("static").joinpath(name).read_bytes(), kinds[name]


# ---------------------------------------------------------------- errors


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def _guarded(fn: Callable[[Request], Response]) -> Callable[[Request], Response]:
    """A sync endpoint whose readable failures become 4xx/503, never 500."""

    def wrapped(request: Request) -> Response:
        from hh.reports.db import ReportError

        try:
            return fn(request)
        except data.BadRequest as error:
            return _error(400, str(error))
        except data.NotFound as error:
            return _error(404, str(error))
        except Busy as error:
            return _error(503, str(error))
        except ReportError as error:
            return _error(400, str(error))

    wrapped.__name__ = fn.__name__
    return wrapped


class _Bodies:
    """The JSON text of results kept per version (:meth:`Source.cached`),
    encoded once per result rather than at every request: the players list
    of a large database is hundreds of kilobytes, and encoding it holds the
    interpreter lock every other request of the server needs."""

    def __init__(self, keep: int = 64) -> None:
        self._keep = keep
        self._by: dict[tuple[Any, ...], tuple[Any, bytes]] = {}

    def response(self, key: tuple[Any, ...], value: Any,
                 headers: dict[str, str] | None = None) -> Response:  # fmt: skip
        """``JSONResponse(value)``, its body encoded once for this very
        ``value`` (the same object: a new version's result is encoded anew)."""
        found = self._by.get(key)
        if found is not None and found[0] is value:
            body = found[1]
        else:
            body = JSONResponse(value).body
            if len(self._by) >= self._keep:
                self._by.clear()
            self._by[key] = (value, body)
        return Response(body, media_type="application/json", headers=headers)


def _query(request: Request) -> dict[str, list[str]]:
    return parse_qs(request.url.query, keep_blank_values=True)


def _one(request: Request, key: str, required: bool = True) -> str:
    values = _query(request).get(key)
    if not values:
        if required:
            raise data.BadRequest(f"missing parameter {key!r}")
        return ""
    return values[-1]


# ------------------------------------------------------------------ app


def create_app(config: Config) -> Starlette:
    """The ASGI application for one database or lake."""
    cache_file = _cache_file(config)
    source = Source(config.db, config.lake, writes=bool(config.watch),
                    hand_list=cache_file if config.db else None)  # fmt: skip
    status = Watching(folders=list(config.watch), state="starting" if config.watch else "off")
    stop = threading.Event()
    bodies = _Bodies()

    def cached_players(q: data.Query) -> list[dict[str, Any]]:
        key = ("players", q.filters, q.sort, q.equity)
        return source.cached(key, lambda con: data.players_list(con, q, cache_file), report=True)

    def all_players() -> list[dict[str, Any]]:
        return cached_players(data.report_query({}))

    # ----------------------------------------------------------- pages

    def page(name: str, title: str, **extra: Any) -> Callable[[Request], Response]:
        async def endpoint(request: Request) -> Response:
            html = _template_env().get_template(f"{name}.html").render(
                page=name, title=title, source=source.label, lake=config.lake is not None,
                watching=bool(config.watch), **extra)  # fmt: skip
            return HTMLResponse(html)

        endpoint.__name__ = f"page_{name}"
        return endpoint

    @_guarded
    def hand_page(request: Request) -> Response:
        from hh.reports.replayer import page as replayer_page

        site, hand_id = _one(request, "site", required=False), _one(request, "id")
        rows, meta = source.cached(("hand", site, hand_id),
                                   lambda con: data.hand(con, site, hand_id))  # fmt: skip
        html = replayer_page(rows, meta)
        nav = ('<nav style="font:14px system-ui;padding:6px 12px;background:#223;">'
               '<a style="color:#fff" href="/hands">&#x2190; hands</a> &#xB7; '
               '<a style="color:#fff" href="/">overview</a></nav>')  # fmt: skip
        html = html.replace("<body>\n", "<body>\n" + nav + "\n", 1)
        return HTMLResponse(html, headers={"Content-Security-Policy": REPLAYER_CSP})

    async def static(request: Request) -> Response:
        found = _static(request.path_params["name"])
        if found is None:
            return _error(404, "no such file")
        body, kind = found
        return Response(body, media_type=kind, headers={"Cache-Control": "max-age=3600"})

    # ------------------------------------------------------------- api

    @_guarded
    def api_players(request: Request) -> Response:
        q = data.report_query(_query(request))
        return bodies.response(("players", q), cached_players(q))

    @_guarded
    def api_series(request: Request) -> Response:
        query = _query(request)
        picked = query.pop("pick", [])
        if len(picked) > 50:
            raise data.BadRequest("pick: at most 50 players at once")
        q = data.report_query(query)
        rows = cached_players(data.Query(q.filters, None, q.equity))
        wanted = set(picked)
        pairs = [(r["player"], r["game"]) for r in rows if r["player"] in wanted]
        key = ("series", q.filters, q.equity, tuple(pairs))
        return bodies.response(key, source.cached(
            key, lambda con: data.series(con, q, pairs, cache_file), report=True))

    @_guarded
    def api_player(request: Request) -> Response:
        query = _query(request)
        name = _one(request, "name")
        query.pop("name", None)
        q = data.report_query(query)
        key = ("player", name, q.filters, q.equity)
        return bodies.response(key, source.cached(
            key, lambda con: data.player_detail(con, name, q, cache_file), report=True))

    @_guarded
    def api_hands(request: Request) -> Response:
        query = _query(request)
        s = data.parse_search(query)
        search = (s.where, s.params)

        def listed(find: Callable[[Any, str | None], T]) -> Callable[[Any], T]:
            """``find(con, table)``, with the table of each player's hands
            for a search by player alone when it may be read."""
            def run(con: Any) -> T:
                if not s.player_only:
                    return find(con, None)
                with source.hand_list(con) as table:
                    return find(con, table)

            return run

        total = source.cached(("count", *search), listed(lambda con, t: data.count(con, s, t)))
        data.past_end(s, total)
        rows = source.cached(("page", *search, s.page, s.per),
                             listed(lambda con, t: data.page(con, s, t)))  # fmt: skip
        return JSONResponse(rows, headers={"X-Total-Count": str(total)})

    @_guarded
    def api_hand(request: Request) -> Response:
        site, hand_id = _one(request, "site", required=False), _one(request, "id")
        rows, meta = source.cached(("hand", site, hand_id),
                                   lambda con: data.hand(con, site, hand_id))  # fmt: skip
        return JSONResponse({"meta": meta, "rows": rows})

    @_guarded
    def api_overview(request: Request) -> Response:
        out = source.cached(("overview",), data.overview)
        return JSONResponse({**out, "watch": status.json(), "source": source.label})

    @_guarded
    def api_tables(request: Request) -> Response:
        return bodies.response(("tables",), source.cached(("tables",), data.tables))

    @_guarded
    def api_table(request: Request) -> Response:
        site, name = _one(request, "site", required=False), _one(request, "name")
        return JSONResponse(source.cached(("table", site, name),
                                          lambda con: data.table_detail(con, site, name)))

    @_guarded
    def api_live(request: Request) -> Response:
        stats = all_players()
        tables = source.cached(("live",), lambda con: data.live(con, config.watch, stats))
        return JSONResponse({"tables": tables, "watch": status.json()})

    @_guarded
    def api_status(request: Request) -> Response:
        return JSONResponse({"watch": status.json(), "version": list(source.refresh())})

    async def api_events(request: Request) -> Response:
        async def events() -> AsyncIterator[str]:
            seen = None
            beat = time.monotonic()
            while not stop.is_set():
                try:
                    version = await anyio.to_thread.run_sync(source.refresh)
                except Busy:
                    version = source.version()
                now = (version, status.updated)
                if now != seen:
                    seen = now
                    beat = time.monotonic()
                    yield f"event: change\ndata: {json.dumps(status.json())}\n\n"
                elif time.monotonic() - beat > 15:
                    beat = time.monotonic()
                    yield ": still here\n\n"
                await asyncio.sleep(0.25)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})  # fmt: skip

    # ----------------------------------------------------------- watch

    def run_watch() -> None:
        from hh.pipelines.importer import ImportFailure
        from hh.pipelines.watch import watch

        def cycle(progress: dict[str, object]) -> None:
            status.state = "watching"
            status.hands = int(progress.get("hands", 0))  # type: ignore[call-overload]
            status.imported = int(progress.get("imported", 0))  # type: ignore[call-overload]
            status.rejected = int(progress.get("rejected", 0))  # type: ignore[call-overload]
            status.cycles += 1
            status.updated = time.monotonic()
            source.changed()

        assert config.db is not None
        try:
            watch(config.db, config.watch, config.workers, config.quiet, stop=stop,
                  on_cycle=cycle, lease=lambda: source.writing(stop),
                  hooks=source.hooks)  # fmt: skip
            status.state = "stopped"
        except ImportFailure as failure:
            status.state, status.error = ("stopped", None) if stop.is_set() else (
                "failed", str(failure))
        except Exception as error:  # the pages go on; the overview says why
            status.state, status.error = "failed", f"{type(error).__name__}: {error}"
        status.updated = time.monotonic()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # requests waiting for a report computation must not take every
        # thread from the quick ones
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        thread = None
        if config.db and Path(config.db).exists():  # searches by player read it from the start
            threading.Thread(target=source.prepare_hand_list, name="hh-serve-hand-list",
                             daemon=True).start()  # fmt: skip
        if config.watch:
            thread = threading.Thread(target=run_watch, name="hh-serve-watch", daemon=True)
            thread.start()
        try:
            yield
        finally:
            stop.set()
            if thread is not None:
                thread.join(30)
            source.close()

    routes = [
        Route("/", page("overview", "Overview")),
        Route("/players", page("players", "Players")),
        Route("/player", page("player", "Player")),
        Route("/tables", page("tables", "Tables and sessions")),
        Route("/table", page("table", "Table")),
        Route("/hands", page("hands", "Hands")),
        Route("/hand", hand_page),
        Route("/live", page("live", "Live tables")),
        Route("/integrity", _guarded(integrity_endpoint(source, cache_file))),
        Route("/static/{name}", static),
        Route("/api/overview", api_overview),
        Route("/api/players", api_players),
        Route("/api/series", api_series),
        Route("/api/player", api_player),
        Route("/api/tables", api_tables),
        Route("/api/table", api_table),
        Route("/api/hands", api_hands),
        Route("/api/hand", api_hand),
        Route("/api/live", api_live),
        Route("/api/status", api_status),
        Route("/api/events", api_events),
    ]
    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, "no such page or file (the pages: docs/serve.md)")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, "only GET is served")

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})  # fmt: skip
    app.state.source = source
    app.state.status = status
    app.state.stop = stop
    return _Guard(app, config.token)  # type: ignore[return-value]


def _cache_file(config: Config) -> str | None:
    """Where the reports keep their per-hand counts: as ``hh report`` does."""
    if config.lake is not None:
        from hh.pipelines.lake import derived_path

        return derived_path(config.lake)
    from hh.reports.cache import default_path

    assert config.db is not None
    return default_path(config.db)


class _Guard:
    """The token check and the security headers around the application."""

    def __init__(self, app: Starlette, token: str | None) -> None:
        self.app = app
        self.token = token
        self.state = app.state

    def _allowed(self, scope: Scope) -> tuple[bool, bool]:
        """(allowed, came in the query string: set the cookie)."""
        if self.token is None:
            return True, False
        given: list[str] = []
        for name, value in scope.get("headers", []):
            if name == b"authorization" and value.lower().startswith(b"bearer "):
                given.append(value[7:].decode("latin-1").strip())
            elif name == b"cookie":
                for part in value.decode("latin-1").split(";"):
                    k, _, v = part.strip().partition("=")
                    if k == COOKIE:
                        given.append(v)
        from_query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
        ok = any(hmac.compare_digest(g.encode(), self.token.encode()) for g in given)
        ok_query = any(hmac.compare_digest(g.encode(), self.token.encode()) for g in from_query)
        return ok or ok_query, ok_query

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        allowed, set_cookie = self._allowed(scope)
        if not allowed:
            response = JSONResponse({"error": "this server needs its token: open the address "
                                     "hh serve printed (…?token=…), or send Authorization: "
                                     "Bearer TOKEN", "status": 401}, status_code=401)  # fmt: skip
            await response(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [(b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"x-frame-options", b"DENY")]  # fmt: skip
                if set_cookie and self.token is not None:
                    headers.append((b"set-cookie", f"{COOKIE}={self.token}; Path=/; HttpOnly; "
                                    "SameSite=Strict".encode()))  # fmt: skip
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
