"""Information-set Monte Carlo tree search: the ``ismcts`` bot.

Single-observer ISMCTS in the manner of Cowling, Powley and Whitehouse (2012), for any number of
seats. One tree is grown for the deciding seat; its nodes are the actions taken (by any seat),
not states. Every iteration

1. **determinizes**: imagines a state the seat cannot tell apart from the true one
   (:meth:`Situation.imagine`, the game's redeal), so that what the others hold is drawn anew
   each time and the search never relies on what the seat may not see;
2. **selects** down the tree among the actions legal *in that determinization*, by UCB1 in which
   a child's exploration term counts the iterations in which it was available (not the parent's
   visits), from the point of view of the seat acting there;
3. **expands** one untried action, under *progressive widening*: a node visited *n* times has at
   most ``1 + widen·√n`` children, so a wide decision (a hundred placements) is searched among a
   few actions well rather than among all of them once; at the root the heuristic's own choice
   is the first child;
4. **plays out** with the ``heuristic`` bot (or the random policy), for at most ``horizon`` steps;
   chance steps on the way are sampled as a dealer would (:meth:`ChanceStep.sample`), and a lone
   listed action is played without asking the policy;
5. **backs up** one reward per seat: at the end of the game the winners share 1; when the
   playout is cut short, the game's :meth:`~ludica.core.game.Game.standing` (or an even share
   when the game has none) stands in for the result.

The decision is the most visited action at the root, except that the heuristic's choice is kept
unless the search found an action better by ``anchor`` standard errors (its mean reward against
the heuristic choice's): with few playouts the search is noisy, and a noisy search must not
throw away the strength of its own playout policy. And where the seat meets again a position it
has already decided in (the same view and the same legal actions: the game went round in a
circle, e.g. a trade it offered was declined and the scene waits as before), it plays the
heuristic's choice without searching: a search cut at ``horizon`` steps can prefer an offer that
only postpones the future, and would offer it for ever (:meth:`ISMCTSBot.recall` tells a bot
made anew for each decision, as the table's are, where the seat has been). Actions are played on
raw states with the rules' :meth:`~ludica.core.game.Game.play` and no second check (they come from the legal list:
what :meth:`Match.apply` calls *trusted*); free parameters are filled with
:func:`~ludica.core.actions.fill`.

Parameters (``ismcts:playouts=300,policy=heuristic``): ``playouts`` (iterations per decision),
``seconds`` (a time budget instead, not reproducible), ``policy`` (``heuristic``, the default, or
``random``; random when no heuristic is registered), ``c`` (exploration, default 0.7), ``horizon`` (playout
steps before the standing decides), ``widen`` (progressive widening, 0: every action at once),
``anchor`` (standard errors by which an action must beat the heuristic's choice; 0: the most
visited action, as in plain ISMCTS).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.actions import CHANCE, Action, IntRange, fill
from ..core.game import Game
from ..core.match import digest_of
from ..core.registry import get_game
from ..core.values import rebuilt
from .base import BOTS, Bot, Decision, Situation, register_bot

DEFAULT_PLAYOUTS = 200
"""Iterations per decision at the default level: with heuristic playouts cut at
:data:`DEFAULT_HORIZON` steps, about 0.6 s a move in 4-player Euphoria on one core of the
compiled build, 0.45 s in the Great City, 0.3 s in Lost Days (``benchmarks/bench_bots.py``
prints the playouts per second); issue 22's bound is 1 s."""
DEFAULT_HORIZON = 40
"""Playout steps before the standing decides: about one round of 4-player Euphoria. Longer
playouts cost time and add the noise of a far future the heuristic plays poorly."""
DEFAULT_C = 0.7
DEFAULT_WIDEN = 1.0
DEFAULT_ANCHOR = 1.0
DEFAULT_RIVALS = "search"
"""``search``: the other seats' moves are searched too, each for its own reward; ``policy``: they
play as the playout policy (the heuristic) would, and only the deciding seat's moves are searched
(a best reply to the heuristic)."""
SPREAD = 12
"""An amount (``IntRange``) with at most this many values is searched value by value; a wider
one, or free text, is filled at random (:func:`~ludica.core.actions.fill`)."""

Policy = Callable[[Game[Any], Any, str, list[Action], random.Random], Action]


@dataclass(slots=True, eq=False)
class Node:
    """Statistics of one action in the tree: taken by ``seat``; rewards per seat, summed."""

    action: Action | None = None
    seat: str = ""
    visits: int = 0
    available: int = 0
    reward: dict[str, float] = field(default_factory=dict)
    square: float = 0.0
    """The sum of the squared rewards of ``seat`` (for the standard error of the root's choice)."""
    children: dict[Action, Node] = field(default_factory=dict)

    def mean(self, seat: str) -> float:
        return self.reward.get(seat, 0.0) / self.visits if self.visits else 0.0

    def error(self) -> float:
        """The standard error of the mean reward of ``seat`` (the seat acting here)."""
        if self.visits < 2:
            return math.inf
        mean = self.mean(self.seat)
        variance = max(0.0, self.square / self.visits - mean * mean)
        return math.sqrt(variance / (self.visits - 1))


@dataclass(slots=True)
class Budget:
    playouts: int = DEFAULT_PLAYOUTS
    seconds: float | None = None

    def running(self, done: int, start: float) -> bool:
        if self.seconds is not None:
            return time.perf_counter() - start < self.seconds
        return done < self.playouts


def choices(legal: list[Action]) -> list[Action]:
    """The legal actions with every small amount spelled out as its values (see :data:`SPREAD`)."""
    out = []
    for action in legal:
        if action.is_template:
            spread = [(k, v) for k, v in action.args.items() if isinstance(v, IntRange) and v.hi - v.lo < SPREAD]
            if len(spread) == 1:
                key, span = spread[0]
                out += [Action(action.seat, action.type, {**action.args, key: n}) for n in range(span.lo, span.hi + 1)]
                continue
        out.append(action)
    return out


def random_policy(game: Game[Any], state: Any, seat: str, legal: list[Action], rng: random.Random) -> Action:
    return fill(legal[rng.randrange(len(legal))], rng)


def bot_policy(bot: Bot) -> Policy:
    """A playout policy that asks ``bot`` (e.g. the heuristic) for each decision."""

    def choose(game: Game[Any], state: Any, seat: str, legal: list[Action], rng: random.Random) -> Action:
        return bot.decide(Situation(game, seat, None, legal, state=state)).action

    return choose


class ISMCTSBot:
    """The ``ismcts`` bot (see the module's documentation for the algorithm and parameters)."""

    name = "ismcts"

    def __init__(
        self,
        game: Game[Any],
        *,
        seed: int = 0,
        budget: Budget | None = None,
        policy: Policy = random_policy,
        c: float = DEFAULT_C,
        horizon: int = DEFAULT_HORIZON,
        guide: Bot | None = None,
        widen: float = DEFAULT_WIDEN,
        anchor: float = DEFAULT_ANCHOR,
        rivals: str = "search",
    ) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.policy = policy
        self.c = c
        self.horizon = horizon
        self.guide = guide
        self.widen = widen
        self.anchor = anchor
        self.rivals = rivals
        self.last_playouts = 0
        self.repeats = 0
        """How often the seat met a position again and played the guide's choice (see :meth:`decide`)."""
        self._first: Action | None = None
        self._referees: frozenset[str] = frozenset()
        self._seen: set[str] = set()

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self, self.game)  # compiled, a copy calls __init__ (see ludica.core.values)

    # -- the decision ------------------------------------------------------------------------
    def decide(self, situation: Situation) -> Decision:
        legal = choices(situation.legal)
        if not legal:
            raise RuntimeError(f"{self.game.meta.id}: seat {situation.seat} has no legal action")
        if len(legal) == 1:
            self.last_playouts = 0
            return Decision(fill(legal[0], self.rng), "Only one thing to do." if not legal[0].is_template else "")
        self._first = self.hint(situation, legal)
        if self._first is not None and not self._first_time(situation):
            self.repeats += 1
            self.last_playouts = 0
            return Decision(fill(self._first, self.rng), "I have been here before: no more thinking, the safe move.")
        root = self.search(situation)
        listed = set(legal)
        ranked = sorted(
            (n for a, n in root.children.items() if a in listed), key=lambda n: (n.visits, n.mean(situation.seat))
        )
        if not ranked:
            return Decision(fill(legal[self.rng.randrange(len(legal))], self.rng), "Nothing came of my thinking.")
        best = self.choose(root, ranked)
        assert best.action is not None
        return Decision(fill(best.action, self.rng), self.narrate(best, situation.seat))

    def recall(self, situation: Situation) -> None:
        """A decision this seat faced earlier in the game: a bot made anew for each decision
        learns here where the game has been (see :meth:`decide`)."""
        self._seen.add(position_key(situation))

    def _first_time(self, situation: Situation) -> bool:
        """True the first time the seat decides in this position (and remember it)."""
        key = position_key(situation)
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def hint(self, situation: Situation, legal: list[Action]) -> Action | None:
        """The guide's (the heuristic's) choice in this situation, as one of ``legal``, or None."""
        if self.guide is None:
            return None
        action = self.guide.decide(situation).action
        if action in legal:
            return action
        return next((a for a in legal if a.type == action.type and a.is_template), None)

    def choose(self, root: Node, ranked: list[Node]) -> Node:
        """The most visited child; but the guide's choice unless that one beats it by ``anchor``
        standard errors of the difference of their mean rewards."""
        best = ranked[-1]
        guided = root.children.get(self._first) if self._first is not None else None
        if self.anchor <= 0 or guided is None or guided is best:
            return best
        contenders = [n for n in ranked if n is not guided and n.visits >= 2]
        if not contenders:
            return guided
        top = max(contenders, key=lambda n: n.mean(n.seat))
        margin = self.anchor * math.hypot(top.error(), guided.error())
        return top if top.mean(top.seat) - guided.mean(guided.seat) > margin else guided

    def referees(self, situation: Situation) -> frozenset[str]:
        """The seats that are not players (the Great City's GM): the game's standing names the
        players; a game without one has none."""
        try:
            state = situation.imagine(random.Random(0))  # only its seats are read: the search's draws stay its own
        except RuntimeError:
            return frozenset()
        seats = set(self.game.seats(state))
        if self.rivals == "policy":  # every other seat plays as the policy would
            return frozenset(seats - {situation.seat})
        standing = self.game.standing(state)
        return frozenset(seats - set(standing)) if standing else frozenset()

    def narrate(self, best: Node, seat: str) -> str:
        share = best.mean(seat)
        return f"I imagined {self.last_playouts} futures; this way I came out ahead in {share:.0%} of them."

    def search(self, situation: Situation) -> Node:
        root = Node(seat=situation.seat)
        self._referees = self.referees(situation)
        start = time.perf_counter()
        done = 0
        while self.budget.running(done, start):
            self.iterate(root, situation)
            done += 1
        self.last_playouts = done
        return root

    # -- one iteration -----------------------------------------------------------------------
    def iterate(self, root: Node, situation: Situation) -> None:
        game, rng = self.game, self.rng
        state = situation.imagine(rng)
        path = [root]
        node = root
        seat: str | None = situation.seat
        while True:
            pending = game.pending(state)
            if pending.is_over:
                break
            if pending.is_chance:
                self.deal(state)
                continue
            if seat is None:
                seat = pending.seats[0]
            legal = choices(game.legal_actions(state, seat))
            if not legal:  # a seat pending without a choice: nothing to search from here
                break
            child, expanded = self.select(node, seat, legal, state)
            game.play(state, fill(child.action, rng))  # type: ignore[arg-type]
            path.append(child)
            node, seat = child, None
            if expanded:
                break
        reward = self.playout(state)
        for n in path:
            n.visits += 1
            for s, r in reward.items():
                n.reward[s] = n.reward.get(s, 0.0) + r
            mine = reward.get(n.seat, 0.0)
            n.square += mine * mine

    def select(self, node: Node, seat: str, legal: list[Action], state: Any = None) -> tuple[Node, bool]:
        """The child to follow (UCB over the available ones) or a new one; True when new.

        A new child only while the node has fewer than ``1 + widen·√visits`` children (all of
        them at once when ``widen`` is 0), or when none of its children is legal here. The first
        child at the root is the guide's choice; with ``rivals=policy`` the first child of every
        node is the playout policy's, and a seat that is not the searching one (or a referee,
        which has no reward to tell its moves apart) always plays the policy's move."""
        children = node.children
        if seat in self._referees and (ruled := self._policy_choice(state, seat, legal)) is not None:
            return self._follow(node, seat, ruled)
        untried = []
        best, best_value = None, -math.inf
        for action in legal:
            child = children.get(action)
            if child is None:
                untried.append(action)
                continue
            child.available += 1
            value = child.mean(seat) + self.c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = child, value
        room = self.widen <= 0 or len(children) < 1 + self.widen * math.sqrt(node.visits)
        if untried and (room or best is None):
            first = self._first if node.action is None else None
            if node.action is not None and not children and self.rivals == "policy":
                first = self._policy_choice(state, seat, legal)
            action = first if first is not None and first in untried else untried[self.rng.randrange(len(untried))]
            child = Node(action, seat, available=1)
            children[action] = child
            return child, True
        assert best is not None
        return best, False

    def _follow(self, node: Node, seat: str, action: Action) -> tuple[Node, bool]:
        """The child of ``action`` (new or not): a referee seat's moves are the policy's, not
        searched, since no reward of its own tells its choices apart."""
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = Node(action, seat, available=1)
            return child, True
        child.available += 1
        return child, False

    def _policy_choice(self, state: Any, seat: str, legal: list[Action]) -> Action | None:
        """The playout policy's choice (None without a state or guide): an action of ``legal``,
        or its template."""
        if state is None or self.guide is None:
            return None
        chosen = self.policy(self.game, state, seat, legal, self.rng)
        if chosen in legal:
            return chosen
        return next((a for a in legal if a.type == chosen.type and a.is_template), None)

    def deal(self, state: Any) -> None:
        step = self.game.chance_step(state)
        self.game.play(state, Action(CHANCE, step.type, {**step.extra, **step.sample(self.rng)}))

    def playout(self, state: Any) -> Mapping[str, float]:
        game, rng = self.game, self.rng
        for _ in range(self.horizon):
            pending = game.pending(state)
            if pending.is_over:
                break
            if pending.is_chance:
                self.deal(state)
                continue
            seats = pending.seats
            seat = seats[0] if len(seats) == 1 else seats[rng.randrange(len(seats))]
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            only = legal[0] if len(legal) == 1 and not legal[0].is_template else None
            game.play(state, only if only is not None else self.policy(game, state, seat, legal, rng))
        return rewards(game, state)


def position_key(situation: Situation) -> str:
    """What the seat knows and may do, as a digest: its view and its legal actions. Two decisions
    with one key cannot be told apart by the seat: the game has come back where it was."""
    return digest_of({"view": situation.view, "legal": [a.to_json() for a in situation.legal]})


def rewards(game: Game[Any], state: Any) -> dict[str, float]:
    """One reward per seat: winners share 1 at the end; before it, a blend of each seat's share of
    the game's standing and whether it leads (an even share when the game has no standing)."""
    seats = game.seats(state)
    outcome = game.outcome(state)
    if outcome is not None:
        winners = [s for s in outcome.winners if s in seats]
        return {s: (1.0 / len(winners) if s in winners else 0.0) for s in seats} if winners else {}
    standing = game.standing(state)
    if not standing:
        return {}
    total = sum(max(0.0, v) for v in standing.values())
    top = max(standing.values())
    leaders = [s for s, v in standing.items() if v == top]
    out = {}
    for s, v in standing.items():
        share = max(0.0, v) / total if total > 0 else 1.0 / len(standing)
        out[s] = 0.5 * share + 0.5 * (1.0 / len(leaders) if s in leaders else 0.0)
    return out


def heuristic_bot(game_id: str, seed: int) -> Bot | None:
    """The heuristic bot of the game, or None when no heuristic is registered."""
    if "heuristic" not in BOTS:
        try:
            from . import heuristic  # noqa: F401  (registers "heuristic" when it exists)
        except ImportError:
            return None
    factory = BOTS.get("heuristic")
    bot = factory(game_id, {}, seed) if factory else None
    if bot is not None and getattr(bot, "plugin", True) is None:  # no heuristic for this game: it plays at random
        return None
    return bot


def heuristic_policy(game_id: str, seed: int) -> Policy | None:
    """The heuristic bot as a playout policy, or None when no heuristic is registered."""
    bot = heuristic_bot(game_id, seed)
    return bot_policy(bot) if bot is not None else None


PARAMETERS = ("playouts", "seconds", "policy", "c", "horizon", "widen", "anchor", "rivals")


def make_ismcts(game_id: str, params: dict[str, str], seed: int) -> ISMCTSBot:
    """``ismcts[:playouts=N|seconds=S][,policy=heuristic|random][,c=0.7][,horizon=150][,widen=1][,anchor=1][,rivals=search|policy]``."""
    from .heuristic import search_defaults

    params = {**search_defaults(game_id), **params}
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"ismcts has no parameter {', '.join(unknown)}; its parameters: {', '.join(PARAMETERS)}")
    try:
        budget = Budget(
            int(params.get("playouts", DEFAULT_PLAYOUTS)),
            float(params["seconds"]) if "seconds" in params else None,
        )
        c = float(params.get("c", DEFAULT_C))
        horizon = int(params.get("horizon", DEFAULT_HORIZON))
        widen = float(params.get("widen", DEFAULT_WIDEN))
        anchor = float(params.get("anchor", DEFAULT_ANCHOR))
    except ValueError:
        raise ValueError(
            "ismcts: playouts and horizon are whole numbers, seconds, c, widen and anchor are numbers"
        ) from None
    for name, value in (("seconds", budget.seconds), ("c", c), ("widen", widen), ("anchor", anchor)):
        if value is not None and not math.isfinite(value):
            raise ValueError(f"ismcts: {name}={params[name]} is not a finite number")
    if budget.playouts < 1 or (budget.seconds is not None and budget.seconds <= 0) or horizon < 0:
        raise ValueError("ismcts: playouts must be at least 1, seconds above 0, horizon at least 0")
    policy_name = params.get("policy", "heuristic")
    if policy_name not in ("random", "heuristic"):
        raise ValueError(f"ismcts: policy is random or heuristic, not {policy_name!r}")
    rivals = params.get("rivals", DEFAULT_RIVALS)
    if rivals not in ("search", "policy"):
        raise ValueError(f"ismcts: rivals is search or policy, not {rivals!r}")
    guide = heuristic_bot(game_id, seed)
    policy = (bot_policy(guide) if guide is not None and policy_name == "heuristic" else None) or random_policy
    return ISMCTSBot(
        get_game(game_id),
        seed=seed,
        budget=budget,
        policy=policy,
        c=c,
        horizon=horizon,
        guide=guide,
        widen=widen,
        anchor=anchor,
        rivals=rivals,
    )


register_bot("ismcts", make_ismcts)
