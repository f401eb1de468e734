"""Kadi's table options, named and defaulted exactly as section 6 of rules/kadi.md."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.options import OptionsModel


class KadiOptions(OptionsModel):
    hand_size: int = Field(7, ge=5, le=8)
    voluntary_draw: bool = False
    mixed_stacking: bool = False
    after_joker: Literal["any", "card_below"] = "any"
    command_scope: Literal["until_covered", "next_player"] = "until_covered"
    power_finish: Literal["draw_one", "forbidden"] = "draw_one"
    niko_kadi_ahead: bool = False
    missed_call_penalty: int = Field(2, ge=1, le=5)
    scoring: Literal["seed", "pagat"] = "seed"
    points_limit: int = Field(100, ge=1)
    elimination: bool = False
    hiding: bool = False
    hiding_penalty: int = Field(5, ge=3, le=7)
