"""Every refusal an engine or the table service can return has a localized text for its game,
and the text formats with the values the refusal carries.

The codes are read from the sources (engine/*, bot/service.py) rather than from a list, so a new
code fails here until it gets a text, with no change to the engines needed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from handlers.presentation.refusals import refusal_text

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
GAMES = sorted(path.name for path in ENGINE.iterdir() if (path / "game.py").exists())
# Calls that build an engine refusal: Refused(code, message[, details]) and the engines' helpers.
REFUSAL_BUILDERS = {"Refused", "_refuse", "refuse", "_bad"}
ENGLISH_MESSAGE = "the engine's English message"
LANGUAGES = ("sw", "en")


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _literal_code(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _detail_keys(call: ast.Call) -> set[str]:
    """The keys of a literal `details={...}` (engines give none today)."""
    for keyword in call.keywords:
        if keyword.arg == "details" and isinstance(keyword.value, ast.Dict):
            return {key.value for key in keyword.value.keys if isinstance(key, ast.Constant)}
    if len(call.args) > 2 and isinstance(call.args[2], ast.Dict):
        return {key.value for key in call.args[2].keys if isinstance(key, ast.Constant)}
    return set()


def engine_codes(directory: Path) -> dict[str, set[str]]:
    """code -> the value names it carries, for every refusal built in a directory's sources:
    calls of the refusal builders, and the (code, message) tuples that functions returning a
    `Problem` give back (Lopti's checks)."""
    codes: dict[str, set[str]] = {}
    for path in sorted(directory.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called(node) in REFUSAL_BUILDERS and node.args:
                code = _literal_code(node.args[0])
                if code:
                    codes.setdefault(code, set()).update(_detail_keys(node))
            if (
                isinstance(node, ast.FunctionDef)
                and node.returns is not None
                and "Problem" in ast.unparse(node.returns)
            ):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and isinstance(inner.value, ast.Tuple) and inner.value.elts:
                        code = _literal_code(inner.value.elts[0])
                        if code:
                            codes.setdefault(code, set())
    return codes


def service_codes() -> dict[str, set[str]]:
    """code -> the value names of every `Outcome.refused("code", ..., name=value)` in the table service."""
    codes: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tables").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called(node) == "refused" and node.args:
                code = _literal_code(node.args[0])
                if code:
                    codes.setdefault(code, set()).update(k.arg for k in node.keywords if k.arg not in (None, "table"))
    return codes


def handler_codes() -> set[str]:
    """Codes the handlers answer with themselves: `refusal_text("code", ...)`, and the refusals
    they make of a press before the service is asked (`Outcome.refused("code", ...)`)."""
    codes = set()
    for path in sorted((ROOT / "handlers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called(node) in ("refusal_text", "refused") and node.args:
                code = _literal_code(node.args[0])
                if code:
                    codes.add(code)
    return codes


SHARED = engine_codes(ENGINE / "core")
CASES = [
    (game, code, values) for game in GAMES for code, values in sorted({**SHARED, **engine_codes(ENGINE / game)}.items())
]


def test_the_sources_are_read():
    assert len(CASES) > 100 and {"euchre3", "kadi", "lopti", "pitch", "three_thirteen"} <= set(GAMES)
    assert {"not_your_turn", "obligation_pending", "bad_when"} <= {
        code for game, code, _values in CASES if game == "lopti"
    }
    assert {"bad_option", "player_count", "table_full"} <= set(service_codes())


def _shown(code, values, language, game=None):
    texts = renderer_for(game).refusal_texts if game else None
    return refusal_text(code, ENGLISH_MESSAGE, {name: f"<{name}>" for name in values}, translator(language), texts)


@pytest.mark.parametrize("game, code, values", CASES, ids=[f"{game}:{code}" for game, code, _values in CASES])
def test_every_engine_refusal_has_a_text_for_its_game(game, code, values):
    for language in LANGUAGES:
        text = _shown(code, values, language, game)
        assert text != ENGLISH_MESSAGE, f"{game} has no text for {code!r}"
        assert "{" not in text and "}" not in text, f"{code!r} does not format with {sorted(values)}: {text}"


@pytest.mark.parametrize("code, values", sorted(service_codes().items()))
def test_every_service_refusal_has_a_text_that_formats_with_its_values(code, values):
    for language in LANGUAGES:
        text = _shown(code, values, language)
        assert text != ENGLISH_MESSAGE, f"no text for the service's {code!r}"
        assert "{" not in text and "}" not in text, f"{code!r} does not format with {sorted(values)}: {text}"
        assert all(f"<{name}>" in text for name in values), f"{code!r} drops a value: {text}"


@pytest.mark.parametrize("code", sorted(handler_codes()))
def test_every_code_the_handlers_answer_with_has_a_text(code):
    for language in LANGUAGES:
        assert _shown(code, set(), language, "lopti") != ENGLISH_MESSAGE


def test_a_refusal_reads_in_swahili_and_says_what_to_do():
    sw = translator("sw")
    assert refusal_text("stock_empty", ENGLISH_MESSAGE, {}, sw, renderer_for("three_thirteen").refusal_texts) == (
        "Fungu la kuchota limeisha: chukua karata ya juu ya rundo."
    )
    assert refusal_text("bad_option", "", {"option": "hand_sise"}, sw).startswith("Siwezi kutumia chaguo hand_sise:")
