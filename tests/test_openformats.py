"""Open formats (docs/formats.md): text -> OHH -> ``hh import`` stores the
same rows and verdicts as the text; text -> PHH is read by PokerKit's own
loader; ``hh validate --json`` and the OHH extension follow the JSON
Schemas the package ships."""

from __future__ import annotations

import gzip
import json
import random
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import typer
from handtext import EX_ACES, EX_CALATONE, EX_CHIRIBITO
from import_helpers import contents, hh_import, query
from pokerkit import HandHistory
from referencing import Registry, Resource
from typer.testing import CliRunner

from hh.cli import validate_files
from hh.model import Game
from hh.openformats import schema
from hh.openformats.cards import FROM_FRENCH, TO_FRENCH
from hh.openformats.ohh import EXTENSION
from hh.openformats.ohh_read import hand_of, texts
from hh.openformats.phh import phh_text
from hh.parse import parse_text
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.write import write_hand
from pipelines.cli import register as register_import
from reports.export_cli import register as register_export

app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh (export and import only)."""


register_export(app)
register_import(app)
runner = CliRunner()

ROOT = Path(__file__).resolve().parent.parent
HANDS, HERO = 45, 12  # per game; the hero's-eye log


def hh_export(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["export", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _session(game: Game, seed: int) -> tuple[str, int, int]:
    """A small session of ``game``: simulated hands, about one in three
    replaced by a mutant (every kind in turn) where the mutant still
    parses. Returns the text, how many mutants, and how many did not parse
    (left out: a run of text that does not parse has no OHH form)."""
    rng = random.Random(seed)
    kinds = sorted(KINDS)
    out, mutants, unparsed = [], 0, 0
    for k, hand in enumerate(Simulator(game, seed, tables=2).hands(HANDS)):
        text = write_hand(hand)
        if k % 3 == 1:
            for step in range(len(kinds)):
                bad = mutate(hand, kinds[(k // 3 + step) % len(kinds)], rng)
                if bad is None:
                    continue
                candidate = write_hand(bad)
                if next(parse_text(candidate)).hand is None:
                    unparsed += 1
                    continue
                text, mutants = candidate, mutants + 1
                break
        out.append(text)
    return "\n\n".join(out) + "\n", mutants, unparsed


@pytest.fixture(scope="module")
def trip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Text of the three games (valid and invalid hands), its OHH export,
    and both imported into their own database."""
    root = tmp_path_factory.mktemp("trip")
    text = root / "text"
    text.mkdir()
    mutants = 0
    for k, game in enumerate(Game):
        body, n, _ = _session(game, 11 + k)
        mutants += n
        (text / f"{game.value}.txt").write_text(body, encoding="utf-8")
    # a hero's-eye log: the others' cards are ??, what they keep unchecked is said
    hero = Simulator(Game.CHIRIBITO, 5, tables=1, view="Ana María").hands(HERO)
    (text / "hero.txt").write_text("\n\n".join(map(write_hand, hero)) + "\n", encoding="utf-8")
    code, _, err = hh_export("--format", "ohh", str(text), "--out", str(root / "ohh"))
    assert code == 0, err
    dbs = {}
    for name in ("text", "ohh"):
        db = root / f"{name}.duckdb"
        code, summary, err = hh_import(str(root / name), "--db", str(db), "--workers", "1")
        assert summary is not None, err
        dbs[name] = db
    return {"root": root, "dbs": dbs, "mutants": mutants}


def _named(rows: dict[str, list[tuple[Any, ...]]], root: Path) -> dict[str, list[Any]]:
    """Rows with each file named by its game only (``.../text/calatone.txt``
    and ``.../ohh/calatone.ohh`` are the same source)."""

    def name(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(str(root)):
            return Path(value).name.rsplit(".", 1)[0]
        return value

    return {t: sorted((tuple(name(v) for v in row) for row in r), key=repr)
            for t, r in rows.items() if t != "files"}  # fmt: skip


def test_ohh_import_stores_the_same_rows_as_the_text(trip: dict[str, Any]) -> None:
    root, dbs = trip["root"], trip["dbs"]
    text, ohh = contents(dbs["text"]), contents(dbs["ohh"])
    assert _named(text, root) == _named(ohh, root)
    hands = query(dbs["ohh"], "SELECT count(*), count(*) FILTER (NOT valid) FROM hands")[0]
    assert hands[0] == 3 * HANDS + HERO and hands[1] >= trip["mutants"] > 20
    assert query(dbs["ohh"], "SELECT count(*) FROM hand_violations WHERE unchecked")[0][0] > 0
    assert query(dbs["ohh"], "SELECT count(*) FROM rejects")[0][0] == 0
    # each file: the same hands, the same lines (those of the text it converts to)
    files = "SELECT hands, lines, status FROM files ORDER BY path"
    assert query(dbs["text"], files) == query(dbs["ohh"], files)


def test_every_mutant_kind_survives_the_round_trip() -> None:
    """Every kind of fault the mutator makes, in every game: the OHH object
    rebuilds the very text (the import's equality rests on it)."""
    rng = random.Random(5)
    checked = set()
    for game in Game:
        for hand in Simulator(game, 3, tables=1).hands(12):
            for kind in KINDS:
                bad = mutate(hand, kind, rng)
                if bad is None:
                    continue
                text = write_hand(bad)
                record = next(parse_text(text))
                if record.hand is None:
                    continue
                from hh.openformats.export import ohh_json
                from hh.validate import validate

                obj = json.loads(ohh_json(record.hand, validate(record.hand)))
                assert write_hand(hand_of(obj)) == text, kind
                checked.add(kind)
    assert len(checked) >= len(KINDS) - 3


def test_validate_reads_ohh_as_the_text(trip: dict[str, Any], capsys: pytest.CaptureFixture[str]
                                        ) -> None:  # fmt: skip
    root = trip["root"]
    results = {}
    for name in ("text", "ohh"):
        validate_files([str(root / name)], True, workers=1)
        out = capsys.readouterr().out
        results[name] = [{**json.loads(x), "file": None} for x in out.splitlines()]
    assert results["text"] == results["ohh"]
    assert len(results["ohh"]) == 3 * HANDS + HERO


def test_golden_hand_as_ohh() -> None:
    """CH-1 (FORMAT.md): the referee's pot, Lucía's 1480, the Spanish deck
    mapped card by card, the extension as the schema says; and a rake."""
    from hh.openformats.export import judge, ohh_json

    hand = next(parse_text(EX_CHIRIBITO.text)).hand
    assert hand is not None
    obj = json.loads(ohh_json(hand, judge(hand)[0]))["ohh"]
    names = {p["id"]: p["name"] for p in obj["players"]}
    assert obj["game_type"] == "Chiribito" and obj["big_blind_amount"] == 20
    assert obj["start_date_utc"] == "2026-11-29T20:14:03Z"  # 21:14:03 CET
    assert obj["pots"] == [{"number": 0, "amount": 1480, "rake": 0, "jackpot": 0, "player_wins": [
        {"player_id": 0, "win_amount": 1480, "cashout_amount": 0, "cashout_fee": 0,
         "bonus_amount": 0, "contributed_rake": 0}]}]  # fmt: skip
    dealt = {names[a["player_id"]]: a["cards"] for a in obj["rounds"][0]["actions"]
             if a["action"] == "Dealt Cards"}  # fmt: skip
    assert dealt == {"Paco": ["Ad", "Kh"], "Lucía": ["Jd", "Td"], "Íñigo": ["8h", "8s"],
                     "Marta": ["Qc", "9c"]}  # fmt: skip
    assert [r.get("cards") for r in obj["rounds"]] == [None, ["Th"], ["Jh"], ["Ks"], ["Qh"],
                                                       ["9d"], None]  # fmt: skip
    raise_ = next(a for a in obj["rounds"][0]["actions"] if a["action"] == "Raise")
    assert (raise_["amount"], names[raise_["player_id"]]) == (40, "Íñigo")
    _extension_ok(obj[EXTENSION])
    # a stud game: the antes are dead money, a raise's amount what it puts in
    hand = next(parse_text(EX_CALATONE.text)).hand
    assert hand is not None
    verdict, order = judge(hand)
    rounds = json.loads(ohh_json(hand, verdict))["ohh"]["rounds"]
    assert [(a["action"], a.get("amount")) for a in rounds[1]["actions"]
            if a["action"] != "Dealt Cards"] == [("Bet", 20), ("Raise", 50), ("Fold", None),
                                                 ("Call", 30)]  # fmt: skip
    phh = HandHistory.loads(phh_text(hand, verdict, order))
    assert phh.actions[3:6] == ["p2 cbr 10", "p3 cc", "p1 cc"]
    assert phh.actions[9:13] == ["p3 cbr 20", "p1 cbr 50", "p2 f", "p3 cc"]
    assert phh.winnings == [565, 0, 0] and phh.finishing_stacks == [790, 485, 225]
    assert phh.user_defined_fields["_hh_declarations"] == ["p1 Kh Kd Ks Kc 9h",
                                                           "p3 Js Jd Jh 2c 2s"]  # fmt: skip
    raked = EX_CHIRIBITO.text.replace("collected 1480", "collected 1460").replace(
        "Rake 0", "Rake 20").replace("won 1480", "won 1460")
    hand = next(parse_text(raked)).hand
    assert hand is not None
    verdict = judge(hand)[0]
    assert verdict.valid, verdict.violations
    pot = json.loads(ohh_json(hand, verdict))["ohh"]["pots"][0]
    assert (pot["amount"], pot["rake"]) == (1480, 20)
    assert pot["player_wins"][0]["win_amount"] == 1460
    assert pot["player_wins"][0]["contributed_rake"] == 20


def test_card_map_is_a_bijection_that_keeps_rank_order() -> None:
    assert len(TO_FRENCH) == len(set(TO_FRENCH.values())) == 28
    assert all(FROM_FRENCH[f] == s for s, f in TO_FRENCH.items())
    spanish, french = "567SCRA", "89TJQKA"
    for s, f in TO_FRENCH.items():
        assert french.index(f[0]) == spanish.index(s[0])


def _registry() -> Registry:
    return Registry().with_resource("urn:hh:schema:verdict:1",
                                    Resource.from_contents(schema("verdict")))  # fmt: skip


def _extension_ok(ext: dict[str, Any]) -> None:
    jsonschema.validate(ext, schema("ohh-extension"), registry=_registry())


def test_validate_json_and_the_extension_follow_the_schemas(
    trip: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # hand-history text of every kind: valid, invalid, hero view, unparsed, INTERNAL-free
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "text.txt").write_text((trip["root"] / "text" / "calatone.txt").read_text("utf-8"),
                                   encoding="utf-8")  # fmt: skip
    seen = EX_CHIRIBITO.text.replace("Dealt to Íñigo: down [5c 5e]", "Dealt to Íñigo: down [?? ??]")
    odd = "\n\n".join([seen, EX_ACES.text.replace("[Qs]", "[Zz]"), "not a hand", EX_CALATONE.text])
    (logs / "odd.txt").write_text(odd + "\n", encoding="utf-8")
    validate_files([str(logs)], True, workers=1)
    objects = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    validator = jsonschema.Draft202012Validator(schema("verdict"))
    for obj in objects:
        validator.validate(obj)
    assert {o["valid"] for o in objects} == {True, False}
    assert any(o.get("unchecked") for o in objects)
    assert any(o["pots"] is None for o in objects)
    with pytest.raises(jsonschema.ValidationError):  # the schema can fail
        validator.validate({**objects[0], "valid": True, "violations": [
            {"code": "NO_SUCH_CODE", "line": 1, "message": "x"}]})  # fmt: skip
    for path in (trip["root"] / "ohh").glob("*.ohh"):
        for line in path.read_text("utf-8").splitlines():
            _extension_ok(json.loads(line)["ohh"][EXTENSION])


def test_schemas_are_published_in_docs() -> None:
    for name in ("verdict", "ohh-extension"):
        published = json.loads((ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text())
        assert published == schema(name)
        jsonschema.Draft202012Validator.check_schema(published)


def test_phh_export_is_read_by_pokerkit(trip: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "phh"
    code, _, err = hh_export("--format", "phh", str(trip["root"] / "text"), "--out", str(out))
    assert code == 0, err
    files = sorted(out.glob("*.phh"))
    assert len(files) == 3 * HANDS + HERO
    games = set()
    for path in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an unexpected field warns: none may
            with path.open("rb") as f:
                phh = HandHistory.load(f)
        extra = phh.user_defined_fields
        games.add(extra["_hh_game"])
        n = len(phh.starting_stacks)
        assert len(phh.antes) == n and phh.players is not None and len(phh.players) == n
        assert phh.variant == ("NT" if extra["_hh_game"] == "chiribito" else "F7S")
        if extra["_hh_valid"]:
            assert phh.winnings is not None and phh.finishing_stacks is not None
            # chips never vanish: what the stacks gained is what the pots paid, less the rake
            assert sum(phh.finishing_stacks) == sum(phh.starting_stacks) - extra.get("_hh_rake", 0)
        dealt = [a for a in phh.actions if a.startswith("d dh ")]
        assert dealt and all(a.split()[2] in {f"p{k}" for k in range(1, n + 1)} for a in dealt)
    assert games == {g.value for g in Game}
    # standard output: .phhs sections, read by PokerKit's loader of many hands
    code, stdout, _ = hh_export("--format", "phh", str(trip["root"] / "text" / "calatone.txt"))
    assert code == 0
    assert len(list(HandHistory.loads_all(stdout))) == HANDS


def test_export_from_the_database_with_filters(trip: dict[str, Any]) -> None:
    db = str(trip["dbs"]["text"])
    code, stdout, err = hh_export("--format", "ohh", "--db", db, "--game", "calatone",
                                  "--invalid")  # fmt: skip
    assert code == 0, err
    objects = [json.loads(x)["ohh"] for x in stdout.splitlines()]
    expected = query(db, "SELECT hand_id FROM hands WHERE game = 'calatone' AND NOT valid "
                     "ORDER BY started_at, site, hand_id")  # fmt: skip
    assert [o["game_number"] for o in objects] == [r[0] for r in expected]
    assert expected and all(not o[EXTENSION]["verdict"]["valid"] for o in objects)


def test_export_usage_errors_and_unparsed_runs(tmp_path: Path) -> None:
    log = tmp_path / "x.txt"
    log.write_text(EX_ACES.text + "\nnot a hand\n", encoding="utf-8")
    code, _, err = hh_export("--format", "xml", str(log))
    assert code == 2 and "--format 'xml'" in err
    code, _, err = hh_export("--format", "ohh", str(log), "--game", "ch")
    assert code == 2 and "with --db" in err
    code, stdout, err = hh_export("--format", "ohh", str(log))
    assert code == 1 and "not exported, it does not parse" in err
    assert [json.loads(x)["ohh"]["game_number"] for x in stdout.splitlines()] == ["AS-1"]


def test_bad_ohh_objects_become_rejects(tmp_path: Path) -> None:
    good = json.loads(_ohh_of(EX_CALATONE.text))
    broken = json.loads(json.dumps(good))
    del broken["ohh"]["players"]
    foreign = {"ohh": {k: v for k, v in good["ohh"].items() if k != EXTENSION}}
    body = "\n".join(json.dumps(x) for x in (good, broken, foreign)) + "\n{not json\n"
    found = list(texts(body.encode(), "x.ohh"))
    assert found[0].startswith("Hand #CA-1")
    assert "OHH object 2 (line 2 of x.ohh) cannot be read: missing 'players'" in found[1]
    assert "no x_hh extension" in found[2]
    assert "cannot be read further: line 4 column 2: not JSON" in found[3]
    (tmp_path / "x.ohh").write_text(body, encoding="utf-8")
    (tmp_path / "y.ohh.gz").write_bytes(gzip.compress(body.replace("CA-1", "CA-2").encode()))
    db = tmp_path / "x.duckdb"
    _, summary, _ = hh_import(str(tmp_path), "--db", str(db), "--workers", "1")
    assert summary is not None and (summary["imported"], summary["rejected"]) == (2, 6)
    assert query(db, "SELECT hand_id FROM hands ORDER BY 1") == [("CA-1",), ("CA-2",)]


def _ohh_of(text: str) -> str:
    from hh.openformats.export import judge, ohh_json

    hand = next(parse_text(text)).hand
    assert hand is not None
    return ohh_json(hand, judge(hand)[0])
