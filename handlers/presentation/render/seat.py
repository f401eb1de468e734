"""What one seat sees, as data: the model the chat's hand (handlers/presentation/render/hand.py) and the Mini
App's snapshot (handlers/webapp/snapshot.py) are both drawn from. It knows no transport: no
Telegram markup, no callback data, no JSON.

A seat's screen (`Seen`) is its legal actions, the action tree of its choices and the digest a
press must match (its view is the engine's, read again where drawn: a few microseconds, where
keeping every seat's would be a few kilobytes per seat); `choices_at` says what the seat may tap
at a node of that tree, each choice with its kind, its cards' codes and whether it is marked. A
watcher's screen (`Watched`) is the engine's spectator view, with no seat and nothing to press.
What every seat of a language sees alike (`Shared`: the table's buttons, the event lines, the
round's results) is built once per table version and language.

Both are built once per (table version, seat, language) and kept for live tables only: a table
keeps the screens of its latest version, and of each seat's last few keyboards the first move
under each button (so that a press on an old keyboard can be told why it no longer stands). A
table's memory goes when it is no longer live (`forget`, or a render of its finished state).
A tree of more than `TREE_KEPT_NODES` nodes (Euchre-3's keep five: 891 or more) is not kept by
its table: the table keeps that screen's legal actions, digest, prompt and the first move under
each node (`Unkept`), and the tree is built again from the state where the screen is drawn or
pressed (the bot keeps only the last one so built).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.protocol import Action, Game, State
from handlers.i18n import Translator
from handlers.presentation.action_tree import CARD, ActionTree, Node, Step, build_tree
from handlers.presentation.fit import shown_text
from handlers.presentation.games import renderer_for
from tables.models import LIVE, TableRow

BACK = "back"  # the kind of ↩, which goes back one step (or unmarks every card)
BACK_LABEL = "↩"
LINES_KEPT = 5
# Keyboards of a seat remembered after the table moved past them (see `Earlier`).
EARLIER_KEPT = 3
# A seat's tree of more nodes is built again where needed rather than kept (about 640 bytes a
# node; Euchre-3's keep five, 891 nodes, was 570 KB a table while the maker chose, and builds
# in about 16 ms). Every other prompt of the five games is under 150 nodes.
TREE_KEPT_NODES = 256


def player_view(table: TableRow, game: Game, state: State, player: str | None) -> dict[str, Any]:
    """The engine's view plus what a renderer needs from the table: names and options."""
    return {**game.view(state, player), "names": table.names, "table_options": table.options}


def keyboard_digest(actions: Sequence[Mapping[str, Any]]) -> int:
    return zlib.crc32(json.dumps(list(actions), sort_keys=True, separators=(",", ":")).encode()) % 1_000_000_000


@dataclass
class Seen:
    """One seat's screen at one table version, in one language."""

    legal: list[Action]
    tree: ActionTree
    # A digest of the actions the keyboard offers: the key a press must match.
    keyboard: int
    # The sentence above the choices: what is expected (and why only some cards are offered).
    prompt: str


@dataclass(frozen=True)
class Choice:
    """One thing a seat may tap at a node: `node` is the tree node the tap goes to. `kind`: CARD,
    CARDS (several cards at one press), MOVE, ALONE, CALL, DONE (✔) or BACK; `codes` are the
    engine codes of its card(s); a `marked` card is chosen already (its tap unmarks it); a choice
    that `opens` plays nothing yet (a branch, a mark, back)."""

    label: str
    kind: str
    node: int
    codes: tuple[str, ...] = ()
    marked: bool = False
    opens: bool = False


def choices_at(tree: ActionTree, node: Node) -> list[Choice]:
    """The choices of `node`, in the keyboard's order: while cards are being chosen, each
    candidate card once (marked ones included), then the moves, then ↩."""

    def choice(label: str, target: Node, marked: bool = False) -> Choice:
        # A card is known by its label: a choice of cards in any order reaches one node by
        # several cards, and a marked card's target is the node that unmarks it.
        kind = CARD if marked else target.kind
        codes = (tree.codes[label],) if kind == CARD and label in tree.codes else target.codes
        return Choice(label, kind, target.number, codes, marked, bool(target.links) or target.number == 0)

    found: list[Choice] = []
    links = list(node.links)
    if node.marks:
        offered = [choice(label, child) for label, child in links if child.kind == CARD]
        marked = [choice(label, tree.nodes[target], True) for label, target in node.marks]
        if node.shown_order:  # a set: each card keeps its place, marked or not
            place = {label: index for index, label in enumerate(node.shown_order)}
            found = sorted([*marked, *offered], key=lambda card: place.get(card.label, 99))
        else:  # a sequence: the cards in the order tapped, then those that may follow
            found = [*marked, *offered]
        links = [(label, child) for label, child in links if child.kind != CARD]
    found.extend(choice(label, child) for label, child in links)
    back = node.start if node.marks and node.start >= 0 else node.parent
    if back >= 0:
        found.append(Choice(BACK_LABEL, BACK, back, opens=True))
    return found


@dataclass(frozen=True)
class TableButton:
    """A button of the group table any player may press (Kadi Moja!, accuse): `name` is its key."""

    label: str
    name: str
    warning: str | None


@dataclass(frozen=True)
class Shared:
    """What every seat reading one language sees alike at one table version; text is plain."""

    buttons: tuple[TableButton, ...]
    lines: tuple[str, ...]
    # The last round's results as the group's post shows them: (its edition, its lines).
    results: tuple[int, tuple[str, ...]] | None


def round_results(table: TableRow, _: Translator) -> str | None:
    """The score table posted when a round ends (None when there is nothing to post)."""
    if not table.round_events:
        return None
    lines = renderer_for(table.game).round_summary(table.round_events.get("events", []), _, table.names)
    return "\n".join(lines) if lines else None


@dataclass(frozen=True)
class Watched:
    """The screen of someone who watches the table from no seat: the engine's spectator view
    (`game.view(state, None)`) alone, so it holds no hidden card; nothing to press."""

    view: dict[str, Any]
    prompt: str


@dataclass(frozen=True)
class Earlier:
    """What is kept of a keyboard the table moved past: under each node, the first move it led
    to, as an index into the keyboard's moves; both as compressed JSON (a few hundred bytes,
    where a tree's nodes and the moves' dicts take kilobytes, and the moves repeat: Lopti's
    proposals, Euchre's five-card keeps). Read back only for a press on that keyboard."""

    packed: bytes

    @classmethod
    def of(cls, tree: ActionTree) -> Earlier:
        moves: list[Action] = []
        index: dict[int, int] = {}
        first = []
        for action in first_moves(tree):
            if action is None:
                first.append(-1)
                continue
            if id(action) not in index:
                index[id(action)] = len(moves)
                moves.append(action)
            first.append(index[id(action)])
        return cls(zlib.compress(json.dumps([moves, first], separators=(",", ":")).encode(), 1))

    def move(self, node: int) -> Action | None:
        moves, first = json.loads(zlib.decompress(self.packed))
        at = first[node] if 0 <= node < len(first) else -1
        return moves[at] if at >= 0 else None


@dataclass(frozen=True)
class Unkept:
    """What a table keeps of a seat's screen whose tree is too large to keep: the tree is built
    again from the state (deterministic from the state and the seat: the same nodes, the same
    numbers) when the screen is drawn or pressed; `earlier` answers a press on this keyboard
    without the state, as for an earlier keyboard."""

    legal: list[Action]
    keyboard: int
    prompt: str
    earlier: Earlier

    @classmethod
    def of(cls, seen: Seen) -> Unkept:
        return cls(seen.legal, seen.keyboard, seen.prompt, Earlier.of(seen.tree))


@dataclass
class _Kept:
    """What is remembered of one live table: its latest screens, and earlier keyboards.
    Kept by (version, revision), not version alone: a change that is no move (a computer taking a
    seat, a session ended, a round's pause over) changes what seats see at the same version."""

    created_at: float
    stamp: tuple[int, int]
    seats: dict[tuple[str, str], Seen | Unkept] = field(default_factory=dict)
    shared: dict[str, Shared] = field(default_factory=dict)
    # The seat-less screen, by language: every watcher of the table shares it.
    watched: dict[str, Watched] = field(default_factory=dict)
    # player -> keyboard digest -> what is kept of that keyboard, the oldest first.
    earlier: dict[str, dict[int, Earlier]] = field(default_factory=dict)


_LIVE: dict[int, _Kept] = {}
# The last tree built again for an `Unkept` screen, by (table, its start, version and revision,
# seat, language): a marking tap is a press then a drawing of the same screen, and the hand and
# the app's snapshot draw it in turn. One for the whole bot, whatever the number of tables.
_REBUILT: dict[tuple[int, float, tuple[int, int], str, str], Seen] = {}


def _kept(table: TableRow) -> _Kept | None:
    """The table's memory at its (version, revision), started afresh at a newer one; None when
    this table is not to be remembered (no id, no longer live, or older than the kept one)."""
    if not table.table_id:
        return None
    if table.status not in LIVE:
        forget(table.table_id)
        return None
    stamp = (table.version, table.revision)
    kept = _LIVE.get(table.table_id)
    if kept is None or kept.created_at != table.created_at:
        kept = _LIVE[table.table_id] = _Kept(table.created_at, stamp)
    elif stamp > kept.stamp:
        for (player, _language), seen in kept.seats.items():
            if isinstance(seen, Unkept) or len(seen.tree.nodes) > 1:  # a keyboard with something to press
                remembered = kept.earlier.setdefault(player, {})
                remembered.pop(seen.keyboard, None)
                remembered[seen.keyboard] = seen.earlier if isinstance(seen, Unkept) else Earlier.of(seen.tree)
                while len(remembered) > EARLIER_KEPT:
                    del remembered[next(iter(remembered))]
        kept.stamp, kept.seats, kept.shared, kept.watched = stamp, {}, {}, {}
        _forget_rebuilt(table.table_id)
    elif stamp < kept.stamp:
        return None
    return kept


def forget(table_id: int) -> None:
    """The table is no longer live: its screens go."""
    _LIVE.pop(table_id, None)
    _forget_rebuilt(table_id)


def _forget_rebuilt(table_id: int) -> None:
    if any(key[0] == table_id for key in _REBUILT):
        _REBUILT.clear()


def kept_tables() -> int:
    """Tables whose screens are remembered (for the memory benchmark and its test)."""
    return len(_LIVE)


def kept_screens(table_id: int) -> int:
    """The seats' screens remembered of a table (its latest change's)."""
    kept = _LIVE.get(table_id)
    return len(kept.seats) if kept is not None else 0


def seen_by(table: TableRow, game: Game, state: State, player: str, _: Translator) -> Seen:
    kept = _kept(table)
    key = (player, _.language)
    found = kept.seats.get(key) if kept is not None else None
    if isinstance(found, Seen):
        return found
    slot = (table.table_id, table.created_at, (table.version, table.revision), *key)
    if found is not None:  # kept without its tree: built again from this version's state
        seen = _REBUILT.get(slot) or Seen(
            found.legal, _tree_now(table, game, state, player, found.legal, _), found.keyboard, found.prompt
        )
    else:
        seen = _seen_now(table, game, state, player, _)
        if kept is None or len(seen.tree.nodes) <= TREE_KEPT_NODES:
            if kept is not None:
                kept.seats[key] = seen
            return seen
        kept.seats[key] = Unkept.of(seen)
    _REBUILT.clear()
    _REBUILT[slot] = seen
    return seen


def _tree_now(table: TableRow, game: Game, state: State, player: str, legal: list[Action], _: Translator) -> ActionTree:
    return build_tree(*_offered(table, player_view(table, game, state, player), legal, player, _))


def _seen_now(table: TableRow, game: Game, state: State, player: str, _: Translator) -> Seen:
    view = player_view(table, game, state, player)
    finished = game.is_finished(state)
    legal = [] if finished else game.legal_actions(state, player)
    ordered, paths = _offered(table, view, legal, player, _, finished)
    tree = build_tree(ordered, paths)
    renderer = renderer_for(table.game)
    prompt = "" if finished else renderer.prompt(view, legal, player in game.to_act(state), _)
    return Seen(legal, tree, keyboard_digest(ordered), prompt)


def _offered(
    table: TableRow, view: dict[str, Any], legal: list[Action], player: str, _: Translator, finished: bool = False
) -> tuple[list[Action], Callable[[Action], Sequence[Sequence[Step]]]]:
    """The actions a seat's keyboard offers, in its order, and how each is reached: what its
    tree is built from."""
    renderer = renderer_for(table.game)
    offered = legal if finished else [*legal, *renderer.extra_actions(view, player)]
    return renderer.order_actions(offered, view), lambda action: renderer.action_paths(action, view, _)


def watched_by(table: TableRow, game: Game, state: State, _: Translator) -> Watched:
    kept = _kept(table)
    watched = kept.watched.get(_.language) if kept is not None else None
    if watched is None:
        watched = Watched(player_view(table, game, state, None), _("👀 You are watching this table."))
        if kept is not None:
            kept.watched[_.language] = watched
    return watched


def first_moves(tree: ActionTree) -> tuple[Action | None, ...]:
    """Under each node, the move its first branch leads to (nodes are numbered breadth-first, so
    a node's children come after it)."""
    first: list[Action | None] = [None] * len(tree.nodes)
    for node in reversed(tree.nodes):
        first[node.number] = (
            node.action if node.action is not None else (first[node.links[0][1].number] if node.links else None)
        )
    return tuple(first)


def earlier_move(table: TableRow, player: str, keyboard: int, node: int) -> Action | None:
    """The move a button of a keyboard `player` was shown earlier at this table stood for (the
    first under it, for a branch), while that keyboard is remembered."""
    kept = _LIVE.get(table.table_id)
    if kept is None or kept.created_at != table.created_at:
        return None
    for (seat, _language), seen in kept.seats.items():
        if seat == player and seen.keyboard == keyboard:
            if isinstance(seen, Unkept):
                return seen.earlier.move(node)
            found = seen.tree.node(node)
            return first_moves(seen.tree)[node] if found is not None else None
    keyboards = kept.earlier.get(player)
    earlier = keyboards.get(keyboard) if keyboards is not None else None
    return earlier.move(node) if earlier is not None else None


def shared_by(table: TableRow, game: Game, state: State | None, _: Translator) -> Shared:
    kept = _kept(table)
    shared = kept.shared.get(_.language) if kept is not None else None
    if shared is None:
        shared = _shared_now(table, game, state, _)
        if kept is not None:
            kept.shared[_.language] = shared
    return shared


def _shared_now(table: TableRow, game: Game, state: State | None, _: Translator) -> Shared:
    renderer = renderer_for(table.game)
    buttons: tuple[TableButton, ...] = ()
    if state is not None:
        public = player_view(table, game, state, None)
        buttons = tuple(
            TableButton(label, key, renderer.table_button_warning(key, _))
            for label, key in renderer.table_buttons(public, table.names, _)
        )
    lines = renderer.log_lines(table.recent_events, _, table.names)[-LINES_KEPT:]
    text = round_results(table, _)
    results = None
    if text and table.round_events:
        edition = table.round_events.get("version", 0)
        results = (edition, tuple(line for line in shown_text(text).split("\n") if line.strip()))
    return Shared(buttons, tuple(shown_text(line) for line in lines), results)
