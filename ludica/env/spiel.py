"""OpenSpiel: every Ludica game as a pyspiel Python game (``pyspiel.load_game("ludica_euphoria")``).

Players are the game's seats in table order (a referee seat included, with return 0). Game
parameters: ``players`` (how many people play), ``options`` (the game's options as a JSON object
string) and ``max_steps`` (decisions after which the game is cut short with returns 0).

**Chance.** Each Ludica chance step is played out as a short sequence of uniform chance nodes, so
no node has more outcomes than the largest die, deck or list (``max_chance_outcomes``):

* ``Roll(sides)``: one node per die, outcome ``k`` means face ``k + 1``;
* ``Shuffle(n)``: the Fisher-Yates draws — node ``i`` (``i = n-1 .. 1``) picks ``j`` in ``0..i``
  and swaps places ``i`` and ``j`` of ``0..n-1``; every permutation has probability ``1/n!``;
* ``Pick(options, k)``: ``k`` nodes, each drawing one of the items still left.

Once a step's draws are complete the filled chance action is played. The distribution is exactly
the one of :meth:`ChanceStep.outcomes`, without listing ``52!`` outcomes.

**Information.** The observation string is the seat's view as canonical JSON; the observation
tensor is the seat's semantic tensor (:mod:`ludica.env.tensor`). The information state string is
the seat's whole observation history (perfect recall): its view at the start, then for every
record step (a decision, or a completed chance step) its own decision (``you: <label>``) and its
view if it changed (``·`` after a decision, ``~`` after a chance step when nothing it sees moved).
It is built on the first request by replaying the record, then kept up to date. There is no
information state tensor (the game type says so, and asking raises).
``resample_from_infostate`` imagines the hidden rest through the game's redeal, for IS-MCTS.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from ..core.actions import CHANCE, Action
from ..core.chance import ChanceStep, Pick, Roll, Shuffle, chance_action
from ..core.errors import ConfigError
from ..core.game import Config, Game
from ..core.match import canonical_json
from ..core.registry import GAME_MODULES, get_game
from .driver import make_config, next_seat, took_turn
from .encoding import (
    SPLIT,
    Catalogue,
    Legal,
    catalogue,
    default_text,
    max_chance_outcomes,
    narrative,
    observer,
    rewards,
)
from .encoding import max_steps as default_max_steps
from .infostate import FINGERPRINT, Recall, text_digest, text_keys
from .tensor import SchemaError

PREFIX = "ludica_"


def short_name(game_id: str) -> str:
    """``"great-city"`` -> ``"ludica_great_city"``."""
    return PREFIX + game_id.replace("-", "_")


def draw_sizes(step: ChanceStep) -> list[int]:
    """The sizes of the uniform draws that make up one chance step."""
    if isinstance(step, Roll):
        return list(step.sides)
    if isinstance(step, Shuffle):
        return [i + 1 for i in range(step.n - 1, 0, -1)]
    if isinstance(step, Pick):
        return [len(step.options) - i for i in range(step.k)]
    raise TypeError(f"unknown chance step {step!r}")


def next_node(sizes: list[int], nodes: list[int]) -> tuple[list[int], list[tuple[int, float]] | None]:
    """The uniform draws ``sizes`` played as chance nodes: from the outcomes of the nodes so far,
    the draws complete and the next node's ``(outcome, probability)`` (``None`` when all are made).

    A draw of ``m <= SPLIT`` outcomes is one uniform node; a larger one is two: a block of width
    ``w = ceil(sqrt(m))`` (block ``j`` with probability ``size_j / m``), then a place in it
    (uniform), so every one of the ``m`` outcomes has probability ``1/m`` exactly.
    """
    draws: list[int] = []
    i = 0
    for m in sizes:
        if m <= SPLIT:
            if i == len(nodes):
                return draws, [(k, 1.0 / m) for k in range(m)]
            draws.append(nodes[i])
            i += 1
            continue
        width = math.isqrt(m - 1) + 1
        if i == len(nodes):
            blocks = -(-m // width)
            return draws, [(j, min(width, m - j * width) / m) for j in range(blocks)]
        block = nodes[i]
        if i + 1 == len(nodes):
            size = min(width, m - block * width)
            return draws, [(k, 1.0 / size) for k in range(size)]
        draws.append(block * width + nodes[i + 1])
        i += 2
    return draws, None


def outcome_of(step: ChanceStep, draws: list[int]) -> dict[str, Any]:
    """The chance step's outcome from its complete draws."""
    if isinstance(step, Roll):
        return {step.key: [d + 1 for d in draws]}
    if isinstance(step, Shuffle):
        order = list(range(step.n))
        for i, j in zip(range(step.n - 1, 0, -1), draws, strict=True):
            order[i], order[j] = order[j], order[i]
        return {step.key: order}
    pool = list(step.options)
    for i, j in enumerate(draws):
        pool[i], pool[i + j] = pool[i + j], pool[i]
    return {step.key: pool[: step.k]}


def parse_options(text: str) -> dict[str, Any]:
    """The ``options`` parameter: a JSON object. In a ``load_game`` *string* OpenSpiel splits
    parameters at commas, so there the object's commas may be written as semicolons:
    ``ludica_lost_days(options={"starting_purse":9;"tie_rule":"stalemate"})``."""
    try:
        found = json.loads(text)
    except json.JSONDecodeError:
        try:
            found = json.loads(text.replace(";", ","))
        except json.JSONDecodeError as exc:
            raise ValueError(f"options must be a JSON object (commas may be written ';'): {text!r}") from exc
    if not isinstance(found, dict):
        raise ValueError(f"options must be a JSON object, not {text!r}")
    return found


BASE_PARAMETERS = ("players", "options", "max_steps")
"""The parameters of every game; each game option of a plain type (int, float, bool, str) is a
parameter too, by its own name (:func:`option_parameters`)."""


def option_parameters(game: Game[Any]) -> dict[str, Any]:
    """The game's options that ``pyspiel.load_game`` takes by name, with their defaults (an option
    of another type, such as a list, goes through ``options``)."""
    return {o.name: o.default for o in game.meta.options if type(o.default) in (int, float, bool, str)}


def game_options(game: Game[Any], params: dict[str, Any]) -> dict[str, Any]:
    """The game's options from ``load_game`` parameters: ``options`` (a JSON object), then each
    option given by name (where it differs from its default); an option given both ways is refused."""
    options = parse_options(str(params.get("options") or "{}"))
    defaults = option_parameters(game)
    for name, value in params.items():
        if name in BASE_PARAMETERS:
            continue
        if name not in defaults:
            known = ", ".join([*BASE_PARAMETERS, *defaults])
            raise ValueError(f"{short_name(game.meta.id)} has no parameter {name!r}; its parameters: {known}")
        if value == defaults[name] and type(value) is type(defaults[name]):
            continue
        if name in options and options[name] != value:
            raise ValueError(f"{short_name(game.meta.id)}: option {name!r} is given twice (by name and in options)")
        options[name] = value
    return options


@dataclass(slots=True)
class Context:
    """What every state of one loaded game shares (kept off the states, which are deep-copied)."""

    game: Game[Any]
    config: Config
    seats: tuple[str, ...]
    players: tuple[str, ...]
    catalogue: Catalogue
    observer: Any
    max_steps: int
    max_chance: int
    text_keys: frozenset[str] | None
    known: dict[tuple[int, ...], Recall] = field(default_factory=dict)
    """Information states built lately, by the OpenSpiel history they end (a state replayed from
    the same history, as ``random_sim_test`` does at every step, finds them)."""


KNOWN = 64
"""Information states a loaded game remembers by history (forgotten all at once beyond this)."""

_CONTEXTS: dict[int, Context] = {}


class LudicaSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Ludica game as seen by OpenSpiel (one class per game, made by :func:`register`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> LudicaSpielGame:
        return self

    GAME_ID = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.GAME_ID)
        params = dict(params or {})
        options = game_options(game, params)
        try:
            config = make_config(game, params.get("players", game.meta.players_min), 0, options)
        except (ValueError, ConfigError) as exc:  # a ConfigError names the option or rule
            raise ValueError(f"{short_name(game.meta.id)}: {exc}") from None
        state = game.setup(config)
        seats = tuple(game.seats(state))
        max_steps = int(params.get("max_steps", default_max_steps(game)))
        ctx = Context(
            game,
            config,
            seats,
            tuple(s for s in seats if s != game.meta.referee),
            catalogue(game, config, seats),
            observer(game, config, seats),
            max_steps,
            max_chance_outcomes(game, config),
            None,
        )
        view_schema = getattr(ctx.observer, "view", None)
        ctx.text_keys = None if view_schema is None else text_keys(view_schema)
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.catalogue.size,
            max_chance_outcomes=ctx.max_chance,
            num_players=len(seats),
            min_utility=-1.0,  # OpenSpiel's checks need min < max, even where every return is 0
            max_utility=1.0,
            utility_sum=0.0 if narrative(game) else None,
            max_game_length=max_steps,
        )
        super().__init__(_game_type(game), info, params)
        self.context_key = id(self)
        _CONTEXTS[self.context_key] = ctx

    def new_initial_state(self) -> LudicaSpielState:
        return LudicaSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LudicaObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return LudicaObserver(_CONTEXTS[self.context_key], perfect_recall)


class _Held:
    """A Ludica state held by an OpenSpiel state: copied by the game's own
    :meth:`~ludica.core.game.Game.copy` when OpenSpiel deep-copies (clones) its state, since the
    compiled kernels' values cannot be rebuilt field by field as ``copy.deepcopy`` would."""

    __slots__ = ("game", "state")

    def __init__(self, game: Any, state: Any) -> None:
        self.game, self.state = game, state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game, self.game.copy(self.state))


class _Cache:
    """What a state works out again when asked (its legal actions now): a clone starts empty."""

    __slots__ = ("legal",)

    def __init__(self) -> None:
        self.legal: Legal | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()


class _Recall:
    """A state's record (Ludica actions with their indices) and, once asked for, every seat's
    information state (:class:`~ludica.env.infostate.Recall`); OpenSpiel's clone copies the
    lists, not their items (an action, a history and a tensor are never changed once made)."""

    __slots__ = ("actions", "seen")

    def __init__(self) -> None:
        self.actions: list[tuple[Action, int | None]] = []
        self.seen: Recall | None = None

    def copy(self) -> _Recall:
        other = _Recall()
        other.actions = list(self.actions)
        other.seen = None if self.seen is None else self.seen.copy()
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _Recall:
        return self.copy()


class LudicaSpielState(pyspiel.State):  # type: ignore[misc]
    """A Ludica state with the chance draws under way and each seat's own past actions."""

    def __init__(self, game: LudicaSpielGame) -> None:
        super().__init__(game)
        self._key = game.context_key
        ctx = _CONTEXTS[self._key]
        self._state = ctx.game.setup(ctx.config)
        self._draws: list[int] = []
        self._decisions = 0
        self._record = 0
        self._last_acted: dict[str, int] = {}
        self._cache = _Cache()
        self._recall = _Recall()
        self._moves = 0

    @property
    def ctx(self) -> Context:
        return _CONTEXTS[self._key]

    @property
    def _state(self) -> Any:
        return self._held.state

    @_state.setter
    def _state(self, state: Any) -> None:
        self._held = _Held(self.ctx.game, state)

    def __deepcopy__(self, memo: dict[int, Any]) -> LudicaSpielState:
        """A copy through the game's own :meth:`~ludica.core.game.Game.copy` (the compiled
        kernels' frozen values cannot be rebuilt field by field as ``copy.deepcopy`` would)."""
        other = type(self).__new__(type(self))
        pyspiel.State.__init__(other, self.get_game())
        other.__dict__.update(self.__dict__)
        other._state = self.ctx.game.copy(self._state)
        other._draws = list(self._draws)
        other._last_acted = dict(self._last_acted)
        other._cache = _Cache()
        other._recall = self._recall.copy()
        return other

    def ludica_state(self) -> Any:
        """The Ludica game state behind this OpenSpiel state."""
        return self._state

    # -- whose turn ------------------------------------------------------------------------------
    def current_player(self) -> int:
        ctx = self.ctx
        pending = ctx.game.pending(self._state)
        if pending.is_over or self._moves >= ctx.max_steps:
            return pyspiel.PlayerId.TERMINAL
        if pending.is_chance:
            return pyspiel.PlayerId.CHANCE
        return ctx.seats.index(self._seat(pending.seats))

    def _seat(self, pending: tuple[str, ...]) -> str:
        return next_seat(pending, self._last_acted)

    def _seat_legal(self) -> Legal:
        if self._cache.legal is None:
            ctx = self.ctx
            seat = self._seat(ctx.game.pending(self._state).seats)
            self._cache.legal = ctx.catalogue.legal(ctx.game.legal_actions(self._state, seat))
        return self._cache.legal

    def _legal_actions(self, player: int) -> list[int]:
        return self._seat_legal().indices

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self.ctx.game.chance_step(self._state)
        _, outcomes = next_node(draw_sizes(step), self._draws)
        assert outcomes is not None
        if len(outcomes) > self.ctx.max_chance:
            raise pyspiel.SpielError(
                f"{self.ctx.game.meta.id}: a chance node of {len(outcomes)} outcomes exceeds the bound"
            )
        return outcomes

    # -- acting ----------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        ctx = self.ctx
        game = ctx.game
        self._moves += 1
        if game.pending(self._state).is_chance:
            step = game.chance_step(self._state)
            self._draws.append(int(action))
            draws, more = next_node(draw_sizes(step), self._draws)
            if more is not None:
                return
            done = chance_action(step, outcome_of(step, draws))
            self._draws = []
            game.play(self._state, done)
            self._recall.actions.append((done, None))
        else:
            pending = game.pending(self._state).seats
            seat = self._seat(pending)
            decided = ctx.catalogue.decode(self._seat_legal(), int(action), default_text)
            game.play(self._state, decided)
            took_turn(self._last_acted, seat, self._record, pending)
            self._decisions += 1
            self._recall.actions.append((decided, int(action)))
        self._record += 1
        self._cache.legal = None
        recall = self._recall
        if recall.seen is not None:
            self._observe(self._state, recall.seen, *recall.actions[-1])

    # -- what each seat has observed (perfect recall) ---------------------------------------------
    def _observe(self, state: Any, seen: Recall, action: Action | None, index: int | None) -> None:
        """Append one record step to every seat's information state (:mod:`ludica.env.infostate`):
        its own decision's index, then the slots of its observation tensor that changed."""
        ctx = self.ctx
        pending = tuple(s for s in ctx.game.pending(state).seats if s != CHANCE)
        for i, seat in enumerate(ctx.seats):
            own = index if action is not None and index is not None and action.seat == seat else None
            view = ctx.game.view(state, seat)
            try:
                tensor: np.ndarray | None = np.array(ctx.observer.encode(seat, view, pending), copy=True)
            except SchemaError:  # a value no decision sees (between chance draws): hashed, not dropped
                tensor = None
            seen.observe(i, view, tensor, text_digest(view, ctx.text_keys), own, chance=index is None)

    def information(self) -> Recall:
        """Every seat's information state, built on the first request by replaying the record,
        then kept up to date."""
        recall = self._recall
        if recall.seen is None:
            ctx = self.ctx
            key = tuple(self.history())
            found = ctx.known.get(key)
            if found is not None:
                recall.seen = found.copy()
                return recall.seen
            state = ctx.game.setup(ctx.config)
            seen = Recall(len(ctx.seats))
            self._observe(state, seen, None, None)
            for action, index in recall.actions:
                ctx.game.play(state, action)
                self._observe(state, seen, action, index)
            recall.seen = seen
            if len(ctx.known) >= KNOWN:
                ctx.known.clear()
            ctx.known[key] = seen.copy()
        return recall.seen

    def information_state(self, player: int) -> str:
        """Seat ``player``'s information state string (:mod:`ludica.env.infostate`)."""
        return self.information().seen[player]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return self.ctx.catalogue.label(int(action))

    # -- the end ---------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        ctx = self.ctx
        if not ctx.game.pending(self._state).is_over:
            return [0.0] * len(ctx.seats)
        got = rewards(ctx.game.outcome(self._state), ctx.seats, ctx.players)
        return [got[s] for s in ctx.seats]

    # -- imagining -------------------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudicaSpielState:
        """A state ``player_id`` cannot tell apart from this one (the game's redeal)."""
        ctx = self.ctx
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        self.information()  # the imagined state keeps the seat's history as it is
        other = self.clone()
        other._state = ctx.game.redeal(self._state, ctx.seats[player_id], rng)
        other._cache = _Cache()
        return other

    def __str__(self) -> str:
        return canonical_json(self.ctx.game.view(self._state, None))


class LudicaObserver:
    """OpenSpiel's observer: the seat's observation (its view as a tensor and as JSON), or with
    perfect recall its information state (:mod:`ludica.env.infostate`)."""

    def __init__(self, ctx: Context, perfect_recall: bool) -> None:
        self.ctx = ctx
        self.perfect_recall = perfect_recall
        size = ctx.observer.size + (FINGERPRINT if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: LudicaSpielState, player: int) -> None:
        ctx = self.ctx
        seat = ctx.seats[player]
        view = ctx.game.view(state.ludica_state(), seat)
        pending = ctx.game.pending(state.ludica_state()).seats
        observation = ctx.observer.encode(seat, view, tuple(s for s in pending if s != CHANCE))
        if self.perfect_recall:
            self.tensor[:] = state.information().tensor(player, observation)
        else:
            self.tensor[:] = observation

    def string_from(self, state: LudicaSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        ctx = self.ctx
        return canonical_json(ctx.game.view(state.ludica_state(), ctx.seats[player]))


UTILITY = pyspiel.GameType.Utility


def _game_type(game: Game[Any]) -> pyspiel.GameType:
    meta = game.meta
    return pyspiel.GameType(
        short_name=short_name(meta.id),
        long_name=f"Ludica {meta.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=UTILITY.ZERO_SUM if narrative(game) else UTILITY.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=meta.players_max + (1 if meta.referee else 0),
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": meta.players_min,
            "options": "{}",
            "max_steps": default_max_steps(game),
            **option_parameters(game),
        },
    )


_REGISTERED: list[str] = []


def register(game_ids: list[str] | None = None) -> list[str]:
    """Register the games with pyspiel (once); returns their short names."""
    for game_id in game_ids or [*GAME_MODULES, "pig"]:
        name = short_name(game_id)
        if name in _REGISTERED:
            continue
        cls = type(f"LudicaSpiel_{game_id.replace('-', '_')}", (LudicaSpielGame,), {"GAME_ID": game_id})
        pyspiel.register_game(_game_type(get_game(game_id)), cls)
        _REGISTERED.append(name)
    return [short_name(g) for g in (game_ids or [*GAME_MODULES, "pig"])]


register()  # importing this module registers every game: pyspiel.load_game("ludica_euphoria") then works
