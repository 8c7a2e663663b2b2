"""The agenda: how a placement, a retrieval or a dilemma unfolds step by step.

Every rule that may have to wait (for a die roll, a shuffle or a player's choice) is a *task*, a
:class:`Task` record ``(name, args)`` on ``state.agenda`` (``[name, *args]`` in a position).
:func:`run` works the agenda from the front until a task asks a question (``state.prompt``), needs
chance (``state.chance``) or the game ends. Tasks push their follow-ups to the front, so the
rulebook's order of operations (place, bump, pay, gain, then what the gain triggers) is the order
of the pushes.

Prompts are :class:`Prompt` records ``(seat, kind, options, context)``; the answer is an action
of type ``kind`` whose single parameter (:data:`PARAM`) names one of the options.

Euphoria's actions are few (place, retrieve, the answers, the drafts, trade, end the turn) and
their effects long chains that may stop half-way for dice or a choice, so its rules are read by
*task*, not by action: the game's ``check`` refuses an action (``_check_<action>`` in
``__init__.py``), ``play`` starts the chain by pushing tasks, and each rule of the chain is a
``@task("<name>")`` function (answers: ``@answer("<kind>")``, chance: ``@chance("<kind>")``),
found by its name in :data:`TASKS`, :data:`ANSWERS`, :data:`CHANCES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ...core import Event
from .state import EuphoriaState, Prompt, Task

Events = list[Event]
TaskHandler = Callable[[EuphoriaState, Task, Events], None]
AnswerHandler = Callable[[EuphoriaState, str, str, list[Any], Events], None]
ChanceHandler = Callable[[EuphoriaState, Any, dict[str, Any], Events], None]

TASKS: Final[dict[str, TaskHandler]] = {}
ANSWERS: Final[dict[str, AnswerHandler]] = {}
CHANCES: Final[dict[str, ChanceHandler]] = {}
"""The rules by name (filled by the decorators below). ``Final``, as are the other tables of
this module read at every step: the compiled build reads a final name from a C static, any
other module-level name from the module's dictionary."""

PARAM: Final[dict[str, str]] = {
    "pay": "with",
    "take": "gain",
    "place_star": "on",
    "discard_artifact": "kind",
    "lose_good": "good",
    "use_ability": "choice",
    "choose_side": "side",
    "keep_recruit": "recruit",
    "sacrifice": "worker",
    "retrieve_more": "worker",
    "trade_give": "item",
    "trade_ask": "item",
    "answer_trade": "answer",
}
"""Prompt kind (the answering action's type) -> its one parameter."""


WAITING: Final = frozenset({"over", "recruit_draft", "market_draft", "track_draft"})
"""Phases in which the agenda waits for the players' (draft) decisions."""


def task(name: str) -> Callable[[TaskHandler], TaskHandler]:
    def register(fn: TaskHandler) -> TaskHandler:
        TASKS[name] = fn
        return fn

    return register


def answer(kind: str) -> Callable[[AnswerHandler], AnswerHandler]:
    def register(fn: AnswerHandler) -> AnswerHandler:
        ANSWERS[kind] = fn
        return fn

    return register


def chance(kind: str) -> Callable[[ChanceHandler], ChanceHandler]:
    def register(fn: ChanceHandler) -> ChanceHandler:
        CHANCES[kind] = fn
        return fn

    return register


def push(st: EuphoriaState, *tasks: Task) -> None:
    """Put tasks at the front of the agenda, in the given order."""
    st.agenda[0:0] = tasks


def ask(st: EuphoriaState, seat: str, kind: str, options: list[str], context: list[Any], ev: Events) -> None:
    """Ask ``seat`` to choose; a single option is taken at once, no option skips the question."""
    if not options:
        return
    if len(options) == 1:
        ANSWERS[kind](st, seat, options[0], context, ev)
        return
    st.prompt = Prompt(seat, kind, options, context)


def await_chance(st: EuphoriaState, kind: str, argument: Any) -> None:
    st.chance = [kind, argument]


STARS_PLACED: Final[list[int]] = [0]
"""How many authority stars were placed in this process (by :func:`tracks.place_star`, the only
place a star leaves a player's supply): a change detector, never part of a state."""


def run(st: EuphoriaState, ev: Events) -> None:
    """Work the agenda until a question, a chance step or the end of the game.

    The end test runs before the first task and after every task that placed a star (settled
    point 31: the game ends as soon as a player has placed all ten; only placing a star can
    make that true, so after the other tasks the test would find what it found before).
    """
    game_over_check = _game_over_check()
    game_over_check(st, ev)
    placed = STARS_PLACED[0]
    while st.prompt is None and st.chance is None and st.agenda and st.phase not in WAITING:
        item = st.agenda.pop(0)
        TASKS[item.name](st, item, ev)
        if STARS_PLACED[0] != placed:
            placed = STARS_PLACED[0]
            game_over_check(st, ev)


def _game_over_check() -> Callable[[EuphoriaState, Events], None]:
    """The end test that runs after every task (SP 31), looked up once."""
    global _GAME_OVER_CHECK
    if _GAME_OVER_CHECK is None:
        from .ending import game_over_check

        _GAME_OVER_CHECK = game_over_check
    return _GAME_OVER_CHECK


_GAME_OVER_CHECK: Callable[[EuphoriaState, Events], None] | None = None


def answer_prompt(st: EuphoriaState, option: str, ev: Events) -> None:
    assert st.prompt is not None
    prompt = st.prompt
    st.prompt = None
    seat, kind, context = prompt.seat, prompt.kind, prompt.context
    ANSWERS[kind](st, seat, option, context, ev)
    run(st, ev)


def resolve_chance(st: EuphoriaState, outcome: dict[str, Any], ev: Events) -> None:
    assert st.chance is not None
    kind, argument = st.chance
    st.chance = None
    CHANCES[kind](st, argument, outcome, ev)
    run(st, ev)
