"""Scoring a hand (E27-E29, EU3-A11) and deciding when the match is won (E30, EU3-A12)."""

from __future__ import annotations

from engine.euchre3.options import Euchre3Options


def hand_points(
    maker: int, maker_tricks: int, maker_alone: bool, lone_defender: int | None, options: Euchre3Options
) -> tuple[int, int, int]:
    """Points per seat for one hand; exactly one side scores."""
    points = [0, 0, 0]
    if maker_tricks >= 3:
        if maker_tricks == 5:
            points[maker] = 5 if (maker_alone and options.lone_maker_bonus) else 3
        else:
            points[maker] = 1
        return points[0], points[1], points[2]
    defender_points = 4 if (lone_defender is not None and maker_tricks == 0) else 2
    for seat in range(3):
        if seat != maker:
            points[seat] = defender_points
    return points[0], points[1], points[2]


def match_winners(scores: tuple[int, ...], options: Euchre3Options) -> tuple[int, ...]:
    """Seats that have won after a hand, or () if the match goes on."""
    top = max(scores)
    if top < options.target:
        return ()
    if options.simultaneous_win == "shared":
        # Only one side scores per hand and nobody had reached the target before, so everyone
        # at or above it got there on this hand: they are all "first" (EU3-A12).
        return tuple(seat for seat in range(3) if scores[seat] >= options.target)
    leaders = tuple(seat for seat in range(3) if scores[seat] == top)
    return leaders if len(leaders) == 1 else ()
