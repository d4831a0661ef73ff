"""``hh serve``'s integrity page: the review queue of ``hh report
integrity`` (escalate, then review, each pair with its signals in words and
the hands behind them linked to the server's replayer), computed from the
served database as the command computes it (the reports' cache file
beside it), once per version of the hands.

Each case carries a form (/static/review.js posts it to ``/api/review``,
reports.web.app) that marks it cleared, confirmed or open again, with a
note; the marks are read at every version of the data (a mark is a new
one), the pairs are computed again only when the hands change, so a mark
does not make the server compute the report again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

# the page's own: its one script and requests to this server only, its styles inline,
# links to the server's pages only
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'")  # fmt: skip
SCRIPT = "/static/review.js"


class Cached(Protocol):
    """What the page asks of the server's results (reports.web.results.Results)."""

    def cached(self, key: tuple[Any, ...], compute: Callable[[Any], Any],
               report: bool = False, hands_only: bool = False) -> Any: ...  # fmt: skip


def respond(request: Request, source: Cached, cache_file: str | None,
            writable: bool = True) -> Response:  # fmt: skip
    """The ``/integrity`` page over ``source`` (the reports' cache file:
    ``cache_file``); ``writable``: with the reviewers' forms (a database,
    not a lake)."""
    from reports.db import Filters
    from reports.integrity import review
    from reports.integrity.render import page
    from reports.integrity.signals import integrity

    def compute(con: Any) -> Any:
        return integrity(con, Filters(), cache=cache_file)

    pairs = source.cached(("integrity",), compute, report=True, hands_only=True)
    marks = source.cached(("integrity-marks",), review.read)

    def render(con: Any) -> str:
        return page(review.attach(pairs, marks), title="Integrity review queue",
                    review=SCRIPT if writable else None)  # fmt: skip

    html = source.cached(("integrity-page", id(pairs), id(marks), writable), render)
    nav = ('<nav style="font:14px system-ui;padding:6px 12px;background:#223;">'
           '<a style="color:#fff" href="/">&#x2190; overview</a></nav>')  # fmt: skip
    return HTMLResponse(html.replace("<body>\n", "<body>\n" + nav + "\n", 1),
                        headers={"Content-Security-Policy": CSP})  # fmt: skip


__all__ = ["CSP", "SCRIPT", "respond"]
