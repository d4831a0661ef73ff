"""The summary's Deck line: the whole deck once, the cards dealt from its
top in the game's dealing order, and the shuffle commitment."""

from __future__ import annotations

import hashlib
from collections import Counter

from hh.cards import UNKNOWN
from hh.model import Game
from hh.replay.dealing import Dealing
from hh.replay.state import ReplayState
from hh.replay.words import cards


class DeckCheck:
    def __init__(self, st: ReplayState, dealing: Dealing) -> None:
        self.st = st
        self.engine = st.engine
        self.dealing = dealing

    def check(self) -> None:
        st = self.st
        hand = st.hand
        deck_line = hand.summary.deck
        commitment = hand.commitment
        if deck_line is None:
            if commitment is not None:
                st.note(
                    "SHUFFLE_COMMITMENT",
                    commitment.line,
                    "no Deck line: the shuffle commitment could not be checked",
                )
            return
        listed = list(deck_line.cards)
        expected = st.deck_set
        if len(listed) != len(expected) or set(listed) != expected:
            extra = sorted((Counter(listed) - Counter(expected)).elements())
            lacking = sorted((Counter(expected) - Counter(listed)).elements())
            bits = []
            if extra:
                bits.append(f"extra or repeated {' '.join(extra)}")
            if lacking:
                bits.append(f"missing {' '.join(lacking)}")
            st.add(
                "DECK_ORDER",
                deck_line.line,
                f"the Deck must list this hand's {len(expected)} cards once each: "
                + "; ".join(bits),
            )
        else:
            self.check_deal_order(listed)
        if commitment is not None:
            if deck_line.salt is None:
                st.note(
                    "SHUFFLE_COMMITMENT",
                    commitment.line,
                    "the Deck has no salt: the shuffle commitment could not be checked",
                )
            else:
                text = " ".join(listed) + " " + deck_line.salt
                digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
                if digest != commitment.digest:
                    st.add(
                        "SHUFFLE_COMMITMENT",
                        deck_line.line,
                        f"the Deck and salt hash to {digest}, not to the commitment "
                        f"{commitment.digest}",
                    )

    def check_deal_order(self, deck: list[str]) -> None:
        """Dealt cards against the Deck, dealt from the top in dealing order:
        each street deals its cards one round of the table at a time to the
        players still in, then (Chiribito) its common card. Where each
        player's cards start was noted as the streets were dealt."""
        st = self.st
        e = self.engine
        both_ways = st.hand.game is Game.CALATONE
        for idx, down, up, line_no, first, step in self.dealing.deals:
            if first < 0:
                continue
            count = len(down) + len(up)
            mine = tuple(deck[first : first + count * step : step])
            wd, wu = mine[: len(down)], mine[len(down) :]
            if down == wd and up == wu:
                continue
            if UNKNOWN in down or UNKNOWN in up:
                st.note(
                    "DECK_ORDER",
                    line_no,
                    f"{e.players[idx].name}'s cards dealt as ?? could not be checked against "
                    f"the Deck",
                )
                continue
            # Calatone's first two cards (the first street starts the deck,
            # so its slots are below one round): either may be the one turned up
            if both_ways and first < step:
                ok = sorted((*down, *up)) == sorted(mine)
            else:
                ok = sorted(down) == sorted(wd) and sorted(up) == sorted(wu)
            if not ok:
                st.add(
                    "DECK_ORDER",
                    line_no,
                    f"{e.players[idx].name} is dealt down {cards(down)} up {cards(up)}, but "
                    f"the Deck gives down {cards(wd)} up {cards(wu)}",
                )
        # each common card against its slot, reported on the marker that dealt it
        dealing = self.dealing
        for j, card in enumerate(e.board):
            slot = dealing.board_slots[j] if j < len(dealing.board_slots) else len(deck)
            want = deck[slot] if slot < len(deck) else None
            if card != want and card != UNKNOWN:
                where = dealing.board_lines[j] if j < len(dealing.board_lines) else None
                st.add(
                    "DECK_ORDER",
                    where if where is not None else st.hand.summary.line,
                    f"common card {j + 1} is {card}, but the Deck gives "
                    + (want if want is not None else "no card there"),
                )
