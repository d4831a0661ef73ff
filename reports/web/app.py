"""The ``hh serve`` application: Starlette routes over
reports.web.data, pages from Jinja2 templates (autoescape on), the
charts drawn by Plotly served from the installed ``plotly`` package, live
updates by server-sent events (``/api/events``). docs/serve.md documents
the pages and the API. Every endpoint is a module-level function over
``request.app.state.hh`` (:class:`State`: the source and its lock
(reports.web.source), the results kept (reports.web.results), the
watch (reports.web.watcher)); :func:`create_app` only assembles them.

Safety: every page is rendered with autoescape and fills itself with
``textContent`` from the JSON API (never ``innerHTML``); the Content
Security Policy allows scripts and requests to this server only, so no
request leaves the machine; with a token (required off loopback) every
request without it gets 401; static files are a fixed list of names, and a
hand is looked up by its key as SQL parameters, never as a path. The one
writes, a note (POST /api/notes) and a reviewer's mark (POST
/api/review), take JSON only and refuse another site's origin, so no page
elsewhere can make a browser write one.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from reports.render.columns import SAMPLE
from reports.search.hands import count, page
from reports.web import data
from reports.web.results import Bodies, Results
from reports.web.source import Busy, Source
from reports.web.watcher import Watcher

CSP = ("default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")  # fmt: skip
# the replayer page of hh show carries its own script inline (reports.show.replayer)
REPLAYER_CSP = ("default-src 'none'; style-src 'unsafe-inline'; "
                "script-src 'self' 'unsafe-inline'; connect-src 'self'; "
                "img-src data:; base-uri 'none'; form-action 'none'")  # fmt: skip
COOKIE = "hh_token"
T = TypeVar("T")
THREADS = 128  # threads for the requests that read (Starlette's default: 40)
Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                Awaitable[None]]  # fmt: skip


@dataclass
class Config:
    """One server: where it reads, what it watches, its token."""

    db: str | None = None
    lake: str | None = None
    watch: list[str] = field(default_factory=list)
    workers: int = 1
    quiet: float = 1.0
    token: str | None = None
    sample: int = SAMPLE  # the HUD greys a statistic below this many opportunities
    heroes: list[str] = field(default_factory=list)  # --hero: your own names (several sites)


# --------------------------------------------------------------- assets


@cache
def _template_env() -> Any:
    import jinja2

    from hh.output import safe

    env = jinja2.Environment(loader=jinja2.PackageLoader("reports.web", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)  # fmt: skip
    env.filters["shown"] = safe  # control characters and overrides as escapes, as hh shows them
    return env


def _plotly_js() -> bytes:
    import plotly

    return (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()


@cache
def _static(name: str) -> tuple[bytes, str] | None:
    """The static files, by fixed name only (no path from a request is opened)."""
    if name == "plotly.min.js":
        return _plotly_js(), "text/javascript; charset=utf-8"
    kinds = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
             "notes.js": "text/javascript; charset=utf-8",
             "review.js": "text/javascript; charset=utf-8"}  # fmt: skip
    if name not in kinds:
        return None
    return files("reports.web").joinpath("static").joinpath(name).read_bytes(), kinds[name]


# ---------------------------------------------------------------- errors


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def _guarded(fn: Callable[[Request], Response]) -> Callable[[Request], Response]:
    """A sync endpoint whose readable failures become 4xx/503, never 500."""

    def wrapped(request: Request) -> Response:
        from reports.db import ReportError

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
        except Exception as error:
            # a damaged database met while serving: the one line every command
            # says (hh.cli_support.explained: pipelines.dbhealth), 503, no
            # traceback; anything else is a bug, a 500 with its traceback
            from hh.cli_support import explained

            message = explained(error)
            if message is None:
                raise
            return _error(503, message)

    wrapped.__name__ = fn.__name__
    return wrapped


def _query(request: Request) -> dict[str, list[str]]:
    return parse_qs(request.url.query, keep_blank_values=True)


def _one(request: Request, key: str, required: bool = True) -> str:
    values = _query(request).get(key)
    if not values:
        if required:
            raise data.BadRequest(f"missing parameter {key!r}")
        return ""
    return values[-1]


# ---------------------------------------------------------------- state


@dataclass
class State:
    """One server's parts, kept on ``app.state.hh``: every endpoint below
    is a module-level function over ``request.app.state``."""

    config: Config
    source: Source
    results: Results
    watcher: Watcher
    bodies: Bodies
    cache_file: str | None

    def names(self, typed: str) -> tuple[str, ...]:
        """The stored names ``typed`` means (any case, then any accents), or
        NotFound (data.stored_names)."""
        return data.stored_names(self.results.cached(("names",), _name_index), typed)

    def write(self, note: Any, remove: bool) -> bool:
        """Write a note or tag (pipelines.notes.write) through this
        process's one writer: the watch's lease when it watches (a note
        waits for the cycle that imports), else a connection of its own."""
        from pipelines.notes import write

        if self.config.lake is not None:
            raise data.BadRequest("notes and marks are kept in a database: this server "
                                  "reads a lake")
        lease = self.watcher.writing() if self.source.writes else self.source.writing_alone()
        with lease as con:
            changed = write(con, note, remove)
        self.results.forget()
        return changed

    def heroes(self, chosen: list[str] | None = None) -> list[str]:
        """Your own names: ``chosen`` in the page (``?hero=``), else
        ``--hero``, as stored (any case and accents; one not stored is left
        out), else the players a hero-view log shows the cards of
        (data.found_heroes)."""
        typed = chosen or self.config.heroes
        named: list[str] = []
        for name in typed:
            try:
                named += [n for n in self.names(name) if n not in named]
            except data.NotFound:
                continue
        if typed:
            return named
        return self.results.cached(("heroes",), data.found_heroes)

    def players(self, q: data.Query) -> list[dict[str, Any]]:
        key = ("players", q.filters, q.sort, q.equity)
        return self.results.cached(
            key, lambda con: data.players_list(con, q, self.cache_file), report=True)


def _state(request: Request) -> State:
    state: State = request.app.state.hh
    return state


# ------------------------------------------------------------------ pages


def _render(request: Request, name: str, title: str, status: int = 200,
            **extra: Any) -> HTMLResponse:  # fmt: skip
    st = _state(request)
    html = _template_env().get_template(f"{name}.html").render(
        page=name, title=title, source=st.source.label, lake=st.config.lake is not None,
        watching=bool(st.config.watch), catalogue=_catalogue(st.config.sample),
        **extra)  # fmt: skip
    return HTMLResponse(html, status_code=status)


@cache
def _catalogue(sample: int) -> dict[str, Any]:
    """What the pages' script heads and writes columns by
    (reports.render.columns.catalogue), with the HUD's sample size."""
    from reports.render.columns import catalogue

    return {**catalogue(), "sample": sample}


def not_found_page(request: Request, message: str) -> HTMLResponse:
    """The page for a hand, player or page that does not exist (404)."""
    return _render(request, "notfound", "Not found", status=404, message=message)


def _page(name: str, title: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return _render(request, name, title)

    endpoint.__name__ = f"page_{name}"
    return endpoint


def player_page(request: Request) -> Response:
    """A player's page; an unknown name is the 404 page, naming the nearest."""
    typed = _query(request).get("name", [""])[-1]
    if not typed:
        return not_found_page(request, "which player? (/player?name=NAME)")
    try:
        _state(request).names(typed)
    except data.NotFound as error:
        return not_found_page(request, str(error))
    except Busy as error:
        return _error(503, str(error))
    return _render(request, "player", "Player")


@_guarded
def hand_page(request: Request) -> Response:
    from reports.show.replayer import page as replayer_page

    st = _state(request)
    site, hand_id = _one(request, "site", required=False), _one(request, "id")
    try:
        rows, meta = st.results.cached(("hand", site, hand_id),
                                       lambda con: data.hand(con, site, hand_id))  # fmt: skip
    except data.NotFound as error:
        return not_found_page(request, str(error))
    html = replayer_page(rows, meta)
    found_site = str(meta.get("site") or site)
    notes = st.results.cached(("notes", "hand", ((found_site, hand_id),)), lambda con: (
        data.read_notes(con, "hand", [(found_site, hand_id)])))
    nav = ('<nav style="font:14px system-ui;padding:6px 12px;background:#223;">'
           '<a style="color:#fff" href="/hands">&#x2190; hands</a> &#xB7; '
           '<a style="color:#fff" href="/">overview</a></nav>')  # fmt: skip
    html = html.replace("<head>", '<head>\n<link rel="icon" href="data:,">', 1)
    # the page's own policy (hh show's: offline) gives way to this server's
    # header (REPLAYER_CSP), which lets the notes' form post to this server
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', "", html, count=1)
    # the hand's notes under its heading (what hand, its verdict), above the table
    html = html.replace("<body>\n", "<body>\n" + nav + "\n", 1)
    html = html.replace('<header id="head"></header>\n', '<header id="head"></header>\n'
                        + _hand_notes(found_site, hand_id, notes,
                                      writable=st.config.lake is None) + "\n", 1)
    html = html.replace("</body>", '<script src="/static/notes.js"></script>\n</body>', 1)
    return HTMLResponse(html, headers={"Content-Security-Policy": REPLAYER_CSP})


def _hand_notes(site: str, hand_id: str, notes: list[dict[str, Any]], writable: bool) -> str:
    """The hand's notes and tags under its heading, and the form that adds
    them (/static/notes.js): every text escaped (hh.output.safe, then HTML)."""
    from html import escape

    from hh.output import safe

    def e(text: object) -> str:
        return escape(safe(str(text)), quote=True)

    tags = "".join(f'<span class="hh-tag">{e(n["text"])}</span> ' for n in notes
                   if n["kind"] == "tag")  # fmt: skip
    texts = "".join(f'<li><small>{e(n["written_at"])}</small> {e(n["text"])}</li>'
                    for n in notes if n["kind"] == "note")  # fmt: skip
    form = ('<form id="hh-note-form"><input name="tag" size="12" maxlength="40" '
            'placeholder="tag" aria-label="tag"> <button name="add" value="tag">tag</button> '
            '<input name="text" size="32" maxlength="2000" placeholder="note" aria-label="note"> '
            '<button name="add" value="note">add the note</button> '
            '<span id="hh-note-error" style="color:#a00"></span></form>') if writable else ""
    return (f'<aside id="hand-notes" data-site="{e(site)}" data-id="{e(hand_id)}" '
            'style="font:13px system-ui;padding:6px 12px;background:#f4f5fb;'
            'border-bottom:1px solid #ccd;overflow-wrap:anywhere">'
            f'<b>Tags</b> <span id="hh-tags">{tags or "none"}</span>'
            f'<ul id="hh-notes" style="margin:4px 0;padding-left:18px">{texts}</ul>{form}</aside>')


async def static(request: Request) -> Response:
    found = _static(request.path_params["name"])
    if found is None:
        return _error(404, "no such file")
    body, kind = found
    return Response(body, media_type=kind, headers={"Cache-Control": "max-age=3600"})


# -------------------------------------------------------------------- api


@_guarded
def api_players(request: Request) -> Response:
    q = data.report_query(_query(request))
    return _state(request).bodies.response(("players", q), _state(request).players(q))


@_guarded
def api_series(request: Request) -> Response:
    st = _state(request)
    query = _query(request)
    picked = query.pop("pick", [])
    if len(picked) > 50:
        raise data.BadRequest("pick: at most 50 players at once")
    q = data.report_query(query)
    rows = st.players(data.Query(q.filters, None, q.equity))
    wanted = set(picked)
    pairs = [(r["player"], r["game"]) for r in rows if r["player"] in wanted]
    key = ("series", q.filters, q.equity, tuple(pairs))
    return st.bodies.response(key, st.results.cached(
        key, lambda con: data.series(con, q, pairs, st.cache_file), report=True))


@_guarded
def api_player(request: Request) -> Response:
    st = _state(request)
    query = _query(request)
    names = st.names(_one(request, "name"))
    query.pop("name", None)
    q = data.report_query(query)
    key = ("player", names, q.filters, q.equity)
    return st.bodies.response(key, st.results.cached(
        key, lambda con: data.player_detail(con, names, q, st.cache_file), report=True))


@_guarded
def api_hands(request: Request) -> Response:
    st = _state(request)

    def names(typed: str) -> tuple[str, ...]:
        try:
            return st.names(typed)
        except data.NotFound:  # nobody: no hand
            return ()

    q = data.parse_search(_query(request), names)

    def listed(find: Callable[[Any, str | None], T]) -> Callable[[Any], T]:
        """``find(con, table)``, with the table of each player's hands
        for a search by player alone when it may be read."""
        def run(con: Any) -> T:
            if not q.player_only:
                return find(con, None)
            with st.source.hand_list(con) as table:
                return find(con, table)

        return run

    total = st.results.cached(("count", q.criteria), listed(lambda con, t: count(con, q, t)))
    data.past_end(q, total)
    rows = st.results.cached(("page", q), listed(
        lambda con, t: data.with_tags(con, data.hand_rows(page(con, q, t)))))
    return JSONResponse(rows, headers={"X-Total-Count": str(total)})


@_guarded
def api_hand(request: Request) -> Response:
    site, hand_id = _one(request, "site", required=False), _one(request, "id")
    rows, meta = _state(request).results.cached(
        ("hand", site, hand_id), lambda con: data.hand(con, site, hand_id))
    return JSONResponse({"meta": meta, "rows": rows})


def _note(request: Request, body: Any) -> tuple[Any, bool]:
    """The note a POST's JSON body asks for: {"subject": "player", "name":
    NAME} or {"subject": "hand", "id": ID, "site": SITE}, with "kind"
    (note or tag), "text", and "remove": true to take a tag away."""
    from pipelines.notes import Note, NoteError, hand_site

    st = _state(request)
    if not isinstance(body, dict):
        raise data.BadRequest("expected a JSON object: {subject, name or id, kind, text}")
    known = {"subject", "name", "id", "site", "kind", "text", "remove"}
    extra = sorted(set(body) - known)
    if extra:
        raise data.BadRequest(f"unknown field {extra[0]!r}: expected {', '.join(sorted(known))}")
    fields = {k: body.get(k, "") for k in ("subject", "name", "id", "site", "kind", "text")}
    if not all(isinstance(v, str) for v in fields.values()):
        raise data.BadRequest("subject, name, id, site, kind and text are strings")
    remove = body.get("remove", False)
    if not isinstance(remove, bool):
        raise data.BadRequest("remove: expected true or false")
    subject = fields["subject"]
    try:
        if subject == "player":
            from reports.notes_cli import stored_player

            if not fields["name"]:
                raise data.BadRequest("which player? (name)")
            index = st.results.cached(("names",), _name_index)
            note = Note("player", "", stored_player(index, fields["name"]), fields["kind"],
                        fields["text"])  # fmt: skip
        elif subject == "hand":
            if not fields["id"]:
                raise data.BadRequest("which hand? (id)")
            site = st.results.cached(("site", fields["id"], fields["site"]), lambda con: (
                hand_site(con, fields["id"], fields["site"] or None)))
            note = Note("hand", site, fields["id"], fields["kind"], fields["text"])
        else:
            raise data.BadRequest(f"subject={subject!r}: expected player or hand")
        return note.checked(), remove
    except NoteError as error:
        raise data.BadRequest(str(error)) from None


def _name_index(con: Any) -> dict[str, list[str]]:
    from reports.db import name_index

    return name_index(con)


async def _json_body(request: Request, what: str) -> Any:
    """A write's JSON body, or the 4xx response that refuses it: not JSON,
    from another site's page, over 16 KB."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _error(415, f"send the {what} as JSON (Content-Type: application/json)")
    origin = request.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
        return _error(403, f"a {what} from another site ({origin}) is refused")
    raw = await request.body()
    if len(raw) > 16_384:
        return _error(413, f"a {what}'s request is at most 16 KB")
    try:
        return json.loads(raw)
    except ValueError as error:
        return _error(400, f"the body is not JSON: {error}")


async def api_notes(request: Request) -> Response:
    """GET: the notes and tags of a player (``?name=``) or a hand
    (``?id=&site=``). POST: write one (:func:`_note`); JSON only, from this
    server's pages (a request of another origin is refused)."""
    if request.method == "POST":
        body = await _json_body(request, "note")
        if isinstance(body, Response):
            return body
        return await anyio.to_thread.run_sync(_post_note, request, body)
    return await anyio.to_thread.run_sync(_get_notes, request)


def _mark(request: Request, body: Any) -> Any:
    """The mark a POST's JSON body asks for: {"players": [A, B], "game": G,
    "mark": cleared, confirmed or open, "note": TEXT (may be left out)};
    the names in any case and accents (as stored, one each)."""
    from pipelines.notes import NoteError
    from reports.integrity.review import case, games_together
    from reports.notes_cli import game_key, stored_player

    if not isinstance(body, dict):
        raise data.BadRequest("expected a JSON object: {players, game, mark, note}")
    known = {"players", "game", "mark", "note"}
    extra = sorted(set(body) - known)
    if extra:
        raise data.BadRequest(f"unknown field {extra[0]!r}: expected {', '.join(sorted(known))}")
    players, game = body.get("players"), body.get("game", "")
    mark, note = body.get("mark", ""), body.get("note", "")
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) and p for p in players)):
        raise data.BadRequest("players: expected the two players' names, [A, B]")
    if not all(isinstance(v, str) for v in (game, mark, note)):
        raise data.BadRequest("game, mark and note are strings")
    st = _state(request)
    try:
        index = st.results.cached(("names",), _name_index)
        a, b = (stored_player(index, p) for p in players)
        games = st.results.cached(("together", a, b), lambda con: games_together(con, a, b))
        return case(games, a, b, game_key(game) if game else None, mark, note)
    except NoteError as error:
        raise data.BadRequest(str(error)) from None


async def api_review(request: Request) -> Response:
    """POST: a reviewer's mark on a case of the integrity page (:func:`_mark`,
    reports.integrity.review); GET: every pair's latest mark. JSON only,
    from this server's pages."""
    if request.method == "POST":
        body = await _json_body(request, "mark")
        if isinstance(body, Response):
            return body
        return await anyio.to_thread.run_sync(_post_mark, request, body)
    return await anyio.to_thread.run_sync(_get_marks, request)


@_guarded
def _get_marks(request: Request) -> Response:
    from reports.integrity.review import read

    found = _state(request).results.cached(("integrity-marks",), read)
    return JSONResponse([{"players": [a, b], "game": g, **m}
                         for (g, a, b), m in sorted(found.items())])


def _post_mark(request: Request, body: Any) -> Response:
    from pipelines.notes import split_pair

    @_guarded
    def run(request: Request) -> Response:
        note = _mark(request, body)
        _state(request).write(note, False)
        return JSONResponse({"players": list(split_pair(note.target) or ()), "game": note.site,
                             "mark": note.kind, "note": note.text})

    return run(request)


@_guarded
def _get_notes(request: Request) -> Response:
    st = _state(request)
    name, hand_id = _one(request, "name", required=False), _one(request, "id", required=False)
    if name:
        names = st.names(name)
        keys, subject = [("", n) for n in names], "player"
    elif hand_id:
        keys, subject = [(_one(request, "site", required=False), hand_id)], "hand"
    else:
        raise data.BadRequest("missing parameter 'name' (a player) or 'id' (a hand)")
    return JSONResponse(st.results.cached(("notes", subject, tuple(keys)),
                                          lambda con: data.read_notes(con, subject, keys)))


def _post_note(request: Request, body: Any) -> Response:
    @_guarded
    def run(request: Request) -> Response:
        note, remove = _note(request, body)
        changed = _state(request).write(note, remove)
        return JSONResponse({"changed": changed, "subject": note.subject, "site": note.site,
                             "target": note.target, "kind": note.kind, "text": note.text})

    return run(request)


@_guarded
def api_overview(request: Request) -> Response:
    st = _state(request)
    out = st.results.cached(("overview",), data.overview)
    chosen = [h for h in _query(request).get("hero", []) if h.strip()]
    return JSONResponse({**out, "watch": st.watcher.status.json(), "source": st.source.label,
                         "heroes": st.heroes(chosen)})  # fmt: skip


@_guarded
def api_sessions(request: Request) -> Response:
    """Every player's sessions (the hero's first): data.sessions, with the
    players report's filters (``?player=`` any case)."""
    st = _state(request)
    query = _query(request)
    typed = query.pop("player", [])
    chosen = [h for h in query.pop("hero", []) if h.strip()]
    names = tuple(n for t in typed for n in st.names(t))
    q = data.report_query(query)
    q = data.Query(replace(q.filters, players=names), q.sort, q.equity)
    heroes = tuple(st.heroes(chosen))
    key = ("sessions", q.filters, q.equity, heroes)
    return st.bodies.response(key, st.results.cached(
        key, lambda con: {"heroes": list(heroes),
                          "sessions": data.sessions(con, q, st.cache_file, heroes)},
        report=True))  # fmt: skip


@_guarded
def api_tables(request: Request) -> Response:
    st = _state(request)
    return st.bodies.response(("tables",), st.results.cached(("tables",), data.tables))


@_guarded
def api_table(request: Request) -> Response:
    site, name = _one(request, "site", required=False), _one(request, "name")
    return JSONResponse(_state(request).results.cached(
        ("table", site, name), lambda con: data.table_detail(con, site, name)))


@_guarded
def api_live(request: Request) -> Response:
    st = _state(request)
    stats = st.players(data.report_query({}))
    tables = st.results.cached(("live",), lambda con: data.live(con, st.config.watch, stats))
    return JSONResponse({"tables": tables, "watch": st.watcher.status.json()})


@_guarded
def api_status(request: Request) -> Response:
    st = _state(request)
    return JSONResponse({"watch": st.watcher.status.json(),
                         "version": list(st.source.refresh())})  # fmt: skip


async def api_events(request: Request) -> Response:
    st = _state(request)
    source, status, stop = st.source, st.watcher.status, st.watcher.stop

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


@_guarded
def integrity_page(request: Request) -> Response:
    """The integrity review queue (reports.web.integrity)."""
    from reports.web.integrity import respond

    st = _state(request)
    return respond(request, st.results, st.cache_file, writable=st.config.lake is None)


ROUTES = [
    Route("/", _page("overview", "Overview")),
    Route("/players", _page("players", "Players")),
    Route("/player", player_page),
    Route("/tables", _page("tables", "Tables and sessions")),
    Route("/table", _page("table", "Table")),
    Route("/hands", _page("hands", "Hands")),
    Route("/hand", hand_page),
    Route("/live", _page("live", "Live tables")),
    Route("/sessions", _page("sessions", "Sessions")),
    Route("/integrity", integrity_page),
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
    Route("/api/sessions", api_sessions),
    Route("/api/status", api_status),
    Route("/api/notes", api_notes, methods=["GET", "POST"]),
    Route("/api/review", api_review, methods=["GET", "POST"]),
    Route("/api/events", api_events),
]


async def _not_found(request: Request, exc: Exception) -> Response:
    message = "no such page or file (the pages: docs/serve.md)"
    if request.url.path.startswith(("/api/", "/static/")):
        return _error(404, message)
    return not_found_page(request, message)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error(405, "only GET is served (and POST to /api/notes and /api/review)")


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    st: State = app.state.hh
    # requests waiting for a report computation must not take every
    # thread from the quick ones
    anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    db = st.config.db
    if db and Path(db).exists():  # searches by player read it from the start
        threading.Thread(target=st.source.prepare_hand_list, name="hh-serve-hand-list",
                         daemon=True).start()  # fmt: skip
    st.watcher.start()
    try:
        yield
    finally:
        st.watcher.close()
        st.source.close()


# ------------------------------------------------------------------ app


def create_app(config: Config) -> Starlette:
    """The ASGI application for one database or lake."""
    cache_file = _cache_file(config)
    source = Source(config.db, config.lake, writes=bool(config.watch),
                    hand_list=cache_file if config.db else None)  # fmt: skip
    watcher = Watcher(source, list(config.watch), config.workers, config.quiet)
    app = Starlette(routes=ROUTES, lifespan=_lifespan,
                    exception_handlers={404: _not_found, 405: _not_allowed})  # fmt: skip
    app.state.hh = State(config, source, Results(source), watcher, Bodies(), cache_file)
    app.state.source = source
    app.state.status = watcher.status
    app.state.stop = watcher.stop
    return _Guard(app, config.token)  # type: ignore[return-value]  # an ASGI app around Starlette, as uvicorn and TestClient take it


def _cache_file(config: Config) -> str | None:
    """Where the reports keep their per-hand counts: as ``hh report`` does."""
    if config.lake is not None:
        from pipelines.lake import derived_path

        return derived_path(config.lake)
    from reports.cache import default_path

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
