"""A watched hand is judged only when it is whole (issue 41,
docs/decisions.md "A hand is judged only when it is whole").

A poker client writes a session in pieces and pauses longer than
``--quiet``, cutting a hand where it still parses (inside its summary's seat
lines, right after its Deck line), inside the Deck line and in the middle
of another line. Afterwards the database holds exactly what ``hh validate``
says of the whole file: every hand, the same verdicts and codes, no reject;
for ``hh import --watch`` and ``hh serve --watch``. A hand stored after the
quiet time (or by a plain ``hh import`` of a file still being written) that
later grows is replaced: one hand, judged again, and the reports' figures
are those of a clean import of the whole file."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from import_helpers import contents, hh_import, query, referee, session
from typer.testing import CliRunner

from hh.model import Game
from reports.cli import register as register_report

QUIET = 0.3
PAUSE = 1.2  # a client's pause: four times the quiet time


def _hands(game: Game, n: int, seed: int) -> list[str]:
    return session(game, n, seed, tables=1).strip("\n").split("\n\n")


def _summary_seats(hand: str, k: int) -> int:
    """The offset in ``hand`` just after its summary's ``k``-th seat line."""
    at = hand.index("*** SUMMARY ***")
    for _ in range(k):
        at = hand.index("\nSeat ", at) + 1
    return hand.index("\n", at) + 1


def _pieces(hands: list[str]) -> tuple[str, list[int]]:
    """The whole file (one blank line between hands, as hh writes it) and
    where the client pauses: after the first of the summary's seat lines of
    one hand (it still parses: "the summary lists some seats but not
    all"), right after the Deck line of another (it parses: a summary
    without seat lines), in the middle of a Deck line, and in the middle of
    an action line."""
    whole = "\n\n".join(hands) + "\n"
    starts = [0]
    for h in hands[:-1]:
        starts.append(starts[-1] + len(h) + 2)
    cuts = [
        starts[2] + _summary_seats(hands[2], 1),
        starts[4] + _summary_seats(hands[4], 0) + hands[4][_summary_seats(hands[4], 0):].index(
            "\nSeat ") + 1,  # just before the first seat line: after the Deck line
        starts[6] + hands[6].index("\nDeck ") + 12,  # inside the Deck line
        starts[8] + hands[8].index(": ", hands[8].index("*** ")) + 4,  # mid action line
    ]
    return whole, cuts


def _still_parses(whole: str, cut: int) -> bool:
    from hh.parse import parse_text

    text = whole[:cut].rsplit("\n\n", 1)[-1]
    return all(r.hand is not None for r in parse_text(text))


def _same_as_validate(db: Path, log: Path) -> None:
    """The database holds what hh validate says of the whole file."""
    verdicts = referee([str(log)])
    assert all(v.pots is not None for v in verdicts)  # every run is a hand
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    assert dict(query(db, "SELECT hand_id, valid FROM hands")) == {
        v.hand_id: v.valid for v in verdicts
    }
    stored = Counter(query(db, "SELECT hand_id, code, line, message FROM violations "
                               "WHERE NOT unchecked"))  # fmt: skip
    assert stored == Counter(
        (v.hand_id, x.code, x.line, x.message) for v in verdicts for x in v.violations
    )


def _write_in_pieces(log: Path, whole: str, cuts: list[int], wait: Callable[[], None]) -> None:
    """Append ``whole`` to ``log`` piece by piece, pausing after each cut
    (``wait``: until the watch has had a quiet cycle)."""
    done = len(log.read_text(encoding="utf-8")) if log.exists() else 0
    for at in [*cuts, len(whole)]:
        with log.open("a", encoding="utf-8", newline="") as f:
            f.write(whole[done:at])
        done = at
        wait()


def test_the_pieces_cut_where_a_hand_still_parses() -> None:
    """The test's own premise: two pauses fall where the piece still
    parses (the old rule stored it as read), two where it does not."""
    whole, cuts = _pieces(_hands(Game.CHIRIBITO, 10, 71))
    assert [_still_parses(whole, c) for c in cuts] == [True, True, False, False]


def test_import_watch_judges_each_hand_whole(tmp_path: Path) -> None:
    from pipelines.watch import watch

    folder = tmp_path / "live"
    folder.mkdir()
    whole, cuts = _pieces(_hands(Game.CHIRIBITO, 10, 71))
    log = folder / "table.txt"
    log.write_text(whole[:100], encoding="utf-8")
    db = tmp_path / "live.duckdb"
    stop = threading.Event()
    cycles: list[dict[str, object]] = []
    out: list[dict[str, object]] = []
    thread = threading.Thread(target=lambda: out.append(
        watch(str(db), [str(folder)], 1, quiet=QUIET, stop=stop, on_cycle=cycles.append)))

    def quiet_cycle() -> None:  # the client pauses: the watch's quiet cycle runs meanwhile
        seen = len(cycles)
        deadline = time.monotonic() + 30
        while len(cycles) < seen + 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(PAUSE - 2 * QUIET)

    thread.start()
    try:
        while not cycles:
            time.sleep(0.05)
        _write_in_pieces(log, whole, cuts, quiet_cycle)
    finally:
        stop.set()
        thread.join(30)
    assert out and out[0]["imported"] == 10 and out[0]["rejected"] == 0
    assert int(out[0]["replaced"]) >= 2  # type: ignore[call-overload]
    _same_as_validate(db, log)
    clean = tmp_path / "clean.duckdb"
    hh_import(str(log), "--db", str(clean), "--workers", "1")
    assert contents(db) == contents(clean)


def test_serve_watch_judges_each_hand_whole(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from reports.web.app import Config, create_app

    folder = tmp_path / "live"
    folder.mkdir()
    whole, cuts = _pieces(_hands(Game.ACES, 10, 72))
    log = folder / "table.txt"
    db = tmp_path / "live.duckdb"
    with TestClient(create_app(Config(db=str(db), watch=[str(folder)], quiet=QUIET)),
                    raise_server_exceptions=False) as c:  # fmt: skip

        def status() -> dict[str, int]:
            return c.get("/api/status").json()["watch"]  # type: ignore[no-any-return]

        _write_in_pieces(log, whole, cuts, lambda: time.sleep(PAUSE))
        deadline = time.monotonic() + 30
        while status()["imported"] < 10 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status()["imported"] == 10 and status()["rejected"] == 0
        players = c.get("/api/players").json()  # its cache followed the replaced hands
    _same_as_validate(db, log)
    assert players == _report(db)


def _report(db: Path, kind: str = "players") -> object:
    reports = typer.Typer()

    @reports.callback()
    def _root() -> None:
        """hh"""

    register_report(reports)
    result = CliRunner().invoke(reports, ["report", kind, "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("game", [Game.CHIRIBITO, Game.CALATONE])
def test_a_stored_hand_that_grows_is_replaced(tmp_path: Path, game: Game) -> None:
    """A plain import of a file still being written stores its last hand
    as read (it parses); the reports fill their caches; the client writes
    the rest and the same import runs again: the hand is replaced, not
    followed by a reject of its tail, and every table and report equals a
    clean import of the whole file."""
    hands = _hands(game, 6, 73)
    whole = "\n\n".join(hands) + "\n"
    cut = len(whole) - len(hands[-1]) - 1 + _summary_seats(hands[-1], 1)  # one seat line
    assert _still_parses(whole, cut)
    log = tmp_path / "table.txt"
    log.write_text(whole[:cut], encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert s is not None and s["imported"] == 6 and code == 1 and err == ""  # SUMMARY, for now
    assert _report(db)  # the caches hold the piece's figures
    before = query(db, "SELECT count(*) FROM hands WHERE NOT valid")
    assert before == [(1,)]
    log.write_text(whole, encoding="utf-8")  # the client wrote the rest
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert s is not None and err == ""
    assert (s["hands"], s["imported"], s["replaced"], s["rejected"], s["duplicates"]) == (
        1, 0, 1, 0, 0)  # fmt: skip
    clean = tmp_path / "clean.duckdb"
    hh_import(str(log), "--db", str(clean), "--workers", "1")
    assert contents(db) == contents(clean)
    _same_as_validate(db, log)
    assert _report(db) == _report(clean)
    assert _report(db, "integrity") == _report(clean, "integrity")
    # and run again on the same file: nothing more
    code, s, _ = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert s is not None and (s["imported"], s["replaced"]) == (0, 0)
    assert contents(db) == contents(clean)


def test_a_cycle_hooks_look_at_its_own_hands_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A watch's cycle gives the import's hooks the table of the hands it
    stored (pipelines.hooks.AfterImport's ``stored``): the reports' caches
    then look at those hands, not at every stored one, and the reports
    after cycles that add hands and replace one that grew equal those of a
    clean import of the whole file (the stale keys of the replaced hand
    are left to the next report that reads every hand)."""
    from pipelines import crosshand
    from pipelines.importer import Importer, after_import, closed, connect
    from reports.cache import Cache

    hands = _hands(Game.CALATONE, 12, 74)
    whole = "\n\n".join(hands) + "\n"
    cut = len(whole) - len(hands[-1]) - 1 + _summary_seats(hands[-1], 1)
    assert _still_parses(whole, cut)
    first = "\n\n".join(hands[:6]) + "\n"
    log = tmp_path / "table.txt"
    db = tmp_path / "hands.duckdb"
    wanted: list[str] = []
    real_want = Cache.want

    def want(self: Cache, cond: str, params: list[object]) -> int:
        wanted.append(cond)
        return real_want(self, cond, params)

    monkeypatch.setattr(Cache, "want", want)
    importer: Importer | None = None
    for k, text in enumerate([first, whole[:cut], whole]):  # 6 hands, 6 more, the last grown
        log.write_text(text, encoding="utf-8")
        if k == 1:
            assert _report(db, "integrity") is not None  # the cache then keeps its facts too
        con = connect(str(db))  # as the watch's cycle opens it (pipelines.watch)
        if importer is None:
            importer = Importer(con, 1, command="import --watch")
        importer.use(con)
        stored = importer.track()
        before = (importer.counts.imported, importer.counts.replaced)
        importer.import_files([str(log)], tail=False)
        crosshand.check(con)
        new = con.execute(f"SELECT count(*) FROM {stored}").fetchall()[0][0]
        assert new == importer.counts.imported + importer.counts.replaced - sum(before)
        assert new == [6, 6, 1][k]
        wanted.clear()
        after_import(con, stored=stored)
        # both hooks (counts; integrity once its facts are kept) wanted this cycle's hands only
        assert wanted and all(stored in cond for cond in wanted), wanted
        assert len(wanted) == (1 if k == 0 else 2)
        closed(con, str(db))
    assert importer is not None
    con = connect(str(db))
    importer.use(con)
    importer.finish()
    importer.close()
    closed(con, str(db))
    clean = tmp_path / "clean.duckdb"
    code, _, err = hh_import(str(log), "--db", str(clean), "--workers", "1")
    assert code == 0, err
    assert contents(db) == contents(clean)
    assert _report(db) == _report(clean)
    assert _report(db, "integrity") == _report(clean, "integrity")


def test_the_watch_gives_its_hooks_the_hands_of_the_cycle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Each cycle's hooks get the table of the hands it stored, by name
    (``stored``), and the cache beside the database (not a file of that name)."""
    import pipelines.watch

    calls: list[tuple[object, object, int]] = []

    def hooks(con: Any, cache: str | None = None, stored: str | None = None) -> None:
        n = con.execute(f"SELECT count(*) FROM {stored}").fetchall()[0][0]
        calls.append((cache, stored, int(n)))

    monkeypatch.setattr(pipelines.watch, "after_import", hooks)
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "live"
    folder.mkdir()
    (folder / "table.txt").write_text("\n\n".join(_hands(Game.CHIRIBITO, 5, 75)) + "\n\n",
                                      encoding="utf-8")  # fmt: skip
    stop = threading.Event()
    pipelines.watch.watch(str(tmp_path / "live.duckdb"), [str(folder)], 1, quiet=QUIET,
                          stop=stop, on_cycle=lambda _: stop.set())  # fmt: skip
    assert calls == [(None, "_stored_hands", 5)]
    assert not (tmp_path / "_stored_hands").exists()
