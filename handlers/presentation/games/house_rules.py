"""Lopti's built house rules in words, for each reader from the rule's structure.

A built rule is stored as its structure ({"when", "event", "if", "do"}) beside the sentence the
author read when confirming it; every other reader gets the sentence rebuilt in their own
language from the structure. A typed rule has no structure and is shown as typed.

The sentence is made of whole phrases, never of single words: each event comes with its
condition in one message (so Swahili can make «of» agree with the event's noun), and "everyone
else" has its own effect messages (a plural subject). Phrases in the sentence have the context
"rule sentence"; the same English words on the builder's buttons have the context "rule button",
so that a button can read «Kabla» while the sentence reads «Kabla ya».
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from babel.lists import format_list

from handlers.i18n import Translator, pN_

# A proposal to amend a rule is made in the rule builder: this choice opens it (the one door for
# moves, handlers/moves.py, sees to that), it is never an engine action.
AMEND = "amend_rule"
SENTENCE = "rule sentence"
BUTTON = "rule button"

# (event, condition) -> the event with its condition, as it follows «Before» / «After».
# The condition is the key of the rule's one "if" entry, the cause of a burn, or the value of
# "legal"; None is an event without a condition.
EVENT_PHRASES: dict[tuple[str, Any], str] = {
    # TRANSLATORS: house-rule sentence, after «Before»/«After» («Kabla ya»/«Baada ya»): a noun or infinitive.
    ("play", None): pN_("rule sentence", "a play"),
    # TRANSLATORS: after «Before»/«After»; {rank}: a rank (2-10, J, Q, K, A), or several joined with «or».
    ("play", "ranks"): pN_("rule sentence", "a play of {rank}s"),
    # TRANSLATORS: after «Before»/«After»; a play of {count} or more cards at once.
    ("play", "min_cards"): pN_("rule sentence", "a play of at least {count} cards"),
    # TRANSLATORS: after «Before»/«After»; a play while the pile holds {count} or more cards.
    ("play", "min_pile"): pN_("rule sentence", "a play with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: the pile is burned (removed from the game).
    ("burn", None): pN_("rule sentence", "a burn"),
    # TRANSLATORS: after «Before»/«After»; a burn made with cards of this rank.
    ("burn", "ranks"): pN_("rule sentence", "a burn of {rank}s"),
    # TRANSLATORS: after «Before»/«After»; a burn made by a play of {count} or more cards.
    ("burn", "min_cards"): pN_("rule sentence", "a burn of at least {count} cards"),
    # TRANSLATORS: after «Before»/«After»; a burn caused by a 10.
    ("burn", "ten"): pN_("rule sentence", "a burn by a 10"),
    # TRANSLATORS: after «Before»/«After»; a burn caused by completing four cards of one rank.
    ("burn", "four"): pN_("rule sentence", "a burn by four of a kind"),
    # TRANSLATORS: after «Before»/«After»; a burn caused by chaining all four 3s.
    ("burn", "threes"): pN_("rule sentence", "a burn by 3s"),
    # TRANSLATORS: after «Before»/«After»; a burn caused by completing all four 7s.
    ("burn", "sevens"): pN_("rule sentence", "a burn by 7s"),
    # TRANSLATORS: after «Before»/«After»; a burn caused by another house rule.
    ("burn", "rule"): pN_("rule sentence", "a burn by a house rule"),
    # TRANSLATORS: after «Before»/«After»; a burn of a pile of {count} or more cards.
    ("burn", "min_pile"): pN_("rule sentence", "a burn with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: a player takes the pile into their hand.
    ("take", None): pN_("rule sentence", "taking the pile"),
    # TRANSLATORS: after «Before»/«After»; taking a pile of {count} or more cards.
    ("take", "min_pile"): pN_("rule sentence", "taking the pile with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: a player turns up one of their face-down cards.
    ("flip", None): pN_("rule sentence", "a face-down flip"),
    # TRANSLATORS: after «Before»/«After»; the flipped card has this rank.
    ("flip", "ranks"): pN_("rule sentence", "a face-down flip of {rank}s"),
    # TRANSLATORS: after «Before»/«After»; the flipped card may be played.
    ("flip", True): pN_("rule sentence", "a face-down flip that is legal"),
    # TRANSLATORS: after «Before»/«After»; the flipped card may not be played (so the pile is taken).
    ("flip", False): pN_("rule sentence", "a face-down flip that is not legal"),
    # TRANSLATORS: after «Before»/«After»; a flip while the pile holds {count} or more cards.
    ("flip", "min_pile"): pN_("rule sentence", "a face-down flip with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: a player takes their face-up cards into their hand.
    ("face_up_taken", None): pN_("rule sentence", "picking up the face-up cards"),
    # TRANSLATORS: after «Before»/«After»: a player passes the 3-obligation on («kusogeza wajibu wa 3»).
    ("obligation_passed", None): pN_("rule sentence", "passing on a 3"),
    # TRANSLATORS: after «Before»/«After»; passing the 3-obligation on with {count} or more 3s.
    ("obligation_passed", "min_cards"): pN_("rule sentence", "passing on a 3 of at least {count} cards"),
    # TRANSLATORS: after «Before»/«After»; passing the 3-obligation on, the pile holding {count}+ cards.
    ("obligation_passed", "min_pile"): pN_("rule sentence", "passing on a 3 with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: the moment a player's turn begins.
    ("turn_start", None): pN_("rule sentence", "the start of a turn"),
    # TRANSLATORS: after «Before»/«After»; a turn begins while the pile holds {count} or more cards.
    ("turn_start", "min_pile"): pN_("rule sentence", "the start of a turn with at least {count} cards in the pile"),
    # TRANSLATORS: after «Before»/«After»: a player goes out (has no cards left).
    ("out", None): pN_("rule sentence", "a player going out"),
}

# Roles as the subject or receiver of an effect in the sentence («{who} draws…», «… to {to}»).
# "others" is never one: its effects are whole messages of their own (a plural subject).
ROLE_PHRASES = {
    # TRANSLATORS: house-rule sentence, subject {who} or receiver {to} of an effect: whose move it was.
    "actor": pN_("rule sentence", "the player"),
    # TRANSLATORS: house-rule sentence, the subject {who} or receiver {to} of an effect.
    "next": pN_("rule sentence", "the next player"),
    # TRANSLATORS: house-rule sentence, the subject {who} or receiver {to} of an effect.
    "previous": pN_("rule sentence", "the previous player"),
    # TRANSLATORS: house-rule sentence, the subject {who} or receiver {to} of an effect.
    "most_cards": pN_("rule sentence", "the player with most cards"),
    # TRANSLATORS: house-rule sentence, the subject {who} or receiver {to} of an effect.
    "fewest_cards": pN_("rule sentence", "the player with fewest cards"),
}

# The builder's buttons.
WHEN_BUTTONS = {
    # TRANSLATORS: a builder button answering «When does your rule act?» (a button, not «Kabla ya»).
    "before": pN_("rule button", "Before"),
    # TRANSLATORS: a builder button answering «When does your rule act?» (a button, not «Baada ya»).
    "after": pN_("rule button", "After"),
}
EVENT_BUTTONS = {
    # TRANSLATORS: a builder button answering «On which event?».
    "play": pN_("rule button", "a play"),
    # TRANSLATORS: a builder button answering «On which event?».
    "burn": pN_("rule button", "a burn"),
    # TRANSLATORS: a builder button answering «On which event?».
    "take": pN_("rule button", "taking the pile"),
    # TRANSLATORS: a builder button answering «On which event?».
    "flip": pN_("rule button", "a face-down flip"),
    # TRANSLATORS: a builder button answering «On which event?».
    "face_up_taken": pN_("rule button", "picking up the face-up cards"),
    # TRANSLATORS: a builder button answering «On which event?».
    "obligation_passed": pN_("rule button", "passing on a 3"),
    # TRANSLATORS: a builder button answering «On which event?».
    "turn_start": pN_("rule button", "the start of a turn"),
    # TRANSLATORS: a builder button answering «On which event?».
    "out": pN_("rule button", "a player going out"),
}
CONDITION_BUTTONS = {
    # TRANSLATORS: a builder button answering «Only when…?»; {rank}: 2-10, J, Q, K or A.
    "ranks": pN_("rule button", "of {rank}s"),
    # TRANSLATORS: a builder button answering «Only when…?»: the play has {count} or more cards.
    "min_cards": pN_("rule button", "of at least {count} cards"),
    # TRANSLATORS: a builder button answering «Only when…?»: the pile holds {count} or more cards.
    "min_pile": pN_("rule button", "with at least {count} cards in the pile"),
    # TRANSLATORS: a builder button answering «Only when…?»: the flipped card may be played.
    True: pN_("rule button", "that is legal"),
    # TRANSLATORS: a builder button answering «Only when…?»: the flipped card may not be played.
    False: pN_("rule button", "that is not legal"),
    # TRANSLATORS: a builder button answering «Only when…?» for a burn: what burned the pile.
    "ten": pN_("rule button", "by a 10"),
    # TRANSLATORS: a builder button answering «Only when…?» for a burn: four cards of one rank.
    "four": pN_("rule button", "by four of a kind"),
    # TRANSLATORS: a builder button answering «Only when…?» for a burn: all four 3s chained.
    "threes": pN_("rule button", "by 3s"),
    # TRANSLATORS: a builder button answering «Only when…?» for a burn: all four 7s.
    "sevens": pN_("rule button", "by 7s"),
    # TRANSLATORS: a builder button answering «Only when…?» for a burn: another house rule burned it.
    "rule": pN_("rule button", "by a house rule"),
}
ROLE_BUTTONS = {
    # TRANSLATORS: a builder button answering «Who?» or «To whom?»: the player whose move it was.
    "actor": pN_("rule button", "the player"),
    # TRANSLATORS: a builder button answering «Who?» or «To whom?».
    "next": pN_("rule button", "the next player"),
    # TRANSLATORS: a builder button answering «Who?» or «To whom?».
    "previous": pN_("rule button", "the previous player"),
    # TRANSLATORS: a builder button answering «Who?»: all the other players.
    "others": pN_("rule button", "everyone else"),
    # TRANSLATORS: a builder button answering «Who?» or «To whom?».
    "most_cards": pN_("rule button", "the player with most cards"),
    # TRANSLATORS: a builder button answering «Who?» or «To whom?».
    "fewest_cards": pN_("rule button", "the player with fewest cards"),
}


def event_phrase(event: str, condition: Mapping[str, Any], _: Translator) -> str | None:
    """The event with its condition, as it follows «Before» / «After» (None: not one the words cover)."""
    if not condition:
        return _.pgettext(SENTENCE, EVENT_PHRASES[(event, None)])
    if len(condition) > 1:
        return None
    key, value = next(iter(condition.items()))
    if key == "ranks":
        ranks = [str(rank) for rank in value]
        rank = ranks[0] if len(ranks) == 1 else format_list(ranks, style="or", locale=_.language)
        phrase, values = EVENT_PHRASES.get((event, key)), {"rank": rank}
    elif key == "burn_cause":
        phrase, values = EVENT_PHRASES.get((event, value)), {}
    elif key == "legal":
        phrase, values = EVENT_PHRASES.get((event, bool(value))), {}
    else:
        phrase, values = EVENT_PHRASES.get((event, key)), {"count": value}
    return _.pgettext(SENTENCE, phrase, **values) if phrase else None


def effect_words(effect: Mapping[str, Any], _: Translator) -> str:
    """One effect as a clause of its own; the sentence joins them with "; " after the colon."""
    name, role = effect["effect"], effect.get("who")
    if role == "others":
        # "everyone else" takes a plural verb and possessive in Swahili: whole messages of its own.
        if name == "draw":
            # TRANSLATORS: a house rule's effect, after «Before/After …:»; all the other players draw.
            return _.plural("everyone else draws {count} card", "everyone else draws {count} cards", effect["n"])
        if name == "reveal":
            # TRANSLATORS: a house rule's effect, after «Before/After …:»; all the other players show their hands.
            return _("everyone else shows their hand to the table")
    who = _.pgettext(SENTENCE, ROLE_PHRASES[role]) if role in ROLE_PHRASES else ""
    if name == "draw":
        # TRANSLATORS: a house rule's effect, after «Before/After …:»; {who}: one player (singular verb).
        return _.plural("{who} draws {count} card", "{who} draws {count} cards", effect["n"], who=who)
    if name == "give":
        to = ROLE_PHRASES[effect["to"]]  # (a string literal inside the call would be extracted as a msgid)
        receiver = _.pgettext(SENTENCE, to)
        # TRANSLATORS: a house rule's effect, after «Before/After …:»; {who} and {to}: one player each.
        return _.plural(
            "{who} gives their lowest card to {to}",
            "{who} gives their {count} lowest cards to {to}",
            effect["n"],
            who=who,
            to=receiver,
        )
    if name == "skip":
        # TRANSLATORS: a house rule's effect, after «Before/After …:»; {who}: one player; their next turn.
        return _("{who} misses a turn", who=who)
    if name == "reverse":
        # TRANSLATORS: a house rule's effect, after «Before/After …:».
        return _("play changes direction")
    if name == "reveal":
        # TRANSLATORS: a house rule's effect, after «Before/After …:»; {who}: one player (singular possessive).
        return _("{who} shows their hand to the table", who=who)
    if name == "return_burned":
        # TRANSLATORS: a house rule's effect, after «After a burn:»; the burned cards are shuffled into the stock.
        return _("the burned cards go back into the stock")
    # TRANSLATORS: a house rule's effect, after «Before/After a play …:»; the pile is burned.
    return _("the pile burns")


def rule_sentence(rule: Mapping[str, Any], _: Translator) -> str | None:
    """A structured rule in the reader's words, as far as it is built: "After a play: the next
    player draws 1 card." (None: a structure the words do not cover, e.g. two conditions)."""
    when = rule.get("when")
    if when is None:
        return ""
    event = rule.get("event")
    effects = [effect_words(effect, _) for effect in rule.get("do") or []]
    # The contexts below are written out: the extractor reads only literal strings.
    if event is None:
        if when == "before":
            # TRANSLATORS: a house rule being built: only «Before» is chosen so far.
            return _.pgettext("rule sentence", "Before …")
        # TRANSLATORS: a house rule being built: only «After» is chosen so far.
        return _.pgettext("rule sentence", "After …")
    phrase = event_phrase(event, rule.get("if") or {}, _)
    if phrase is None:
        return None
    if not effects:
        if when == "before":
            # TRANSLATORS: a house rule being built; {event}: an event with its condition.
            return _.pgettext("rule sentence", "Before {event} …", event=phrase)
        # TRANSLATORS: a house rule being built; {event}: an event with its condition.
        return _.pgettext("rule sentence", "After {event} …", event=phrase)
    done = "; ".join(effects)
    if when == "before":
        # TRANSLATORS: a whole house rule; {event}: an event with its condition; {effects}: clauses joined by "; ".
        return _.pgettext("rule sentence", "Before {event}: {effects}.", event=phrase, effects=done)
    # TRANSLATORS: a whole house rule; {event}: an event with its condition; {effects}: clauses joined by "; ".
    return _.pgettext("rule sentence", "After {event}: {effects}.", event=phrase, effects=done)


def shown_rule(structure: Mapping[str, Any] | None, text: str | None, _: Translator, html: bool = True) -> str:
    """A house rule as this reader sees it: a built rule from its structure in the reader's
    language, a typed rule (or one the words cannot cover) as written. HTML-escaped for a
    message; as it is (`html` False) for plain text, a poll or a button."""
    shown = text or ""
    if structure and structure.get("event"):
        shown = rule_sentence(structure, _) or shown
    return escape(shown) if html else shown
