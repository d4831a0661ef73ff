"""``hh show`` in the terminal: the hand's text with the referee's words
woven in under each line.

Everything shown comes from :func:`reports.show.explain.explain`. Names, chat and
table names are untrusted: they are put into rich ``Text`` objects (never
markup strings, so ``[bold]`` in a name stays literal) after
:func:`hh.output.safe` (the one escaping every command uses) has made
control characters and bidirectional overrides visible, so a name cannot
move the cursor, recolour the terminal or reverse the line it sits in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from hh.output import safe


def _t(text: str, style: str = "") -> Text:
    return Text(safe(text), style=style)


def _stacks(row: dict[str, Any]) -> Text:
    """Each player's chips behind and in front, after the line."""
    out = Text("stacks: ", style="dim")
    folded = set(row["folded"])
    all_in = set(row["all_in"])
    for k, (name, stack) in enumerate(row["stacks"].items()):
        if k:
            out.append(" · ", style="dim")
        style = "dim strike" if name in folded else ("bold" if name == row["to_act"] else "")
        out.append(safe(name), style=style)
        out.append(f" {stack}")
        bet = row["bets"].get(name, 0) if row["kind"] != "summary" else 0
        if bet:
            out.append(f" ({bet} in)", style="cyan")
        if name in all_in:
            out.append(" all-in", style="magenta")
    out.append(f" · pot {row['pot']}", style="bold")
    return out


def heading(meta: dict[str, Any]) -> Text:
    where = f"{meta['file']}:{meta['line']}" if meta.get("file") else f"line {meta['line']}"
    site = f"{meta['site']} " if meta.get("site") else ""
    out = _t(f"{site}#{meta['hand_id']} · {meta['game_label']} · table '{meta['table']}' · "
             f"{meta['date']} · {where}", "bold")  # fmt: skip
    n = len(meta["violations"])
    if meta["valid"]:
        out.append("  VALID", style="bold green")
    else:
        out.append(f"  INVALID, {n} violation{'s' if n != 1 else ''}", style="bold red")
        later = sum(1 for v in meta["violations"] if "follows" in v)
        if later:
            out.append(f" ({later} follow{'s' if later == 1 else ''} from earlier ones)",
                       style="red")
    if meta["unchecked"]:
        out.append(f" ({len(meta['unchecked'])} unchecked: hero view)", style="yellow")
    return out


def render(rows: Sequence[dict[str, Any]], meta: dict[str, Any], console: Console) -> None:
    """Print the explained hand: each line numbered, then its explanation.
    Built as one Text and printed once (a print per line costs ten times more)."""
    out = heading(meta)
    width = len(str(rows[-1]["line"])) if rows else 1
    pad = " " * (width + 4)

    def add(*parts: Text) -> None:
        out.append("\n")
        for p in parts:
            out.append_text(p)

    for row in rows:
        faults = row["faults"]
        bad = any("follows" not in f for f in faults)  # a root cause on this line
        after = bool(faults) and not bad  # only consequences of earlier lines
        style = "bold red" if bad else ("red" if after else "dim")
        line = Text(f" {row['line']:>{width}}  ", style=style)
        line.append(safe(row["text"]), style="red" if bad else "")
        add(line)
        for f in faults:
            if "follows" in f:  # subdued: it would not arise but for its cause
                add(Text(pad + "↳ ", style="dim red"),
                    _t(f"{f['code']}: {f['message']} (follows from line {f['follows']})", "dim"))
                continue
            add(Text(pad + "✗ ", style="bold red"), _t(f"{f['code']}: {f['message']}", "red"))
            later = f.get("consequences")
            if later:
                n = len(later)
                add(_t(f"{pad}  {n} later violation{'s' if n != 1 else ''} follow"
                       f"{'' if n != 1 else 's'} from this line: "
                       f"line{'s' if n != 1 else ''} {', '.join(map(str, later))}", "dim"))
        for d in row["disputes"]:
            t = Text(pad)
            t.append("log: ", style="bold yellow")
            t.append(safe(d["log"]), style="yellow")
            t.append(" — ", style="dim")
            t.append("rules: ", style="bold green")
            t.append(safe(d["rules"]), style="green")
            add(t)
        for u in row["unchecked"]:
            add(_t(f"{pad}? {u['code']} (unchecked): {u['message']}", "yellow"))
        for n in row["notes"]:
            add(_t(f"{pad}{n}", "cyan"))
        if row["kind"] in ("action", "post", "uncalled", "summary"):
            add(Text(pad), _stacks(row))
    if console.soft_wrap:  # into a file or a pipe: whole lines, never cut
        console.print(out)
    else:
        console.print(out, overflow="fold")
