"""Write each game guide's list of table options from the game's own option table.

Every guide (docs/games/<game>.md, docs/games/sw/<game>.md) holds, between the two markers below,
a table of the game's options: each option's name, the values it takes and its default, read
from the engine's Options model (the one place they live), and the players the table seats when
an option changes it. Run `python tools/guide_options.py` after changing an Options model;
`tests/render/test_guide_options.py` fails while a guide is stale. `--check` only reports.
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path

from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from engine.core.options import parse_options  # noqa: E402
from engine.registry import available_games, get_game  # noqa: E402
from handlers.i18n import translator  # noqa: E402
from handlers.presentation.guide_pages import SOURCE_GUIDES, guide_path  # noqa: E402
from handlers.presentation.render.options import either, field_values, shown  # noqa: E402

BEGIN = "<!-- options: written by tools/guide_options.py from the game's option table; do not edit -->"
END = "<!-- options end -->"
WORDS = {
    "en": {
        "header": "| option | values | default |",
        "players": "Players: {range}",
        "with": "with `{option}` {values}",
        "more": "Every table also takes `timer`, `bots`, `level` and `standin` (see `/newgame`).",
    },
    "sw": {
        "header": "| chaguo | thamani | kwa kawaida |",
        "players": "Wachezaji: {range}",
        "with": "ikiwa `{option}` ni {values}",
        "more": "Kila meza inakubali pia `timer`, `bots`, `level` na `standin` (tazama `/newgame`).",
    },
}


def values_of(field: FieldInfo) -> list[object]:
    """Every value a field takes, when there are few enough to try each (else [])."""
    annotation = field.annotation
    if annotation is bool:
        return [False, True]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    low = next((item.ge for item in field.metadata if hasattr(item, "ge")), None)
    high = next((item.le for item in field.metadata if hasattr(item, "le")), None)
    return list(range(low, high + 1)) if low is not None and high is not None and high - low <= 20 else []


def seats(low: int, high: int) -> str:
    return f"{low}-{high}" if low < high else f"{low}"


def players_line(game_name: str, language: str) -> str:
    """«Players: 2-6; with hand_size=5 or 6: 2-7»: the range, and each option value that changes it."""
    _ = translator(language)
    game = get_game(game_name)
    usual = game.player_range(parse_options(game.Options, {}))
    changes = []
    for option, field in game.Options.model_fields.items():
        other: dict[tuple[int, int], list[object]] = {}
        for value in values_of(field):
            found = game.player_range(parse_options(game.Options, {option: value}))
            if found != usual:
                other.setdefault(found, []).append(value)
        for (low, high), values in other.items():
            said = WORDS[language]["with"].format(option=option, values=either(values, _))
            changes.append(f"{said}: {seats(low, high)}")
    text = WORDS[language]["players"].format(range=seats(*usual))
    return "; ".join([text, *changes]) + "."


def options_section(game_name: str, language: str) -> str:
    """The generated part of a guide: the markers, the table of options and the players line."""
    _ = translator(language)
    game = get_game(game_name)
    lines = [BEGIN, "", WORDS[language]["header"], "|---|---|---|"]
    for option, field in game.Options.model_fields.items():
        values = field_values(field, _) or ""
        lines.append(f"| `{option}` | {values} | `{shown(field.default)}` |")
    lines += ["", players_line(game_name, language), "", WORDS[language]["more"], "", END]
    return "\n".join(lines)


def updated(text: str, section: str, path: Path) -> str:
    if BEGIN not in text or END not in text:
        raise SystemExit(f"guide_options: {path} has no options markers; put them under its options heading")
    before, rest = text.split(BEGIN, 1)
    _old, after = rest.split(END, 1)
    return before + section + after


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for game_name in available_games():
        for language in ("en", "sw"):
            path = guide_path(SOURCE_GUIDES, game_name, language)
            text = path.read_text(encoding="utf-8")
            new = updated(text, options_section(game_name, language), path)
            if new != text:
                stale.append(path)
                if not check:
                    path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if check else 'wrote'} {path.relative_to(ROOT)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
