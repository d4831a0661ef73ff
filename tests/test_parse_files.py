"""Files and streams: encodings, line ends, blank lines, gzip, cutting a file
into hands, one bad hand among many."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from strategies import variants

from hh.parse import Record, parse_file, parse_hand, parse_stream, parse_text
from hh.write import write_hand, write_hands

pytestmark = pytest.mark.compiled

DATA = Path(__file__).parent / "data" / "parse"
EXAMPLES = [(DATA / n).read_text(encoding="utf-8") for n in
            ("chiribito.txt", "aces-straights-flushes.txt", "calatone.txt")]  # fmt: skip
CH, AS, CA = EXAMPLES


def hands_of(records: list[Record]) -> list[str | None]:
    return [r.hand.header.hand_id if r.hand else None for r in records]


def test_crlf_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(CH.replace("\n", "\r\n").encode())
    (record,) = parse_file(path)
    assert record.hand == parse_hand(CH)
    assert record.hand is not None and record.hand.summary.seats[-1].line == 47
    assert "\r" not in record.raw and record.raw == CH.removesuffix("\n")


def test_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + CH.encode())
    (record,) = parse_file(path)
    assert record.hand == parse_hand(CH) and record.line == 1
    assert parse_hand("\ufeff" + CH) == parse_hand(CH)
    (from_text,) = parse_text("\ufeff" + CH)
    assert from_text.hand == parse_hand(CH)


def test_trailing_spaces_are_ignored() -> None:
    spaced = "\n".join(line + "  \t " for line in CH.split("\n"))
    (record,) = parse_text(spaced)
    assert record.hand == parse_hand(CH)
    assert write_hand(record.hand) == CH.removesuffix("\n")  # the writer is canonical
    assert record.raw.split("\n")[0].endswith("CET  \t ")  # raw keeps the text as read


def test_gzip_file(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt.gz"
    path.write_bytes(gzip.compress((CH + "\n" + AS + "\n" + CA).encode()))
    records = list(parse_file(path))
    assert hands_of(records) == ["CH-1", "AS-1", "CA-1"]
    assert [r.line for r in records] == [1, 49, 92]
    assert records[2].file == str(path)


def test_gzip_recognised_by_its_magic_bytes(tmp_path: Path) -> None:
    path = tmp_path / "hands.log"
    path.write_bytes(gzip.compress(CA.encode()))
    assert hands_of(list(parse_file(path))) == ["CA-1"]


def test_truncated_gzip_is_an_error_record_after_the_hands_read(tmp_path: Path) -> None:
    whole = gzip.compress(("\n".join([CH, AS, CA]) * 20).encode())
    path = tmp_path / "cut.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    records = list(parse_file(path))
    assert len(records) >= 2
    assert all(r.hand is not None for r in records[:-2])
    last = records[-1]
    assert last.hand is None and last.hand_id is None and last.error is not None
    assert last.error.message.startswith("the file cannot be read to its end")
    assert last.error.column == 1


def test_corrupt_gzip(tmp_path: Path) -> None:
    """gzip is known by its magic bytes: a stream that breaks is an error
    where it breaks; a file named .gz that is text is read as text."""
    path = tmp_path / "bad.gz"
    path.write_bytes(b"\x1f\x8bthis is not gzip at all\n")
    (record,) = parse_file(path)
    assert record.error is not None and record.line == 1
    assert "cannot be read to its end" in record.error.message
    text = tmp_path / "text.gz"
    text.write_bytes(b"this is not gzip at all\n")
    (record,) = parse_file(text)
    assert record.error is not None and record.line == 1
    assert record.error.message.startswith("lines outside a hand")


def test_invalid_utf8_is_an_error_at_its_line_and_column(tmp_path: Path) -> None:
    data = bytearray(CH.encode())
    at = data.index(b"Dealt to Paco")
    data[at + 9 : at + 13] = b"P\xe1co"  # Latin-1 'á' in the name, line 9, column 11
    path = tmp_path / "latin1.txt"
    path.write_bytes(bytes(data) + b"\n" + CA.encode())
    records = list(parse_file(path))
    assert hands_of(records) == [None, "CA-1"]
    error = records[0].error
    assert error is not None and (error.line, error.column) == (9, 11)
    assert error.message.startswith("invalid UTF-8")
    assert error.text == "Dealt to P\ufffdco: down [Ao Rc]"
    assert records[0].hand_id == "CH-1"


def test_invalid_utf8_after_an_earlier_error_reports_the_earlier_one() -> None:
    data = CH.replace("Lucía: calls 20", "Lucía: calls 020", 1).encode()
    data = data.replace(b"Marta: folds", b"Marta: f\xffolds")
    (record,) = parse_stream(io.BytesIO(data))
    assert record.error is not None and record.error.line == 13


def test_blank_lines_between_hands() -> None:
    text = "\n \n" + CH + "\n\n\n  \t\n" + AS + "\n\n" + CA + "\n\n"
    records = list(parse_text(text))
    assert hands_of(records) == ["CH-1", "AS-1", "CA-1"]
    assert [r.line for r in records] == [3, 54, 98]
    assert records[1].hand is not None and records[1].hand.header.line == 54


def test_a_header_inside_a_run_starts_a_new_hand() -> None:
    records = list(parse_text(CH + AS))  # no blank line between them
    assert hands_of(records) == ["CH-1", "AS-1"]
    assert records[1].line == 48


def test_lines_before_the_first_header_are_one_error() -> None:
    records = list(parse_text("some preface\nmore of it\n" + CH))
    assert hands_of(records) == [None, "CH-1"]
    assert records[0].error is not None and records[0].error.line == 1
    assert records[0].raw == "some preface\nmore of it"
    assert records[1].line == 3


def test_empty_and_blank_files() -> None:
    assert list(parse_text("")) == []
    assert list(parse_text("\n  \n\t\n")) == []


def test_parse_stream_reads_lazily() -> None:
    text = write_hands(variants([parse_hand(t) for t in EXAMPLES], 50))

    class Counting(io.BytesIO):
        read_lines = 0

        def __next__(self) -> bytes:
            self.read_lines += 1
            return super().__next__()

    stream = Counting(text.encode())
    records = parse_stream(stream, file="-")
    first = next(records)
    assert first.hand is not None and first.file == "-"
    assert stream.read_lines < 100  # the first hand, not the whole stream
    assert len(list(records)) == 49


def test_thousand_hands_with_ten_corrupted(tmp_path: Path) -> None:
    bases = [parse_hand(t) for t in EXAMPLES]
    texts = [write_hand(h) for h in variants(bases, 1000, seed=7)]
    corrupt = {17: (3, "Seat 1 Lucía (1000 in chips)"), 101: (9, "Dealt to X: down [Ah Rc]"),
               202: (12, "Elena: bets 1,000"), 303: (0, "Hand #x: Mus (blind 2) - 2026/01/01"),
               404: (20, "Nobody: dances"), 505: (-1, None), 606: (7, "*** FLOP ***"),
               707: (5, "Dario: posts ante -5"), 808: (30, "*** SUMMARY ***"),  # next line
               909: (2, "Table 'x' 0-max Seat #1 is the dealer")}  # fmt: skip
    expected_errors = {}
    line = 1
    out = []
    for i, text in enumerate(texts):
        lines = text.split("\n")
        if i in corrupt:
            at, new = corrupt[i]
            if new is None:
                lines = lines[: len(lines) // 2]  # truncated: error after its last line
                expected_errors[i] = line + len(lines)
            else:
                lines[at] = new
                # a summary marker is a valid line: the line after it cannot follow it
                expected_errors[i] = line + at + (new == "*** SUMMARY ***")
        out.append("\n".join(lines))
        line += len(lines) + 1
    path = tmp_path / "many.txt"
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    records = list(parse_file(path))
    assert len(records) == 1000
    good = [r for r in records if r.hand is not None]
    bad = {i: r for i, r in enumerate(records) if r.error is not None}
    assert len(good) == 990 and sorted(bad) == sorted(corrupt)
    assert {i: r.error.line for i, r in bad.items() if r.error} == expected_errors
    assert all(r.hand == parse_hand(write_hand(r.hand)) for r in good if r.hand)
    assert bad[17].hand_id == texts[17].split(":")[0].removeprefix("Hand #")
