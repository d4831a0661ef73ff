"""Model to text, in the canonical form of FORMAT.md.

Canonical: UTF-8 without BOM, LF line ends, no trailing spaces, single
spaces, plain integers, one blank line between hands, one final LF. The
model keeps every optional choice the text made, so for a hand in canonical
form ``write_hand(parse_hand(text)) == text`` byte for byte.

The writer does not validate: a model holding a name with ``:`` or an empty
card list writes text that will not parse back. Models come from the parser
or the simulator, which only make well-formed ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hh.model import (
    Action,
    Collected,
    Deal,
    Game,
    Hand,
    Header,
    Info,
    Line,
    Marker,
    Muck,
    Post,
    SeatOutcome,
    Show,
    TopUp,
    TotalPot,
    Uncalled,
)

__all__ = ["write_hand", "write_hands", "write_line"]


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _header(h: Header) -> str:
    s = h.stakes
    if h.game is Game.CHIRIBITO:
        stakes = f"(blind {s.forced})"
    elif h.game is Game.ACES:
        stakes = f"(ante {s.forced}, bets {s.low}/{s.high})"
    else:
        stakes = f"(ante {s.forced}, bets {s.low}-{s.high})"
    site = f"{h.site} " if h.site is not None else ""
    zone = f" {h.zone}" if h.zone is not None else ""
    return (
        f"{site}Hand #{h.hand_id}: {h.game.label} {h.game.betting} {stakes} - "
        f"{h.date} {h.time}{zone}"
    )


def _marker(m: Marker) -> str:
    text = f"*** {m.street} ***"
    for group in m.groups:
        text += " " + _cards(group)
    return text


def _action(a: Action) -> str:
    if a.verb == "raises":
        text = f"{a.name}: raises {a.amount} to {a.total}"
    elif a.verb in ("bets", "calls"):
        text = f"{a.name}: {a.verb} {a.amount}"
    else:
        text = f"{a.name}: {a.verb}"
    if a.all_in:
        text += " and is all-in"
    if a.timed_out:
        text += " (timed out)"
    return text


def _post(p: Post) -> str:
    return f"{p.name}: posts {p.kind} {p.amount}" + (" and is all-in" if p.all_in else "")


def _deal(d: Deal) -> str:
    text = f"Dealt to {d.name}:"
    if d.down is not None:
        text += " down " + _cards(d.down)
    if d.up is not None:
        text += " up " + _cards(d.up)
    return text


def _collected(c: Collected) -> str:
    if c.pot is None:
        pot = "pot"
    elif c.pot == 0:
        pot = "main pot"
    else:
        pot = f"side pot-{c.pot}"
    return f"{c.name}: collected {c.amount} from {pot}"


def _show(s: Show) -> str:
    text = f"{s.name}: shows {_cards(s.cards)}"
    if s.declared is not None:
        text += f" and declares {_cards(s.declared)}"
    if s.description is not None:
        text += f" ({s.description})"
    return text


def _info(i: Info) -> str:
    if i.kind == "says":
        return f'{i.name}: says "{i.text or ""}"'
    return f"{i.name}: is {i.kind}"


# each writer takes a line of its key's class
_LINE_WRITERS: dict[type, Callable[[Any], str]] = {
    Action: _action,
    Deal: _deal,
    Post: _post,
    TopUp: lambda t: f"{t.name}: adds {t.amount} chips",
    Uncalled: lambda u: f"Uncalled bet ({u.amount}) returned to {u.name}",
    Collected: _collected,
    Show: _show,
    Muck: lambda m: f"{m.name}: mucks hand",
    Info: _info,
    Marker: _marker,
}


def write_line(line: Line | Marker) -> str:
    """One body line (or marker) as text."""
    return _LINE_WRITERS[type(line)](line)


def _total(t: TotalPot) -> str:
    text = f"Total pot {t.total}"
    if t.main is not None:
        text += f" Main pot {t.main}."
        for k, amount in enumerate(t.side, 1):
            text += f" Side pot-{k} {amount}."
    return text + f" | Rake {t.rake}"


def _outcome(o: SeatOutcome) -> str:
    text = f"Seat {o.seat}: {o.name}: "
    if o.outcome == "folded":
        return text + f"folded on {o.street}"
    if o.outcome == "mucked":
        return text + "mucked"
    if o.outcome == "won":
        return text + f"won {o.amount}"
    if o.outcome == "sat_out":
        return text + "sat out"
    text += "showed " + _cards(o.cards or ())
    text += f" and won {o.amount}" if o.outcome == "showed_won" else " and lost"
    if o.description is not None:
        text += f" with {o.description}"
    return text


def write_hand(hand: Hand) -> str:
    """The hand's lines joined with LF, without a final line end."""
    out = [_header(hand.header)]
    t = hand.table
    out.append(f"Table '{t.name}' {t.max_seats}-max Seat #{t.dealer} is the dealer")
    if hand.house_rules is not None:
        out.append("House rules: " + ", ".join(hand.house_rules.rules))
    if hand.commitment is not None:
        out.append(f"Shuffle commitment: {hand.commitment.digest}")
    for s in hand.seats:
        out.append(
            f"Seat {s.seat}: {s.name} ({s.chips} in chips)"
            + (" is sitting out" if s.sitting_out else "")
        )
    writers = _LINE_WRITERS
    out.extend(writers[type(x)](x) for x in hand.preamble)
    for section in hand.sections:
        out.append(_marker(section.marker))
        out.extend(writers[type(x)](x) for x in section.lines)
    summary = hand.summary
    out.append("*** SUMMARY ***")
    out.append(_total(summary.total))
    if summary.board is not None:
        out.append("Board " + _cards(summary.board.cards))
    if summary.deck is not None:
        deck = "Deck " + _cards(summary.deck.cards)
        if summary.deck.salt is not None:
            deck += f" salt {summary.deck.salt}"
        out.append(deck)
    out.extend(_outcome(o) for o in summary.seats)
    return "\n".join(out)


def write_hands(hands: Iterable[Hand]) -> str:
    """A canonical file: hands separated by one blank line, one final LF
    (an empty string for no hands)."""
    text = "\n\n".join(write_hand(h) for h in hands)
    return text + "\n" if text else ""
