"""Text to model: the only way hand-history text enters the system.

The grammar (``grammar/hh.lark``) states the format: one terminal per kind of
line, built from small named pieces, and rules for the order of line kinds.
Files are cut into runs of lines by :mod:`hh.read`; here a run becomes a
:class:`Record`, the hand or the first error in it:

* :mod:`hh.parse.grammar`: the grammar's text read as data (its pieces, and
  its rules as one regex over a letter per line kind);
* :mod:`hh.parse.lines`: a line's kind from its first words, its model
  record (cards and streets checked against the hand's game), a memo of
  lines seen before, and the :class:`~hh.model.Hand` assembled;
* :mod:`hh.parse.fast`: a well-formed hand read in one pass, without Lark's
  parser (the line regexes Lark compiles from the grammar);
* :mod:`hh.parse.lark`: Lark's LALR parser over the same grammar, the
  authority on what is an error and which comes first, and
  :mod:`hh.parse.diagnose`, the words for it (a bad line parsed alone by an
  Earley twin of the grammar);
* :mod:`hh.parse.hands`: runs, texts, streams and files into records.

The tests check that both ways give the same model or the same error. The
parser records what the text says; the validator judges the play.
"""

from __future__ import annotations

from hh.parse.grammar import piece_pattern
from hh.parse.hands import (
    Record,
    parse_chunk,
    parse_file,
    parse_hand,
    parse_run,
    parse_stream,
    parse_text,
)
from hh.parse.lines import HandSyntaxError, ParseError

__all__ = [
    "HandSyntaxError",
    "ParseError",
    "Record",
    "parse_chunk",
    "parse_file",
    "parse_hand",
    "parse_run",
    "parse_stream",
    "parse_text",
    "piece_pattern",
]
