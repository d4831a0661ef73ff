"""One hand search (reports.search.hands) behind ``hh hands`` and
``/api/hands`` (issue 42): for the same criteria both find the same hands in
the same order, and both say a bad value the same way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from serve_helpers import build_db
from starlette.testclient import TestClient

from reports.web.app import Config, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# each /api/hands parameter and the hh hands option that says the same
OPTION = {"id": "--id", "player": "--player", "cards": "--cards", "action": "--action",
          "street": "--street", "min_won": "--min-won", "max_won": "--max-won", "tag": "--tag",
          "table": "--table", "site": "--site", "game": "--game", "since": "--since",
          "until": "--until", "code": "--code", "min_pot": "--min-pot", "max_pot": "--max-pot",
          "sort": "--sort", "page": "--page", "per": "--limit"}  # fmt: skip


def hh(*args: str) -> tuple[int, str, str]:
    """``hh ARGS`` in process, with every command of the table (hh.cli.COMMANDS)."""
    import typer
    from typer.testing import CliRunner

    from hh.cli import add_commands

    app = typer.Typer()
    add_commands(app)
    out = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})
    if out.exception and not isinstance(out.exception, SystemExit):
        raise out.exception
    return out.exit_code, out.stdout, out.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("search"), 30)


@pytest.fixture(scope="module")
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        yield c


def _cli(db: Path, params: dict[str, str]) -> list[tuple[str, str]]:
    args = ["hands", "--db", str(db), "--format", "json"]
    for key, value in params.items():
        if key == "invalid":
            args.append("--invalid")
        else:
            args += [f"{OPTION[key]}={value}"]
    if "per" not in params:
        args.append("--limit=0")
    code, out, err = hh(*args)
    assert code == 0, err
    return [(h["site"], h["hand_id"]) for h in json.loads(out)]


def _api(client: TestClient, params: dict[str, str]) -> list[tuple[str, str]]:
    r = client.get("/api/hands", params={"per": "500", **params})
    assert r.status_code == 200, r.text
    return [(h["site"], h["hand_id"]) for h in r.json()]


def test_the_cli_and_the_api_find_the_same_hands(db: Path, client: TestClient) -> None:
    con = duckdb.connect(str(db), read_only=True)
    player, cards = con.execute(
        "SELECT player, down_cards FROM seats WHERE len(down_cards) > 0 AND "
        "NOT contains(down_cards[1], '?') ORDER BY site, hand_id, seat LIMIT 1"
        ).fetchall()[0]  # fmt: skip
    site, hand_id, table, started = con.execute(
        "SELECT site, hand_id, table_name, started_at FROM hands "
        "ORDER BY started_at, hand_id LIMIT 1 OFFSET 10").fetchall()[0]  # fmt: skip
    con.close()
    rank, suit = cards[0][0], cards[0][1]
    assert client.post("/api/notes", json={"subject": "hand", "id": hand_id, "site": site,
                                           "kind": "tag", "text": "Bluff"}).status_code == 200
    criteria: list[dict[str, str]] = [
        {}, {"sort": "-time"}, {"sort": "pot"}, {"sort": "-pot", "game": "calatone"},
        {"player": player.upper()}, {"player": player.lower(), "sort": "-time"},
        {"player": player, "cards": f"{rank.lower()}?"}, {"cards": f"?{suit} ?{suit}"},
        {"player": player, "action": "RAISE"}, {"action": "call", "street": "hole cards"},
        {"player": player, "min_won": "10"}, {"max_won": "-20", "sort": "-time"},
        {"game": "chiribito", "min_pot": "40", "max_pot": "300"}, {"code": "raise_size"},
        {"invalid": "true"}, {"id": hand_id[:4], "sort": "-time"}, {"table": table},
        {"since": str(started), "until": "2026-01-01 01:00"}, {"tag": "bluff"},
        {"sort": "-time", "per": "7", "page": "3"}, {"sort": "pot", "per": "5", "page": "2"},
    ]  # fmt: skip
    for params in criteria:
        api = _api(client, params if "sort" in params else {**params, "sort": "time"})
        assert _cli(db, params) == api, params
        assert api or params.get("max_won"), params  # (each finds hands)
    assert _api(client, {"tag": "bluff"}) == [(site, hand_id)]


@pytest.mark.parametrize(("params", "api_says", "cli_says"), [
    ({"cards": "Ace"}, "cards='Ace': 'Ace' is not a card", "--cards 'Ace': 'Ace' is not a card"),
    ({"action": "dance"}, "action='dance': expected one of check, fold",
     "--action 'dance': expected one of check, fold"),
    ({"sort": "size"}, "sort='size': expected one of time, pot, -pot, -time",
     "--sort 'size': expected one of time, pot, -pot, -time"),
])  # fmt: skip
def test_a_bad_value_is_said_by_both(db: Path, client: TestClient, params: dict[str, str],
                                     api_says: str, cli_says: str) -> None:  # fmt: skip
    r = client.get("/api/hands", params=params)
    assert r.status_code == 400 and api_says in r.json()["error"], r.text
    key, value = next(iter(params.items()))
    code, _, err = hh("hands", "--db", str(db), f"{OPTION[key]}={value}")
    assert code == 2 and cli_says in err, err
