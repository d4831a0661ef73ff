"""The simulator: legal, varied sessions that round-trip and pass the referee."""

from __future__ import annotations

import itertools
import random
import re
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from situations import situations, under_declared

from hh.cards import UNKNOWN
from hh.evaluate import evaluator_for
from hh.model import SHOWDOWN, Deal, Game, Hand, Show
from hh.parse import HandSyntaxError, parse_hand, parse_text
from hh.simulate import Simulator
from hh.testing.mutate import KINDS, mutate
from hh.validate import Verdict, cross_check, validate
from hh.write import write_hand, write_hands

pytestmark = pytest.mark.compiled

GAMES = list(Game)


def _session(game: Game, n: int, **kw: object) -> list:
    return list(Simulator(game, **kw).hands(n))  # type: ignore[arg-type]


def assert_chips_kept(verdict: Verdict, hand: Hand) -> None:
    """RULES.md, General, "Chips never vanish": in every verdict with pots,
    the payouts share out the pots in full and ``net`` sums to minus the rake
    (the logged rake, or 0 where it was refused as RAKE)."""
    if verdict.pots is None:
        return
    assert verdict.net is not None and verdict.payouts is not None
    refused = any(v.code == "RAKE" for v in verdict.violations)
    rake = 0 if refused else hand.summary.total.rake
    assert sum(verdict.net.values()) == -rake, (verdict.net, rake)
    assert sum(verdict.payouts.values()) == sum(p.amount for p in verdict.pots)
    for p in verdict.pots:
        assert sum(p.shares) == p.amount and len(p.shares) == len(p.winners) > 0


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_bytes(game: Game) -> None:
    a = write_hands(Simulator(game, seed=5, tables=2).hands(60))
    b = write_hands(Simulator(game, seed=5, tables=2).hands(60))
    c = write_hands(Simulator(game, seed=6, tables=2).hands(60))
    assert a == b
    assert a != c


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    tables=st.integers(1, 3),
    players=st.one_of(st.none(), st.integers(2, 7)),
    view=st.sampled_from([None, "Hero Ñ"]),
)
def test_simulate_write_parse_validate_round_trip(
    game: Game, seed: int, tables: int, players: int | None, view: str | None
) -> None:
    hands = _session(game, 40, seed=seed, tables=tables, players=players, view=view)
    text = write_hands(hands)
    records = list(parse_text(text))
    assert len(records) == len(hands)
    verdicts = []
    for original, record in zip(hands, records, strict=True):
        assert record.error is None, record.error
        assert record.hand == original
        assert write_hand(record.hand) + "\n" == record.raw + "\n"
        verdict = validate(record.hand)
        assert verdict.valid, [v.message for v in verdict.violations]
        # chips are conserved in every hand: what the winners take is what
        # the losers lost, less the rake
        assert sum(verdict.net.values()) == -record.hand.summary.total.rake
        assert_chips_kept(verdict, record.hand)
        verdicts.append(verdict)
    assert write_hands(r.hand for r in records) == text
    # and across the session: stacks carry over, the deal rotates
    checked = cross_check(verdicts)
    assert all(v.valid for v in checked), [x.message for v in checked for x in v.violations]


@pytest.mark.parametrize("game", GAMES)
def test_session_conserves_chips(game: Game) -> None:
    """Per table, every chip is accounted for from hand to hand: what a
    player ends with is what he starts the next hand with (plus a top-up),
    and the money at the table only changes by rake, top-ups and seat changes."""
    hands = _session(game, 300, seed=9, tables=2)
    verdicts = [validate(h) for h in hands]
    by_table: dict[str, list] = {}
    for v in verdicts:
        by_table.setdefault(v.table, []).append(v)
    for chain in by_table.values():
        for prev, cur in itertools.pairwise(chain):
            ends = {s.name: s.end for s in prev.stacks}
            tops = dict(cur.top_ups)
            for seat in cur.stacks:
                if seat.name in ends:
                    assert seat.start == ends[seat.name] + tops.get(seat.name, 0)
        for v in chain:
            start = sum(s.start for s in v.stacks)
            end = sum(s.end for s in v.stacks)
            rake = start - end
            assert rake >= 0


def test_hand_ids_unique_and_times_increase() -> None:
    ids = set()
    for game in GAMES:
        for seed in (1, 2):
            hands = _session(game, 50, seed=seed, tables=3)
            for h in hands:
                assert h.header.site == "hh-sim"
                key = h.header.hand_id
                assert key not in ids
                ids.add(key)
            times = [(h.header.date, h.header.time) for h in hands]
            assert times == sorted(times) and len(set(times)) == len(times)
            assert (hands[0].header.date, hands[0].header.time) == ("2026/01/01", "00:00:00")
            assert all(h.header.zone == "UTC" for h in hands)


@pytest.mark.parametrize("game", GAMES)
def test_deck_line_and_commitment_by_default(game: Game) -> None:
    for h in _session(game, 20, seed=3):
        assert h.summary.deck is not None and h.summary.deck.salt
        assert h.commitment is not None
        assert re.fullmatch(r"[0-9a-f]{64}", h.commitment.digest)
    for h in _session(game, 20, seed=3, deck=False):
        assert h.summary.deck is None and h.commitment is None


@pytest.mark.parametrize("game", GAMES)
def test_hero_view_hides_others_down_cards(game: Game) -> None:
    hands = _session(game, 80, seed=4, tables=2, view="Ana María")
    hidden = 0
    for h in hands:
        assert h.summary.deck is None
        assert any(s.seat == 1 and s.name == "Ana María" for s in h.seats)
        shown = {x.name for s in h.sections for x in s.lines if isinstance(x, Show)}
        for s in h.sections:
            for x in s.lines:
                if isinstance(x, Deal) and x.down:
                    mine = x.name == "Ana María" or x.name in shown
                    assert (UNKNOWN in x.down) != mine
                    hidden += not mine
        verdict = validate(parse_hand(write_hand(h)))
        assert verdict.valid, [v.message for v in verdict.violations]
    assert hidden > 0


def test_players_and_tables_options() -> None:
    hands = _session(Game.ACES, 30, seed=1, players=7, tables=3)
    tables = {h.table.name for h in hands}
    assert len(tables) == 3
    assert all(len([s for s in h.seats if not s.sitting_out]) >= 6 for h in hands)
    # hands are dealt round-robin over the tables
    assert [h.table.name for h in hands[:3]] == sorted(tables, key=lambda t: t.split("-")[-1])


def test_memory_does_not_grow_with_the_number_of_hands() -> None:
    def peak(n: int, keep: bool = False) -> int:
        tracemalloc.start()
        hands = Simulator(Game.CHIRIBITO, seed=1, tables=2).hands(n)
        kept = list(hands) if keep else [None for _ in hands]
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del kept
        return top

    peak(100)  # builds the evaluator's tables once, outside the measure
    streaming = peak(3000)
    # what keeping the hands would cost: the bound below must be far under it
    assert peak(3000, keep=True) > 10 * 1_000_000
    assert streaming < 1_000_000


COVERAGE = {
    Game.CHIRIBITO: [
        *(f"fold on {s}" for s in ("HOLE CARDS", "COMMON 1", "COMMON 2", "COMMON 3",
                                   "COMMON 4", "COMMON 5")),
        "re-raise", "short all-in raise", "side pots with several levels",
        "split pot with odd chips", "uncalled bet", "timed-out action",
        "La Perla at the showdown",
    ],
    Game.ACES: [
        *(f"fold on {s}" for s in ("3RD STREET", "4TH STREET", "5TH STREET", "6TH STREET")),
        "re-raise", "raises up to the cap", "short all-in raise",
        "side pots with several levels", "split pot with odd chips", "uncalled bet",
        "timed-out action", "five aces", "joker flush",
    ],
    Game.CALATONE: [
        *(f"fold on {s}" for s in ("2ND STREET", "3RD STREET", "4TH STREET", "5TH STREET",
                                   "6TH STREET", "7TH STREET")),
        "re-raise", "short all-in raise", "side pots with several levels",
        "split pot with odd chips", "uncalled bet", "timed-out action",
        "hand ended by an all-checked round", "declarations", "under-declared",
    ],
}


@pytest.mark.parametrize("game", GAMES)
def test_twenty_thousand_hands_cover_every_situation(game: Game) -> None:
    seen: Counter[str] = Counter()
    rank = evaluator_for(game).value
    for h in Simulator(game, seed=2026, tables=4).hands(20_000):
        seen.update(situations(h))
        if game is Game.CALATONE and "under-declared" not in seen and under_declared(h, rank):
            seen["under-declared"] += 1
    missing = [s for s in COVERAGE[game] if not seen[s]]
    assert not missing


@pytest.mark.parametrize("game", GAMES)
def test_mutants_are_caught(game: Game) -> None:
    """Every kind of single corruption is flagged (>= 99.5% overall, and
    every kind that applies is caught at least 99% of the time)."""
    hands = _session(game, 150, seed=17, tables=3)
    rng = random.Random(99)
    tried: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for kind in KINDS:
        for h in hands:
            m = mutate(h, kind, rng)
            if m is None:
                continue
            tried[kind] += 1
            try:
                parsed = parse_hand(write_hand(m))
            except HandSyntaxError:
                caught[kind] += 1
                continue
            verdict = validate(parsed)
            assert all(v.code != "INTERNAL_ERROR" for v in verdict.violations)
            assert_chips_kept(verdict, parsed)
            caught[kind] += not verdict.valid
    total, hit = sum(tried.values()), sum(caught.values())
    assert total > 2500
    assert hit / total >= 0.995
    for kind, n in tried.items():
        assert caught[kind] / n >= 0.99, kind


def test_mutants_get_the_expected_codes() -> None:
    """A few kinds have one obvious code: the validator must name it."""
    expected = {
        "call_amount": {"CALL_AMOUNT", "STACK_EXCEEDED"},
        "raise_by": {"AMOUNT_MISMATCH"},
        "check_facing_bet": {"ILLEGAL_CHECK"},
        "bet_over_bet": {"ILLEGAL_BET"},
        "timed_out_action": {"TIMEOUT_ACTION"},
        "removed_all_in": {"ALL_IN_FLAG"},
        "wrong_actor": {"OUT_OF_TURN", "NOT_IN_HAND"},
        "swapped_actions": {"OUT_OF_TURN"},
        "duplicated_card": {"CARD_DUPLICATE"},
        "wrong_shown_card": {"CARD_MISMATCH"},
        "deck_swap": {"SHUFFLE_COMMITMENT"},
        "wrong_description": {"HAND_DESCRIPTION"},
        "wrong_declaration": {"DECLARATION"},
        "wrong_collected": {"PAYOUT"},
        "wrong_winner": {"PAYOUT"},
        "wrong_uncalled": {"UNCALLED_BET"},
        "wrong_post": {"FORCED_BET"},
        "wrong_total": {"POT_TOTAL"},
        "wrong_side_pot": {"SIDE_POTS"},
        "big_rake": {"RAKE"},
        "wrong_fold_street": {"SUMMARY"},
        "wrong_won": {"SUMMARY"},
    }
    rng = random.Random(5)
    for game in GAMES:
        hands = _session(game, 60, seed=23, tables=2)
        for kind, codes in expected.items():
            for h in hands:
                m = mutate(h, kind, rng)
                if m is None:
                    continue
                found = {v.code for v in validate(parse_hand(write_hand(m))).violations}
                assert found & codes, (game, kind, found)


def test_showdown_sections_follow_the_last_street() -> None:
    for game in GAMES:
        for h in _session(game, 100, seed=8):
            streets = [s.marker.street for s in h.sections]
            if SHOWDOWN in streets:
                assert streets.index(SHOWDOWN) == len(streets) - 1


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10**6),
    kind=st.sampled_from(sorted(KINDS)),
    pick=st.randoms(use_true_random=False),
)
def test_property_a_mutated_hand_is_caught(
    game: Game, seed: int, kind: str, pick: random.Random
) -> None:
    for hand in Simulator(game, seed=seed, tables=2).hands(30):
        mutant = mutate(hand, kind, pick)
        if mutant is None:
            continue
        try:
            parsed = parse_hand(write_hand(mutant))
        except HandSyntaxError:
            continue
        verdict = validate(parsed)
        assert not verdict.valid, (kind, write_hand(mutant))
        assert_chips_kept(verdict, parsed)
