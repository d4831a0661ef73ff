"""``hh export``'s core: parsed hands judged and written as OHH or PHH,
to files in a folder or to one stream. It knows hands and verdicts only;
where the hands come from (files, the database) is the caller's
(reports/export_cli.py)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, TextIO

from hh.model import Hand
from hh.openformats.ohh import ohh_hand
from hh.openformats.phh import phh_text
from hh.parse import Record
from hh.validate import ActionFigures, Verdict, Violation, cross_check, validate

Format = Literal["ohh", "phh"]


class Sink(Protocol):
    """Where a stream export goes: a text file, or a command's output."""

    def write(self, text: str, /) -> object: ...
FORMATS: tuple[Format, ...] = ("ohh", "phh")


def judge(hand: Hand, file: str | None = None) -> tuple[Verdict, tuple[str, ...]]:
    """The referee's verdict on one hand on its own, and its dealing order."""
    figures = ActionFigures()
    verdict = validate(hand, file, figures=figures)
    return verdict, figures.names


def ohh_json(hand: Hand, verdict: Verdict) -> str:
    """One hand's OHH object on one line (UTF-8 names as they are)."""
    return json.dumps(ohh_hand(hand, verdict), ensure_ascii=False, separators=(",", ":"))


_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def hand_file(hand: Hand, fmt: Format) -> str:
    """The file name of one hand's PHH (or OHH) file: site and id, any
    character a file name should not hold as ``_``."""
    h = hand.header
    stem = f"{h.site}-{h.hand_id}" if h.site else h.hand_id
    return _UNSAFE.sub("_", stem) + f".{fmt}"


@dataclass
class Written:
    """What an export wrote, and what it left out (and why, a line each)."""

    hands: int = 0
    files: int = 0
    skipped: list[str] = field(default_factory=list)


class Exporter:
    """Writes hands as ``fmt``: into the folder ``out`` (OHH: one file per
    group of hands, :meth:`group`; PHH: one file per hand), or to the
    stream ``stream`` (OHH: a JSON object a line; PHH: ``.phhs`` sections
    ``[1]``, ``[2]``...). Raises OSError when a file cannot be written.

    With ``cross_hand`` (hands read from files), the verdicts written hold
    the checks across the run's hands too, as ``hh validate`` gives them
    (:func:`hh.validate.cross_check`): the hands are then held until
    :meth:`close`. Without it (hands from the database), each hand is
    written at once with the cross-hand violations given beside it."""

    def __init__(self, fmt: Format, out: str | None, stream: Sink | None,
                 cross_hand: bool = False) -> None:  # fmt: skip
        self.fmt = fmt
        self.out = out
        self.stream = stream
        self.cross_hand = cross_hand
        self.done = Written()
        self._group: TextIO | None = None
        self._names: set[str] = set()
        # held for the cross-hand checks: (group, hand or None, verdict, dealing order)
        self._held: list[tuple[str | None, Hand | None, Verdict, tuple[str, ...]]] = []
        self._current: str | None = None
        # told the number of hands judged so far, after each (a progress bar)
        self.progress: Callable[[int], None] | None = None
        self._judged = 0

    def group(self, name: str) -> None:
        """Begin the OHH file ``<name>.ohh`` in the folder (``name``: an
        input's name; a name taken already gets ``-2``, ``-3``...)."""
        if self.cross_hand:
            self._current = name
        else:
            self._open(name)

    def _open(self, name: str) -> None:
        self._close_group()
        if self.out is None or self.fmt != "ohh":
            return
        stem = _UNSAFE.sub("_", name) or "hands"
        path = self._free(stem, ".ohh")
        self._group = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 - closed in _close_group()
        self.done.files += 1

    def _free(self, stem: str, suffix: str) -> str:
        assert self.out is not None
        k, name = 1, stem + suffix
        while name in self._names:
            k += 1
            name = f"{stem}-{k}{suffix}"
        self._names.add(name)
        return os.path.join(self.out, name)

    def record(self, record: Record, cross: tuple[Violation, ...] = ()) -> None:
        """One parsed run: exported, or said in :attr:`Written.skipped`;
        ``cross``: its cross-hand violations, found elsewhere."""
        if record.hand is None:
            error = record.error
            where = f"{record.file or '-'}:{record.line}"
            why = f"line {error.line}: {error.message}" if error is not None else "no hand"
            self.done.skipped.append(f"{where}: not exported, it does not parse ({why})")
            if self.cross_hand:  # it breaks its table's chain
                from hh.parallel import failed_verdict

                self._held.append((self._current, None, failed_verdict(record), ()))
            return
        verdict, order = judge(record.hand, record.file)
        self._judged += 1
        if self.progress is not None:
            self.progress(self._judged)
        if cross:
            verdict = replace(verdict, violations=verdict.violations + cross)
        if self.cross_hand:
            self._held.append((self._current, record.hand, verdict, order))
        else:
            self._write(record.hand, verdict, order)

    def _write(self, hand: Hand, verdict: Verdict, order: tuple[str, ...]) -> None:
        self.done.hands += 1
        if self.fmt == "ohh":
            line = ohh_json(hand, verdict) + "\n"
            if self.out is None:
                assert self.stream is not None
                self.stream.write(line)
            else:
                if self._group is None:
                    self._open("hands")
                assert self._group is not None
                self._group.write(line)
            return
        text = phh_text(hand, verdict, order)
        if self.out is None:
            assert self.stream is not None
            self.stream.write(("\n" if self.done.hands > 1 else "") + f"[{self.done.hands}]\n"
                              + text)  # fmt: skip
            return
        path = self._free(hand_file(hand, "phh")[: -len(".phh")], ".phh")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        self.done.files += 1

    def records(self, records: Iterable[Record]) -> None:
        for record in records:
            self.record(record)

    def close(self) -> None:
        """Write what is held (with the cross-hand checks), close the files."""
        held, self._held = self._held, []
        if held:
            judged = cross_check([verdict for _, _, verdict, _ in held])
            group: str | None = None
            for (name, hand, _, order), verdict in zip(held, judged, strict=True):
                if hand is None:
                    continue
                if name is not None and name != group:
                    group = name
                    self._open(name)
                self._write(hand, verdict, order)
        self._close_group()

    def _close_group(self) -> None:
        if self._group is not None:
            self._group.close()
            self._group = None
