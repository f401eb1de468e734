"""Euchre-3 table options, named and defaulted exactly as section 6 of docs/games/rules/euchre3.md."""

from __future__ import annotations

from typing import Literal

from engine.core.options import OptionsModel


class Euchre3Options(OptionsModel):
    dealer_must_pick_up: bool = False  # EU3-A3
    turned_down_suit: bool = False  # EU3-A5: the turned-down suit may be named in round two
    stick_the_dealer: bool = False  # EU3-A6
    lone_defenders: Literal["allowed", "off", "vs_lone_maker"] = "allowed"  # EU3-A8
    lone_maker_bonus: bool = False  # EU3-A11 note (a): a lone maker's march scores 5
    deck: Literal[24, 32] = 24  # EU3-A15
    target: Literal[5, 7, 10, 11, 15] = 10  # E30
    simultaneous_win: Literal["shared", "play_on"] = "shared"  # EU3-A12
