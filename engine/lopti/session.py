"""The session's house rules (L19-L20): the round winner's text rule, no rule, and deletion by the author.

A rule is stored as {"id", "author", "text", "rule", "round", "active"}: `rule` holds the
structured template (section 8, normalized by `engine.lopti.house.normalize`), None for a
text-only table rule (shown, never applied). Deleted or voted-out rules stay in the list with
`active` false (L20.9: they may only return by a later vote, an `amend` proposal).
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Event
from engine.lopti import house
from engine.lopti.state import LoptiState, _fresh

MAX_RULE_TEXT = 280
TEMPLATE_KEYS = ("when", "event", "if", "do")

Problem = tuple[str, str] | None


def rule_problem(rule: dict[str, Any], mode: str) -> Problem:
    """Why the winner's rule cannot be accepted under the table's `house_rules` mode (None: fine)."""
    if mode == "off":
        return ("house_rules_off", "This table plays without house rules.")
    if any(key in rule for key in TEMPLATE_KEYS):
        if mode == "text":
            return ("templates_off", "This table takes text rules only: give the rule as text.")
        problem = house.template_problem(rule)
        if problem:
            return problem
        if "text" not in rule:
            return None
        return _text_problem(rule)
    if mode == "templates":
        return ("text_rules_off", "This table takes only rules the bot enforces.")
    return _text_problem(rule)


def _text_problem(rule: dict[str, Any]) -> Problem:
    text = rule.get("text")
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        return ("rule_empty", "Write the rule (1 to 280 characters), or give no rule.")
    if len(text) > MAX_RULE_TEXT:
        return ("rule_too_long", f"A rule has at most {MAX_RULE_TEXT} characters; shorten it.")
    return None


def stored_form(rule: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """(text, structured rule or None) of an accepted rule."""
    text = rule.get("text")
    text = text.strip() if isinstance(text, str) else ""
    structured = house.normalize(rule) if any(key in rule for key in TEMPLATE_KEYS) else None
    return text, structured


def removed_problem(state: LoptiState, rule: dict[str, Any]) -> Problem:
    """L20.9: a removed rule cannot come back this session except by a later Rule Vote."""
    text, structured = stored_form(rule)
    for record in state.rules:
        if not record["active"] and record["rule"] == structured and (structured is not None or record["text"] == text):
            return (
                "rule_removed",
                f"That is rule {record['id']}, which was removed this session; only a "
                "Rule Vote (amend) can bring it back.",
            )
    return None


def add_rule(state: LoptiState, seat: int, rule: dict[str, Any], events: list[Event]) -> None:
    text, structured = stored_form(rule)
    record = {
        "id": state.next_rule_id,
        "author": state.players[seat],
        "text": text,
        "rule": structured,
        "round": state.round,
        "active": True,
    }
    state.rules = state.rules + [record]
    state.next_rule_id += 1
    state.rebuild_hooks()
    events.append(Event("rule_authored", {"player": record["author"], "rule": public_rule(record)}))


def delete_problem(state: LoptiState, player: str, rule_id: int) -> Problem:
    for record in state.rules:
        if record["id"] == rule_id and record["active"]:
            if record["author"] != player:
                return ("not_rule_author", "Only the rule's author may delete it; others may propose a Rule Vote.")
            return None
    return ("no_such_rule", f"There is no rule {rule_id} in force.")


def delete_rule(state: LoptiState, player: str, rule_id: int, events: list[Event]) -> None:
    state.rules = [
        {**record, "active": False, "deleted_round": state.round} if record["id"] == rule_id else record
        for record in state.rules
    ]
    state.rebuild_hooks()
    events.append(Event("rule_deleted", {"player": player, "rule": rule_id}))


def active_rules(state: LoptiState) -> list[dict[str, Any]]:
    return [public_rule(record) for record in state.rules if record["active"]]


def public_rule(record: dict[str, Any]) -> dict[str, Any]:
    """A rule as views and events show it: `rule` is the structured form (None for a text-only
    table rule, which the bot shows but never applies); `enforced` says whether the bot applies it."""
    structured = record["rule"]
    return {
        "id": record["id"],
        "author": record["author"],
        "text": record["text"],
        "round": record["round"],
        "rule": _fresh(structured) if structured is not None else None,
        "enforced": structured is not None,
    }
