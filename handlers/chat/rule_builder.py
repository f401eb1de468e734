"""Lopti's house-rule builder: the round's winner composes a rule with buttons, step by step.

The draft lives in the callback data itself (`B:table:version:code`, one character per choice),
so nothing is stored until the rule is confirmed, an old builder message is simply stale, and
"back" is the code minus its last character. The engine checks the finished rule like any
other `author_rule`; the builder only offers choices its tables allow.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update

from engine.lopti import (
    BURN_CAUSES,
    CONDITIONS,
    EFFECTS,
    EVENTS,
    RANKS,
    ROLES,
    ROLES_WITH_OTHERS,
    WHEN,
)
from handlers.chat import telegram_io
from handlers.chat.context import KarataContext, pressed
from handlers.chat.telegram_io import press_request
from handlers.i18n import N_, Translator
from handlers.presentation.callback_data import RuleDraft
from handlers.presentation.games import renderer_for
from handlers.presentation.games.house_rules import (
    BUTTON,
    CONDITION_BUTTONS,
    EVENT_BUTTONS,
    ROLE_BUTTONS,
    WHEN_BUTTONS,
    rule_sentence,
    shown_rule,
)
from handlers.presentation.refusals import outcome_text
from handlers.presentation.render.common import rows
from handlers.presentation.render.seat import player_view
from tables.models import Loaded, Outcome

DIGITS = string.digits + string.ascii_lowercase
AMEND_HEAD = re.compile(r"a([0-9]{1,6})\.")
MAX_EFFECTS = 3

CONDITION_VALUES: dict[str, tuple[Any, ...]] = {
    "ranks": RANKS,
    "min_cards": (2, 3, 4),
    "min_pile": (5, 10, 20),
    "burn_cause": BURN_CAUSES,
    "legal": (True, False),
}


@dataclass
class Draft:
    when: str | None = None
    event: str | None = None
    condition: dict[str, Any] | None = None
    effects: list[dict[str, Any]] = field(default_factory=list)
    current: dict[str, Any] | None = None
    done: bool = False

    def structure(self) -> dict[str, Any]:
        """The rule as far as it is built, in the engine's shape."""
        return {"when": self.when, "event": self.event, "if": self.condition or {}, "do": self.effects}

    def rule(self, text: str) -> dict[str, Any]:
        return {**self.structure(), "text": text}


@dataclass
class Step:
    question: str
    choices: list[tuple[str, Any]]


def condition_button(key: str, value: Any, _: Translator) -> str:
    if key == "ranks":
        return _.pgettext(BUTTON, CONDITION_BUTTONS[key], rank=value)
    if key in ("min_cards", "min_pile"):
        return _.pgettext(BUTTON, CONDITION_BUTTONS[key], count=value)
    if key == "legal":
        return _.pgettext(BUTTON, CONDITION_BUTTONS[bool(value)])
    return _.pgettext(BUTTON, CONDITION_BUTTONS[value])


def rule_words(draft: Draft, _: Translator) -> str:
    """The rule in the author's words, as far as it is built (the builder only makes rules the
    words cover)."""
    return rule_sentence(draft.structure(), _) or ""


def _allowed_effects(draft: Draft) -> list[str]:
    names = []
    for name in EFFECTS:
        if name == "return_burned" and (draft.event != "burn" or draft.when != "after"):
            continue
        if name == "burn" and (draft.event != "play" or not draft.condition):
            continue
        names.append(name)
    return names


def next_step(draft: Draft, _: Translator) -> Step | None:
    """What to ask next (None: the rule is finished and waits for confirmation)."""
    if draft.when is None:
        return Step(_("When does your rule act?"), [(_.pgettext(BUTTON, WHEN_BUTTONS[when]), when) for when in WHEN])
    if draft.event is None:
        return Step(_("On which event?"), [(_.pgettext(BUTTON, EVENT_BUTTONS[event]), event) for event in EVENTS])
    if draft.condition is None:
        choices: list[tuple[str, Any]] = [(_("Always"), None)]
        for key in CONDITIONS[draft.event]:
            choices += [(condition_button(key, value, _), (key, value)) for value in CONDITION_VALUES[key]]
        return Step(_("Only when…?"), choices)
    if draft.current is not None:
        effect = draft.current
        fields = EFFECTS[effect["effect"]]
        for key, kind in fields.items():
            if key in effect:
                continue
            if kind.startswith("role"):
                roles = ROLES_WITH_OTHERS if kind == "role+" else ROLES
                roles = [role for role in roles if not (key == "to" and role == effect.get("who"))]
                question = _("Who?") if key == "who" else _("To whom?")
                return Step(question, [(_.pgettext(BUTTON, ROLE_BUTTONS[role]), role) for role in roles])
            low, high = (int(part) for part in kind.split("-"))
            return Step(_("How many cards?"), [(str(n), n) for n in range(low, high + 1)])
    if draft.done:
        return None
    effect_choices = [(effect_label(name, _), ("effect", name)) for name in _allowed_effects(draft)]
    if not draft.effects:
        return Step(_("What happens?"), effect_choices)
    more = effect_choices if len(draft.effects) < MAX_EFFECTS else []
    return Step(_("Anything else?"), [("✔ " + _("That's all"), ("done", None)), *more])


EFFECT_LABELS = {
    "draw": N_("Draw cards"),
    "give": N_("Give cards"),
    "skip": N_("Miss a turn"),
    "reverse": N_("Reverse direction"),
    "reveal": N_("Show a hand"),
    "return_burned": N_("Burned cards back"),
    "burn": N_("Burn the pile"),
}


def effect_label(name: str, _: Translator) -> str:
    return _(EFFECT_LABELS[name])


def choose(draft: Draft, value: Any) -> None:
    """Apply one choice of the current step to the draft."""
    if draft.when is None:
        draft.when = value
    elif draft.event is None:
        draft.event = value
    elif draft.condition is None:
        if value is None:
            draft.condition = {}
        else:
            key, choice = value
            draft.condition = {key: [choice] if key == "ranks" else choice}
    elif draft.current is not None:
        fields = EFFECTS[draft.current["effect"]]
        key = next(key for key in fields if key not in draft.current)
        draft.current[key] = value
    elif value[0] == "done":
        draft.done = True
    else:
        draft.current = {"effect": value[1]}
    if draft.current is not None and all(key in draft.current for key in EFFECTS[draft.current["effect"]]):
        draft.effects.append(draft.current)
        draft.current = None


def replay(code: str, _: Translator) -> Draft | None:
    """The draft a code stands for, or None if the code is not a path of the builder."""
    draft = Draft()
    for char in code:
        step = next_step(draft, _)
        index = DIGITS.find(char)
        if step is None or not 0 <= index < len(step.choices):
            return None
        choose(draft, step.choices[index][1])
    return draft


def steps_of(rule: Mapping[str, Any] | None, _: Translator) -> str:
    """The choices that build `rule` again (its code), as far as the builder can make it: an
    amendment starts from the rule as it stands, to be changed by stepping back."""
    if not rule or not rule.get("event"):
        return ""
    condition = dict(rule.get("if") or {})
    if len(condition) > 1:
        wanted_condition: Any = object()  # no single button makes it: stop there
    elif condition:
        [(key, value)] = condition.items()
        wanted_condition = (key, value[0] if key == "ranks" and len(value) == 1 else value)
    else:
        wanted_condition = None
    wanted: list[Any] = [rule.get("when", "after"), rule["event"], wanted_condition]
    for effect in rule.get("do") or []:
        wanted.append(("effect", effect.get("effect")))
        wanted += [effect.get(key) for key in EFFECTS.get(effect.get("effect"), {})]
    wanted.append(("done", None))
    draft = Draft()
    code = ""
    for value in wanted:
        step = next_step(draft, _)
        index = (
            next((index for index, (_label, choice) in enumerate(step.choices) if choice == value), None)
            if step
            else None
        )
        if index is None:
            break
        choose(draft, step.choices[index][1])
        code += DIGITS[index]
    return code


@dataclass(frozen=True)
class DraftCode:
    """A builder button's code: `amend` is the rule being amended (None: the round's new rule),
    `path` one character per choice, `confirm` "" for a step, "!" to confirm (an amendment: to
    vote on it now), ">" to vote on an amendment from the next round."""

    amend: int | None
    path: str
    confirm: str = ""

    @classmethod
    def parse(cls, code: str) -> DraftCode:
        amend = None
        head = AMEND_HEAD.match(code)
        if head:
            amend = int(head.group(1))
            code = code[head.end() :]
        confirm = code[-1] if code[-1:] in ("!", ">") else ""
        return cls(amend, code.removesuffix(confirm), confirm)

    def text(self, path: str | None = None, confirm: str = "") -> str:
        head = f"a{self.amend}." if self.amend is not None else ""
        return head + (self.path if path is None else path) + confirm


def builder_message(
    table_id: int, version: int, code: str, _: Translator, amended: Mapping[str, Any] | None = None
) -> tuple[str, InlineKeyboardMarkup] | None:
    """The builder at `code`: the rule in words as far as it is built, then the next question
    (or the confirmation). `amended` is the rule record an amendment changes."""
    parsed = DraftCode.parse(code)
    draft = replay(parsed.path, _)
    if draft is None:
        return None
    step = next_step(draft, _)

    def button(label: str, path: str, confirm: str = "") -> InlineKeyboardButton:
        return InlineKeyboardButton(
            label, callback_data=RuleDraft(table_id, version, parsed.text(path, confirm)).encode()
        )

    if parsed.amend is None:
        lines = ["🧩 <b>" + _("Your house rule") + "</b>", escape(rule_words(draft, _)) or "…", ""]
    else:
        lines = ["✏️ <b>" + _("A change to rule {number}", number=parsed.amend) + "</b>"]
        if amended is not None:
            lines.append(_("The rule now: {text}", text=shown_rule(amended.get("rule"), amended.get("text"), _)))
        lines += [_("Your change: {text}", text=escape(rule_words(draft, _)) or "…"), ""]
    buttons: list[InlineKeyboardButton] = []
    if step is None and parsed.amend is None:
        lines.append(_("Confirm to make it a rule for the rest of the session."))
        buttons.append(button("✔ " + _("Confirm"), parsed.path, "!"))
    elif step is None:
        lines.append(_("Press ↩ Back to change the last choices, or put the changed rule to the vote: from when?"))
        buttons += [button("🗳 " + _("Now"), parsed.path, "!"), button("🗳 " + _("Next round"), parsed.path, ">")]
    else:
        lines.append("<b>" + step.question + "</b>")
        buttons += [button(label, parsed.path + DIGITS[index]) for index, (label, _value) in enumerate(step.choices)]
    keyboard = rows(buttons, 2 if step is None or len(step.choices) < 9 else 3)
    if parsed.path:
        keyboard.append([button("↩ " + _("Back"), parsed.path[:-1])])
    return "\n".join(lines), InlineKeyboardMarkup(keyboard)


def amendment_message(table_id: int, rule: Mapping[str, Any], _: Translator) -> tuple[str, InlineKeyboardMarkup] | None:
    """The builder opened on a rule in force, built as it stands."""
    code = DraftCode(rule["id"], steps_of(rule.get("rule"), _)).text()
    return builder_message(table_id, 0, code, _, rule)


async def open_amendment(bot: Bot, table_id: int, user_id: int, rule: Mapping[str, Any], _: Translator) -> None:
    """Send the builder, opened on `rule`, to the player's private chat (the builder lives there,
    whichever door the player pressed ✏️ in)."""
    screen = amendment_message(table_id, rule, _)
    if screen is not None:
        await telegram_io.send(bot, user_id, *screen)


async def press_draft(update: Update, context: KarataContext) -> None:
    """A builder button: show the next step, go back, or submit the finished rule (or the
    amendment, to the vote)."""
    query, data, chat, user, _message, _ = await pressed(update, context, RuleDraft.parse)
    karata = context.karata
    player = str(user.id)
    parsed = DraftCode.parse(data.code)
    lopti = renderer_for("lopti")

    def choose(loaded: Loaded) -> dict[str, Any] | Outcome:
        view = player_view(loaded.table, loaded.game, loaded.state, player)
        if parsed.amend is None and view.get("awaiting_rule") != player:
            # Only the round's winner was shown the builder: their time is over, or their rule is in.
            return Outcome.refused("authoring_over", table=loaded.table)
        amended = None
        if parsed.amend is not None:
            refusal = lopti.proposal_refusal(view, player)
            if refusal:
                return Outcome.refused(refusal, table=loaded.table)
            amended = next((rule for rule in view.get("rules") or [] if rule["id"] == parsed.amend), None)
            if amended is None:
                return Outcome.refused("no_such_rule", table=loaded.table)
        draft = replay(parsed.path, _)
        if draft is None or (parsed.confirm and next_step(draft, _) is not None):
            return Outcome.refused("unknown_button", table=loaded.table)
        if not parsed.confirm:
            # One more step: nothing is applied yet; the builder is drawn from this table.
            return Outcome(True, table=loaded.table, values={"amended": amended})
        rule = draft.rule(rule_words(draft, _))
        if parsed.amend is None:
            return {"type": "author_rule", "rule": rule}
        starts = "now" if parsed.confirm == "!" else "next_round"
        return {"type": "propose", "change": {"amend": parsed.amend, "rule": rule}, "starts": starts}

    outcome = await karata.service.play.act_with(data.table_id, player, choose, press_request(update))
    if not outcome.ok:
        await telegram_io.answer(query, outcome_text(outcome, _, lopti.refusal_texts), alert=bool(parsed.confirm))
        return
    if parsed.amend is not None:
        # An amendment's builder is a message of its own (the hand goes on changing with every
        # move), edited in answer to each press.
        if parsed.confirm:
            await telegram_io.answer(query, _("Your proposal is up: vote in the group's poll."))
            await telegram_io.edit(query, "✏️ " + _("Your proposal is up: vote in the group's poll."))
            return
        amended = outcome.values.get("amended")
        if amended is not None:
            screen = builder_message(data.table_id, 0, data.code, _, amended)
            if screen is not None:
                await telegram_io.edit(query, *screen)
        await telegram_io.answer(query)
        return
    if parsed.confirm:
        await telegram_io.answer(query, _("Your rule is in force from the next round."))
        return
    version = outcome.table.version if outcome.table is not None else data.version
    karata.publisher.open_panel(
        data.table_id, user.id, version, lambda reader: builder_message(data.table_id, version, data.code, reader)
    )
    await telegram_io.answer(query)
