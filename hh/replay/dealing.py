"""The cards: deal lines, common cards, and where each street's cards sit
in the Deck (for the deck check at the end)."""

from __future__ import annotations

from hh.cards import JOKER, UNKNOWN
from hh.model import Deal, Marker
from hh.replay.state import ReplayState
from hh.replay.words import cards, plural

# (player index, down, up, line, first deck slot, step between slots)
DealRecord = tuple[int, tuple[str, ...], tuple[str, ...], int, int, int]


class Dealing:
    """Every card dealt, once: duplicates and foreign cards are reported and
    kept by the engine as ``??``, so later checks go on without them."""

    def __init__(self, st: ReplayState) -> None:
        self.st = st
        self.engine = st.engine
        self.dealt_cards: dict[str, int] = {}  # card -> line it was dealt on
        self.deals: list[DealRecord] = []
        # where each player's cards of the street start in a Deck line (if
        # any): the deck is dealt one round of the table at a time
        self.deck_pos = 0
        self.slots: dict[int, tuple[int, int]] = {}  # player index -> (first, step)
        self.board_slots: list[int] = []  # deck slot of each common card
        self.board_lines: list[int] = []  # the marker line of each common card
        self.street_dealt: set[int] = set()
        self.deals_checked = True

    def start_street(self, k: int, marker: Marker) -> None:
        """Street ``k`` begins: plan its deck slots, then deal its common cards."""
        e = self.engine
        street = self.st.rules.streets[k]
        self.deals_checked = False
        per = street.down + street.up
        if per:
            dealt = [p.index for p in e.players if not p.folded]
            n = len(dealt)
            pos = self.deck_pos
            self.slots = {idx: (pos + j, n) for j, idx in enumerate(dealt)}
            self.deck_pos = pos + per * n
        if street.board:
            self.board_slots.extend(range(self.deck_pos, self.deck_pos + street.board))
            self.deck_pos += street.board
            self.board_cards(marker, k)
        elif marker.groups:
            self.st.add("CARD_COUNT", marker.line, f"{marker.street} deals no common cards")

    def board_cards(self, marker: Marker, k: int) -> None:
        st = self.st
        e = self.engine
        streets = st.rules.streets
        street = streets[k]
        groups = marker.groups
        first_common = next(i for i, s in enumerate(streets) if s.board)
        want_groups = 1 if k == first_common else 2
        if len(groups) != want_groups:
            shape = "[new card]" if want_groups == 1 else "[board so far] [new card]"
            st.add(
                "CARD_COUNT",
                marker.line,
                f"{marker.street} shows {len(groups)} card groups, expected {shape}",
            )
            if not groups:
                return
        before = marker.board_before
        if want_groups == 2 and before is not None and list(before) != e.board:
            st.add(
                "CARD_MISMATCH",
                marker.line,
                f"{marker.street} repeats the board as {cards(before)}, but the board is "
                f"{cards(e.board)}",
            )
        new = marker.new_cards
        if len(new) != street.board:
            st.add(
                "CARD_COUNT",
                marker.line,
                f"{marker.street} deals {plural(len(new), 'common card')}, "
                f"expected {street.board}",
            )
        for c in new:
            self.dealt_card(c, marker.line, "on the board")
        self.board_lines.extend(marker.line for _ in new)
        e.deal_board(new)

    def dealt_card(self, card: str, line_no: int, where: str) -> bool:
        """Record a dealt card; False (after reporting) if it cannot be dealt."""
        if card == UNKNOWN:
            return True
        st = self.st
        if card not in st.variant.deck or card == JOKER:
            deck = st.variant.deck
            st.add(
                "CARD_UNKNOWN",
                line_no,
                f"{card} dealt {where} is not a card of this hand's deck ({deck.name}"
                + (", the joker lies in the centre" if card == JOKER else "")
                + ")",
            )
            return False
        first = self.dealt_cards.get(card)
        if first is not None:
            st.add(
                "CARD_DUPLICATE",
                line_no,
                f"{card} dealt {where} was already dealt on line {first}",
            )
            return False
        self.dealt_cards[card] = line_no
        return True

    def deal(self, line: Deal) -> None:
        st = self.st
        e = self.engine
        if e.ended == "folded" or e.ended == "checked":
            st.add("HAND_OVER", line.line, f"cards dealt to {line.name} after the hand ended")
            return
        if e.street < 0 or st.in_showdown:
            st.add("CARD_COUNT", line.line, f"cards dealt to {line.name} outside a street")
            return
        p = e.by_name.get(line.name)
        if p is None:
            st.player(line.name, line.line, "is dealt cards")
            return
        if p.folded:
            st.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} folded and gets no more cards, but is dealt cards: expected none",
            )
            return
        if p.index in self.street_dealt:
            st.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} is dealt cards twice on {e.street_name}",
            )
            return
        self.street_dealt.add(p.index)
        street = st.rules.streets[e.street]
        down = line.down or ()
        up = line.up or ()
        if len(down) != street.down or len(up) != street.up:
            st.add(
                "CARD_COUNT",
                line.line,
                f"{p.name} is dealt {len(down)} down and {len(up)} up on {e.street_name}, "
                f"expected {street.down} down and {street.up} up",
            )
        # a card that cannot be dealt stays unknown to the engine
        seen = self.dealt_cards
        deck = st.deck_set
        n = line.line
        for group in (down, up):
            for c in group:
                if c in deck and c not in seen:
                    seen[c] = n
                elif c != UNKNOWN:
                    down = tuple(x if x != c else UNKNOWN for x in down)
                    up = tuple(x if x != c else UNKNOWN for x in up)
                    self.dealt_card(c, n, f"to {p.name}")
        if UNKNOWN in up and UNKNOWN in (line.up or ()):
            st.add("CARD_COUNT", line.line, f"an up card dealt to {p.name} is shown as ??")
        e.deal(p, down, up)
        first, step = self.slots.get(p.index, (-1, 0))
        self.deals.append((p.index, down, up, n, first, step))

    def check_deals(self, line_no: int) -> None:
        """At the first line after a street's deal lines: everyone dealt?"""
        if self.deals_checked:
            return
        self.deals_checked = True
        e = self.engine
        for due in e.deal_plan():
            p, down, up = due.player, due.down, due.up
            if p.index not in self.street_dealt:
                self.st.add(
                    "CARD_COUNT",
                    line_no,
                    f"{p.name} was dealt no cards on {e.street_name}: expected {down} down "
                    f"and {up} up before this line",
                )
        self.street_dealt = set()
