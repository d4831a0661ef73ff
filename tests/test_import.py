"""hh import: every hand lands in hands or rejects, counts exact, rows equal
to the referee's own output, re-import adds nothing, conflicts kept."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from handtext import EX_CHIRIBITO
from import_helpers import contents, hh_import, mixed_inputs, query, referee

from hh.parse import parse_file
from pipelines.importer import find_files


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    root = tmp_path_factory.mktemp("mixed")
    folder = mixed_inputs(root)
    db = root / "hands.duckdb"
    code, summary, _ = hh_import(str(folder), "--db", str(db), "--workers", "1")
    assert summary is not None
    return folder, db, {"code": code, **summary}


def test_every_hand_is_counted_once_and_lands_somewhere(mixed: tuple[Path, Path, dict]) -> None:
    folder, db, s = mixed
    records = [r for f in find_files([str(folder)]) for r in parse_file(f)]
    parsed = sum(r.hand is not None for r in records)
    failed = len(records) - parsed
    assert failed == 3  # the corrupt file: a bad card, stray lines, a truncated hand
    assert s["files"] == 6  # notes.md is not read
    assert (s["hands"], s["imported"], s["rejected"]) == (len(records), parsed, failed)
    assert (s["duplicates"], s["conflicts"]) == (0, 0)
    assert s["hands"] == s["imported"] + s["duplicates"] + s["rejected"] + s["conflicts"]
    n_hands = query(db, "SELECT count(*) FROM hands")[0][0]
    n_rejects = query(db, "SELECT count(*) FROM rejects")[0][0]
    assert n_hands + n_rejects == len(records)
    stored = set(query(db, "SELECT file, line FROM hands UNION ALL SELECT file, line FROM rejects"))
    assert stored == {(r.file, r.line) for r in records}
    text = dict(query(db, "SELECT hand_id, raw_text FROM hand_text"))
    assert text == {r.hand_id: r.raw for r in records if r.hand is not None}
    assert s["code"] == 1  # rejected and invalid hands


def test_hand_text_is_stored_with_zstd(mixed: tuple[Path, Path, dict]) -> None:
    """The raw text, the largest column, with zstd (docs/schema.md); the
    text reads back exactly (above)."""
    _, db, _ = mixed
    kinds = query(db, "SELECT DISTINCT compression FROM pragma_storage_info('hand_text') "
                      "WHERE column_name = 'raw_text' AND segment_type = 'VARCHAR'")  # fmt: skip
    assert kinds == [("ZSTD",)]


def test_rows_are_the_referees_verdicts(mixed: tuple[Path, Path, dict]) -> None:
    folder, db, s = mixed
    verdicts = [v for v in referee([str(folder)]) if v.pots is not None]
    assert s["invalid"] == sum(not v.valid for v in verdicts)
    valid = dict(query(db, "SELECT hand_id, valid FROM hands"))
    assert valid == {v.hand_id: v.valid for v in verdicts}
    # every violation, cross-hand ones included, exactly as hh validate says
    stored = Counter(
        query(db, "SELECT hand_id, code, line, message FROM violations WHERE NOT unchecked")
    )
    expected = Counter(
        (v.hand_id, x.code, x.line, x.message) for v in verdicts for x in v.violations
    )
    assert stored == expected
    unchecked = Counter(query(db, "SELECT hand_id, code, line FROM violations WHERE unchecked"))
    assert unchecked == Counter((v.hand_id, x.code, x.line) for v in verdicts for x in v.unchecked)
    assert unchecked  # the hero-view session could not be checked in full
    # per-player net from seats equals the referee's net
    net = Counter()
    for v in verdicts:
        for name, n in (v.net or {}).items():
            net[name] += n
    rows = dict(query(db, "SELECT player, sum(net) FROM seats GROUP BY player"))
    assert {k: v for k, v in rows.items() if v is not None} == {
        k: v for k, v in net.items() if k in rows
    }
    pots = Counter(
        (h, a, tuple(e), tuple(w))
        for h, a, e, w in query(db, "SELECT hand_id, amount, eligible, winners FROM pots")
    )
    assert pots == Counter(
        (v.hand_id, p.amount, p.eligible, p.winners) for v in verdicts for p in v.pots or ()
    )
    hero = query(db, "SELECT count(*), sum(n_unchecked) FROM hands WHERE hero_view")[0]
    seen = [r for r in parse_file(folder / "sub" / "hero.txt") if "??" in r.raw]
    assert hero[0] == len(seen) > 1 and hero[1] > 0


def test_golden_hand_rows(mixed: tuple[Path, Path, dict]) -> None:
    _, db, _ = mixed
    hand = query(
        db,
        "SELECT site, game, table_name, dealer_seat, started_at::VARCHAR, zone, forced, players, "
        "total_pot, rake, last_round, showdown, valid FROM hands WHERE hand_id = 'CH-1'",
    )
    assert hand == [
        ("chiribito.com", "chiribito", "Mérida 2", 3, "2026-11-29 20:14:03", "CET", 20, 4,
         1480, 0, 5, True, True)
    ]  # fmt: skip
    actions = query(
        db,
        "SELECT line, round, player, kind, amount, raise_by, total_after, pot_before, "
        "to_call_before, stack_before FROM actions WHERE hand_id = 'CH-1' AND seq < 5 ORDER BY seq",
    )
    assert actions == [
        (7, -1, "Paco", "blind", 20, None, 20, 0, 0, 1000),
        (13, 0, "Lucía", "call", 20, None, 20, 20, 20, 1000),
        (14, 0, "Íñigo", "raise", 40, 20, 40, 40, 20, 1000),
        (15, 0, "Marta", "fold", 0, None, 0, 80, 40, 1000),
        (16, 0, "Paco", "call", 20, None, 40, 80, 20, 980),
    ]
    seats = query(
        db,
        "SELECT player, position, is_dealer, stack_start, stack_end, put_in, won, net, "
        "went_to_showdown, folded_round, shown FROM seats WHERE hand_id = 'CH-1' ORDER BY seat",
    )
    assert seats == [
        ("Lucía", 2, False, 1000, 1760, 720, 1480, 760, True, None, True),
        ("Paco", 1, False, 1000, 960, 40, 0, -40, False, 1, False),
        ("Marta", 4, True, 1000, 1000, 0, 0, 0, False, 0, False),
        ("Íñigo", 3, False, 1000, 280, 720, 0, -720, True, None, True),
    ]


def test_reimport_adds_nothing(mixed: tuple[Path, Path, dict], tmp_path: Path) -> None:
    folder, db, first = mixed
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    before = contents(copy)
    code, s, _ = hh_import(str(folder), "--db", str(copy), "--workers", "1")
    assert s is not None
    assert (s["hands"], s["duplicates"], s["imported"], s["rejected"]) == (first["hands"],) * 2 + (
        0,
        0,
    )
    assert code == 0  # nothing new was rejected or invalid
    assert contents(copy) == before
    # a file changed in place: every known hand is skipped unparsed, one new hand comes in
    log = folder / "golden.txt"
    extra = EX_CHIRIBITO.text.replace("CH-1", "CH-77")
    original = log.read_text(encoding="utf-8")
    try:
        log.write_text(extra + "\n\n" + original, encoding="utf-8")
        code, s, _ = hh_import(str(log), "--db", str(copy), "--workers", "1")
    finally:
        log.write_text(original, encoding="utf-8")
    assert s is not None and (s["hands"], s["imported"], s["duplicates"]) == (4, 1, 3)


def test_conflict_is_kept_with_both_locations(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text(EX_CHIRIBITO.text + "\n", encoding="utf-8")
    other = EX_CHIRIBITO.text.replace("Marta (1000 in chips)", "Marta (900 in chips)")
    b.write_text(EX_CHIRIBITO.text + "\n\n" + other + "\n", encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    hh_import(str(a), "--db", db, "--workers", "1")
    code, s, _ = hh_import(str(b), "--db", db, "--workers", "1")
    assert s is not None
    assert (s["hands"], s["imported"], s["duplicates"], s["conflicts"]) == (2, 0, 1, 1)
    assert code == 1
    rows = query(db, "SELECT kind, file, line, other_file, other_line, hand_id, error FROM rejects")
    assert len(rows) == 1
    kind, file, line, other_file, other_line, hand_id, error = rows[0]
    assert (kind, file, line, other_file, other_line, hand_id) == (
        "conflict", str(b), EX_CHIRIBITO.text.count("\n") + 3, str(a), 1, "CH-1"
    )
    assert "already stored with other content" in error
    assert query(db, "SELECT file FROM hands") == [(str(a),)]  # never overwritten
    # and within one run: the first is kept, the second is the conflict
    db2 = str(tmp_path / "h2.duckdb")
    code, s, _ = hh_import(str(b), "--db", db2, "--workers", "1")
    assert s is not None and (s["imported"], s["conflicts"]) == (1, 1)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    code, s, err = hh_import(str(tmp_path / "missing.txt"), "--db", str(tmp_path / "x.duckdb"))
    assert code == 2 and s is None and "no such file or folder" in err
    bad = tmp_path / "not.duckdb"
    bad.write_text("this is not a database", encoding="utf-8")
    log = tmp_path / "a.txt"
    log.write_text(EX_CHIRIBITO.text + "\n", encoding="utf-8")
    code, s, err = hh_import(str(log), "--db", str(bad))
    assert code == 2 and "cannot" in err and "Traceback" not in err
