"""Penalty points for cards left in hand (K7.3, KAD-A19) and the end of the long game (KAD-A20/A21)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.core.cards import JOKER
from engine.kadi.cards import DECK, RANK

# The seed's table (K7.3): A 1, 3-10 face value, J 10, Q 2, K 4, 2 = 20, Joker 50.
SEED_POINTS = {"A": 1, "J": 10, "Q": 2, "K": 4, "2": 20, JOKER: 50}
SEED_POINTS.update({str(n): n for n in range(3, 11)})
# pagat's Crazy Eights values: 8 = 50, pictures 10, others face value; a joker is still 50.
PAGAT_POINTS = {"A": 1, "J": 10, "Q": 10, "K": 10, "8": 50, JOKER: 50}
PAGAT_POINTS.update({str(n): n for n in range(2, 11) if n != 8})

TABLES = {"seed": SEED_POINTS, "pagat": PAGAT_POINTS}
# The same by card code, so scoring a hand parses no codes.
CARD_POINTS = {name: {card: table[RANK[card]] for card in DECK} for name, table in TABLES.items()}


def hand_points(cards: Iterable[str], scoring: str) -> int:
    return sum(map(CARD_POINTS[scoring].__getitem__, cards))


def lowest(totals: Mapping[str, int], among: Sequence[str]) -> list[str]:
    best = min(totals[p] for p in among)
    return [p for p in among if totals[p] == best]


def match_outcome(
    totals: Mapping[str, int], seats: Sequence[str], limit: int, elimination: bool
) -> tuple[list[str], list[str], bool]:
    """After a round: (players who leave, players who stay, is the match over).

    Without elimination the match ends once a total reaches or passes the limit (KAD-A20);
    with elimination players strictly over it leave, and the last one standing wins (KAD-A21).
    """
    if not elimination:
        over = any(totals[p] >= limit for p in seats)
        return [], list(seats), over
    staying = [p for p in seats if totals[p] <= limit]
    if not staying:
        staying = lowest(totals, seats)
        leaving = [p for p in seats if p not in staying]
        return leaving, staying, True
    leaving = [p for p in seats if p not in staying]
    return leaving, staying, len(staying) <= 1
