"""hh show: the referee's state line by line, the showdown and the disputes.

Expected figures are worked out by hand from the hand texts of handtext.py
(RULES.md), never read back from the code under test.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import duckdb
import pytest
import typer
from handtext import CA_ODD, CH_ODD, EX_ACES, EX_CALATONE, EX_CHIRIBITO, HandText
from rich.console import Console
from typer.testing import CliRunner

from hh.model import Game
from hh.output import safe
from hh.parse import parse_hand
from hh.simulate import Simulator
from hh.validate import validate
from hh.write import write_hand
from reports.show.cli import register
from reports.show.explain import explain, hand_meta
from reports.show.replayer import page, script_json, write_pages
from reports.show.terminal import render

app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh, with only the show command."""


register(app)
runner = CliRunner()


def _show(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["show", *args])
    return result.exit_code, result.output


def _json(tmp_path: Path, text: HandText, hand_id: str) -> dict[int, dict]:
    f = tmp_path / "h.txt"
    f.write_text(text.text, encoding="utf-8")
    code, out = _show(hand_id, str(f), "--json")
    assert code in (0, 1), out
    rows = json.loads(out)
    assert [r["line"] for r in rows] == list(range(1, len(text.lines) + 1))
    assert [r["text"] for r in rows] == list(text.lines)
    return {r["line"]: r for r in rows}


def _state(r: dict) -> tuple:
    return (r["to_act"], r["to_call"], r["min_raise_to"], r["pot"])


# ------------------------------------------------------------- golden hands


def test_chiribito_states(tmp_path: Path) -> None:
    rows = _json(tmp_path, EX_CHIRIBITO, "CH-1")
    t = EX_CHIRIBITO
    # the cards are out: Lucía opens facing the blind, raise to 2 x 20 at least
    r = rows[t.line("Dealt to Marta: down [Cb 6b]")]
    assert _state(r) == ("Lucía", 20, 40, 20)
    assert r["stacks"] == {"Paco": 980, "Lucía": 1000, "Íñigo": 1000, "Marta": 1000}
    # COMMON 1: Íñigo bets 40, Lucía raises to 80: pot 120 + 40 + 80, Íñigo owes
    # 40 and may raise by 80 more, to 160
    r = rows[t.line("Lucía: raises 40 to 80")]
    assert _state(r) == ("Íñigo", 40, 160, 240)
    assert (r["stacks"]["Lucía"], r["stacks"]["Íñigo"]) == (880, 920)
    assert r["turn"] == {"to_act": "Lucía", "to_call": 40, "min_raise_to": 80,
                         "min_bet": None, "pot": 160}  # fmt: skip
    assert r["violations"] == []
    last = rows[len(t.lines)]
    assert last["stacks"] == {"Paco": 960, "Lucía": 1760, "Íñigo": 280, "Marta": 1000}
    assert last["pot"] == 1480 and last["to_act"] is None


def test_chiribito_showdown(tmp_path: Path) -> None:
    rows = _json(tmp_path, EX_CHIRIBITO, "CH-1")
    t = EX_CHIRIBITO
    lucia = rows[t.line("Lucía: shows [So 7o] (a straight, Seis to Rey)")]["show"]
    assert sorted(lucia["used"]) == sorted(["6o", "7o", "So", "Cc", "Re"])
    assert lucia["category"] == "a straight"
    inigo = rows[t.line("Íñigo: shows [5c 5e] (a pair, Cincos)")]["show"]
    assert sorted(inigo["used"]) == sorted(["5c", "5e", "Re", "Cc", "Sc"])  # Rey, Caballo, Sota
    (pot,) = rows[t.line("Lucía: collected 1480 from pot")]["pots"]
    assert (pot["amount"], pot["eligible"], pot["winners"]) == (1480, ["Lucía", "Íñigo"], ["Lucía"])


def test_aces_states_and_joker(tmp_path: Path) -> None:
    rows = _json(tmp_path, EX_ACES, "AS-1")
    t = EX_ACES
    r = rows[t.line("Dealt to Carla: down [Tc Th] up [2d]")]
    assert (r["to_act"], r["min_bet"], r["pot"]) == ("Anna", 1, 3)  # Queen up opens, bets 1
    # 4th street: Ben bets 1, Carla folds, Anna raises to 2; Ben owes 1, may make it 3
    r = rows[t.line("Anna: raises 1 to 2")]
    assert _state(r) == ("Ben", 1, 3, 9)
    assert r["stacks"] == {"Anna": 46, "Ben": 47, "Carla": 48}
    anna = rows[t.line("Anna: shows [As Ks Qs 7s 9d 2c] (a flush, Ace high)")]["show"]
    assert sorted(anna["used"]) == sorted(["As", "Ks", "Qs", "Jk", "7s"])  # joker = Js
    ben = rows[t.line("Ben: shows [9c 9h 5c 5d Kd 3h] (two pair, Nines and Fives)")]["show"]
    assert sorted(ben["used"]) == sorted(["9c", "9h", "5c", "5d", "Jk"])  # ace kicker
    assert rows[len(t.lines)]["stacks"] == {"Anna": 62, "Ben": 40, "Carla": 48}


def test_calatone_states_and_declarations(tmp_path: Path) -> None:
    rows = _json(tmp_path, EX_CALATONE, "CA-1")
    t = EX_CALATONE
    assert _state(rows[t.line("Elena: bets 10")]) == ("Fabio", 10, 15, 25)
    # 3rd street: Fabio 20, Dario raises to 50 (by 30); Elena owes 50, min raise +5
    r = rows[t.line("Dario: raises 30 to 50")]
    assert _state(r) == ("Elena", 50, 55, 115)
    assert r["stacks"]["Dario"] == 435
    line = t.line("Dario: shows [Kh 7c Kd Ks 9h 7d Kc] and declares [Kh Kd Ks Kc 9h] "
                  "(four of a kind, Kings)")  # fmt: skip
    dario = rows[line]["show"]
    assert dario["holds"] is True and dario["category"] == "four of a kind"
    assert dario["used"] == ["Kh", "Kd", "Ks", "Kc", "9h"]
    (pot,) = rows[t.line("Dario: collected 565 from pot")]["pots"]
    assert pot["winners"] == ["Dario"] and pot["shares"] == {"Dario": 565}


def test_calatone_declaration_that_does_not_hold(tmp_path: Path) -> None:
    old = ("Fabio: shows [4s Js Jd 2c Jh 2s 5d] and declares [Js Jd Jh 2c 2s] "
           "(a full house, Jacks full of Twos)")  # fmt: skip
    new = old.replace("[Js Jd Jh 2c 2s]", "[Js Jd Jh Jc 2s]")
    text = EX_CALATONE.replace(old, new)
    rows = _json(tmp_path, text, "CA-1")
    r = rows[text.line(new)]
    assert "DECLARATION" in r["violations"]
    assert r["show"]["holds"] is False


def test_odd_chips_named(tmp_path: Path) -> None:
    rows = _json(tmp_path, CH_ODD, "T-CH-ODD")
    (pot,) = rows[CH_ODD.line("Dani: collected 38 from pot")]["pots"]
    assert pot["shares"] == {"Dani": 38, "Ceci": 37}
    assert pot["odd"]["to"] == ["Dani"] and "from the blind" in pot["odd"]["rule"]
    rows = _json(tmp_path, CA_ODD, "T-CA-ODD")
    r = rows[CA_ODD.line("Fabio: collected 8 from pot")]
    (pot,) = r["pots"]
    assert pot["shares"] == {"Fabio": 8, "Dario": 7} and pot["odd"]["to"] == ["Fabio"]
    assert any("odd chip: 1 to Fabio" in n for n in r["notes"])


# ------------------------------------------------------------------ disputes


def test_wrong_collector_shows_log_and_rules(tmp_path: Path) -> None:
    text = EX_CHIRIBITO.replace("Lucía: collected 1480 from pot", "Íñigo: collected 1480 from pot")
    rows = _json(tmp_path, text, "CH-1")
    r = rows[text.line("Íñigo: collected 1480 from pot")]
    assert r["violations"] == ["PAYOUT"]
    assert r["disputes"] == [{"log": "Íñigo collects 1480", "rules": "Lucía collects 1480"}]
    f = tmp_path / "h.txt"
    code, out = _show("CH-1", str(f))
    assert code == 1
    assert "log: Íñigo collects 1480 — rules: Lucía collects 1480" in out


def test_raise_too_small(tmp_path: Path) -> None:
    text = EX_CHIRIBITO.replace("Lucía: raises 40 to 80", "Lucía: raises 20 to 60")
    rows = _json(tmp_path, text, "CH-1")
    r = rows[text.line("Lucía: raises 20 to 60")]
    assert r["violations"] == ["RAISE_SIZE"]
    rule = "a raise is to 80 at least (or all-in for less)"
    assert r["disputes"] == [{"log": "Lucía raises 20 to 60", "rules": rule}]


# ------------------------------------------------------------ finding hands


def test_not_found_and_ambiguous(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    a.write_text(EX_CHIRIBITO.text, encoding="utf-8")
    code, out = _show("NOPE", str(a))
    assert code == 2 and "no hand #NOPE" in out
    other = EX_CHIRIBITO.replace(EX_CHIRIBITO.lines[0], EX_CHIRIBITO.lines[0].replace(
        "chiribito.com Hand", "otra.es Hand"))  # fmt: skip
    b = tmp_path / "b.txt"
    b.write_text(other.text, encoding="utf-8")
    code, out = _show("CH-1", str(a), str(b))
    assert code == 2 and "found 2 times" in out and "--site" in out
    code, out = _show("CH-1", str(a), str(b), "--site", "otra.es", "--json")
    assert code == 0 and json.loads(out)[0]["text"].startswith("otra.es Hand #CH-1")
    code, out = _show("CH-1", "--db", str(tmp_path / "none.duckdb"))
    assert code == 2 and "no database" in out


def test_files_are_found_as_hh_validate_finds_them(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "deep").mkdir(parents=True)
    (logs / "deep" / "a.log").write_text(EX_CHIRIBITO.text, encoding="utf-8")
    (logs / "notes.md").write_text(EX_CHIRIBITO.text, encoding="utf-8")  # not a hand history
    code, out = _show("CH-1", str(logs), "--json")
    assert code == 0 and json.loads(out)[0]["text"].startswith("chiribito.com Hand #CH-1")
    result = runner.invoke(app, ["show", "CH-1", "-", "--json"], input=EX_CHIRIBITO.text)
    assert result.exit_code == 0 and json.loads(result.output)[0]["line"] == 1
    (logs / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    code, out = _show("CH-1", str(logs))
    assert code == 2
    assert out == f"hh: cannot read {logs}/gone.txt: a broken symbolic link (to " \
        f"{tmp_path}/nowhere.txt, no such file or directory)\n"


def test_from_the_database(tmp_path: Path) -> None:
    db = tmp_path / "hands.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE hands (site VARCHAR, hand_id VARCHAR, file VARCHAR, line INTEGER)")
    con.execute("CREATE TABLE hand_text (site VARCHAR, hand_id VARCHAR, raw_text VARCHAR)")
    con.execute(
        "CREATE TABLE violations (site VARCHAR, hand_id VARCHAR, code VARCHAR, line INTEGER, "
        "message VARCHAR, unchecked BOOLEAN, source VARCHAR)"
    )
    raw = "\n".join(EX_CHIRIBITO.lines)
    con.execute("INSERT INTO hands VALUES ('chiribito.com', 'CH-1', '/x/s.txt', 101)")
    con.execute("INSERT INTO hand_text VALUES ('chiribito.com', 'CH-1', ?)", [raw])
    con.execute("INSERT INTO violations VALUES ('chiribito.com', 'CH-1', 'STACK_CARRYOVER', 103, "
                "'Lucía starts with 1000, but ended the last hand with 900', false, 'cross')")
    con.close()
    code, out = _show("CH-1", "--db", str(db), "--json")
    assert code == 1, out  # the stored cross-hand violation makes it invalid
    rows = {r["line"]: r for r in json.loads(out)}
    assert min(rows) == 101 and rows[103]["violations"] == ["STACK_CARRYOVER"]
    r = rows[100 + EX_CHIRIBITO.line("Lucía: raises 40 to 80")]
    assert _state(r) == ("Íñigo", 40, 160, 240)
    code, out = _show("CH-1", "--db", str(db), "--site", "elsewhere")
    assert code == 2 and "no hand #CH-1 of site 'elsewhere'" in out


def test_cross_hand_violations_from_files(tmp_path: Path) -> None:
    nxt = EX_CHIRIBITO.replace("Seat 1: Lucía (1000 in chips)", "Seat 1: Lucía (1500 in chips)")
    nxt = nxt.replace(nxt.lines[0], nxt.lines[0].replace("#CH-1", "#CH-2").replace(
        "21:14:03", "21:20:00"))  # fmt: skip
    f = tmp_path / "s.txt"
    f.write_text(EX_CHIRIBITO.text + "\n" + nxt.text, encoding="utf-8")
    code, out = _show("CH-2", str(f), "--json")
    codes = {c for r in json.loads(out) for c in r["violations"]}
    assert code == 1 and "STACK_CARRYOVER" in codes


# ------------------------------------------------------------------ escaping


def test_terminal_escapes_markup_and_control_characters() -> None:
    text = EX_CHIRIBITO.insert_after(
        "Paco: posts blind 20",
        'Paco: says "[bold red]boo[/bold red] \x1b[2J\u202egnp \u200f\u061c\ufeff"',
    ).replace("Table 'Mérida 2' 6-max Seat #3 is the dealer",
              "Table '[blink]Mérida[/blink]' 6-max Seat #3 is the dealer")
    hand = parse_hand(text.text)
    trace: list = []
    verdict = validate(hand, None, trace)
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=200, highlight=False, markup=False)
    render(explain(hand, verdict, trace, text.text), hand_meta(hand, verdict), console)
    out = buf.getvalue()
    assert "[bold red]boo[/bold red]" in out and "[blink]Mérida[/blink]" in out
    assert "\\x1b[2J" in out and "\\u202e" in out
    assert "\\u200f\\u061c\\ufeff" in out  # as hh report and hh validate show them
    assert "\x1b[2J" not in out and not any(c in out for c in "\u202e\u200f\u061c\ufeff")
    assert safe("a\x07b\x9bc") == "a\\x07b\\x9bc"


def test_script_json_cannot_close_the_script() -> None:
    s = script_json({"n": "</script><script>x=1</script>", "m": "a\u2028b&c"})
    assert "<" not in s and ">" not in s and "&" not in s and "\u2028" not in s
    assert json.loads(s) == {"n": "</script><script>x=1</script>", "m": "a\u2028b&c"}


# ------------------------------------------------------------------- pages


def test_write_pages(tmp_path: Path) -> None:
    hands = [parse_hand(EX_CHIRIBITO.text), (EX_CALATONE.text, 40, "/x/c.txt")]
    written = write_pages(hands, tmp_path / "pages")
    assert set(written) == {("chiribito.com", "CH-1"), ("", "CA-1")}
    for path in written.values():
        html = path.read_text(encoding="utf-8")
        assert path.parent == tmp_path / "pages" and html.startswith("<!doctype html>")
        assert 'id="hh-data"' in html


# ------------------------------------------------------------------- smoke


@pytest.mark.parametrize(
    ("game", "view"),
    [(Game.CHIRIBITO, None), (Game.ACES, None), (Game.CALATONE, None),
     (Game.CHIRIBITO, "Hero"), (Game.CALATONE, "Hero")],
)
def test_simulated_sessions_render(game: Game, view: str | None) -> None:
    """Every hand of a simulated session explains, prints and pages without
    error, and the last state's stacks are the verdict's end stacks."""
    n = 60 if view else 150
    hidden = 0  # hands ending with cards face down (hero view: others' cards unseen)
    for hand in Simulator(game, seed=11, view=view).hands(n):
        raw = write_hand(hand)
        hand = parse_hand(raw)
        trace: list = []
        verdict = validate(hand, None, trace)
        rows = explain(hand, verdict, trace, raw)
        meta = hand_meta(hand, verdict)
        json.dumps(rows)
        assert len(rows) == len(raw.split("\n"))
        ends = {s.name: s.end for s in verdict.stacks if s.name in rows[-1]["stacks"]}
        assert rows[-1]["stacks"] == ends
        hidden += any("??" in c["down"] for c in rows[-1]["cards"].values())
        buf = io.StringIO()
        render(rows, meta, Console(file=buf, soft_wrap=True, highlight=False, markup=False))
        assert buf.getvalue()
        assert page(rows, meta).count('id="hh-data"') == 1
    assert (hidden > 0) == (view is not None)
