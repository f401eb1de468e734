"""Kadi's table options, named and defaulted exactly as section 6 of docs/games/rules/kadi.md."""

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


class TableRules:
    """The options the rules read on every move, as plain flags.

    Built once per state at `new`/`load` (and shared by copies): reading a pydantic model's
    attribute costs several times a slot's, and the string options become booleans here.
    """

    __slots__ = (
        "voluntary_draw", "mixed_stacking", "card_below", "next_player_only", "power_finish_forbidden",
        "niko_kadi_ahead", "missed_call_penalty", "hiding", "hiding_penalty",
    )  # fmt: skip

    def __init__(self, options: KadiOptions):
        self.voluntary_draw = options.voluntary_draw
        self.mixed_stacking = options.mixed_stacking
        self.card_below = options.after_joker == "card_below"
        self.next_player_only = options.command_scope == "next_player"
        self.power_finish_forbidden = options.power_finish == "forbidden"
        self.niko_kadi_ahead = options.niko_kadi_ahead
        self.missed_call_penalty = options.missed_call_penalty
        self.hiding = options.hiding
        self.hiding_penalty = options.hiding_penalty
