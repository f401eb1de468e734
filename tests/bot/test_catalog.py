"""Every user-facing string has its Swahili, with the same placeholders; Swahili is what players get."""

import ast
import re
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from handlers.i18n import translator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from update_catalogs import KEYWORDS, PO_PATH, SOURCES, extract  # noqa: E402

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def swahili():
    with PO_PATH.open("rb") as handle:
        return read_po(handle, locale="sw")


def test_every_string_in_the_code_has_a_swahili_translation():
    catalog = swahili()
    missing = []
    for message in extract():
        if not message.id:
            continue
        translated = catalog.get(message.id, message.context)
        strings = translated.string if translated else None
        if isinstance(strings, tuple):
            ok = all(strings)
        else:
            ok = bool(strings)
        if not ok or (translated and translated.fuzzy):
            missing.append(message.id)
    assert not missing, f"{len(missing)} strings lack Swahili, e.g. {missing[:5]}"


def test_translations_keep_the_placeholders():
    for message in swahili():
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(set(PLACEHOLDER.findall(text)) for text in ids))
        for text in strings:
            # A singular form may write its number out instead of {count}.
            assert set(PLACEHOLDER.findall(text)) <= wanted | {"count"}, (message.id, text)
        assert set(PLACEHOLDER.findall(strings[-1])) == set(PLACEHOLDER.findall(ids[-1])), (message.id, strings[-1])


def test_swahili_players_read_swahili_and_english_players_english():
    assert translator("sw")("Join") == "Jiunge"
    assert translator("en")("Join") == "Join"
    assert translator("en-GB")("Join") == "Join"
    assert translator(None)("Join") == "Jiunge"
    two = translator("sw").plural("{count} card", "{count} cards", 2)
    assert "2" in two and two != "2 cards"


def test_no_translated_string_hides_inside_an_f_string():
    """Babel on Python 3.11 (the Docker image) cannot see `_("...")` inside an f-string, so such a
    string never reaches the catalog and shows in English (a variable marked with N_ is fine)."""
    hidden = []
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for call in ast.walk(node):
                    if isinstance(call, ast.Call):
                        func = call.func
                        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                        literal = any(isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in call.args)
                        if called in KEYWORDS and literal:
                            hidden.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert not hidden, f"translation calls inside f-strings: {hidden}"


def test_every_plural_call_reaches_the_catalog_as_a_plural():
    """Babel's extractor stops reading a call at a nested `_` (e.g. `names=names_list(..., _)`),
    which silently turns a plural message into a singular one that never gets its plural form."""
    extracted = {message.id for message in extract() if isinstance(message.id, tuple)}
    calls = []
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("plural", "npgettext"):
                    texts = [
                        arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                    ]
                    forms = tuple(texts[-2:])
                    if len(forms) == 2 and forms not in extracted:
                        calls.append(f"{path.relative_to(ROOT)}:{node.lineno} {forms[0]!r}")
    assert not calls, f"plural calls extracted without their plural: {calls}"
