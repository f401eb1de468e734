"""House rules the engine enforces (docs/games/rules/lopti.md section 8, LOP-A22, LOP-A24, L19.2-L19.4).

A structured rule is JSON: {"when", "event", "if", "do"} (+ optional "text"). `rule_problem`
checks one before it is accepted and returns a (code, message) reason; `normalize` gives the
canonical form stored in the rule record (`record["rule"]`). `fire` resolves the rules hooked on
one base event at one moment ("before" or "after") for one actor.

Guarantees (by construction):
- effects never trigger house rules (`fire` is only called from base events), so nothing loops;
- no effect prevents or undoes a base event, a burn, an extra play, a win or a vote (effects
  only add cards, move cards, mark skips, reverse direction, reveal or burn);
- an effect on a player who is out (or has no cards left) does nothing;
- rules live in `state.hooks`, rebuilt whenever the rules change, so a rule acts from the next
  action after it was accepted; several rules on one event resolve in the order they were made.
"""

from __future__ import annotations

from typing import Any

from engine.core.fast import event
from engine.core.protocol import Event
from engine.core.rng import shuffled
from engine.lopti.rules import SORT_KEY
from engine.lopti.state import LoptiState
from engine.lopti.table import burn_pile, is_out, next_active

Problem = tuple[str, str] | None

EVENTS = ("play", "burn", "take", "flip", "face_up_taken", "obligation_passed", "turn_start", "out")
WHEN = ("before", "after")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
BURN_CAUSES = ("ten", "four", "threes", "sevens", "rule")
ROLES = ("actor", "next", "previous", "most_cards", "fewest_cards")
ROLES_WITH_OTHERS = ROLES + ("others",)
MAX_RULE_TEXT = 280

# The conditions that make sense on each event (what the event knows).
CONDITIONS: dict[str, tuple[str, ...]] = {
    "play": ("ranks", "min_cards", "min_pile"),
    "burn": ("ranks", "min_cards", "burn_cause", "min_pile"),
    "take": ("min_pile",),
    "flip": ("ranks", "legal", "min_pile"),
    "face_up_taken": (),
    "obligation_passed": ("min_cards", "min_pile"),
    "turn_start": ("min_pile",),
    "out": (),
}
# effect -> its fields and their kinds.
EFFECTS: dict[str, dict[str, str]] = {
    "draw": {"who": "role+", "n": "1-3"},
    "give": {"who": "role", "to": "role", "n": "1-2"},
    "skip": {"who": "role"},
    "reverse": {},
    "reveal": {"who": "role+"},
    "return_burned": {},
    "burn": {},
}


def _bad(code: str, message: str) -> Problem:
    return (code, message)


def template_problem(rule: dict[str, Any]) -> Problem:
    """Why a structured rule is not acceptable (None: fine). Text is checked by the caller."""
    event_name = rule.get("event")
    if event_name not in EVENTS:
        return _bad("unknown_event", f"Unknown event {event_name!r}; choose one of {', '.join(EVENTS)}.")
    when = rule.get("when", "after")
    if when not in WHEN:
        return _bad("bad_when", "'when' is 'before' or 'after'.")
    condition = rule.get("if", {})
    if not isinstance(condition, dict):
        return _bad("bad_condition", "'if' is an object of conditions.")
    for key, value in condition.items():
        if key not in ("ranks", "min_cards", "burn_cause", "min_pile", "legal"):
            return _bad("bad_condition", f"Unknown condition {key!r}.")
        if key not in CONDITIONS[event_name]:
            return _bad("condition_not_allowed", f"The condition {key!r} does not apply to the event {event_name!r}.")
        if key == "ranks":
            if not isinstance(value, list) or not value or any(rank not in RANKS for rank in value):
                return _bad("out_of_bounds", "'ranks' lists one or more ranks 2-10, J, Q, K, A.")
        elif key == "min_cards":
            if type(value) is not int or not 1 <= value <= 4:
                return _bad("out_of_bounds", "'min_cards' is 1 to 4.")
        elif key == "min_pile":
            if type(value) is not int or not 1 <= value <= 52:
                return _bad("out_of_bounds", "'min_pile' is 1 to 52.")
        elif key == "burn_cause":
            if value not in BURN_CAUSES:
                return _bad("out_of_bounds", f"'burn_cause' is one of {', '.join(BURN_CAUSES)}.")
        elif key == "legal" and type(value) is not bool:
            return _bad("out_of_bounds", "'legal' is true or false.")
    effects = rule.get("do")
    if not isinstance(effects, list) or not 1 <= len(effects) <= 3:
        return _bad("bad_effects", "A rule does one to three things ('do').")
    for effect in effects:
        if not isinstance(effect, dict) or effect.get("effect") not in EFFECTS:
            name = effect.get("effect") if isinstance(effect, dict) else effect
            return _bad("unknown_effect", f"Unknown effect {name!r}; choose one of {', '.join(EFFECTS)}.")
        name = effect["effect"]
        fields = EFFECTS[name]
        for key in effect:
            if key != "effect" and key not in fields:
                return _bad("bad_effects", f"The effect {name!r} has no field {key!r}.")
        for key, kind in fields.items():
            value = effect.get(key)
            if kind.startswith("role"):
                roles = ROLES_WITH_OTHERS if kind == "role+" else ROLES
                if value not in roles:
                    return _bad("bad_target", f"'{key}' of {name!r} is a role: {', '.join(roles)} (never a name).")
            else:
                low, high = (int(part) for part in kind.split("-"))
                if type(value) is not int or not low <= value <= high:
                    return _bad("out_of_bounds", f"'{key}' of {name!r} is {low} to {high}.")
        if name == "give" and effect["who"] == effect["to"]:
            return _bad("bad_target", "A player cannot give cards to themselves.")
        if name == "return_burned" and (event_name != "burn" or when != "after"):
            return _bad("effect_not_allowed", "'return_burned' is only allowed after a burn.")
        if name == "burn" and (event_name != "play" or not condition):
            return _bad("effect_not_allowed", "'burn' is only allowed on a play, with a condition ('if').")
    return None


def normalize(rule: dict[str, Any]) -> dict[str, Any]:
    """The canonical stored form of a valid structured rule (no text: it is stored beside it)."""
    return {
        "when": rule.get("when", "after"),
        "event": rule["event"],
        "if": dict(rule.get("if", {})),
        "do": [dict(effect) for effect in rule["do"]],
    }


# ----- resolution -----------------------------------------------------------------------------


def _gone(state: LoptiState, seat: int) -> bool:
    return seat in state.out or is_out(state, seat)


def _card_count(state: LoptiState, seat: int) -> int:
    return len(state.hands[seat]) + len(state.face_up[seat]) + sum(card is not None for card in state.face_down[seat])


def targets(state: LoptiState, role: str, actor: int) -> list[int]:
    """The seats a role names now (out players included; effects skip them)."""
    seats = len(state.players)
    if role == "actor":
        return [actor]
    if role == "next":
        return [next_active(state, actor)]
    if role == "previous":
        return [next_active(state, actor, -1)]
    if role == "others":
        return [(actor + offset) % seats for offset in range(1, seats)]
    # most_cards / fewest_cards: among players still in; ties: first clockwise from the actor.
    order = [(actor + offset) % seats for offset in range(seats)]
    order = [seat for seat in order if not _gone(state, seat)]
    if not order:
        return []
    counts = [_card_count(state, seat) for seat in order]
    best = max(counts) if role == "most_cards" else min(counts)
    return [order[counts.index(best)]]


def matches(condition: dict[str, Any], context: dict[str, Any]) -> bool:
    for key, value in condition.items():
        if key == "ranks":
            if context.get("rank") not in value:
                return False
        elif key == "min_cards":
            if context.get("count", 0) < value:
                return False
        elif key == "min_pile":
            if context.get("pile", 0) < value:
                return False
        elif key == "burn_cause":
            if context.get("cause") != value:
                return False
        elif key == "legal":
            if context.get("legal") is not value:
                return False
    return True


def fire(
    state: LoptiState, when: str, event_name: str, actor: int, context: dict[str, Any], events: list[Event]
) -> bool:
    """Resolve the rules on (`when`, `event_name`) for `actor`; return whether one burned the pile."""
    burned = False
    for record in state.hooks.get(event_name, ()):
        rule = record["rule"]
        if rule["when"] != when or not matches(rule["if"], context):
            continue
        events.append(
            event(
                "rule_fired", {"rule": record["id"], "event": event_name, "when": when, "player": state.players[actor]}
            )
        )
        for effect in rule["do"]:
            if _effect(state, record["id"], effect, actor, context, events):
                burned = True
    return burned


def _effect(
    state: LoptiState, rule_id: int, effect: dict[str, Any], actor: int, context: dict[str, Any], events: list[Event]
) -> bool:
    name = effect["effect"]
    players = state.players
    if name == "draw":
        for seat in targets(state, effect["who"], actor):
            if _gone(state, seat) or not state.stock:
                continue
            drawn = state.stock[: effect["n"]]
            state.stock = state.stock[effect["n"] :]
            state.hands[seat] = state.hands[seat] + drawn
            player = players[seat]
            events.append(
                event("drew", {"player": player, "count": len(drawn), "rule": rule_id}, {player: {"cards": drawn}})
            )
    elif name == "give":
        givers = targets(state, effect["who"], actor)
        takers = targets(state, effect["to"], actor)
        if givers and takers:
            giver, taker = givers[0], takers[0]
            hand = state.hands[giver]
            # A giver keeps at least one hand card (Engine decision: an effect never empties a hand).
            count = min(effect["n"], len(hand) - 1)
            if giver != taker and count > 0 and not _gone(state, giver) and not _gone(state, taker):
                given = sorted(hand, key=SORT_KEY.__getitem__)[:count]
                state.hands[giver] = [card for card in hand if card not in given]
                state.hands[taker] = state.hands[taker] + given
                events.append(
                    event(
                        "gave",
                        {"player": players[giver], "to": players[taker], "count": count, "rule": rule_id},
                        {players[giver]: {"cards": given}, players[taker]: {"cards": given}},
                    )
                )
    elif name == "skip":
        for seat in targets(state, effect["who"], actor):
            if not _gone(state, seat):
                state.skips = state.skips + [seat]
                events.append(event("skip_set", {"player": players[seat], "rule": rule_id}))
    elif name == "reverse":
        state.direction = -state.direction
        events.append(
            event("reversed", {"direction": "clockwise" if state.direction == 1 else "anticlockwise", "rule": rule_id})
        )
    elif name == "reveal":
        for seat in targets(state, effect["who"], actor):
            if not _gone(state, seat):
                events.append(
                    event(
                        "revealed",
                        {
                            "player": players[seat],
                            "cards": sorted(state.hands[seat], key=SORT_KEY.__getitem__),
                            "rule": rule_id,
                        },
                    )
                )
    elif name == "return_burned":
        cards = [card for card in context.get("burned", ()) if card in state.burned]
        if cards:
            remaining = list(state.burned)
            for card in cards:
                remaining.remove(card)
            state.burned = remaining
            state.stock = shuffled(
                state.stock + cards, state.seed, "return_burned", state.round, len(remaining), len(state.stock)
            )
            events.append(event("burned_returned", {"cards": cards, "stock_count": len(state.stock), "rule": rule_id}))
    elif name == "burn":
        burn_pile(state, actor, "rule", [], events)
        return True
    return False
