"""The player's legal actions as a tree of buttons, so any game gets a phone keyboard for free.

A game renderer gives each legal action a path of steps, one per tap: (Card("7♥️"),) for a
one-card play, (Card("J♥️"), "♥️ hearts") for a Jack and its command, (Alone("Draw"),) for a
move that stands on its own row. Cards chosen together are either consecutive `Card` steps
(their order counts: Kadi's last card is the new top) or one `Pick` (any order: Lopti's cards
of a rank, Euchre's five to keep). The tree merges common prefixes; a `Pick` makes one node per
set of marked cards, so every tap order reaches the same play. A `Shortcut` is one more way to
a play of several cards: one press (⏩) instead of the cards one by one.

Each tap on a card marks it and shows the cards that may join it; a play of several cards, or
of a card that others may still join, waits for a ✔ (a child of its own), while a card that
nothing can join plays at once. Nodes are numbered breadth-first, so the same legal actions
always give the same numbers: a button carries only its number and the server rebuilds the
tree to find what it meant.

Links lead down only: a node names its parent, and the nodes its marked cards go back to, by
number. A tree thus holds no cycle and is freed as soon as it is dropped; with links both ways
every dropped tree (a few per move) waited for the garbage collector's rare full pass, and the
memory they held stayed with the process (docs/PERFORMANCE.md, "Memory per open table").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

Action = dict[str, Any]

CONFIRM = "✔"

# Kinds of buttons, which decide where they stand on the keyboard.
CARD = "card"  # packed several to a row
ALONE = "alone"  # a row of its own (Draw, Take the pile, Go out, Pass)
MOVE = "move"  # any other choice, packed by width
DONE = "confirm"  # the ✔ that plays the marked cards
CARDS = "cards"  # a play of several cards at one press (⏩): a move on the chat keyboard
CALL = "call"  # a call the player races to make (Kadi's "Kadi Moja!"): a move on the chat keyboard


class Card(str):
    """A step that names one card: its label, and its engine code (the Mini App draws codes)."""

    code: str

    def __new__(cls, label: str, code: str = "") -> Card:
        step = super().__new__(cls, label)
        step.code = code
        return step


class Alone(str):
    """A step that stands on its own row, away from the cards a thumb is aiming at."""


class Shortcut(str):
    """A one-press button (⏩) for a play of several cards that may also be tapped card by card:
    a move beside the cards. A keyboard shows at most `MAX_SHORTCUTS` of them, those of the
    first actions in the order given, so that a big hand keeps its cards five to a row. `codes`:
    the engine codes of its cards, in the order named."""

    codes: tuple[str, ...]

    def __new__(cls, label: str, codes: tuple[str, ...] = ()) -> Shortcut:
        step = super().__new__(cls, label)
        step.codes = codes
        return step


class Call(str):
    """A step that calls out (Kadi's "Kadi Moja!"): a move on the chat keyboard, a big button in
    the Mini App."""


# Shortcuts on one keyboard: one row of pairs on a phone.
MAX_SHORTCUTS = 3


class Spare(list):
    """A way to tap an action that the keyboard uses only when none of the action's other ways is
    shown (its shortcut was over `MAX_SHORTCUTS`): a pair of a rank is then marked card by card,
    and otherwise each of its cards plays alone at once, the pair being one ⏩ press."""


@dataclass(frozen=True)
class Pick:
    """Cards chosen together in any order; their labels in the order they are shown, and their
    engine codes in the same order."""

    cards: tuple[str, ...]
    codes: tuple[str, ...] = ()


Step = str | Pick


@dataclass(eq=False, slots=True)
class Node:
    # The label of the button that leads here from `parent` (the first way found).
    label: str
    kind: str = MOVE
    number: int = -1
    # The engine codes of the cards a CARDS button (⏩) plays (a card's code: `ActionTree.codes`).
    codes: tuple[str, ...] = ()
    action: Action | None = None
    # (label, child) for every button this node opens to.
    # A list while the tree is built, a tuple once it is.
    links: list[tuple[str, Node]] | tuple[tuple[str, Node], ...] = field(default_factory=list)
    # The number of the node before (-1 at the top).
    parent: int = -1
    # While cards are being chosen: the number of the node before the first of them, the marked
    # cards (label, the number of the node that unmarks it), and the order the candidates are
    # shown in.
    start: int = -1
    marks: tuple[tuple[str, int], ...] = ()
    shown_order: tuple[str, ...] = ()

    @property
    def children(self) -> list[Node]:
        return [child for _label, child in self.links]

    def add_link(self, label: str, child: Node) -> None:
        """A button to `child`, while the tree is built (its links still a list)."""
        links = self.links
        assert isinstance(links, list), "a built tree's links do not change"
        links.append((label, child))


@dataclass
class ActionTree:
    root: Node
    nodes: list[Node]
    # The engine code of each card label in the tree (a marked card is known by its label).
    codes: dict[str, str] = field(default_factory=dict)

    def node(self, number: int) -> Node | None:
        return self.nodes[number] if 0 <= number < len(self.nodes) else None

    def path(self, node: Node) -> list[str]:
        """The labels tapped from the top to reach `node`."""
        labels = []
        while node.parent >= 0:
            labels.append(node.label)
            node = self.nodes[node.parent]
        return labels[::-1]


def step_kind(step: str) -> str:
    if isinstance(step, Card):
        return CARD
    if isinstance(step, Alone):
        return ALONE
    if isinstance(step, Shortcut):
        return CARDS
    if isinstance(step, Call):
        return CALL
    return MOVE


def step_codes(step: str) -> tuple[str, ...]:
    return step.codes if isinstance(step, Shortcut) else ()


class _Builder:
    def __init__(self) -> None:
        self.root = Node(label="")
        # For `Pick` steps, by the start node's id: the node of each set of marked cards, the set
        # as a mask of the cards' places in `order` (the cards in the order first offered).
        self.sets: dict[int, dict[int, Node]] = {}
        self.set_of: dict[int, int] = {}
        self.order: dict[int, list[str]] = {}
        self.shown: dict[int, tuple[str, ...]] = {}
        self.joined: set[tuple[int, str]] = set()
        # By the start node's id, then a set's mask: the mask of the cards it links to already.
        self.wider: dict[int, dict[int, int]] = {}
        self.shortcuts: dict[int, set[str]] = {}
        self.codes: dict[str, str] = {}
        # While building, by id: each node's parent and, for a set of cards, the node it starts at.
        self.up: dict[int, Node] = {}
        self.start_of: dict[int, Node] = {}

    def link(self, node: Node, label: str, kind: str, codes: tuple[str, ...] = ()) -> Node:
        """The child behind the button `label`, made if it is new."""
        for existing, child in node.links:
            if existing == label:
                return child
        child = Node(label=label, kind=kind, codes=codes)
        self.up[id(child)] = node
        node.add_link(label, child)
        return child

    def add(self, action: Action, path: Sequence[Step]) -> bool:
        """Add a way to tap `action`; False when it is a shortcut over the keyboard's cap."""
        node = self.root
        for step in path:
            if isinstance(step, Shortcut):
                shown = self.shortcuts.setdefault(id(node), set())
                if step not in shown and len(shown) >= MAX_SHORTCUTS:
                    return False  # the action keeps its other paths (its cards one by one)
                shown.add(step)
            if isinstance(step, Pick):
                self.codes.update(zip(step.cards, step.codes))
                node = self._pick(node, step.cards)
            else:
                if isinstance(step, Card) and step.code:
                    self.codes[step] = step.code
                node = self.link(node, step, step_kind(step), step_codes(step))
        if node.action is None:
            node.action = action
        return True

    def _pick(self, start: Node, cards: tuple[str, ...]) -> Node:
        """The node of `cards` chosen together from `start`, and every smaller choice on the way:
        each choice links to the choices one card wider."""
        cards = tuple(dict.fromkeys(cards))
        order = self.order.setdefault(id(start), [])
        order.extend(card for card in cards if card not in order)
        places = [order.index(card) for card in cards]
        # Each card's label as first offered: the tree's links then share one string per card,
        # not one per pick that names it (Euchre's keep-five named each card 126 times).
        cards = tuple(order[place] for place in places)
        bits = [1 << place for place in places]
        whole = 0
        for card, bit in zip(cards, bits):
            self._join(start, card, self._set_node(start, bit))
            whole |= bit
        # Many picks share their smaller sets (Euchre's 252 ways to keep five of ten): a set
        # that links to all of this pick's other cards already is passed over whole.
        wider = self.wider.setdefault(id(start), {})
        for size in range(1, len(cards)):
            for chosen in combinations(bits, size):
                mask = sum(chosen)
                linked = wider.get(mask, 0)
                if not whole & ~(mask | linked):
                    continue
                node = self._set_node(start, mask)
                for card, bit in zip(cards, bits):
                    if not (mask | linked) & bit:
                        node.add_link(card, self._set_node(start, mask | bit))
                        linked |= bit
                wider[mask] = linked
        return self._set_node(start, whole)

    def _shown_order(self, start: Node) -> tuple[str, ...]:
        """The order a pick's cards are shown in: one tuple for all its sets."""
        shown = self.shown.get(id(start))
        if shown is None:
            shown = self.shown[id(start)] = tuple(self.order.get(id(start), ()))
        return shown

    def _join(self, node: Node, label: str, child: Node) -> None:
        if (id(node), label) not in self.joined:
            self.joined.add((id(node), label))
            node.add_link(label, child)

    def _set_node(self, start: Node, chosen: int) -> Node:
        sets = self.sets.setdefault(id(start), {})
        node = sets.get(chosen)
        if node is None:
            node = sets[chosen] = Node(label="", kind=CARD)
            self.set_of[id(node)] = chosen
            self.start_of[id(node)] = start
        return node

    def finish(self) -> ActionTree:
        self._confirms(self.root, set())
        nodes = self._number()
        for node in nodes:
            self._mark(node)
        for node in nodes:  # built: a tuple is smaller than a list, and most nodes have no links
            node.links = tuple(node.links)
        return ActionTree(self.root, nodes, self.codes)

    def _confirms(self, node: Node, seen: set[int]) -> None:
        """A card choice that could still grow, or that holds several cards, plays with ✔."""
        if id(node) in seen:
            return
        seen.add(id(node))
        for _label, child in list(node.links):
            self._confirms(child, seen)
        if node.action is None or node.kind != CARD:
            if node.action is not None and node.links:
                node.add_link(CONFIRM, Node(label=CONFIRM, kind=DONE, action=node.action))
                node.action = None
            return
        if node.links or self._chosen_count(node) > 1:
            node.add_link(CONFIRM, Node(label=CONFIRM, kind=DONE, action=node.action))
            node.action = None

    def _chosen_count(self, node: Node) -> int:
        if id(node) in self.set_of:
            return self.set_of[id(node)].bit_count()
        count = 0
        current: Node | None = node
        while current is not None and current.kind == CARD and id(current) not in self.set_of:
            count += 1
            current = self.up.get(id(current))
        return count

    def _number(self) -> list[Node]:
        self.root.number = 0
        nodes = [self.root]  # breadth-first: the nodes still to visit are the list's tail
        for current in nodes:
            for label, child in current.links:
                if child.number < 0:
                    child.number = len(nodes)
                    child.parent = current.number
                    self.up[id(child)] = current
                    child.label = label
                    nodes.append(child)
        return nodes

    def _mark(self, node: Node) -> None:
        """The marked cards of a choice in progress, each with the node that unmarks it."""
        chosen = self.set_of.get(id(node))
        if chosen is not None:
            start = self.start_of[id(node)]
            node.start = start.number
            node.shown_order = self._shown_order(start)
            sets = self.sets[id(start)]
            node.marks = tuple(
                (card, sets.get(chosen & ~(1 << place), start).number)
                for place, card in enumerate(node.shown_order)
                if chosen >> place & 1
            )
            return
        if node.kind != CARD or node.parent < 0:
            return
        chain = []
        current: Node | None = node
        while current is not None and current.kind == CARD and id(current) not in self.set_of:
            chain.append(current)
            current = self.up.get(id(current))
        chain.reverse()
        before = self.up.get(id(chain[0]))
        node.start = before.number if before is not None else -1
        marks = []
        for index, marked in enumerate(chain):
            rest = [other.label for other in chain[index + 1 :]]
            parent = self.up.get(id(marked))
            target = _follow(parent, rest) if parent is not None else None
            marks.append((marked.label, (target or parent or self.root).number))
        node.marks = tuple(marks)


def _follow(node: Node, labels: Sequence[str]) -> Node | None:
    """The node reached from `node` by tapping `labels` (cards only), or None."""
    for label in labels:
        found = next((child for existing, child in node.links if existing == label and child.kind == CARD), None)
        if found is None:
            return None
        node = found
    return node


def build_tree(actions: Sequence[Action], paths_of: Callable[[Action], Sequence[Sequence[Step]]]) -> ActionTree:
    """The tree of `actions`; `paths_of(action)` gives the ways to tap it (most actions have one)."""
    builder = _Builder()
    for action in actions:
        paths = paths_of(action)
        shown = [builder.add(action, path) for path in paths if not isinstance(path, Spare)]
        if not any(shown):
            for path in paths:
                if isinstance(path, Spare):
                    builder.add(action, path)
    return builder.finish()
