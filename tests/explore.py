"""An engine-level explorer: matches played so that every action type of a game is taken.

The redeal leak tests of the front ends (web table, terminal, environments) replay what the
explorer played, comparing what each seat is shown with redealt copies, so that a type the
heuristic bots never take (a trade, a gift, a sealed bid, an identity card passed by hand) is
still shown on every screen at least once.

At each decision the explorer takes, when one is legal, an action of a type not taken yet (in
this match or in the explorer's earlier matches of the same game: the rarest offered first, then
a seeded draw), else one of the least-taken legal type now and then (``curious``), else the
game's heuristic bot plays. Engine-level play is fast (no front end): the explorer plays seed
after seed of each configuration until every type of the game's action catalogue
(:mod:`ludica.env.games`) has been taken, and keeps the matches that took a type first.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ludica.bots.base import BOTS, make_bot, situation
from ludica.core import CHANCE, Config, Match, get_game
from ludica.core.actions import Action, fill
from ludica.env.encoding import catalogue
from tests.redeal_helpers import PLAYERS  # the players of the heuristic-driven leak tests

make_bot("random", "pig")  # the registry of bots filled (each game's heuristic plugin too)

VARIANTS: dict[str, dict[str, Any]] = {
    "great-city": {"agent_triads": "chosen"},  # the GM sets a character's triad: set_triad
    "euthymia": {"CM_PASS_MODE": "manual", "BOTTLE_MODE": "reseal"},  # pass_identity_card, fill_all_and_reseal
    "misery-bubblegum": {"calling_order": "round_robin"},  # pass_turn
    "lost-days": {"market_minimum": 8, "starting_purse": 20},  # the market replenished; coins for a kingship raise
    "euphoria": {"recruit_draft": True, "market_draft": True, "morale_knowledge_draft": True},  # the drafts
}
"""Options of a second configuration per game, with the optional rules whose action types the
default configuration never offers (the default's own types stay reachable in the first)."""

SEEDS = 100
"""The most seeds explored per configuration before the explorer gives up on a type."""

CURIOSITY = (0.6, 0.9)
"""How often, seed after seed in turn, the explorer takes the least-taken legal type when no type
is new (``curious``): a type that needs a rare position (a Threat's blocking die in Misery
Bubblegum) comes once the bots stray further from their own play."""

MAX_STEPS = 3000
"""The most steps of one explored match (chance steps included)."""


def action_types(game_id: str, config: Config) -> set[str]:
    """Every action type the game can offer a seat under ``config`` (its environment catalogue)."""
    game = get_game(game_id)
    seats = game.seats(Match(game, config).state)
    return {sh.type for sh in catalogue(game, config, seats).shapes}


def configs(game_id: str) -> list[Config]:
    """The explored configurations of a game: its defaults, and its optional rules (:data:`VARIANTS`)."""
    names = tuple(f"P{i + 1}" for i in range(PLAYERS.get(game_id, 2)))
    return [Config(names, {}, f"{game_id}-explored"), Config(names, VARIANTS.get(game_id, {}), f"{game_id}-variant")]


@dataclass
class Exploration:
    """A match the explorer played: its config, its record (chance steps included), and the
    index in the record where each type was taken for the first time in all the exploration."""

    game_id: str
    config: Config
    actions: list[Action]
    first: dict[str, int]

    def types(self) -> set[str]:
        return {a.type for a in self.actions if a.seat != CHANCE}


def explore(
    game_id: str,
    config: Config,
    *,
    seed: int = 0,
    taken: Counter[str] | None = None,
    wanted: set[str] | None = None,
    curious: float = 0.3,
    max_steps: int = MAX_STEPS,
) -> Exploration:
    """One match of ``config`` played by the explorer (see the module). ``taken`` counts the types
    taken before (it is updated); the match stops early once every type in ``wanted`` is taken."""
    game = get_game(game_id)
    match: Match[Any] = Match(game, config)
    rng = random.Random(seed)
    spec = "heuristic" if "heuristic" in BOTS else "random"
    bots: dict[str, Any] = {}
    counts: Counter[str] = taken if taken is not None else Counter()
    offered: Counter[str] = Counter()
    first: dict[str, int] = {}
    for _ in range(max_steps):
        pending = match.pending()
        if pending.is_over or (wanted is not None and all(counts[t] for t in wanted)):
            break
        if pending.is_chance:
            match.deal(trusted=True, pending=pending)
            continue
        seats = [s for s in pending.seats if s != CHANCE]
        legal = {s: match.legal_actions(s) for s in seats}
        kinds = sorted({a.type for s in seats for a in legal[s]})
        offered.update(kinds)
        novel = [t for t in kinds if not counts[t]]
        if novel:
            rarest = min(offered[t] for t in novel)
            kind: str | None = rng.choice([t for t in novel if offered[t] == rarest])
        elif rng.random() < curious:
            least = min(counts[t] for t in kinds)
            kind = rng.choice([t for t in kinds if counts[t] == least])
        else:
            kind = None
        if kind is not None:
            action = fill(rng.choice([a for s in seats for a in legal[s] if a.type == kind]), rng)
        else:
            seat = rng.choice(seats)
            if seat not in bots:
                bots[seat] = make_bot(spec, game_id, seed * 31 + len(bots))
            action = bots[seat].decide(situation(match, seat)).as_action()
        if not counts[action.type]:
            first[action.type] = len(match.actions)
        counts[action.type] += 1
        match.apply(action, trusted=True, pending=pending)
    return Exploration(game_id, config, list(match.actions), first)


@functools.cache
def explorations(game_id: str) -> tuple[Exploration, ...]:
    """The matches that first took each action type of the game: a seed of each configuration
    (:func:`configs`) in turn, until every type is taken or :data:`SEEDS` seeds were played."""
    kept: list[Exploration] = []
    taken: Counter[str] = Counter()
    types = [(config, action_types(game_id, config)) for config in configs(game_id)]
    for seed in range(SEEDS):
        for config, wanted in types:
            before = {t for t in taken if taken[t]}
            if wanted <= before:
                continue
            curious = CURIOSITY[seed % len(CURIOSITY)]
            found = explore(game_id, config, seed=seed, taken=taken, wanted=wanted, curious=curious)
            found.first = {t: i for t, i in found.first.items() if t not in before}
            if found.first:
                kept.append(found)
    return tuple(kept)


def all_types(game_id: str) -> set[str]:
    """Every action type of the game over its explored configurations."""
    return set().union(*(action_types(game_id, c) for c in configs(game_id)))


UNREACHABLE: dict[str, dict[str, str]] = {}
"""Action types of a game no explored match reaches, with the reason (none: every type is reached)."""

AROUND = 1
"""A type's first taking is compared at the decision where it is taken and at this many decisions
(chance steps skipped) before and after it."""


def windows(exploration: Exploration) -> set[int]:
    """The record indices (each the state before that action, a seat's decision) compared around
    each first taking of a type."""
    decisions = [i for i, a in enumerate(exploration.actions) if a.seat != CHANCE]
    where = {i: n for n, i in enumerate(decisions)}
    return {
        decisions[k]
        for f in exploration.first.values()
        for k in range(where[f] - AROUND, where[f] + AROUND + 1)
        if 0 <= k < len(decisions)
    }


def reached_report(game_id: str, reached: set[str], where: str) -> str:
    """Fail with the action types of the game that ``reached`` misses; else the line that lists them."""
    missing = all_types(game_id) - reached - set(UNREACHABLE.get(game_id, {}))
    assert not missing, f"{game_id}: the {where} leak test never reached {sorted(missing)}"
    return f"{game_id} ({where}): {len(reached)} action types reached: {', '.join(sorted(reached))}"
