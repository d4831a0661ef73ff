"""What ``hh serve`` checks of a request before anything else reads it:
that it is addressed to this server, and that it is of a sane size.

**The Host.** A page of another site can make the browser send requests to
``127.0.0.1`` under its own name (DNS rebinding: ``evil.example`` resolves
to the attacker's server, then to 127.0.0.1) and read the answers, as the
browser takes them for that site's own. Such a request carries the other
site's name in its ``Host`` header, so only requests naming this server are
answered (:func:`own_hosts`): a loopback name (``localhost``, 127.0.0.0/8,
``::1``), the ``--host`` it listens on, and the names given with
``--allow-host``; when it listens on every address (``0.0.0.0``, ``::``),
any IP address too (a page cannot rebind an address to another one: its
origin is that address). Anything else, or no Host, is answered 400,
token or not.

**The size.** A request's address longer than :data:`MAX_TARGET` bytes or
with more than :data:`MAX_PARAMS` query parameters is answered 414, one
whose header fields are longer than :data:`MAX_HEADERS` bytes in all 431.
The server reads a request head of up to :data:`HEAD_LIMIT` bytes
(uvicorn's ``h11_max_incomplete_event_size``; its default, 16 KiB, closed
the connection on a longer one, the client seeing no answer), so these
limits answer instead; a longer head still closes the connection after a
400.

A pure ASGI middleware around the application (:class:`HostCheck`); the
answers are JSON as the API's errors (docs/serve.md).
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_TARGET = 32 * 1024  # bytes of path and query string
MAX_PARAMS = 1_000  # query parameters
MAX_HEADERS = 32 * 1024  # bytes of header names and values, in all
HEAD_LIMIT = 2 * 1024 * 1024  # the longest request head the server reads
LOOPBACK_NAMES = ("localhost",)
WILDCARDS = ("0.0.0.0", "::", "")


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def host_name(value: str) -> str:
    """The name of a ``Host`` header value (or of ``--host``), its port and
    the brackets of an IPv6 address left out, lower case, without a final
    dot: the form :func:`own_hosts` compares."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8765
        value = value[1:].partition("]")[0]
    elif value.count(":") == 1:  # name:port (an IPv6 address has more colons)
        value = value.partition(":")[0]
    return value.rstrip(".")


class Hosts:
    """The names a server answers to (see the module)."""

    def __init__(self, listen: str, allowed: Iterable[str] = ()) -> None:
        self.names = {host_name(n) for n in (*LOOPBACK_NAMES, listen, *allowed)} - {""}
        self.any_address = host_name(listen) in WILDCARDS

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, str):
            return False
        name = host_name(value)
        if not name:
            return False
        if name in self.names:
            return True
        address = _address(name)
        if address is None:
            return False
        if address.is_loopback or self.any_address:
            return True
        return any(address == _address(n) for n in self.names)


def own_hosts(listen: str, allowed: Iterable[str] = ()) -> Hosts:
    """The Host names a server listening on ``listen`` answers to, with the
    names of ``--allow-host``."""
    return Hosts(listen, allowed)


def _refusal(scope: Scope, hosts: Hosts) -> tuple[int, str] | None:
    """The status and message a request gets instead of an answer, or None."""
    headers = scope.get("headers", [])
    size = sum(len(k) + len(v) for k, v in headers)
    if size > MAX_HEADERS:
        return 431, (f"the request's header fields are {size:,} bytes long: at most "
                     f"{MAX_HEADERS:,} are read")
    query = scope.get("query_string", b"")
    target = len(scope.get("raw_path") or scope.get("path", "").encode()) + len(query)
    if target > MAX_TARGET:
        return 414, (f"the address is {target:,} bytes long: at most {MAX_TARGET:,} are read")
    params = query.count(b"&") + 1 if query else 0
    if params > MAX_PARAMS:
        return 414, (f"the address has {params:,} parameters: at most {MAX_PARAMS:,} are "
                     "read")
    given = [v.decode("latin-1") for k, v in headers if k.lower() == b"host"]
    if len(given) != 1 or given[0] not in hosts:
        shown = json.dumps(given[0][:100]) if given else "none"
        return 400, (f"this server answers requests for its own address only, not for "
                     f"Host {shown} (name it with hh serve --allow-host NAME)")
    return None


class HostCheck:
    """The checks of the module around ``app``."""

    def __init__(self, app: ASGIApp, hosts: Hosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = _refusal(scope, self.hosts)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"error": message, "status": status}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"connection", b"close"),
        ]})
        await send({"type": "http.response.body", "body": body})
