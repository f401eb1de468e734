"""Three Thirteen's table options, named and defaulted as in section 6 of docs/games/rules/three_thirteen.md."""

from __future__ import annotations

from typing import Literal

from engine.core.options import OptionsModel


class ThreeThirteenOptions(OptionsModel):
    wild_only_melds: bool = False  # T13-A1: a meld of wild cards only is allowed
    ace: Literal["low", "high_or_low"] = "low"  # T13-A2, section 8
    court_values: Literal["ten", "rank"] = "ten"  # J/Q/K 10 each, or 11/12/13
    jokers: Literal[0, 2, 4] = 0  # jokers in the whole game: always wild, 20 points unmelded
    discard_taken_card: bool = True  # T13-A7: may discard the card just taken from the pile
    first_turn_go_out: bool = True  # T13-A11: may go out on one's first turn of a round
    tie: Literal["shared", "tiebreak_round"] = "shared"  # T13-A12
