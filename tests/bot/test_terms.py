"""One Swahili word per concept in every game (docs/GLOSSARY.md): words the catalog must not use,
numbers after their nouns, numbered items with «ya», one verb for drawing."""

import re

import pytest

from tests.bot.test_catalog import swahili

# Words the review rejects, and the word to use instead.
NOT_USED = {
    "kanuni za meza": "kanuni maalumu",
    "kanuni ya meza": "kanuni maalumu",
    "kanuni za nyumbani": "kanuni maalumu",
    "gusa": "Bonyeza",
    "bofya": "Bonyeza",
    "chora": "chota",
    "tarumbeta": "turufu",
    "mechi": "mchezo",
    "duru": "raundi",
    "muuzaji": "mgawaji",
    "boti": "ni- (the bot speaks in the first person)",
    "uso juu": "wazi",
    "uso chini": "zilizofunikwa",
    "rundo la hisa": "fungu la kuchota",
    "rundo la kuvuta": "fungu la kuchota (the stock, in every game)",
    "fungu la kutupa": "rundo (the discard pile, in every game)",
    "kusogeza 3": "kusogeza wajibu wa 3",
    "kura sare": "kura imefungana",
}
NOUNS = "karata|pointi|kanuni|raundi|wachezaji|sekunde|dakika|mizunguko|zabuni|kura"


def entries():
    for message in swahili():
        if not message.id or not message.string:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        files = {location.split("/")[-1] for location, _line in message.locations}
        for text in strings:
            yield message, files, text


@pytest.mark.parametrize("word, instead", sorted(NOT_USED.items()))
def test_the_catalog_does_not_use_a_rejected_word(word, instead):
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    found = [text for _message, _files, text in entries() if pattern.search(text)]
    assert not found, f"use «{instead}» instead of «{word}»: {found}"


def test_counts_put_the_noun_first():
    pattern = re.compile(rf"(\{{count\}}|\{{n\}}|\b\d+) ({NOUNS})\b")
    assert not [text for _message, _files, text in entries() if pattern.search(text)]


def test_numbered_items_take_ya():
    # «karata 2» is two cards; card number 2 is «karata ya 2».
    pattern = re.compile(r"\b(karata|kanuni|raundi) \{(number|round)\}")
    assert not [text for _message, _files, text in entries() if pattern.search(text)]


def verbs(text, stem):
    """Words of the verb `stem` (chot-, vut-, tok-) in a text: «amechota», «kuvuta», «ametoka»."""
    return [word for word in re.findall(rf"\w*{stem}[ae]\b", text.lower()) if word not in ("chochote", "chochota")]


def test_every_game_draws_with_chota():
    wrong = []
    for _message, files, text in entries():
        if verbs(text, "vut"):
            wrong.append(text)  # every game draws with «chota» (docs/GLOSSARY.md)
        if files == {"kadi.py"} and verbs(text, "tok"):
            wrong.append(text)  # in Kadi «kutoka» is being eliminated: a finished player «amemaliza»
    assert not wrong, wrong
