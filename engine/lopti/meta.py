"""The Rule Vote (L20, LOP-A25) and the Rock-Paper-Scissors duel (L21, LOP-A26).

Both are out-of-turn: they never appear in `to_act` and never block play. Every function that
changes the state replaces `state.vote`, `state.duel`, `state.pending`, `state.rules`,
`state.options` (never changes them in place), so `apply`'s cheap copy stays safe.

state.vote: {"id", "proposer", "change", "starts", "round", "ballots": {name: bool},
             "order": [names, in the order of their latest ballot]}
state.duel: {"vote", "change", "starts", "proposer", "defender" (None while a champion is awaited),
             "stage": "author" | "champion" | "throws", "supporters": [no-voters who may champion],
             "score": {"proposer": n, "defender": n}, "draws": n, "pending": {name: sign}}
`pending` holds a throw until the other duelist has thrown too; it never leaves the engine
except to its own thrower (view key `duel.my_throw`, private field of the `throw_made` event).
"""

from __future__ import annotations

from typing import Any

from engine.core.fast import event
from engine.core.protocol import Event
from engine.lopti import session
from engine.lopti.state import PLAY, SETUP, LoptiState

Problem = tuple[str, str] | None

BASE_OPTIONS = (
    "play_for_places",
    "face_down_may_take",
    "sevens_stack_singly",
    "draw_up_to_three",
    "unlimited_swaps",
    "ten_on_seven",
)
SESSION_OPTIONS = ("house_rules", "authoring_timeout_s")
DUEL_OPTIONS = ("rps_first_to_16",)
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


def _record(state: LoptiState, rule_id: Any) -> dict[str, Any] | None:
    for record in state.rules:
        if record["id"] == rule_id:
            return record
    return None


def _voted_record(state: LoptiState, rule_id: Any) -> dict[str, Any]:
    """The record of a rule under a vote or duel: removing a rule voids its vote and duel."""
    record = _record(state, rule_id)
    if record is None:
        raise LookupError(f"rule {rule_id!r} is gone but its vote stands")
    return record


def _open_vote(state: LoptiState) -> dict[str, Any]:
    """The Rule Vote an action acts on: its problem check (`*_problem`) found it open."""
    if state.vote is None:
        raise LookupError("no Rule Vote is open")
    return state.vote


def _open_duel(state: LoptiState) -> dict[str, Any]:
    """The duel an action acts on: its problem check (`*_problem`) found it under way."""
    if state.duel is None:
        raise LookupError("no duel is under way")
    return state.duel


def electorate(state: LoptiState) -> list[str]:
    """Who votes: the players, less the computer players (they take no part in the meta-game)."""
    return [name for name in state.players if name not in state.computers]


def _rule_id(change: dict[str, Any]) -> Any:
    return change.get("remove", change.get("amend"))


# ----- proposing ------------------------------------------------------------------------------

MAX_RESTORED = 10


def restore_problem(state: LoptiState, change: dict[str, Any]) -> Problem:
    """L22.3: a new session may restore earlier sessions' rules by a majority vote, at its setup,
    without using round 1's Rule Vote."""
    if state.round != 1 or state.phase != SETUP:
        return ("restore_at_setup_only", "Earlier sessions' rules can be restored only while round 1 is being set up.")
    if state.vote is not None or state.duel is not None:
        return ("vote_open", "A Rule Vote is already running.")
    if state.rules:
        return ("restore_at_setup_only", "This session already has rules.")
    items = change["restore"]
    if not 1 <= len(items) <= MAX_RESTORED:
        return ("out_of_bounds", f"Restore 1 to {MAX_RESTORED} rules at once.")
    for item in items:
        problem = session.rule_problem(item["rule"], state.options["house_rules"])
        if problem:
            return problem
    return None


def proposals_problem(state: LoptiState) -> Problem:
    """Why no change may be proposed now, whatever it is: one Rule Vote a round, from the deal to
    the round's end, while no vote or duel runs (L20.1, LOP-A25). The view carries its code, so
    that the bot offers proposals exactly when the engine would take one."""
    if state.phase not in (SETUP, PLAY):
        return ("no_vote_now", "A Rule Vote can be proposed from the deal until the round ends.")
    if state.vote is not None or state.duel is not None:
        return ("vote_open", "A Rule Vote (or its duel) is already running.")
    if state.vote_used:
        return ("vote_used", "This round's Rule Vote has been used; propose again next round.")
    return None


def proposal_problem(state: LoptiState, change: dict[str, Any]) -> Problem:
    if "restore" in change:
        return restore_problem(state, change)
    problem = proposals_problem(state)
    if problem:
        return problem
    if "remove" in change:
        record = _record(state, change["remove"])
        if record is None or not record["active"]:
            return ("no_such_rule", f"There is no rule {change['remove']} in force.")
        return None
    if "amend" in change:
        record = _record(state, change["amend"])
        if record is None:
            return ("no_such_rule", f"There is no rule {change['amend']} this session.")
        problem = session.rule_problem(change["rule"], state.options["house_rules"])
        if problem:
            return problem
        text, structured = session.stored_form(change["rule"])
        if record["active"] and record["rule"] == structured and record["text"] == text:
            return ("no_change", "The amended rule is the same as the rule in force.")
        return None
    name, value = change["option"], change["value"]
    if name in DUEL_OPTIONS:
        return ("vote_procedure_fixed", "The Rule Vote and Rock-Paper-Scissors cannot be changed (L20.10).")
    if name in SESSION_OPTIONS:
        return ("not_a_base_rule", f"{name} is a table setting, not a base rule of Lopti.")
    if name not in BASE_OPTIONS:
        return ("no_such_option", f"There is no base-rule option {name!r}.")
    if type(value) is not bool:
        return ("bad_value", f"{name} is true or false.")
    if state.options[name] == value:
        return ("no_change", f"{name} is already {str(value).lower()}.")
    return None


def propose(state: LoptiState, seat: int, change: dict[str, Any], starts: str, events: list[Event]) -> None:
    """Open the round's Rule Vote (it uses the round's vote whatever its result, L20.7)."""
    proposer = state.players[seat]
    state.vote = {
        "id": state.next_vote_id,
        "proposer": proposer,
        "change": _copy(change),
        "starts": starts,
        "round": state.round,
        "ballots": {},
        "order": [],
    }
    state.next_vote_id += 1
    if "restore" not in change:  # restoring earlier rules does not use round 1's vote (L22.3)
        state.vote_used = True
    events.append(
        event(
            "proposed",
            {
                "player": proposer,
                "vote": state.vote["id"],
                "change": _copy(change),
                "starts": starts,
                "members": len(electorate(state)),
                "needed": len(electorate(state)) // 2 + 1,
            },
        )
    )


# ----- voting ---------------------------------------------------------------------------------


def cast(state: LoptiState, seat: int, yes: bool, events: list[Event]) -> None:
    player = state.players[seat]
    vote = _open_vote(state)
    ballots = dict(vote["ballots"])
    order = list(vote["order"])
    if ballots.get(player) is not yes:
        if player in order:
            order.remove(player)
        order.append(player)
    ballots[player] = yes
    state.vote = {**vote, "ballots": ballots, "order": order}
    events.append(event("voted", {"player": player, "yes": yes, "vote": vote["id"], "counts": _counts(state)}))
    if len(ballots) == len(electorate(state)):
        close_vote(state, events)


def withdraw_problem(state: LoptiState, player: str) -> Problem:
    if state.vote is None:
        return ("no_vote", "No Rule Vote is open.")
    if player not in state.vote["ballots"]:
        return ("no_ballot", "You have no vote to withdraw in this Rule Vote.")
    return None


def withdraw(state: LoptiState, seat: int, events: list[Event]) -> None:
    """A member takes their ballot back (a retracted poll answer): they count as not having
    voted, so the vote waits for them again before it can close early."""
    player = state.players[seat]
    vote = _open_vote(state)
    ballots = {name: value for name, value in vote["ballots"].items() if name != player}
    order = [name for name in vote["order"] if name != player]
    state.vote = {**vote, "ballots": ballots, "order": order}
    events.append(event("vote_withdrawn", {"player": player, "vote": vote["id"], "counts": _counts(state)}))


def _counts(state: LoptiState) -> dict[str, int]:
    ballots = _open_vote(state)["ballots"]
    yes = sum(1 for value in ballots.values() if value)
    return {"yes": yes, "no": len(ballots) - yes}


def close_vote(state: LoptiState, events: list[Event]) -> None:
    """Close the vote: yes > N/2 passes, yes = N/2 is a tie (a duel), anything else fails."""
    vote = _open_vote(state)
    members = len(electorate(state))
    counts = _counts(state)
    yes = counts["yes"]
    result = "passed" if 2 * yes > members else "tie" if 2 * yes == members else "failed"
    if result == "tie" and "restore" in vote["change"]:
        result = "failed"  # a restore needs a majority; there is no duel about it
    state.vote = None
    events.append(
        event(
            "vote_closed",
            {"vote": vote["id"], "result": result, **counts, "members": members, "ballots": dict(vote["ballots"])},
        )
    )
    if result == "passed":
        enact(state, vote["change"], vote["starts"], events)
    elif result == "tie":
        start_duel(state, vote, events)


# ----- the change -----------------------------------------------------------------------------


def enact(state: LoptiState, change: dict[str, Any], starts: str, events: list[Event]) -> None:
    if starts == "next_round":
        state.pending = state.pending + [_copy(change)]
        events.append(event("change_scheduled", {"change": _copy(change)}))
    else:
        apply_change(state, change, events)


def apply_change(state: LoptiState, change: dict[str, Any], events: list[Event]) -> None:
    """Apply a passed change from the next action on; completed card actions stay (L20.8)."""
    if "option" in change:
        state.set_options({**state.options, change["option"]: change["value"]})
    elif "restore" in change:
        for item in change["restore"]:
            text, structured = session.stored_form(item["rule"])
            state.rules = state.rules + [
                {
                    "id": state.next_rule_id,
                    "author": item["author"],
                    "text": text,
                    "rule": structured,
                    "round": state.round,
                    "active": True,
                }
            ]
            state.next_rule_id += 1
        state.rebuild_hooks()
    else:
        rule_id = _rule_id(change)
        rules = []
        for record in state.rules:
            if record["id"] == rule_id:
                if "remove" in change:
                    if record["active"]:
                        record = {**record, "active": False, "removed_round": state.round}
                else:
                    text, structured = session.stored_form(change["rule"])
                    record = {
                        key: value for key, value in record.items() if key not in ("deleted_round", "removed_round")
                    }
                    record.update({"text": text, "rule": structured, "active": True, "amended_round": state.round})
            rules.append(record)
        state.rules = rules
        state.rebuild_hooks()
    events.append(event("change_applied", {"change": _copy(change)}))


def apply_pending(state: LoptiState, events: list[Event]) -> None:
    """At the deal: the changes voted for "next_round"."""
    if state.pending:
        pending = state.pending
        state.pending = []
        for change in pending:
            apply_change(state, change, events)


def rule_deleted(state: LoptiState, rule_id: int, events: list[Event]) -> None:
    """The author deleted a rule (L20.6): a vote or duel about it, and a change scheduled for it,
    are void (the round's vote stays used)."""
    if state.vote is not None and _rule_id(state.vote["change"]) == rule_id:
        events.append(event("vote_void", {"vote": state.vote["id"], "rule": rule_id}))
        state.vote = None
    if state.duel is not None and _rule_id(state.duel["change"]) == rule_id:
        events.append(event("vote_void", {"vote": state.duel["vote"], "rule": rule_id}))
        state.duel = None
    if any(_rule_id(change) == rule_id for change in state.pending):
        state.pending = [change for change in state.pending if _rule_id(change) != rule_id]


# ----- the duel -------------------------------------------------------------------------------


def start_duel(state: LoptiState, vote: dict[str, Any], events: list[Event]) -> None:
    """LOP-A26 parties: the proposer against the rule's author (an absent author: a champion of
    the "no" voters); for a base-rule change, against the first player who voted no (L21.4)."""
    proposer = vote["proposer"]
    change = vote["change"]
    no_voters = [name for name in vote["order"] if vote["ballots"][name] is False and name != proposer]
    author = None
    if "option" not in change:
        author = _voted_record(state, _rule_id(change))["author"]
        if author == proposer or author in state.computers:
            # The proposer cannot duel themselves, nor a computer anyone: the supporters defend it.
            author = None
    supporters = [name for name in no_voters if name != author]
    duel = {
        "vote": vote["id"],
        "change": _copy(change),
        "starts": vote["starts"],
        "proposer": proposer,
        "defender": author,
        "stage": "author",
        "supporters": supporters,
        "score": {"proposer": 0, "defender": 0},
        "draws": 0,
        "pending": {},
    }
    if author is None:
        if not supporters:
            events.append(event("duel_unopposed", {"vote": vote["id"], "proposer": proposer}))
            enact(state, change, vote["starts"], events)
            return
        duel["defender"] = supporters[0]
        duel["stage"] = "throws"
    state.duel = duel
    events.append(event("duel_started", _public_duel(state, duel)))


def champion_problem(state: LoptiState, player: str) -> Problem:
    duel = state.duel
    if duel is None or duel["stage"] != "champion":
        return ("no_champion_wait", "No absent author's rule is waiting for a champion.")
    if player not in duel["supporters"]:
        return ("not_a_supporter", "Only a player who voted no may defend the rule.")
    return None


def champion(state: LoptiState, player: str, events: list[Event]) -> None:
    state.duel = {**_open_duel(state), "defender": player, "stage": "throws"}
    events.append(event("champion", {"player": player, "vote": state.duel["vote"]}))


def close_champion_problem(state: LoptiState, kind: str = "close_champion") -> Problem:
    """`close_author` ends only the author's wait; `close_champion` ends either wait."""
    duel = state.duel
    if duel is None or duel["stage"] == "throws" or (kind == "close_author" and duel["stage"] != "author"):
        return ("no_champion_wait", "The duel is not waiting for an author or a champion.")
    return None


def close_champion(state: LoptiState, events: list[Event]) -> None:
    """The clock: the author did not answer (they are absent: the no-voters may champion the
    rule), or no champion came forward (the change passes, L21.3)."""
    duel = _open_duel(state)
    if duel["stage"] == "author":
        events.append(
            event(
                "author_absent",
                {"player": duel["defender"], "vote": duel["vote"], "supporters": list(duel["supporters"])},
            )
        )
        if duel["supporters"]:
            state.duel = {**duel, "defender": None, "stage": "champion"}
            return
    state.duel = None
    events.append(event("no_champion", {"vote": duel["vote"]}))
    enact(state, duel["change"], duel["starts"], events)


def throw_problem(state: LoptiState, player: str) -> Problem:
    duel = state.duel
    if duel is None:
        return ("no_duel", "There is no Rock-Paper-Scissors duel now.")
    if player != duel["proposer"] and player != duel["defender"]:
        return ("not_in_duel", "Only the two duelists throw.")
    if player in duel["pending"]:
        return ("already_thrown", "Your throw is in; waiting for the other duelist.")
    return None


def throw(state: LoptiState, player: str, sign: str, events: list[Event]) -> None:
    duel = _open_duel(state)
    pending = {**duel["pending"], player: sign}
    stage = duel["stage"]
    if stage == "author" and player == duel["defender"]:
        stage = "throws"
    duel = {**duel, "pending": pending, "stage": stage}
    events.append(event("throw_made", {"player": player, "vote": duel["vote"]}, {player: {"sign": sign}}))
    proposer, defender = duel["proposer"], duel["defender"]
    if stage != "throws" or proposer not in pending or defender not in pending:
        state.duel = duel
        return
    mine, theirs = pending[proposer], pending[defender]
    score = dict(duel["score"])
    draws = duel["draws"]
    if mine == theirs:
        winner = None
        draws += 1
    elif BEATS[mine] == theirs:
        winner = proposer
        score["proposer"] += 1
    else:
        winner = defender
        score["defender"] += 1
    duel = {**duel, "pending": {}, "score": score, "draws": draws}
    events.append(
        event(
            "throws_revealed",
            {
                "signs": {proposer: mine, defender: theirs},
                "winner": winner,
                "score": {proposer: score["proposer"], defender: score["defender"]},
            },
        )
    )
    a, b = score["proposer"], score["defender"]
    if state.options["rps_first_to_16"]:
        over = a >= 16 or b >= 16
    else:
        over = a + b >= 30 and a != b  # 30 decisive throws; at 15-15 the next decisive one (L21.5-6)
    if not over:
        state.duel = duel
        return
    state.duel = None
    won = proposer if a > b else defender
    events.append(
        event(
            "duel_won",
            {
                "player": won,
                "side": "proposer" if won == proposer else "defender",
                "score": {proposer: a, defender: b},
                "vote": duel["vote"],
            },
        )
    )
    if won == proposer:
        enact(state, duel["change"], duel["starts"], events)
    else:
        events.append(event("change_rejected", {"change": _copy(duel["change"]), "vote": duel["vote"]}))


# ----- what may be seen -----------------------------------------------------------------------


def _public_duel(state: LoptiState, duel: dict[str, Any]) -> dict[str, Any]:
    proposer, defender = duel["proposer"], duel["defender"]
    return {
        "vote": duel["vote"],
        "change": _copy(duel["change"]),
        "starts": duel["starts"],
        "proposer": proposer,
        "defender": defender,
        "stage": duel["stage"],
        "supporters": list(duel["supporters"]),
        "score": {"proposer": duel["score"]["proposer"], "defender": duel["score"]["defender"]},
        "draws": duel["draws"],
        "thrown": [name for name in (proposer, defender) if name in duel["pending"]],
        "target": 16 if state.options["rps_first_to_16"] else 30,
    }


def vote_view(state: LoptiState) -> dict[str, Any] | None:
    vote = state.vote
    if vote is None:
        return None
    members = len(electorate(state))
    return {
        "id": vote["id"],
        "proposer": vote["proposer"],
        "change": _copy(vote["change"]),
        "starts": vote["starts"],
        "round": vote["round"],
        "voted": list(vote["order"]),
        "ballots": dict(vote["ballots"]),
        **_counts(state),
        "members": members,
        "needed": members // 2 + 1,
        "waiting_for": [name for name in electorate(state) if name not in vote["ballots"]],
    }


def duel_view(state: LoptiState, player: str | None) -> dict[str, Any] | None:
    duel = state.duel
    if duel is None:
        return None
    seen = _public_duel(state, duel)
    seen["my_throw"] = duel["pending"].get(player) if player is not None else None
    return seen


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
