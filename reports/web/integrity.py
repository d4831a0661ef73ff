"""``hh serve``'s integrity page: the review queue of ``hh report
integrity`` (escalate, then review, each pair with its signals in words and
the hands behind them linked to the server's replayer), computed from the
served database as the command computes it (the reports' cache file
beside it), once per version of the data.

Reviewers' marks (cleared or confirmed, with a note) are not kept yet
(issue 45: not done)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

# the page's own: no script, its styles inline, links to the server's pages only
CSP = ("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
       "form-action 'none'")  # fmt: skip


class Cached(Protocol):
    """What the page asks of the server's results (reports.web.results.Results)."""

    def cached(self, key: tuple[Any, ...], compute: Callable[[Any], Any],
               report: bool = False) -> Any: ...  # fmt: skip


def respond(request: Request, source: Cached, cache_file: str | None) -> Response:
    """The ``/integrity`` page over ``source`` (the reports' cache file:
    ``cache_file``)."""
    from reports.db import Filters
    from reports.integrity.render import page
    from reports.integrity.signals import integrity

    def compute(con: Any) -> str:
        return page(integrity(con, Filters(), cache=cache_file), title="Integrity review queue")

    html = source.cached(("integrity",), compute, report=True)
    nav = ('<nav style="font:14px system-ui;padding:6px 12px;background:#223;">'
           '<a style="color:#fff" href="/">&#x2190; overview</a></nav>')  # fmt: skip
    return HTMLResponse(html.replace("<body>\n", "<body>\n" + nav + "\n", 1),
                        headers={"Content-Security-Policy": CSP})  # fmt: skip


__all__ = ["CSP", "respond"]
