"""A built house rule reads in each reader's own language, rebuilt from the rule's structure;
a typed rule is shown as typed. The builder's buttons and sentence are translated as wholes."""

import pytest

from engine.lopti.house import CONDITIONS, EFFECTS
from handlers.chat.rule_builder import CONDITION_VALUES, Draft, choose, next_step, rule_words
from handlers.i18n import translator
from handlers.presentation.games.house_rules import rule_sentence
from handlers.presentation.games.lopti import RENDERER

SW, EN = translator("sw"), translator("en")
NAMES = {"1": "Amina", "2": "Baraka"}

DRAW_FOR_OTHERS = {
    "when": "after",
    "event": "burn",
    "if": {"burn_cause": "threes"},
    "do": [{"effect": "draw", "who": "others", "n": 2}],
}
# As the engine keeps it: the structure beside the sentence its English-speaking author confirmed.
RECORD = {
    "id": 2,
    "author": "1",
    "round": 1,
    "enforced": True,
    "rule": DRAW_FOR_OTHERS,
    "text": "After a burn by 3s: everyone else draws 2 cards.",
}


def test_a_built_rule_reads_in_swahili_for_a_swahili_table_and_in_english_for_an_english_one():
    view = {"rules": [RECORD], "phase": "play"}
    swahili = RENDERER.rules_lines(view, SW, NAMES)
    english = RENDERER.rules_lines(view, EN, NAMES)
    assert swahili == [
        "Kanuni ya 2, iliyotungwa na Amina (raundi ya 1): Baada ya kuondoa rundo kwa 3 zote nne: "
        "wachezaji wengine wote wanachota karata 2."
    ]
    assert english == ["Rule 2 by Amina (round 1): After a burn by 3s: everyone else draws 2 cards."]
    # On the table a rule is shown broken into two lines that fit a phone, or counted when longer.
    assert RENDERER.centre_lines(view, EN, NAMES)[-2:] == [
        "📜 2. Amina: After a burn by 3s: everyone",
        "else draws 2 cards.",
    ]
    assert RENDERER.centre_lines(view, SW, NAMES)[-1] == "📜 Kanuni maalumu 1: ione kwa /rules."


def test_a_new_rule_is_announced_in_the_readers_language():
    event = {"kind": "rule_authored", "player": "1", "rule": RECORD}
    assert RENDERER.event_line(event, SW, NAMES) == (
        "📜 Kanuni mpya ya Amina: Baada ya kuondoa rundo kwa 3 zote nne: wachezaji wengine wote wanachota karata 2."
    )


def test_a_typed_rule_stays_as_typed_and_escaped():
    typed = {"id": 1, "author": "2", "round": 1, "enforced": False, "rule": None, "text": "Sema <jambo> & cheza"}
    assert RENDERER.rules_lines({"rules": [typed]}, EN, NAMES) == [
        "Rule 1 by Baraka (round 1): Sema &lt;jambo&gt; &amp; cheza"
    ]


def test_everyone_else_has_whole_plural_sentences():
    reveal = {**DRAW_FOR_OTHERS, "do": [{"effect": "reveal", "who": "others"}]}
    assert rule_sentence(reveal, SW).endswith(": wachezaji wengine wote wanaonyesha karata zao mezani.")
    one = {**DRAW_FOR_OTHERS, "do": [{"effect": "draw", "who": "others", "n": 1}]}
    assert rule_sentence(one, EN) == "After a burn by 3s: everyone else draws 1 card."


def test_a_single_player_keeps_the_singular_sentence():
    rule = {"when": "before", "event": "out", "if": {}, "do": [{"effect": "reveal", "who": "next"}]}
    assert rule_sentence(rule, SW) == "Kabla ya mchezaji kutoka: mchezaji anayefuata anaonyesha karata zake mezani."


def test_a_restored_rule_is_offered_in_the_readers_language():
    change = {"restore": [{"author": "1", "rule": {**DRAW_FOR_OTHERS, "text": RECORD["text"]}}]}
    assert "kuondoa rundo kwa 3 zote nne" in RENDERER.change_text(change, SW)


def build(*answers):
    """A draft built by the answers' button values, as the builder's steps offer them."""
    draft = Draft()
    for answer in answers:
        step = next_step(draft, EN)
        assert answer in [value for _label, value in step.choices], (answer, step.question)
        choose(draft, answer)
    return draft


def test_the_builder_buttons_have_their_own_words_and_the_sentence_its_own():
    assert [label for label, _value in next_step(Draft(), SW).choices] == ["Kabla ya tukio", "Baada ya tukio"]
    draft = build("after", "play")
    assert rule_words(draft, SW) == "Baada ya kucheza …"
    labels = [label for label, _value in next_step(draft, SW).choices]
    assert "Ikiwa ni 7" in labels and "Karata 2 au zaidi" in labels
    draft = build("after", "play", ("ranks", "7"), ("effect", "draw"), "next", 2, ("done", None))
    assert rule_words(draft, SW) == "Baada ya kucheza 7: mchezaji anayefuata anachota karata 2."
    assert rule_words(draft, EN) == "After a play of 7s: the next player draws 2 cards."


@pytest.mark.parametrize("event", list(CONDITIONS))
def test_every_event_and_condition_the_builder_offers_has_a_whole_swahili_phrase(event):
    conditions = [None] + [(key, value) for key in CONDITIONS[event] for value in CONDITION_VALUES[key]]
    for condition in conditions:
        for when in ("before", "after"):
            draft = build(when, event, condition)
            for name, fields in EFFECTS.items():
                rule = {**draft.structure(), "do": [{"effect": name, **example(fields)}]}
                swahili, english = rule_sentence(rule, SW), rule_sentence(rule, EN)
                assert swahili and english and swahili != english, (rule, swahili)
                assert not english_words(swahili), swahili


def example(fields):
    values = {"who": "next", "to": "previous", "n": 2}
    return {key: values[key] for key in fields}


def english_words(text):
    padded = f" {text} "
    return {word for word in (" the ", " of ", " a ", " with ", " draws ", " by ") if word in padded}
