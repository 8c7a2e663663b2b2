"""The decision's context first, in the terminal (DESIGN.md principle 15): what a decision is about
(the conflict with its dice and stakes, the deal offered, the auction, the scene's stones and
reading, the seat's own mat: :func:`~ludica.core.names.decision_context`, the parts each game
names) is on the 80×24 screen that asks, at every question of the decision, its sub-steps too.

Seeded play of every game, each seat's decisions chosen by the heuristic bot and typed at the
keyboard step by step as a person composes them; at every question the last 24 lines of the
screen (as printed, the prompt's line last) must hold every line of the context. The web table's
side is in ``tests/table/test_decision_context_web.py``.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ludica.bots.base import situation
from ludica.bots.heuristic import HeuristicBot
from ludica.core import Action, IntRange, Match, Text, available, get_game, matches
from ludica.core.actions import fill
from ludica.core.composer import Ask, Choice, Composition, choices
from ludica.core.names import Namer, decision_context
from ludica.lab.playthrough import default_config
from ludica.terminal import HEIGHT, LETTERS, WIDTH, Terminal, is_amount

GAMES = [g for g in available() if g != "pig"]
DECISIONS = 60
"""Decisions typed per game (a few seconds each)."""
AHEAD = {"lost-days": 465, "great-city": 50}
"""Decisions played by the bots first, to type where the game's questions are about something
(the Lost Days conflicts and deals come after the memories are written and sold; the Great
City's scenes after the city and its characters are made)."""


def flat(text: str) -> str:
    return " ".join(text.split())


def shown(line: str, screen: str) -> bool:
    """A context line is on the screen when its start is (a long line is wrapped or cut)."""
    return flat(line)[:40] in screen


@dataclass
class Count:
    """Questions asked whose decision had a context, and those whose screen showed all of it."""

    screens: int = 0
    with_context: int = 0
    missing: list[tuple[str, str, str]] = field(default_factory=list)


class Typist(Terminal):
    """The terminal, with a person at the keyboard who types what a bot decided, step by step,
    and looks at the last 24 lines each time a question is asked."""

    def __init__(self, match: Match[Any], save: Path, seed: int) -> None:
        self.out = io.StringIO()
        console = Console(file=self.out, width=WIDTH, force_terminal=False, color_system=None)
        super().__init__(match, save, ask=self.answer, console=console)
        self.screen.hidden = False  # no hand-overs: each decision's screen is read alike
        self.choosers = {s: HeuristicBot(match.game.meta.id, seed) for s in match.game.seats(match.state)}
        self.count = Count()
        self.seat: str | None = None
        self.target: Action | None = None
        self.context: list[str] = []
        self.asking: tuple[Namer, Choice, Ask] | None = None
        self.labels: list[str] = []
        self.tries = 0
        self.decisions = 0
        self.rng = random.Random(seed)

    def choose(self, seat: str) -> Action:
        """The heuristic bot's action, one time in three any legal one (to reach every kind of question)."""
        if self.rng.random() < 1 / 3:
            return fill(self.rng.choice(self.match.legal_actions(seat)), self.rng)
        return self.choosers[seat].decide(situation(self.match, seat)).as_action()

    def choose_seat(self, seats: Sequence[str]) -> str:
        return self.rng.choice(list(seats))  # several seats decide: any of them may go first

    # -- what the person sees --------------------------------------------------------------------
    def numbered(self, labels: Sequence[str], details: Sequence[str | None] = (), **how: Any) -> None:
        self.labels = list(labels)
        super().numbered(labels, details, **how)

    def pick(self, namer: Namer, choice: Choice, step: Ask, seat: str, composition: Composition | None = None) -> Any:
        self.asking, self.tries = (namer, choice, step), 0
        try:
            return super().pick(namer, choice, step, seat, composition)
        finally:
            self.asking = None

    def decide(self, seat: str) -> None:
        if self.decisions >= DECISIONS:
            raise KeyboardInterrupt
        self.decisions += 1
        self.seat, self.asking = seat, None
        self.target = self.choose(seat)
        self.context = decision_context(self.match, seat)
        try:
            super().decide(seat)
        finally:
            self.seat = None

    def window(self, prompt: str) -> str:
        """The 80×24 screen at a prompt: the last lines printed since the last wipe, the prompt last."""
        text = self.out.getvalue().rsplit("\f", 1)[-1] + prompt
        return "\n".join(text.splitlines()[-HEIGHT:])

    # -- what the person types -------------------------------------------------------------------
    def answer(self, prompt: str) -> str:
        if self.seat is None:
            return ""
        screen = flat(self.window(prompt))
        self.count.screens += 1
        if self.context:
            self.count.with_context += 1
            lost = [line for line in self.context if not shown(line, screen)]
            if lost:
                self.count.missing.append((prompt.strip(), lost[0], self.window(prompt)))
        return self.keys(prompt)

    def keys(self, prompt: str) -> str:
        target = self.target
        assert target is not None and self.seat is not None
        if self.asking is None and prompt.endswith("> "):  # the list of options
            options = choices(self.match.legal_actions(self.seat))
            index = next((i for i, c in enumerate(options) if any(matches(t, target) for t in c.templates)), 0)
            return str(index + 1)
        self.tries += 1
        if self.asking is None or self.tries > 6:  # an amount, or lost: the whole action in notation
            if self.asking is None and target.args:
                step_param = prompt.strip().split("?")[0]
                for param, value in target.args.items():
                    if isinstance(value, int) and not isinstance(value, bool) and param.replace("_", " ") in step_param:
                        return str(value)
            return target.notation().partition(" ")[2]
        namer, choice, step = self.asking
        value = target.args.get(step.param)
        if not step.values:
            if isinstance(step.field, Text):
                return str(value) if isinstance(value, str) and value else "a few words"
            if isinstance(step.field, IntRange):
                return str(value if isinstance(value, int) else step.field.lo)
        if is_amount(step):
            return str(value)
        wanted = namer.value(choice.type, step.param, value)
        if wanted in self.labels:
            index = self.labels.index(wanted)
            return LETTERS[index] if isinstance(step.field, IntRange) else str(index + 1)
        return "n" if "'n'" in prompt else target.notation().partition(" ")[2]


def walk(game_id: str, seed: int, tmp_path: Path, typist: type[Typist] = Typist) -> Count:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), seed))
    terminal = typist(match, tmp_path / f"{game_id}-{seed}.json", seed)
    ahead = AHEAD.get(game_id, 0)
    while ahead > 0 and not match.pending().is_over:
        pending = match.pending()
        if pending.is_chance:
            match.run_chance()
            continue
        seat = terminal.choose_seat(pending.seats)
        match.apply(terminal.choose(seat))
        ahead -= 1
    with contextlib.suppress(KeyboardInterrupt):  # the typist stops after DECISIONS
        terminal.run()
    return terminal.count


@pytest.mark.parametrize("game_id", GAMES)
def test_every_question_shows_what_its_decision_is_about(game_id: str, tmp_path: Path) -> None:
    count = walk(game_id, 1, tmp_path)
    assert count.with_context > 0, "no decision of this game named its context"
    shown_all = count.with_context - len(count.missing)
    assert not count.missing, (
        f"{shown_all} of {count.with_context} screens show the context; first miss at "
        f"{count.missing[0][0]!r}: {count.missing[0][1]!r} not on\n{count.missing[0][2]}"
    )


def test_the_dice_stay_in_sight_while_a_die_is_picked_to_reroll(tmp_path: Path) -> None:
    """The newcomer's case: once "Influence the dice" was picked, the dice were off the screen.
    Bob influences a Lost Days conflict (reroll, side A, the last die): every question of that
    decision shows the conflict's dice."""
    game = get_game("lost-days")
    match: Match[Any] = Match(game, default_config("lost-days", 4, 1))
    terminal = Typist(match, tmp_path / "ld.json", 1)
    while match.pending().phase != "INFLUENCE":
        pending = match.pending()
        if pending.is_chance:
            match.run_chance()
            continue
        seat = terminal.choose_seat(pending.seats)
        match.apply(terminal.choosers[seat].decide(situation(match, seat)).as_action())
    seat = match.pending().seats[0]
    reroll = next(a for a in match.legal_actions(seat) if a.args.get("effect") == "reroll" and a.args["side"] == "a")
    die = reroll.args["die"]
    assert isinstance(die, IntRange) and die.hi >= 8  # many dice: the die's question is a long one
    chosen = Action(seat, "influence", {**reroll.args, "die": die.hi, "narration": "I lean on the scales"})
    terminal.choose = lambda seat: chosen  # type: ignore[method-assign]
    terminal.decisions = DECISIONS - 1  # this decision only
    with contextlib.suppress(KeyboardInterrupt):
        terminal.run()
    count = terminal.count
    assert any("dice:" in line for line in terminal.context)
    assert count.with_context >= 4, count.screens  # the options, the effect, the side, the die (and the narration)
    assert not count.missing, count.missing[0][2]
