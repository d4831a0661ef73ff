"""How the referee words things in its messages: cards, actions, collected
lines, summary outcomes, and the category a description begins with."""

from __future__ import annotations

from collections.abc import Iterable

from hh.evaluate import Category
from hh.model import Action, SeatOutcome

_CATEGORY_WORDS = sorted((c.value for c in Category), key=len, reverse=True)


def description_category(description: str | None) -> str | None:
    """The category words a description begins with (FORMAT.md: the category,
    then a comma and free text)."""
    if not description:
        return None
    for words in _CATEGORY_WORDS:
        if description.startswith(words) and (
            len(description) == len(words) or description[len(words)] == ","
        ):
            return words
    return None


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def cards(shown: Iterable[str]) -> str:
    return "[" + " ".join(shown) + "]"


def action_words(line: Action) -> str:
    return line.verb + (f" {line.amount}" if line.amount is not None else "")


def collect_words(name: str, pot: int | None, amount: int) -> str:
    where = "pot" if pot is None else "main pot" if pot == 0 else f"side pot-{pot}"
    return f"{name}: collected {amount} from {where}"


def outcome_words(s: SeatOutcome) -> str:
    o = s.outcome
    if o == "folded":
        return f"folded on {s.street}"
    if o == "showed_won":
        return f"showed and won {s.amount}"
    if o == "showed_lost":
        return "showed and lost"
    if o == "won":
        return f"won {s.amount}"
    if o == "sat_out":
        return "sat out"
    return o


def ended_how(ended: str | None) -> str:
    """Why the hand is over, for HAND_OVER messages."""
    return "all but one folded" if ended == "folded" else "a round was all checked"
