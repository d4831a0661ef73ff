"""Issue 8, the command line's part: hostile input and broken outputs never end
in a traceback; untrusted text is escaped; messages read well."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hh.cli import app
from hh.cli_support import writing
from hh.output import quote, render
from hh.validate import Verdict, Violation

DATA = Path(__file__).parent / "data" / "parse"
CH = (DATA / "chiribito.txt").read_text("utf-8")
HEADER = CH.split("\n", 1)[0]
runner = CliRunner()


# Subprocesses run outside the source tree, so that they import the installed
# hh (the compiled build under make test-fast), not the sources beside them.
AWAY = Path(__file__).parent / "data"


def _hh(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hh", *args], capture_output=True, text=True, cwd=AWAY
    )


def _with_time(when: str) -> str:
    """The Chiribito example with another date, time and zone in its header."""
    head = HEADER.rsplit(" - ", 1)[0]
    return CH.replace(HEADER, f"{head} - {when}", 1)


def _json(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


# ----------------------------------------------------------- items 8 and 9


@pytest.mark.parametrize("zone", ["+0100", "-", "+1", "+01:0"])
def test_a_zone_without_colon_or_a_lone_dash_is_a_result(tmp_path: Path, zone: str) -> None:
    # the hand fails to parse (FORMAT.md: +hh:mm); its time, as written, still
    # places it in its table's chain between two good hands, which it breaks
    (tmp_path / "a.txt").write_text(_with_time("2026/11/29 20:00:00 UTC"), "utf-8")
    b = _with_time(f"2026/11/29 20:30:00 {zone}").replace("CH-1", "CH-2")
    (tmp_path / "b.txt").write_text(b, "utf-8")
    c = _with_time("2026/11/29 21:00:00 UTC").replace("CH-1", "CH-3")
    (tmp_path / "c.txt").write_text(c, "utf-8")
    done = _hh("validate", "--json", str(tmp_path))
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    a, b, c = _json(done.stdout)
    assert [x["code"] for x in b["violations"]] == ["PARSE_ERROR"]
    assert a["valid"] is True
    # the failed hand broke the chain: c is not compared with a
    assert c["valid"] is True


@pytest.mark.parametrize(
    "when", ["0001/01/01 00:00:00 CET", "9999/12/31 23:59:59 -01:00", "0001/01/01 00:00:00 +14:00"]
)
def test_dates_at_the_calendar_edge(tmp_path: Path, when: str) -> None:
    (tmp_path / "a.txt").write_text(_with_time(when), "utf-8")
    (tmp_path / "b.txt").write_text(_with_time(when).replace("CH-1", "CH-2"), "utf-8")
    done = _hh("validate", "--json", str(tmp_path))
    assert done.stderr == ""
    first, second = _json(done.stdout)
    assert first["valid"] is True
    # same table, same time: compared in input order (the stacks do not carry over)
    assert {x["code"] for x in second["violations"]} == {"STACK_CARRYOVER", "DEALER_ROTATION"}


def test_a_fault_in_the_cross_hand_checks_is_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hh.crosshand

    def broken(*_: object) -> list[Violation]:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(hh.crosshand, "_between", broken)
    (tmp_path / "a.txt").write_text(CH + "\n" + CH.replace("CH-1", "CH-2"), "utf-8")
    result = runner.invoke(app, ["validate", "--json", "--workers", "1", str(tmp_path)])
    assert result.exit_code == 1, result.output
    first, second = _json(result.output)
    assert first["valid"] is True
    (fault,) = second["violations"]
    assert fault["code"] == "INTERNAL_ERROR" and "ZeroDivisionError: boom" in fault["message"]
    # the batch function is guarded the same way
    from hh.parse import parse_text
    from hh.validate import cross_check, validate

    verdicts = [validate(r.hand) for r in parse_text(CH + "\n" + CH.replace("CH-1", "CH-2"))]
    assert [x.code for x in cross_check(verdicts)[1].violations] == ["INTERNAL_ERROR"]


# ----------------------------------------------------------- item 11


def test_output_errors_are_messages_with_exit_2(tmp_path: Path) -> None:
    hand = tmp_path / "h.txt"
    hand.write_text(CH, "utf-8")
    cases = [
        (["simulate", "--game", "aces", "--hands", "2", "--out", str(tmp_path)], str(tmp_path)),
        (
            ["simulate", "--game", "aces", "--hands", "2", "--out", str(tmp_path / "no" / "x")],
            str(tmp_path / "no" / "x"),
        ),
        (["simulate", "--game", "aces", "--hands", "2", "--out", "/dev/full"], "/dev/full"),
    ]
    for args, name in cases:
        done = _hh(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.startswith(f"hh: cannot write {name}: "), done.stderr
        assert "Traceback" not in done.stderr
    for args in (["validate", str(hand)], ["parse", str(hand)], ["simulate", "--game", "ch"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "hh", *args],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                cwd=AWAY,
            )
        assert done.returncode == 2, args
        assert done.stderr == "hh: cannot write standard output: No space left on device\n"


def test_an_error_that_is_not_a_write_is_not_called_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OSError raised while judging (here: no file descriptors left for
    cutting the files) is told as what it is, exit 2, no traceback: not
    "cannot write standard output", which once took every OSError of the
    run."""
    import errno

    import hh.read.cut

    def no_descriptors(*args: object) -> None:
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE), "h.txt")

    hand = tmp_path / "h.txt"
    hand.write_text(CH, "utf-8")
    monkeypatch.setattr(hh.read.cut.Plan, "order", no_descriptors)
    result = runner.invoke(app, ["validate", str(hand)])
    assert result.exit_code == 2
    assert result.output == f"hh: {os.strerror(errno.EMFILE)}: h.txt\n"


def test_closed_stdin_and_stdout(tmp_path: Path) -> None:
    hand = tmp_path / "h.txt"
    hand.write_text(CH, "utf-8")
    closed_out = subprocess.run(
        [sys.executable, "-m", "hh", "validate", str(hand)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=AWAY,
        preexec_fn=lambda: os.close(1),
    )
    assert closed_out.returncode == 2
    assert closed_out.stderr == "hh: cannot write standard output: it is closed\n"
    for command in ("validate", "parse"):
        closed_in = subprocess.run(
            [sys.executable, "-m", "hh", command, "-"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=AWAY,
            preexec_fn=lambda: os.close(0),
        )
        assert closed_in.returncode == 2
        assert closed_in.stderr == "hh: cannot read standard input: it is closed\n"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path, workers: str) -> None:
    text = "\n".join(CH.replace("CH-1", f"CH-{k}") for k in range(400))
    (tmp_path / "many.txt").write_text(text, "utf-8")
    shell = (
        f"{sys.executable} -m hh validate --workers {workers} {tmp_path / 'many.txt'} | head -1;"
        " echo status ${PIPESTATUS[0]}"
    )
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, cwd=AWAY)
    assert done.stdout.splitlines()[-1] == "status 141"
    assert done.stderr == ""


# ----------------------------------------------------------- item 14


def _many_violations(n: int) -> tuple[Verdict, str]:
    raw = "\n".join(f"line {k}" for k in range(n))
    violations = tuple(Violation("BET_SIZE", k + 1, f"fault {k}") for k in range(n))
    return Verdict("f", 1, "X", None, "chiribito", violations, None, None, None), raw


def test_text_output_is_linear_in_the_violations_of_a_hand() -> None:
    def best(n: int) -> float:
        verdict, raw = _many_violations(n)
        times = []
        for _ in range(5):  # CPU time: another process's load does not count
            t = time.process_time()
            render(verdict, raw, as_json=False)
            times.append(time.process_time() - t)
        return min(times)

    verdict, raw = _many_violations(3)
    blocks = render(verdict, raw, as_json=False).blocks
    assert blocks[2] == (3, "  f:3: BET_SIZE: fault 2\n      line 2\n")
    small, large = best(2000), best(20_000)
    # linear: ~10x; the old quadratic quoting was ~100x (best of 5: noise is slower)
    assert large / small < 40, (small, large)


# ----------------------------------------------------------- item 16


def test_unreadable_files_and_folders_are_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text(CH, "utf-8")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.txt").write_text(CH, "utf-8")
    (tmp_path / "secret.txt").write_text(CH, "utf-8")
    (tmp_path / "z.txt").write_text(CH.replace("CH-1", "CH-9"), "utf-8")
    # tests may run as root, whom permissions do not stop: refuse the reads here
    real_scandir, real_open = os.scandir, open

    def scandir(path: object) -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    def opener(path: object, *args: object, **kw: object) -> object:
        if str(path).endswith("secret.txt"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr("builtins.open", opener)
    for command in ("validate", "parse"):
        result = runner.invoke(app, [command, "--json", str(tmp_path)])
        assert result.exit_code == 1, result.exception
        assert isinstance(result.exception, SystemExit), result.exception
        lines = _json(result.output)
        assert [Path(x["file"]).name for x in lines] == ["a.txt", "locked", "secret.txt", "z.txt"]
        message = (lambda x: x["error"]["message"]) if command == "parse" else (
            lambda x: x["violations"][0]["message"]
        )
        assert message(lines[1]) == "cannot read this folder: Permission denied"
        assert message(lines[2]) == "cannot read this file: Permission denied"
    text = runner.invoke(app, ["validate", str(tmp_path)])
    assert "4 hands: 1 valid, 3 invalid" in text.output  # z.txt: same table as a.txt


def test_broken_symbolic_links_are_reported(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text(CH, "utf-8")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "sub" / "up").symlink_to(tmp_path)
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    out = result.output
    assert f"{tmp_path}/dangling.txt:1:1: PARSE_ERROR: cannot read this file: a broken " in out
    loops = "cannot read this file: a symbolic link that loops"
    assert f"{tmp_path}/loop:1:1: PARSE_ERROR: {loops}" in out
    assert f"{tmp_path}/sub/up:1:1: PARSE_ERROR: cannot read this folder: a link back" in out
    assert f"{tmp_path}/sub/a.txt:1: #CH-1 chiribito: valid" in out
    assert "4 hands: 1 valid, 3 invalid" in out


# ----------------------------------------------------------- items 19, 20, 22


def test_text_output_escapes_control_characters(tmp_path: Path) -> None:
    bad = CH.replace("Lucía: raises 40 to 80", "Lucía: raises 20 to 60\x1b[31m\x00\x07")
    path = tmp_path / "b\x1b[2Jad.txt"
    path.write_text(bad, "utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    out = result.output
    for raw in ("\x1b", "\x00", "\x07"):
        assert raw not in out
    assert "Lucía: raises 20 to 60\\x1b[31m\\x00\\x07" in out
    assert "b\\x1b[2Jad.txt:21:" in out
    parse = runner.invoke(app, ["parse", str(path)])
    assert "\x1b" not in parse.output and "\\x1b[2J" in parse.output


@pytest.mark.parametrize(
    "command", [["validate"], ["show", "CH-1"], ["import", "--db", "{tmp}/h.duckdb"]]
)
def test_every_command_says_a_missing_path_alike_and_escaped(
    tmp_path: Path, command: list[str]
) -> None:
    hidden = "\x1b[2J\u202e\u200f\ufeff\u061c"
    shown = "\\x1b[2J\\u202e\\u200f\\ufeff\\u061c"
    result = _hh(*(a.format(tmp=tmp_path) for a in command), str(tmp_path / f"no{hidden}.txt"))
    assert result.returncode == 2
    assert result.stderr == f"hh: no such file or folder: {tmp_path}/no{shown}.txt\n"


def test_every_command_says_an_output_it_cannot_write_alike(tmp_path: Path) -> None:
    logs, db = tmp_path / "ch.txt", tmp_path / "h.duckdb"
    logs.write_text(CH, "utf-8")
    assert _hh("import", str(logs), "--db", str(db)).returncode == 0
    out = tmp_path / "missing" / "out"
    for who, args in (
        ("hh", ["show", "CH-1", str(logs), "--html"]),
        ("hh", ["simulate", "--game", "ch", "--hands", "2"]),
        ("hh report", ["report", "players", "--db", str(db)]),
        ("hh report", ["report", "players", "--db", str(db), "--format", "html"]),
        ("hh report", ["report", "violations", "--db", str(db), "--format", "json"]),
        ("hh report", ["hands", "--db", str(db), "--format", "csv"]),
    ):
        done = _hh(*args, "--out", str(out))
        assert (done.returncode, done.stderr) == (
            2, f"{who}: cannot write {out}: No such file or directory\n"), args


def test_a_port_out_of_range_is_a_usage_error_not_a_traceback(tmp_path: Path) -> None:
    done = _hh("serve", "--port", "99999", "--db", str(tmp_path / "h.duckdb"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "Invalid value for '--port': 99999 is not in the range 0<=x<=65535." in done.stderr


def test_a_long_validation_written_to_a_file_shows_progress_at_the_terminal(
    tmp_path: Path,
) -> None:
    """stdout to a file, stderr at a terminal (a pseudo-terminal here): a
    progress bar on stderr, the same bytes in the file as without it."""
    import pty

    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hands

    logs = tmp_path / "s.txt"
    logs.write_text(write_hands(Simulator(Game.CHIRIBITO, 5).hands(3000)), "utf-8")
    plain = _hh("validate", "--json", "--workers", "1", str(logs))
    import threading

    master, slave = pty.openpty()
    screen: list[bytes] = []

    def read() -> None:  # as a terminal does, so that the bar never waits on a full pty
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed
                return
            if not chunk:
                return
            screen.append(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    with open(tmp_path / "out.json", "w") as out:
        done = subprocess.run(
            [sys.executable, "-m", "hh", "validate", "--json", "--workers", "1", str(logs)],
            stdout=out, stderr=slave, cwd=AWAY, timeout=300,
        )  # fmt: skip
    os.close(slave)
    reader.join(timeout=10)
    os.close(master)
    assert done.returncode == plain.returncode
    assert "validating" in b"".join(screen).decode("utf-8", "replace")
    assert (tmp_path / "out.json").read_text("utf-8") == plain.stdout


def test_the_caret_follows_escapes(tmp_path: Path) -> None:
    assert quote("ab\x1bcd", 4) == "      ab\\x1bcd\n" + "      " + " " * 6 + "^\n"
    path = tmp_path / "p.txt"
    path.write_text(CH.replace("Paco: folds", "Paco: \x1bfolds"), "utf-8")
    out = runner.invoke(app, ["validate", str(path)]).output
    lines = out.splitlines()
    k = lines.index("      Paco: \\x1bfolds")
    assert lines[k + 1] == "      " + " " * len("Paco: ") + "^", out


def test_json_escapes_line_separators(tmp_path: Path) -> None:
    # the separators in the file's name (echoed as "file") and in a line
    # (now refused with a message naming the character, not quoting it)
    path = tmp_path / "u\u2028\u2029\x85.txt"
    path.write_text(CH.replace("Paco: folds", "Paco: folds\u2028\u2029\x85"), "utf-8")
    for command in ("validate", "parse"):
        result = runner.invoke(app, [command, "--json", str(path)])
        assert result.exit_code == 1
        for raw in ("\u2028", "\u2029", "\x85"):
            assert raw not in result.output
        lines = result.output.splitlines()
        assert len(lines) == 1 and "\\u2028\\u2029\\u0085" in lines[0]
        json.loads(lines[0])


def test_json_escapes_separators_in_cross_hand_faults(tmp_path: Path) -> None:
    # a cross-hand fault is rendered apart, in the main process (finish);
    # this one quotes the file's name, which holds the separators
    path = tmp_path / "d\u2028\x85.txt"
    path.write_text(CH + "\n" + CH, "utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 1
    assert "\u2028" not in result.output and "\x85" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 2
    second = json.loads(lines[1])
    header = second["violations"][0]  # by line: the header's fault comes first
    assert header["code"] == "HEADER" and f"({path} line 1)" in header["message"]
    assert "d\\u2028\\u0085.txt line 1)" in lines[1]


def test_a_hand_without_a_readable_id_reads_well(tmp_path: Path) -> None:
    path = tmp_path / "n.txt"
    path.write_text(CH.replace("Hand #CH-1", "Hand #!!"), "utf-8")
    out = runner.invoke(app, ["validate", str(path)]).output
    assert f"{path}:1: chiribito hand (no readable id): INVALID, 1 violation" in out
    junk = tmp_path / "j.txt"
    junk.write_text("hello\n", "utf-8")
    assert f"{junk}:1: (not a hand): INVALID" in runner.invoke(app, ["validate", str(junk)]).output


# ----------------------------------------------------------- item 23


@pytest.mark.parametrize(
    ("typed", "title"),
    [
        ("aces", "Aces, Straights and Flushes"),
        ("asf", "Aces, Straights and Flushes"),
        ("ASF", "Aces, Straights and Flushes"),
        ("aces-straights-flushes", "Aces, Straights and Flushes"),
        ("chiribito", "Chiribito"),
        ("ch", "Chiribito"),
        ("calatone", "Calatone"),
        ("ca", "Calatone"),
    ],
)
def test_simulate_takes_short_game_names(typed: str, title: str) -> None:
    result = runner.invoke(app, ["simulate", "--game", typed, "--hands", "1"])
    assert result.exit_code == 0
    assert title in result.output.split("\n", 1)[0]


def test_an_unknown_game_lists_the_valid_names() -> None:
    result = runner.invoke(app, ["simulate", "--game", "poker"])
    assert result.exit_code == 2
    assert "--game 'poker': unknown game; the games are chiribito (or ch); " in result.output
    for name in ("chiribito", "aces-straights-flushes", "aces", "asf", "calatone"):
        assert name in result.output


# ----------------------------------------------------------- the command


def test_the_installed_command_gives_what_the_app_gives(tmp_path: Path) -> None:
    good, bad = tmp_path / "g.txt", tmp_path / "b.txt"
    good.write_text(CH, "utf-8")
    bad.write_text(CH.replace("Lucía: raises 40 to 80", "Lucía: raises 20 to 60"), "utf-8")
    for args in (
        ["validate", str(good)],
        ["validate", "--json", str(good), str(bad)],
        ["validate", "--workers", "1", str(bad)],
        ["validate", "--workers=2", "--json", "--", str(good)],
        ["parse", str(bad)],
        ["parse", "--json", str(good)],
    ):
        run = _hh(*args)  # python -m hh: main(), in a process of its own
        typed = runner.invoke(app, args)
        assert (run.returncode, run.stdout) == (typed.exit_code, typed.output), args
    # help, usage errors
    assert "Usage: " in _hh("validate", "--workers", "-1", str(good)).stderr
    assert "--workers" in _hh("validate", "--help").stdout


class _Recording(io.StringIO):
    """A stream that counts the writes that reach it."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_output_reaches_the_stream_in_blocks_and_stays_on_an_interrupt() -> None:
    """A line per hand, gathered: a stream without its own buffer
    (PYTHONUNBUFFERED) gets a few large writes, not one per line; what was
    written before an interrupt is all there."""
    lines = [f"hand {k:06d} " + "x" * 90 + "\n" for k in range(2_000)]  # 200,000 characters
    stream = _Recording()
    with writing(stream) as out:
        for line in lines:
            out.write(line)
    assert stream.getvalue() == "".join(lines)
    assert stream.writes <= 4
    stream = _Recording()
    with pytest.raises(KeyboardInterrupt), writing(stream) as out:
        for line in lines[:10]:
            out.write(line)
        raise KeyboardInterrupt
    assert stream.getvalue() == "".join(lines[:10])


def test_a_terminal_gets_each_line_as_it_is_written() -> None:
    class Terminal(_Recording):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    with writing(stream) as out:
        for k in range(5):
            out.write(f"hand {k}\n")
            assert stream.writes == k + 1
    assert stream.getvalue() == "".join(f"hand {k}\n" for k in range(5))
