"""The HTML report and ``hh report`` end to end, and the page in a real
browser (headless Chromium through Playwright): rows, every chart drawn,
sorting, no console error, no script injected through a player's name."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reports.show.replayer import script_json
from tests.reportdb import build, hand, merge

EVIL = "<script>window.x=1</script>"
BO = "Bo &amp; <b>\u202e"  # markup and a right-to-left override


def _db(path: Path) -> Path:
    parts = []
    for i, (a, b) in enumerate([(EVIL, "Ana María"), ("Ana María", BO), (EVIL, BO)]):
        parts.append(hand("chiribito", f"h{i}", [
            (a, -20, 0, 20, {"folded_round": 0}),
            (b, 20, 40, 20)],
            f"""-1 {a.replace(' ', '_')} blind 20
                0 {b.replace(' ', '_')} raise 40
                0 {a.replace(' ', '_')} fold
                0 {b.replace(' ', '_')} uncalled 20""",
            forced=20, last_round=0, showdown=False, table="T <i>",
            started_at=f"2026-01-01 00:0{i}:00"))  # fmt: skip
    data = merge(*parts)
    for row in data["actions"]:
        row["player"] = row["player"].replace("_", " ")
    data["violations"] = [{"site": "test", "hand_id": "h1", "code": "OUT_OF_TURN", "line": 9,
                           "message": "</script><script>window.y=1</script>",
                           "source": "hand"}]  # fmt: skip
    return build(path, **data)


class _Result:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def _hh(*args: str) -> _Result:
    """``hh report ...`` in process (the commands of hh.cli.COMMANDS on a fresh app)."""
    import typer
    from typer.testing import CliRunner

    from reports.cli import register

    app = typer.Typer()
    register(app)
    out = CliRunner().invoke(app, ["report", *args], env={"COLUMNS": "250"})
    if out.exception and not isinstance(out.exception, SystemExit):
        raise out.exception
    return _Result(out.exit_code, out.stdout, out.stderr)


def test_hh_command_is_registered() -> None:
    out = subprocess.run([sys.executable, "-m", "hh", "report", "--help"], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0 and "players" in out.stdout and "violations" in out.stdout


def test_embedded_json_cannot_close_its_script_block() -> None:
    text = script_json({"p": EVIL, "q": "a\u2028b & c > d"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"p": EVIL, "q": "a\u2028b & c > d"}


def test_cli_formats(tmp_path: Path) -> None:
    db = _db(tmp_path / "h.duckdb")
    out = _hh("players", "--db", str(db), "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    keys = {"player", "game", "hands", "net", "net_per_100", "vpip", "pfr", "three_bet", "af",
            "afq", "cbet", "fold_to_cbet", "wtsd", "wsd", "wwsr2", "allin_adjusted_net"}
    for row in rows:
        assert keys <= set(row)
        for k in ("vpip", "pfr", "wtsd"):
            assert {f"{k}_opp", f"{k}_n"} <= set(row)
            assert row[k] is None or 0 <= row[k] <= 1
    assert {r["player"] for r in rows} == {EVIL, "Ana María", BO}  # JSON: the names as they are
    table = _hh("players", "--db", str(db))
    assert table.returncode == 0 and "Ana María" in table.stdout
    csv = _hh("players", "--db", str(db), "--format", "csv", "--sort", "net")
    assert csv.returncode == 0 and csv.stdout.startswith("player,game,")
    pq = tmp_path / "p.parquet"
    assert _hh("players", "--db", str(db), "--format", "parquet", "--out", str(pq)).returncode == 0
    import polars as pl

    assert pl.read_parquet(pq).height == 3
    one = _hh("player", "Ana María", "--db", str(db), "--format", "json")
    assert one.returncode == 0, one.stderr
    assert set(json.loads(one.stdout)) >= {"overall", "by_position", "by_session", "by_round"}
    v = _hh("violations", "--db", str(db), "--format", "json")
    assert json.loads(v.stdout)["by_code"][0]["code"] == "OUT_OF_TURN"
    assert _hh("violations", "--db", str(db)).returncode == 0


def test_csv_cells_a_spreadsheet_would_run_start_with_an_apostrophe(tmp_path: Path) -> None:
    import csv
    import io

    import polars as pl

    from reports.render.files import write

    formula = '=HYPERLINK("http://x.example","Bo")'
    data = merge(hand("chiribito", "f1", [
        (formula, -20, 0, 20, {"folded_round": 0}), ("-Ana", 20, 40, 20)],
        """-1 F blind 20
            0 A raise 40
            0 F fold
            0 A uncalled 20""", forced=20, last_round=0, showdown=False))  # fmt: skip
    for row in data["actions"]:
        row["player"] = {"F": formula, "A": "-Ana"}[row["player"]]
    db = build(tmp_path / "f.duckdb", **data)
    out = _hh("players", "--db", str(db), "--format", "csv")
    assert out.returncode == 0, out.stderr
    names = [r["player"] for r in csv.DictReader(io.StringIO(out.stdout))]
    assert sorted(names) == sorted(["'" + formula, "'-Ana"])
    as_json = json.loads(_hh("players", "--db", str(db), "--format", "json").stdout)
    assert sorted(r["player"] for r in as_json) == sorted([formula, "-Ana"])  # JSON: exact
    # a list column is one JSON cell
    assert write(pl.DataFrame({"x": [[1, 2]]}), "csv", None) == 'x\n"[1, 2]"\n'


def test_cli_errors_exit_2(tmp_path: Path) -> None:
    missing = _hh("players", "--db", str(tmp_path / "none.duckdb"))
    assert missing.returncode == 2 and "no database" in missing.stderr
    db = _db(tmp_path / "h.duckdb")
    assert _hh("players", "--db", str(db), "--sort", "nope").returncode == 2
    assert _hh("players", "--db", str(db), "--format", "xml").returncode == 2
    assert _hh("players", "--db", str(db), "--game", "holdem").returncode == 2


def test_html_in_a_real_browser(tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    db = _db(tmp_path / "h.duckdb")
    page_file = tmp_path / "report.html"
    out = _hh("players", "--db", str(db), "--format", "html", "--out", str(page_file))
    assert out.returncode == 0, out.stderr
    html = page_file.read_text("utf-8")
    assert EVIL not in html and "window.y=1</script>" not in html
    body = html.split("<body>")[1]
    assert "<script src" not in body and "<link" not in html  # nothing to fetch
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.route("**/*", lambda route: route.abort() if not route.request.url.startswith(
            "file:") else route.continue_())  # fmt: skip
        page.goto(page_file.as_uri())
        page.wait_for_function("document.querySelectorAll('.main-svg').length >= 4")
        rows = page.locator("#players tbody tr")
        assert rows.count() == 3
        for chart in ("chart-net", "chart-vpip", "chart-aggression", "chart-violations"):
            assert page.locator(f"#{chart} .main-svg").count() >= 1, chart
        assert page.evaluate("window.x") is None and page.evaluate("window.y") is None
        names = rows.locator("td:first-child").all_text_contents()
        assert EVIL in names and "Bo &amp; <b>\\u202e" in names  # shown as hh report shows it
        page.locator("th[data-key=player]").click()
        first = rows.locator("td:first-child").all_text_contents()
        assert first == sorted(first)
        page.locator("th[data-key=player]").click()
        assert rows.locator("td:first-child").all_text_contents() == sorted(first, reverse=True)
        page.fill("#filter", "ana")
        assert rows.count() == 1
        browser.close()
    assert errors == []


def _many_players(path: Path) -> Path:
    """Player P<k> plays k + 1 hands against Opp (78 hands in all), each lost
    blind by blind: twelve series, no violation."""
    parts, n = [], 0
    for k in range(12):
        for _ in range(k + 1):
            parts.append(hand("chiribito", f"m{n}", [
                (f"P{k:02d}", -20, 0, 20, {"folded_round": 0}), ("Opp", 20, 40, 20)],
                f"""-1 P{k:02d} blind 20
                    0 Opp raise 40
                    0 P{k:02d} fold
                    0 Opp uncalled 20""",
                forced=20, last_round=0, showdown=False,
                started_at=f"2026-01-01 {n // 60:02d}:{n % 60:02d}:00"))  # fmt: skip
            n += 1
    return build(path, **merge(*parts))


def test_net_chart_pairs_lines_and_lets_users_choose(tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    db = _many_players(tmp_path / "m.duckdb")
    page_file = tmp_path / "report.html"
    out = _hh("players", "--db", str(db), "--format", "html", "--out", str(page_file))
    assert out.returncode == 0, out.stderr
    traces = ("document.getElementById('chart-net').data"
              ".map(t => [t.name, t.line.color, t.line.dash])")
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_function("document.querySelectorAll('.main-svg').length >= 4")
        drawn = page.evaluate(traces)
        # the 8 series with most hands, each as its net line then its adjusted line
        names = ["Opp", *(f"P{k:02d}" for k in range(11, 4, -1))]
        assert [n for n, _, _ in drawn] == [
            x for name in names for x in (f"{name} (Chiribito)",
                                          f"{name} (Chiribito) all-in adjusted")]  # fmt: skip
        for net, adjusted in zip(drawn[::2], drawn[1::2], strict=True):
            assert net[1] == adjusted[1] and (net[2], adjusted[2]) == ("solid", "dash")
        colours = [c for _, c, _ in drawn[::2]]
        assert len(set(colours)) == 8
        # a player not drawn is found through the search box and added, with
        # a colour of his own
        page.fill("#series-search", "P00 (Chiribito)")
        page.dispatch_event("#series-search", "change")
        drawn = page.evaluate(traces)
        assert [n for n, _, _ in drawn[-2:]] == ["P00 (Chiribito)",
                                                 "P00 (Chiribito) all-in adjusted"]
        assert drawn[-1][1] == drawn[-2][1] and drawn[-2][1] not in colours
        assert page.locator("#series-shown .chip").count() == 9
        # the net line of P00 (one hand, lost the blind) and his split
        page.check("#split")
        p00 = page.evaluate("document.getElementById('chart-net').data"
                            ".filter(t => t.name.startsWith('P00')).map(t => [t.name, t.y])")
        assert p00 == [["P00 (Chiribito)", [-20]], ["P00 (Chiribito) all-in adjusted", [-20]],
                       ["P00 (Chiribito) won at showdown", [0]],
                       ["P00 (Chiribito) won without showdown", [-20]]]
        # removing a player frees his line
        page.locator("#series-shown .chip", has_text="Opp").locator("button").click()
        assert "Opp (Chiribito)" not in [n for n, _, _ in page.evaluate(traces)]
        # the date axis
        page.select_option("#x-axis", "t")
        assert page.evaluate("document.getElementById('chart-net').layout.xaxis.type") == "date"
        # no violations: the chart says so, no empty axes
        violations = page.evaluate("(() => { const c = document.getElementById("
                                   "'chart-violations'); return [c.data.length, "
                                   "c.layout.annotations.map(a => a.text), "
                                   "c.layout.xaxis.visible]; })()")
        assert violations == [0, ["No violations found"], False]
        headers = page.locator("#players th").all_text_contents()
        assert headers[:8] == ["player", "game", "stakes", "hands", "net", "bb/100", "net/100",
                               "adj net"]  # fmt: skip
        assert "W$SD" in headers
        cells = page.locator("#players tbody tr").first.locator("td").all_text_contents()
        assert cells[:9] == ["Opp", "Chiribito", "20", "78", "1,560", "100.0", "2,000.0",
                             "1,560", "100.0"]  # fmt: skip
        # under 20 hands no per-100 rates: P00's one hand shows "-"
        page.locator("th[data-key=hands]").click()  # fewest first
        cells = page.locator("#players tbody tr").first.locator("td").all_text_contents()
        assert cells[:8] == ["P00", "Chiribito", "20", "1", "-20", "-", "-", "-20"]
        # a phone's width: the page reads in one column, the tables scroll in their box
        page.set_viewport_size({"width": 420, "height": 800})
        page.wait_for_timeout(300)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        browser.close()
    assert errors == []


def test_player_page_shows_the_terminal_sections(tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    db = _many_players(tmp_path / "m.duckdb")
    page_file = tmp_path / "opp.html"
    out = _hh("player", "opp", "--db", str(db), "--format", "html", "--out", str(page_file))
    assert out.returncode == 0, out.stderr
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_function("document.querySelectorAll('.main-svg').length >= 4")
        titles = page.locator("#sections h2").all_text_contents()
        assert titles == ["overall", "by position", "by table size", "by session", "by day",
                          "by round"]  # fmt: skip
        session = page.locator("table[data-section='by session']")
        assert session.locator("th").all_text_contents()[:6] == [
            "session", "start", "minutes", "game", "stakes", "hands"]
        # Opp's 78 hands, a minute apart, at table T1: one session of 77 minutes
        assert session.locator("tbody tr td").all_text_contents()[:6] == [
            "T1 #1", "2026-01-01T00:00:00", "77", "Chiribito", "20", "78"]
        position = page.locator("table[data-section='by position'] tbody tr td:first-child")
        assert position.all_text_contents() == ["dealer"]
        # his own lines only, split at showdown drawn for one player
        names = page.evaluate("document.getElementById('chart-net').data.map(t => t.name)")
        assert names == ["Opp (Chiribito)", "Opp (Chiribito) all-in adjusted",
                         "Opp (Chiribito) won at showdown",
                         "Opp (Chiribito) won without showdown"]  # fmt: skip
        assert page.locator("#players tbody tr").count() == 1
        # the rounds named by their street (COMMON 1), not numbered
        heads = page.locator("table[data-section='by round'] th").all_text_contents()
        assert "street" in heads and "round" not in heads
        browser.close()
    assert errors == []


def test_many_players_embed_fewer_points_each() -> None:
    from reports.render.html import points_per_line

    assert [points_per_line(n) for n in (1, 500, 1000, 2000, 5000)] == [400, 400, 200, 100, 50]
