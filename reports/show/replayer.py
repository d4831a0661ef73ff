"""The HTML replayer of ``hh show --html``: one self-contained offline page.

The page is the explained hand (:func:`reports.show.explain.explain`) embedded as
JSON, plus a small stylesheet and script of our own (``replayer.css``,
``replayer.js`` beside this module): no framework, no network (a Content
Security Policy forbids any fetch), so it can be mailed to the player who
disputes the hand and opened anywhere.

Escaping, because names, chat and table names are untrusted: the JSON is
written with ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\uXXXX`` escapes so
that ``</script>`` inside a name cannot close the script element, and the
script puts every string into the page with ``textContent`` or
``setAttribute``, never ``innerHTML``. The only text written into the HTML
itself (the title) goes through :func:`html.escape`.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from hh.model import Hand
from hh.output import safe

_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_JSON_UNSAFE = re.compile("[<>&\u2028\u2029]")


def script_json(data: object) -> str:
    """JSON safe to put inside a ``<script>`` element, for every page hh
    writes (this replayer, the HTML report): no ``<``, ``>``, ``&`` or line
    separators left (each is a ``\\uXXXX`` escape, which JSON.parse reads
    back as the same character), and no NaN, which JSON.parse refuses."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _JSON_UNSAFE.sub(lambda m: _JSON_ESCAPES[m.group(0)], text)


def safe_data(data: Any) -> Any:
    """``data`` with every string (mapping keys too) as every command shows
    untrusted text (:func:`hh.output.safe`): a page, like the terminal, shows
    a name's control characters and bidirectional overrides as escapes, so
    that no name reads as another (``Pa\\u202eco``). For the pages hh
    writes whole (this replayer, the HTML report); ``hh serve``'s script
    does the same to what its API gives."""
    if isinstance(data, str):
        return safe(data)
    if isinstance(data, dict):
        return {safe_data(k): safe_data(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [safe_data(x) for x in data]
    return data


@cache
def _asset(name: str) -> str:
    return files("reports.show").joinpath(name).read_text(encoding="utf-8")


def page(rows: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    """The replayer page for one explained hand."""
    meta, rows = safe_data(meta), safe_data(rows)
    title = html.escape(f"hh · hand #{meta['hand_id']} · {meta['table']}")
    data = script_json({"meta": meta, "rows": rows})
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{_asset("replayer.css")}</style>
</head>
<body>
<header id="head"></header>
<main>
<section>
<div id="table"><div id="centre"><div id="street"></div><div id="board"></div>
<div id="pot">pot <span id="pot-amount">0</span></div><div id="paid"></div></div></div>
<div id="controls">
<button id="first" title="first step (Home)">&#xAB; start</button>
<button id="prev" title="back (left arrow)">&#x25C0; back</button>
<button id="next" title="forward (right arrow)">forward &#x25B6;</button>
<button id="last" title="last step (End)">end &#xBB;</button>
<button id="violation" title="first violation (v)">first violation</button>
<span id="pos"></span>
</div>
<div class="help">arrow keys step through the hand; click a line of the text to jump to it</div>
<div id="explain"></div>
</section>
<section><ol id="text"></ol></section>
</main>
<script type="application/json" id="hh-data">{data}</script>
<script>
{_asset("replayer.js")}</script>
</body>
</html>
"""


def _judged(item: Hand | tuple[str, int] | tuple[str, int, str | None]) -> Any:
    """A page source judged: a parsed hand (its text written back from the
    model) or (raw text, first line[, file]) as the database stores it."""
    from hh.parse import parse_hand
    from reports.show.load import Found, judge

    if isinstance(item, Hand):
        from hh.write import write_hand

        return judge(Found(item, write_hand(item), None))
    raw, line, *rest = item
    file = rest[0] if rest else None
    return judge(Found(parse_hand(raw, first_line=line), raw, file))


def _file_name(site: str, hand_id: str) -> str:
    """A file name that no id can turn into a path: a readable slug plus a
    hash of the exact key, so two ids that slug alike still differ."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", f"{site}_{hand_id}" if site else hand_id)[:60]
    digest = hashlib.sha256(f"{site}\0{hand_id}".encode()).hexdigest()[:10]
    return f"hand-{slug}-{digest}.html"


def write_pages(
    hands: Iterable[Hand | tuple[str, int] | tuple[str, int, str | None]], dir: str | Path
) -> dict[tuple[str, str], Path]:
    """Write one replayer page per hand into ``dir`` (created if needed) and
    return where each went, keyed by (site, hand_id) with site ``''`` when the
    log has none (the database's key). A hand is a parsed :class:`Hand` or
    ``(raw_text, first_line[, file])``; a text that does not parse raises
    :class:`hh.parse.HandSyntaxError` (the caller lists only parsed hands)."""
    from reports.show.explain import explain, hand_meta

    out_dir = Path(dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[tuple[str, str], Path] = {}
    for item in hands:
        j = _judged(item)
        h = j.hand.header
        key = (h.site or "", h.hand_id)
        rows = explain(j.hand, j.verdict, j.trace, j.raw)
        path = out_dir / _file_name(*key)
        path.write_text(page(rows, hand_meta(j.hand, j.verdict, j.file)), encoding="utf-8")
        written[key] = path
    return written
