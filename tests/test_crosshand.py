"""The streaming cross-hand checks of ``hh validate`` give what the batch
``cross_check`` gives, in any input order, while holding only what later
hands need (issue 8, item 13)."""

from __future__ import annotations

import contextlib
import json
import random
import sys
import tracemalloc
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hh.cli import validate_command
from hh.cli_support import Output
from hh.crosshand import CrossChecker, Summary
from hh.model import Game
from hh.parallel import place_of
from hh.parse import parse_file, parse_text
from hh.read.cut import table_order
from hh.read.places import NO_TIME, instant, placement
from hh.simulate import Simulator
from hh.validate import SeatStack, cross_check, validate
from hh.write import write_hand

pytestmark = pytest.mark.compiled

runner = CliRunner()
_TEXTS = {
    game: [write_hand(h) for h in Simulator(game, 3, tables=3).hands(36)]
    for game in (Game.CHIRIBITO, Game.CALATONE)
}


def _batch(paths: list[Path]) -> list[str]:
    """The old way: every verdict in memory, then cross_check over the list."""
    from hh.parallel import _failed  # the CLI's verdict for a hand that did not parse

    verdicts = []
    for path in paths:
        for r in parse_file(path):
            if r.hand is not None:
                verdicts.append(validate(r.hand, r.file))
            else:
                lines = [*r.raw.split("\n", 2), ""]
                verdicts.append(_failed(r, placement(lines[0], lines[1] or None)))
    return [json.dumps(v.to_json(), ensure_ascii=False) for v in cross_check(verdicts)]


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from([Game.CHIRIBITO, Game.CALATONE]),
    picks=st.lists(st.integers(min_value=0, max_value=35), min_size=1, max_size=36),
    files=st.integers(min_value=1, max_value=4),
    broken=st.sets(st.integers(min_value=0, max_value=35), max_size=3),
)
def test_streaming_gives_the_batch_verdicts(
    tmp_path: Path, game: Game, picks: list[int], files: int, broken: set[int]
) -> None:
    # any selection of the session's hands, repeated, left out, out of order,
    # some broken so that they fail to parse, over several files
    texts = _TEXTS[game]
    hands = [
        texts[k].replace("*** SUMMARY ***", "*** SUMMARY") if k in broken else texts[k]
        for k in picks
    ]
    for old in tmp_path.glob("*.txt"):
        old.unlink()
    paths = []
    for f in range(files):
        path = tmp_path / f"{f}.txt"
        path.write_text("\n\n".join(hands[f::files]) + "\n", "utf-8")
        paths.append(path)
    result = runner.invoke(app_validate(), ["--json", "--workers", "1", *map(str, paths)])
    assert result.exit_code in (0, 1), result.output
    streamed = result.output.splitlines()
    batch = _batch(paths)
    assert sorted(streamed) == sorted(batch)
    if not table_order([str(p) for p in paths]).disordered:
        assert streamed == batch  # every table in time order: exactly the input order


def app_validate() -> typer.Typer:
    one = typer.Typer()
    one.command()(validate_command)
    return one


def test_a_table_out_of_time_order_is_held_until_its_last_hand(tmp_path: Path) -> None:
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 4, tables=2).hands(8)]
    # tables alternate: 0 2 4 6 are table 1, 1 3 5 7 table 2; table 2 goes back in time
    order = [0, 1, 2, 5, 4, 3, 6, 7]
    path = tmp_path / "x.txt"
    path.write_text("\n\n".join(texts[k] for k in order) + "\n", "utf-8")
    assert len(table_order([str(path)]).disordered) == 1
    result = runner.invoke(app_validate(), ["--json", "--workers", "1", str(path)])
    assert result.exit_code == 0, result.output  # in time order, the chain holds
    ids = [json.loads(line)["hand_id"] for line in result.output.splitlines()]
    # table 1 streams in input order; table 2 comes out in time order after its last hand
    one = [r.hand_id for r in parse_file(path) if r.hand and r.hand.table.name.endswith("-1")]
    two = [r.hand_id for r in parse_file(path) if r.hand and r.hand.table.name.endswith("-2")]
    assert ids == one + sorted(two, key=lambda h: int(h.rsplit("-", 1)[1]))


def test_times_convert_without_overflow_and_odd_zones_are_as_written() -> None:
    base = instant("2026/01/01 10:00:00", None)
    assert instant("2026/01/01 10:00:00", "CET") == base - 3600
    assert instant("2026/01/01 10:00:00", "+01:30") == base - 5400
    assert instant("2026/01/01 10:00:00", "-02:00") == base + 7200
    for odd in ("+0100", "-", "+1", "XYZ", "+01:0"):
        assert instant("2026/01/01 10:00:00", odd) == base
    assert instant("0001/01/01 00:00:00", "CET") < instant("0001/01/01 00:00:00", None)
    assert instant("9999/12/31 23:59:59", "-01:00") > instant("9999/12/31 23:59:59", None)
    assert instant("2026/02/30 10:00:00", None) == NO_TIME
    assert instant("2026/01/01 24:00:00", None) == NO_TIME
    assert instant(None, None) == NO_TIME


def _summary(k: int, table: int) -> Summary:
    stacks = (SeatStack(1, f"P{k % 7}", 100, 100, 3), SeatStack(2, f"Q{k % 5}", 100, 100, 4))
    return Summary(
        "f.txt", k * 20 + 1, f"H-{k}", "site", f"T{table}", k, "chiribito", True, k * 20 + 2,
        None, stacks, ("P", "Q"), (),
    )


def _peak(n: int) -> int:
    tracemalloc.start()
    checker = CrossChecker()
    for k in range(n):
        for item, extra in checker.add(_summary(k, k % 10), k):
            del item, extra
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def test_the_checker_keeps_a_few_bytes_a_hand() -> None:
    small, large = _peak(2_000), _peak(20_000)
    # the (site, id) table: 16 bytes a slot, 1.33 to 2.67 slots a hand, 4 while it
    # doubles; a kept summary would be ~1 KB a hand, a verdict ~2.3 KB
    assert (large - small) / 18_000 < 128, (small, large)


def test_validate_memory_is_flat_in_the_number_of_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the large run is the small one ten times over at the same two tables
    # (other ids, later days), so that the biggest single hand, which sets
    # the peak, and the number of tables, whose last hands are kept, are
    # the same
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 9, tables=2).hands(40)]
    small, large = tmp_path / "s.txt", tmp_path / "l.txt"
    small.write_text("\n\n".join(texts) + "\n", "utf-8")
    copies = [
        "\n\n".join(
            t.replace("2026/01/01", f"2026/01/{k + 1:02d}").replace("#CH-9-", f"#C{k}-9-")
            for t in texts
        )
        for k in range(10)
    ]
    large.write_text("\n\n".join(copies) + "\n", "utf-8")
    held: list[int] = []

    class Sink:
        """Notes the memory held between two hands, at each verdict written."""

        def write(self, text: str) -> None:
            held.append(tracemalloc.get_traced_memory()[0])

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", Sink())
    monkeypatch.setattr(Output, "BLOCK", 1)  # each verdict reaches the sink as it is written

    def most(path: Path) -> int:
        held.clear()
        tracemalloc.start()
        with contextlib.suppress(typer.Exit):  # the stacks do not carry over between copies
            validate_command([str(path)], as_json=True, workers=1)
        tracemalloc.stop()
        return max(held)

    # warm: the grammar, the evaluators, and Python's free lists and caches
    # (which tracemalloc counts as allocated: they fill up, then stay)
    for _ in range(2):
        most(large)
    ten, hundred = most(small), most(large)
    # 10x the hands, 360 more: kept verdicts (~2.3 KB each) would add ~830 KB,
    # kept rendered output and summaries ~1 KB a hand; what grows here (~150
    # bytes a hand over 400 hands) is Python's caches filling, flat at 200,000
    # hands (see docs/decisions.md for the RSS figures)
    assert (hundred - ten) / 360 < 400, (ten, hundred)


def test_placement_of_a_parsed_hand_agrees_with_its_model() -> None:
    rng = random.Random(5)
    for text in rng.sample(_TEXTS[Game.CALATONE], 10):
        (record,) = list(parse_text(text))
        lines = record.raw.split("\n")
        place = placement(lines[0], lines[1])
        v = validate(record.hand)
        assert (place.site, place.table, place.when, place.zone, place.game) == (
            v.site, v.table, v.when, v.zone, v.game,
        )
        assert place_of(record) == place  # what hh validate reads from the parsed header


def test_each_hand_is_printed_as_soon_as_it_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hh.parallel

    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 6, tables=2).hands(12)]
    path = tmp_path / "x.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    judged: list[int] = []
    real = hh.parallel.judge

    def counting(record: object, as_json: bool) -> object:
        judged.append(1)
        return real(record, as_json)  # type: ignore[arg-type]

    seen: list[int] = []

    class Sink:
        def write(self, text: str) -> None:
            seen.append(len(judged))

        def flush(self) -> None:
            pass

    monkeypatch.setattr(hh.parallel, "judge", counting)
    monkeypatch.setattr(sys, "stdout", Sink())
    monkeypatch.setattr(Output, "BLOCK", 1)  # as a terminal gets them
    validate_command([str(path)], as_json=True, workers=1)
    # the k-th verdict is written right after the k-th hand is judged
    assert seen == list(range(1, 13))


def test_the_id_table_finds_every_first_sighting_as_it_grows() -> None:
    from hh.crosshand import _IdSet

    ids = _IdSet(expected=10)  # far too small: it grows several times
    keys = [(None if k % 3 == 0 else "site", f"H{k}") for k in range(5000)]
    for k, (site, hand) in enumerate(keys):
        assert ids.first(site, hand, f"f{k % 7}.txt", k + 1) is None
    for k, (site, hand) in enumerate(keys):
        assert ids.first(site, hand, "again.txt", 1) == (f"f{k % 7}.txt", k + 1)
    # no site and a site are different pairs
    assert ids.first("", "H0", "x", 1) is None


def _instant_by_datetime(when: str, zone: str | None) -> int:
    """The time in seconds as ``datetime`` reads it (the oracle of instant)."""
    import datetime as dt

    try:
        moment = dt.datetime.strptime(when, "%Y/%m/%d %H:%M:%S")
    except ValueError:
        return NO_TIME
    t = moment.date().toordinal() * 86400 + moment.hour * 3600 + moment.minute * 60 + moment.second
    offsets = {"UTC": 0, "CET": 60, "CEST": 120, "+05:30": 330, "-01:00": -60}
    return t - offsets.get(zone or "", 0) * 60


@settings(max_examples=300, deadline=None)
@given(
    year=st.integers(1, 9999),
    month=st.integers(0, 13),
    day=st.integers(0, 32),
    hour=st.integers(0, 25),
    minute=st.integers(0, 61),
    second=st.integers(0, 61),
    zone=st.sampled_from([None, "UTC", "CET", "CEST", "+05:30", "-01:00"]),
)
def test_instant_agrees_with_datetime(
    year: int, month: int, day: int, hour: int, minute: int, second: int, zone: str | None
) -> None:
    """Day numbers are remembered per date: a date read twice, valid or
    not, gives what datetime gives each time."""
    when = f"{year:04d}/{month:02d}/{day:02d} {hour:02d}:{minute:02d}:{second:02d}"
    expected = _instant_by_datetime(when, zone)
    assert instant(when, zone) == expected
    assert instant(when, zone) == expected  # the second time from the remembered day


def test_a_summary_pickled_by_a_worker_comes_back_whole() -> None:
    """What crosses from a worker (a pickled Summary) is the same summary
    once unpickled: every field, the line numbers and each seat's stack
    included."""
    import pickle

    from hh.crosshand import summarize

    for h in Simulator(Game.CALATONE, seed=5, tables=2).hands(30):
        text = write_hand(h)
        lines = text.split("\n", 2)
        s = summarize(validate(h, "f.txt"), placement(lines[0], lines[1]))
        back = pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL))
        assert repr(back) == repr(s) and back.stacks and back.stacks[0].line == s.stacks[0].line
