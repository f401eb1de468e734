"""How a keyboard's buttons stand in rows for a thumb.

Cards are packed five to a row (more only when a big hand would need more than eight rows);
the moves a slip must not hit (Draw, Take the pile, Go out, Pass) get a row each; other moves
share rows while their labels fit a phone's width; ✔ and ↩ close the keyboard on its last
row. Telegram draws at most eight buttons in a row, and a keyboard taller than eight rows
pushes the cards off a phone's screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import Generic, TypeVar

from handlers.presentation.action_tree import ALONE, CARD, DONE

MAX_ROWS = 8
CARDS_PER_ROW = 5
MAX_PER_ROW = 8
# Characters of labels that share a row of moves; a longer label stands alone.
ROW_WIDTH = 28
MOVES_PER_ROW = 3
BOTTOM = "bottom"  # ✔ and ↩

T = TypeVar("T")


@dataclass(frozen=True)
class Key(Generic[T]):
    label: str
    kind: str
    button: T


def pack(keys: Sequence[Key[T]], width: int = ROW_WIDTH, most: int = MOVES_PER_ROW) -> list[list[Key[T]]]:
    """Moves in the order given: a lone move on a row of its own, the others several to a row
    while their labels fit `width` characters."""
    rows: list[list[Key[T]]] = []
    shared = False  # whether the last row takes more moves
    for key in keys:
        row = rows[-1] if rows and shared else None
        if (
            key.kind != ALONE
            and row is not None
            and len(row) < most
            and sum(len(k.label) for k in row) + len(key.label) <= width
        ):
            row.append(key)
        else:
            rows.append([key])
            shared = key.kind != ALONE
    return rows


def arrange(keys: Sequence[Key[T]], top: Sequence[Key[T]] = ()) -> list[list[T]]:
    """Rows of buttons: `top` first (a panel's own button), then the cards, the moves in the
    order given, and the bottom row (✔, ↩)."""
    cards = [key for key in keys if key.kind == CARD]
    moves = [key for key in keys if key.kind not in (CARD, DONE, BOTTOM)]
    bottom = [key for key in keys if key.kind in (DONE, BOTTOM)]
    move_rows = pack(moves)
    fixed = (1 if top else 0) + (1 if bottom else 0)
    if fixed + len(move_rows) + ceil(len(cards) / CARDS_PER_ROW) > MAX_ROWS:
        # Too tall: moves share rows more tightly, the lone ones too if that is not enough.
        move_rows = pack(moves, width=ROW_WIDTH * 2, most=MAX_PER_ROW // 2)
        if fixed + len(move_rows) + ceil(len(cards) / CARDS_PER_ROW) > MAX_ROWS:
            move_rows = pack(
                [Key(key.label, "", key.button) for key in moves], width=ROW_WIDTH * 2, most=MAX_PER_ROW // 2
            )
    room = max(1, MAX_ROWS - fixed - len(move_rows))
    width = min(MAX_PER_ROW, max(CARDS_PER_ROW, ceil(len(cards) / room))) if cards else CARDS_PER_ROW
    if cards:  # rows of even length: 3 + 3 reads better than 5 + 1
        width = ceil(len(cards) / ceil(len(cards) / width))
    card_rows = [cards[i : i + width] for i in range(0, len(cards), width)]
    rows = ([list(top)] if top else []) + card_rows + move_rows + ([bottom] if bottom else [])
    return [[key.button for key in row] for row in rows]
