"""High Card at the table: a name; the default renderer draws the rest (a button per card)."""

from __future__ import annotations

from handlers.presentation.games.base import GameRenderer


class HighCardRenderer(GameRenderer):
    game = "highcard"
    title = "High Card"


RENDERER = HighCardRenderer()
