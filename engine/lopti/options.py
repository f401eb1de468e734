"""Lopti's table options, named and defaulted exactly as section 6 of docs/games/rules/lopti.md."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.core.options import OptionsModel

HouseRuleMode = Literal["templates_and_text", "templates", "text", "off"]


class LoptiOptions(OptionsModel):
    """The first six change play (a Rule Vote may change them later); the rest drive the session."""

    play_for_places: bool = False
    face_down_may_take: bool = True
    sevens_stack_singly: bool = False
    draw_up_to_three: bool = False
    unlimited_swaps: bool = False
    ten_on_seven: bool = False
    house_rules: HouseRuleMode = "templates_and_text"
    authoring_timeout_s: int = Field(300, ge=60, le=1800)
    rps_first_to_16: bool = True
