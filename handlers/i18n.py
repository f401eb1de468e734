"""Swahili and English catalogs (gettext .po files read with Babel) and the translator objects.

English is the source language (msgids). Catalogs are compiled in memory at start-up, so an
installed package needs no build step. Named placeholders are filled with `str.format` after
translation, so translators may move them freely.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "karata"
LANGUAGES = ("sw", "en")
DEFAULT_LANGUAGE = "sw"


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here (translated where shown)."""
    return message


def pN_(context: str, message: str) -> str:
    """`N_` for a message with a context (msgctxt); translate it with `_.pgettext(context, message)`."""
    return message


@functools.cache
def _translations(language: str) -> gettext.NullTranslations:
    po_path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po_path.exists():
        return gettext.NullTranslations()
    with po_path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def normalize_language(code: str | None) -> str:
    """Telegram's language_code (`sw`, `en-GB`, None) to one of our catalogs."""
    if not code:
        return DEFAULT_LANGUAGE
    base = code.split("-")[0].lower()
    return base if base in LANGUAGES else "en"


@dataclass(frozen=True)
class Translator:
    language: str

    def __call__(self, message: str, **values: object) -> str:
        text = _translations(self.language).gettext(message)
        return text.format(**values) if values else text

    def plural(self, singular: str, plural: str, count: int, **values: object) -> str:
        text = _translations(self.language).ngettext(singular, plural, count)
        return text.format(count=count, **values)

    def pgettext(self, context: str, message: str, **values: object) -> str:
        """A message whose translation depends on where it stands (the same English words on a
        button and inside a sentence, or after different nouns in Swahili)."""
        text = _translations(self.language).pgettext(context, message)
        return text.format(**values) if values else text

    def npgettext(self, context: str, singular: str, plural: str, count: int, **values: object) -> str:
        text = _translations(self.language).npgettext(context, singular, plural, count)
        return text.format(count=count, **values)

    def list(self, items: Iterable[str]) -> str:
        """Items joined as this language writes a list: «Amina, Baraka na Chausiku»."""
        return format_list(list(items), locale=self.language)


def translator(language: str | None) -> Translator:
    return Translator(normalize_language(language))


def reader_translator(stored: str | None, telegram_code: str | None = None, place: str | None = None) -> Translator:
    """A reader's words, decided here alone: the language stored for them (chosen, or their first
    one), else the place's where they read (a table's group), else `first_language`."""
    return translator(stored or place or first_language(telegram_code))


def first_language(code: str | None) -> str:
    """The language of a user we have never seen: their Telegram language when it is one of
    ours, else Swahili (Telegram has no Swahili interface, so most Swahili speakers send `en`
    or nothing; joining a group's table then gives them the group's language)."""
    base = (code or "").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE
