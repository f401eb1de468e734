"""The session's house rules (L19-L20): the round winner's text rule, no rule, and deletion by the author.

A rule is stored as {"id", "author", "text", "rule", "round", "active"}: `rule` holds the
structured template (section 8) once the house-rules issue implements it, None for a text-only
table rule. Deleted rules stay in the list with `active` false (L20.9: they may only return by
a later vote).
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Event
from engine.lopti.state import LoptiState

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
        return ("not_implemented", "Rules the bot enforces are not available yet: give a text rule or no rule.")
    if mode == "templates":
        return ("text_rules_off", "This table takes only rules the bot enforces.")
    text = rule.get("text")
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        return ("rule_empty", "Write the rule (1 to 280 characters), or give no rule.")
    if len(text) > MAX_RULE_TEXT:
        return ("rule_too_long", f"A rule has at most {MAX_RULE_TEXT} characters; shorten it.")
    return None


def add_text_rule(state: LoptiState, seat: int, text: str, events: list[Event]) -> None:
    record = {
        "id": state.next_rule_id,
        "author": state.players[seat],
        "text": text.strip(),
        "rule": None,
        "round": state.round,
        "active": True,
    }
    state.rules = state.rules + [record]
    state.next_rule_id += 1
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
    events.append(Event("rule_deleted", {"player": player, "rule": rule_id}))


def active_rules(state: LoptiState) -> list[dict[str, Any]]:
    return [public_rule(record) for record in state.rules if record["active"]]


def public_rule(record: dict[str, Any]) -> dict[str, Any]:
    return {"id": record["id"], "author": record["author"], "text": record["text"], "round": record["round"]}
