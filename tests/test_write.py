"""The writer's canonical form."""

from __future__ import annotations

from pathlib import Path

from hh.model import Action, Collected, Deal, Info, Marker, Post, Show, TopUp, Uncalled
from hh.parse import parse_hand
from hh.write import write_hand, write_hands, write_line

DATA = Path(__file__).parent / "data" / "parse"
CH = (DATA / "chiribito.txt").read_text(encoding="utf-8")
CA = (DATA / "calatone.txt").read_text(encoding="utf-8")


def test_write_hands_separates_with_one_blank_line_and_ends_with_one_lf() -> None:
    hands = [parse_hand(CH), parse_hand(CA)]
    text = write_hands(hands)
    assert text == CH + "\n" + CA
    assert text.encode("utf-8").startswith(b"chiribito.com")  # no BOM
    assert "\r" not in text and " \n" not in text
    assert write_hands([]) == ""


def test_write_hand_has_no_final_line_end() -> None:
    text = write_hand(parse_hand(CH))
    assert not text.endswith("\n") and text.count("\n") == 46


def test_non_canonical_input_comes_out_canonical() -> None:
    messy = "\ufeff" + "\r\n".join(line + "   " for line in CH.split("\n"))
    assert write_hand(parse_hand(messy)) == CH.removesuffix("\n")


def test_lines() -> None:
    assert write_line(Action("Ana María", "raises", 20, 40, True, True)) == (
        "Ana María: raises 20 to 40 and is all-in (timed out)"
    )
    assert write_line(Action("Íñigo", "checks")) == "Íñigo: checks"
    assert write_line(Post("Paco", "blind", 20, True)) == "Paco: posts blind 20 and is all-in"
    assert write_line(TopUp("Paco", 500)) == "Paco: adds 500 chips"
    assert write_line(Deal("Ana", None, ("7s",))) == "Dealt to Ana: up [7s]"
    assert write_line(Deal("Ana", ("As", "Ks"), ("Qs",))) == "Dealt to Ana: down [As Ks] up [Qs]"
    assert write_line(Uncalled(40, "Íñigo")) == "Uncalled bet (40) returned to Íñigo"
    assert write_line(Collected("Ana", 7, 2)) == "Ana: collected 7 from side pot-2"
    assert write_line(Collected("Ana", 7, 0)) == "Ana: collected 7 from main pot"
    assert write_line(Show("Ana", ("Kh",), ("Kh", "Kd"), "a pair")) == (
        "Ana: shows [Kh] and declares [Kh Kd] (a pair)"
    )
    assert write_line(Info("Ana", "says", 'a "b"')) == 'Ana: says "a "b""'
    assert write_line(Info("Ana", "disconnected")) == "Ana: is disconnected"
    assert write_line(Marker("COMMON 2", (("7c",), ("Sc",)))) == "*** COMMON 2 *** [7c] [Sc]"
