"""Lopti: a Palace-family shedding game (spec docs/games/rules/lopti.md), base game and round flow.

`GAME` is the `engine.core.protocol.Game` for Lopti. This docstring is the contract the
Telegram renderer builds on.

Fast path
    `advance(state, player, action)` is `apply` changing `state` in place (same code; `apply`
    copies first); a refusal leaves `state` unchanged. The dicts in a `legal_actions` list are
    shared between calls: read them, do not change them. For a search's rollouts,
    `game.play_keys(state, seat)` names the plays `legal_actions` would list (as `actions.PLAYS`
    keys, without listing them) and `game.play_listed(state, cards)` makes one of them for the
    player to act, without the checks a listed play passes and without events.

Session
    A table is a session with no end: `is_finished` is always False, `winners` always empty,
    `scores` counts rounds won. Round 1 is opened by the dealer, later rounds by the previous
    winner; the dealer rotates clockwise every round. Phases: "setup" (swaps and ready),
    "play", "authoring" (the round's winner gives a rule or no rule; skipped when the option
    `house_rules` is "off"), then the next round is dealt.

Meta-game (spec sections 3.7, 7, 8): house rules, the Rule Vote, the duel
    House rules: a rule is {"when", "event", "if", "do"} and/or {"text"} (section 8). A rule
    with an `event` is enforced by the engine (module `engine.lopti.house`); a text-only rule is
    shown and never applied. Enforced rules fire around base events (play, burn, take, flip,
    face_up_taken, obligation_passed, turn_start, out), in the order they were made; their
    effects never trigger rules. `give` never empties the giver's hand; a custom `burn`
    gives the usual extra play (one extra play per play). `skip` / `reverse` last for the round.
    Rule Vote and duel (module `engine.lopti.meta`) are OUT OF TURN: they never appear in
    `to_act` and never block play; `legal_actions(state, member)` lists `vote` (yes and no)
    for every member while a vote is open, `throw` (three signs) for a duelist whose throw is
    not in, `champion` for a supporter while a champion is awaited; `legal_actions(state,
    "@clock")` adds `close_vote` / `close_author` / `close_champion` when they apply. `propose` and
    `author_rule` are never listed (their content is free). One vote per round (setup and
    play), any member proposes; it closes when every member has voted or on `close_vote`;
    yes > N/2 of all N members passes, yes = N/2 is a tie -> duel. "now" changes apply at
    once, "next_round" ones at the next deal (view `pending_changes`). Duel: proposer vs the
    rule's author (stage "author" until the author throws; `close_author` (or
    `close_champion`) then means the author is absent: stage "champion", the "no" voters may `champion`; `close_champion` again:
    the change passes), or vs the first current "no" voter for an option change (or when the
    proposer wrote the rule). Decisive throws only; first to 16, or with `rps_first_to_16` off
    30 decisive throws and, at 15-15, the next decisive one.

Actions (canonical form; `legal_actions` lists them, except `author_rule` whose text is free)
    {"type": "swap", "hand": C, "face_up": C}   setup, once (any number with `unlimited_swaps`)
    {"type": "ready"}                            setup; when all are ready play starts
    {"type": "play", "cards": [C, ...]}          cards of one rank from the hand, suit order S H D C
    {"type": "flip", "position": 0-2}            hand and face-up cards gone; blind, always accepted
    {"type": "take"}                             pile not empty
    {"type": "author_rule", "rule": R}           the round's winner; R = {"text": T} (1-280
                                                 characters) and/or a section-8 template
    {"type": "no_rule"}                          the round's winner
    {"type": "delete_rule", "rule": id}          a rule's author, any time (voids a vote or duel
                                                 about that rule and a change scheduled for it)
    {"type": "propose", "change": C, "starts": "now" | "next_round"}
                                                 any member, setup or play, once per round;
                                                 C = {"remove": id} | {"amend": id, "rule": R}
                                                 | {"option": name, "value": bool} (the six
                                                 play options); amend of a removed rule restores it
    {"type": "vote", "yes": bool}                any member while a vote is open; may change it
    {"type": "champion"}                         a "no" voter, while an absent author's rule
                                                 waits for a champion; the first one defends
    {"type": "throw", "sign": "rock" | "paper" | "scissors"}
                                                 a duelist, once per exchange
    ["@clock", {"type": "close_vote"}]           the vote's deadline: close it now
    ["@clock", {"type": "close_champion"}]       the author's / champion's deadline
    ["@clock", {"type": "timeout"}]              setup: all become ready; play: take the pile if
                                                 not empty (a face-down player who may not take
                                                 flips), else play the lowest card, else flip the
                                                 first unused position; authoring: no rule
                                                 (the turn timer only: it never closes a vote)

View keys (`GAME.view(state, player)`; player None = spectator)
    game, me, round, phase, players, dealer, starter, to_act, turn (None outside play),
    hand (own hand sorted, None for spectators),
    seats: {name: {hand_count, face_up: [cards], face_down: [unused positions], ready, swaps,
    out, wins}},
    pile (bottom to top), pile_top, previous_play (m: size of the play on top), top_run (k),
    chain (the 3s of the current chain, shown beside the pile), stock_count, burned_count,
    obligation (the player who must take or pass on with a 3, else None), low_condition (top
    is a 7), extra_play (the player to act is making a burn's extra play), out (players out,
    in order), round_winner, awaiting_rule (the winner while authoring), scores,
    rules (rules in force, in the order they were made: {id, author, text, round, rule,
    enforced}; `rule` is the normalized template {when, event, if, do: [{effect, who?, to?,
    n?}]} for a renderer to word, None for a text-only rule; `enforced` = rule is not None),
    removed_rules (deleted or voted out, same shape), direction ("clockwise" |
    "anticlockwise"), skips (players who miss their next turn, with repeats),
    vote (None or {id, proposer, change, starts, round, voted (names, latest ballot last),
    ballots {name: bool} (public: votes are a non-anonymous poll), yes, no, members, needed,
    waiting_for}), vote_used (this round's vote is taken), pending_changes (changes for the
    next deal), duel (None or {vote, change, starts, proposer, defender (None while a champion
    is awaited), stage ("author" | "champion" | "throws"), supporters, score {proposer,
    defender}, draws, thrown (duelists whose throw is in; never the sign), target (16 | 30),
    my_throw (your own throw while it is pending, else None)}), options.

Events (`Event.kind`: public fields; private fields only for the named player)
    dealt: round, dealer, starter, face_up {name: cards}, stock_count; private hand (own cards)
    swapped: player, to_face_up (the hand card now face up), to_hand (the face-up card taken)
    ready: player
    play_started: player (who opens)
    played: player, cards, extra (was an extra play)
    flipped: player, position, card, legal, extra
    obligation_passed: player, to
    burned: player, cause ("ten" | "four" | "sevens" | "threes"), cards (all cards removed)
    took: player, cards (the whole pile), forced (after an illegal face-down flip)
    drew: player, count; private cards
    face_up_taken: player, cards
    extra_play: player (the same player plays again on the empty table)
    out: player, place
    round_won: player, round, places, scores
    rule_authored: player, rule (as in the view's `rules`)
    no_rule: player
    rule_deleted: player, rule (id)
    timed_out: players, phase
    House-rule effects (each follows a rule_fired; `rule` is the rule's id):
    rule_fired: rule, event, when, player (the actor of the base event)
    drew: player, count, rule; private cards       gave: player, to, count, rule; private
    (giver and receiver) cards                     skip_set: player, rule
    skipped: player (misses this turn)             reversed: direction, rule
    revealed: player, cards, rule                  burned_returned: cards, stock_count, rule
    burned with cause "rule" (a custom burn)
    Rule Vote: proposed: player, vote, change, starts, members, needed
    voted: player, yes, vote, counts {yes, no}
    vote_closed: vote, result ("passed" | "failed" | "tie"), yes, no, members, ballots
    vote_void: vote, rule (the author deleted the rule under vote)
    change_applied: change          change_scheduled: change (for the next deal)
    change_rejected: change, vote (the defender won the duel)
    Duel: duel_started: the view's duel fields (no throws)
    duel_unopposed: vote, proposer (a tie nobody formally opposed: the change passes)
    author_absent: player, vote, supporters      champion: player, vote
    no_champion: vote (the change passes)
    throw_made: player, vote; private (thrower only) sign
    throws_revealed: signs {name: sign} (both at once), winner (None: a draw, not counted),
    score {name: n}
    duel_won: player, side ("proposer" | "defender"), score {name: n}, vote

Refusal codes
    wrong_phase, not_your_turn, already_ready, swap_used, not_in_hand, not_face_up,
    empty_play, duplicate_cards, mixed_ranks, obligation_pending, must_play_low, ten_on_seven,
    match_needs_more, illegal_card, hand_not_empty, face_up_left, bad_position, position_used,
    empty_pile, must_flip, not_round_winner, house_rules_off, templates_off, text_rules_off,
    rule_empty, rule_too_long, no_such_rule, not_rule_author,
    house rules: unknown_event, bad_when, bad_condition, condition_not_allowed, bad_effects,
    unknown_effect, bad_target, out_of_bounds, effect_not_allowed, rule_removed,
    votes: no_vote_now, vote_open, vote_used, no_change, bad_value, no_such_option,
    not_a_base_rule, vote_procedure_fixed, no_vote,
    duel: no_duel, not_in_duel, already_thrown, no_champion_wait, not_a_supporter.
"""

from engine.lopti.game import Lopti
from engine.lopti.house import BURN_CAUSES, CONDITIONS, EFFECTS, EVENTS, RANKS, ROLES, ROLES_WITH_OTHERS, WHEN
from engine.lopti.options import LoptiOptions
from engine.lopti.state import LoptiState

GAME = Lopti()

# The house-rule vocabulary (section 8) is part of the public face: a rule builder offers it.
__all__ = [
    "GAME",
    "Lopti",
    "LoptiOptions",
    "LoptiState",
    "BURN_CAUSES",
    "CONDITIONS",
    "EFFECTS",
    "EVENTS",
    "RANKS",
    "ROLES",
    "ROLES_WITH_OTHERS",
    "WHEN",
]
