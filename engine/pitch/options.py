"""Pitch table options, named and defaulted exactly as section 6 of docs/games/rules/pitch.md."""

from __future__ import annotations

from typing import Literal

from engine.core.options import OptionsModel


class PitchOptions(OptionsModel):
    target: Literal[7, 11, 15, 21] = 7
    low_to: Literal["capturer", "dealt"] = "capturer"
    win_condition: Literal["pitcher_at_target", "pitcher_made_bid", "anyone"] = "pitcher_at_target"
    min_bid: Literal[1, 2] = 1
    smudge: bool = False
    dealer_steal: bool = True
    partnerships: bool = False
