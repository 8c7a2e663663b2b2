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
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..core.actions import CHANCE, Action
from ..core.chance import ChanceStep, Pick, Roll, Shuffle, chance_action
from ..core.game import Config, Game
from ..core.match import canonical_json
from ..core.registry import GAME_MODULES, get_game
from .driver import make_config, next_seat
from .encoding import Catalogue, Legal, catalogue, default_text, max_chance_outcomes, observer, rewards

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


_CONTEXTS: dict[int, Context] = {}


class LudicaSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Ludica game as seen by OpenSpiel (one class per game, made by :func:`register`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> LudicaSpielGame:
        return self

    GAME_ID = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = get_game(self.GAME_ID)
        params = dict(params or {})
        options = json.loads(params.get("options") or "{}")
        config = make_config(game, params.get("players", game.meta.players_min), 0, options)
        state = game.setup(config)
        seats = tuple(game.seats(state))
        max_steps = int(params.get("max_steps", game.meta.max_steps))
        ctx = Context(
            game,
            config,
            seats,
            tuple(s for s in seats if s != game.meta.referee),
            catalogue(game, config, seats),
            observer(game, config, seats),
            max_steps,
            max_chance_outcomes(game, config),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.catalogue.size,
            max_chance_outcomes=ctx.max_chance,
            num_players=len(seats),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_steps * 64,
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
        self._own: list[list[int]] = [[] for _ in ctx.seats]
        self._last_acted: dict[str, int] = {}
        self._legal: Legal | None = None
        self._record_actions: list[tuple[Action, int | None]] = []
        self._seen: list[list[str]] | None = None
        self._last_view: list[str] = []
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
        other._own = [list(o) for o in self._own]
        other._last_acted = dict(self._last_acted)
        other._legal = None
        other._record_actions = list(self._record_actions)
        other._seen = None if self._seen is None else [list(h) for h in self._seen]
        other._last_view = list(self._last_view)
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
        if self._legal is None:
            ctx = self.ctx
            seat = self._seat(ctx.game.pending(self._state).seats)
            self._legal = ctx.catalogue.legal(ctx.game.legal_actions(self._state, seat))
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        return self._seat_legal().indices

    def chance_outcomes(self) -> list[tuple[int, float]]:
        step = self.ctx.game.chance_step(self._state)
        size = draw_sizes(step)[len(self._draws)]
        if size > self.ctx.max_chance:
            raise pyspiel.SpielError(f"{self.ctx.game.meta.id}: a chance draw of {size} outcomes exceeds the bound")
        return [(k, 1.0 / size) for k in range(size)]

    # -- acting ----------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        ctx = self.ctx
        game = ctx.game
        self._moves += 1
        if game.pending(self._state).is_chance:
            step = game.chance_step(self._state)
            self._draws.append(int(action))
            if len(self._draws) < len(draw_sizes(step)):
                return
            done = chance_action(step, outcome_of(step, self._draws))
            self._draws = []
            game.play(self._state, done)
            self._record_actions.append((done, None))
        else:
            seat = self._seat(game.pending(self._state).seats)
            decided = ctx.catalogue.decode(self._seat_legal(), int(action), default_text)
            game.play(self._state, decided)
            self._own[ctx.seats.index(seat)].append(int(action))
            self._last_acted[seat] = self._record
            self._decisions += 1
            self._record_actions.append((decided, int(action)))
        self._record += 1
        self._legal = None
        if self._seen is not None:
            self._observe(self._state, self._seen, self._last_view, *self._record_actions[-1])

    # -- what each seat has observed (perfect recall) ---------------------------------------------
    def _observe(
        self, state: Any, seen: list[list[str]], last: list[str], action: Action | None, index: int | None
    ) -> None:
        """Append one record step to every seat's observation history: the seat's own decision (its
        label), then its view if it changed, else ``·`` after a decision and ``~`` after a chance
        step (the step happened, nothing the seat sees moved; that a step happened is public)."""
        ctx = self.ctx
        for i, seat in enumerate(ctx.seats):
            if action is not None and index is not None and action.seat == seat:
                seen[i].append(f"you: {ctx.catalogue.label(index)}")
            view = canonical_json(ctx.game.view(state, seat))
            if i < len(last) and view == last[i]:
                seen[i].append("·" if index is not None else "~")
                continue
            seen[i].append(view)
            if i < len(last):
                last[i] = view
            else:
                last.append(view)

    def observation_history(self, player: int) -> list[str]:
        """Everything seat ``player`` has observed, in order: its view at the start, then per
        record step (a decision or a completed chance step) its own decision and its view when
        it changed. Built on the first request by replaying the record, then kept up to date."""
        if self._seen is None:
            ctx = self.ctx
            state = ctx.game.setup(ctx.config)
            seen: list[list[str]] = [[] for _ in ctx.seats]
            last: list[str] = []
            self._observe(state, seen, last, None, None)
            for action, index in self._record_actions:
                ctx.game.play(state, action)
                self._observe(state, seen, last, action, index)
            self._seen, self._last_view = seen, last
        return self._seen[player]

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
        self.observation_history(player_id)  # the imagined state keeps the seat's history as it is
        other = self.clone()
        other._state = ctx.game.redeal(self._state, ctx.seats[player_id], rng)
        other._legal = None
        return other

    def __str__(self) -> str:
        return canonical_json(self.ctx.game.view(self._state, None))


class LudicaObserver:
    """OpenSpiel's observer: the seat's vector, and its view (plus history) as a string."""

    def __init__(self, ctx: Context, perfect_recall: bool) -> None:
        self.ctx = ctx
        self.perfect_recall = perfect_recall
        # no information state tensor: a whole history has no fixed-size tensor here
        self.tensor = np.zeros(0 if perfect_recall else ctx.observer.size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: LudicaSpielState, player: int) -> None:
        ctx = self.ctx
        if self.perfect_recall:
            raise pyspiel.SpielError(
                f"{ctx.game.meta.id}: no information state tensor (the game type says so); "
                "use information_state_string or observation_tensor"
            )
        seat = ctx.seats[player]
        view = ctx.game.view(state.ludica_state(), seat)
        pending = ctx.game.pending(state.ludica_state()).seats
        self.tensor[:] = ctx.observer.encode(seat, view, tuple(s for s in pending if s != CHANCE))

    def string_from(self, state: LudicaSpielState, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state.observation_history(player))
        ctx = self.ctx
        return canonical_json(ctx.game.view(state.ludica_state(), ctx.seats[player]))


def _game_type(game: Game[Any]) -> pyspiel.GameType:
    meta = game.meta
    return pyspiel.GameType(
        short_name=short_name(meta.id),
        long_name=f"Ludica {meta.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=meta.players_max + (1 if meta.referee else 0),
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": meta.players_min, "options": "{}", "max_steps": meta.max_steps},
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
