"""The redeal leak test of the terminal (issue 23, point 4): every screen a person is shown at one
shared terminal, compared with that of a copy of the game whose hidden parts were redealt.

For every game, a match is played by bots (one seat a bot of the terminal's own, the others
people whose answers the bots choose). At each compared step the terminal (``ludica play``'s
:class:`~ludica.terminal.Terminal`, in-process, its screen read through :mod:`ludica.handover`'s
holder) runs that step: the seat chooser, the hand-over screen (with ``log`` and ``view``), the
deciding seat's own screen (``view``, ``log`` and the first question of every composed option, page
by page), a bot's turn, the dealer. What a role may see is every line printed while nobody's
private things were on the screen, plus the lines of its own private screen. For each role
(every seat, and anyone at the table) that text must be the same when the same answers are typed
into a copy redealt for that role; any difference is a leak of the hidden part (the terminal's
counterpart of ``tests/table/test_table_redeal_leaks.py``).
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ludica.bots.base import situation
from ludica.core import CHANCE, Config, Match, get_game
from ludica.core.composer import choices
from ludica.core.registry import available
from ludica.terminal import Back, Terminal
from tests.explore import Exploration, explorations, reached_report, windows
from tests.redeal_helpers import (
    DEFAULT_STEPS,
    NINTH_HOUR_GAMES,
    PLAYERS,
    STEPS,
    bot_for,
    compared_now,
    disposable,
    first_difference,
    redealt_match,
    resolver_of,
    rule_implied_tie,
    to_ninth_hour_final_round,
)

EVERYONE = None
"""The role of anyone at the table (what a spectator sees: only the shared screens)."""


class Done(Exception):
    """The probe has seen what it came for (never one of the terminal's own exceptions)."""


@dataclass
class Memory:
    """What the terminal remembers between two steps: who holds the screen, what each seat saw."""

    holder: str | None = None
    last_seat: str | None = None
    seen: dict[str | None, int] = field(default_factory=dict)


class Recorder(io.StringIO):
    """The console's file: every write kept with whose private screen it went to (``None``:
    a shared screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[tuple[str | None, str]] = []
        self.table: Terminal | None = None

    def write(self, text: str) -> int:
        holder = self.table.screen.holder if self.table is not None else None
        self.chunks.append((holder, text))
        return len(text)


class Answers:
    """The answers typed during one step, a function of the prompts only (so that a copy that asks
    the same gets the same): the seat chooser gets the seat the bots chose; a hand-over screen
    ``log``, ``view``, Enter; a seat's list of options ``view``, ``log``, then each composed option
    in turn, whose first question is paged through and left with ``back``; then the probe ends."""

    def __init__(self, chooser: int, explore: list[int]) -> None:
        self.chooser = chooser
        self.explore = list(explore)
        self.queue: list[str] = []
        self.opened = False
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        if self.asked > 400:
            raise AssertionError(f"the probe goes round in circles at {prompt!r}")
        if self.queue:
            return self.queue.pop(0)
        if prompt.startswith("Who decides"):
            return str(self.chooser)
        if prompt.startswith("Hand the keyboard"):
            self.queue = ["view", ""]
            return "log"
        if prompt.endswith("> ") and not prompt.startswith(" "):  # the seat's list of options
            if not self.opened:
                self.opened = True
                self.queue = ["log"]
                return "view"
            if self.explore:
                return str(self.explore.pop(0))
            raise Done
        if not self.opened:  # one composed choice: its first question straight away
            self.opened = True
            self.queue = ["log"]
            return "view"
        pages = re.search(r"'n' for the next (\d+) page", prompt)
        if pages:
            self.queue = ["n"] * (int(pages.group(1)) - 1) + ["back"]
            return "n"
        return "back"


@dataclass
class Step:
    """What the bots chose for one step: the seat and, by the options listed, what to explore."""

    seat: str | None
    chooser: int
    explore: list[int]
    bots: dict[str, Any]


def plan(match: Match[Any], bots: dict[str, Any], rng: random.Random) -> Step:
    pending = match.pending()
    if pending.is_chance:
        return Step(None, 0, [], {})
    seats = list(pending.seats)
    seat = next((s for s in seats if s in bots), None) or seats[rng.randrange(len(seats))]
    options = choices(match.legal_actions(seat)) if seat not in bots else []
    explore = [i + 1 for i, c in enumerate(options) if not c.single] if len(options) > 1 else []
    return Step(seat, seats.index(seat) + 1, explore, {s: Thinking() for s in bots})


class Thinking:
    """A bot seat of the terminal, seen only until it decides (its move is the game's record)."""

    def decide(self, _situation: Any) -> Any:
        raise Done


def screens(match: Match[Any], step: Step, memory: Memory, tmp: Path) -> tuple[list[tuple[str | None, str]], Memory]:
    """Run one step of the terminal on a disposable ``match``: what was printed, by holder, and
    what the terminal remembers after it."""
    recorder = Recorder()
    console = Console(file=recorder, width=80, color_system=None, force_terminal=False, highlight=False)
    answers = Answers(step.chooser, step.explore)

    def ask(prompt: str) -> str:
        recorder.write(prompt)
        answer = answers(prompt)
        recorder.write(answer + "\n")
        return answer

    table = Terminal(match, tmp / "probe.json", ask=ask, ask_secret=ask, console=console, bots=step.bots)
    recorder.table = table
    table.screen.holder, table.last_seat, table.seen = memory.holder, memory.last_seat, dict(memory.seen)
    try:
        if step.seat is None:
            table.chance()
        else:
            table.turn(match.pending().seats)
    except (Done, Back):
        pass
    return recorder.chunks, Memory(table.screen.holder, table.last_seat, table.seen)


def seen_by(chunks: list[tuple[str | None, str]], role: str | None) -> str:
    """Everything ``role`` may see of a step: the shared screens and its own private one."""
    return "".join(text for holder, text in chunks if holder is None or holder == role)


def roles(match: Match[Any]) -> list[str | None]:
    return [*(s for s in match.game.seats(match.state) if s != CHANCE), EVERYONE]


OPTION = re.compile(r"^\s+(?:\d+\.|[a-z]\))\s")


def without_tie_options(text: str, names: set[str]) -> str:
    """A screen with the options naming a tied player put aside (the numbered lines and what is
    said beneath them, and how many there are in the question: ``(1..3)``)."""
    text = re.sub(r"\(1\.\.\d+\) ", "(1..) ", text)
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if OPTION.match(line):
            skipping = line.split(None, 1)[1].strip() in names
            if skipping:
                continue
        elif skipping and line.startswith("      "):
            continue
        else:
            skipping = False
        out.append(line)
    return "\n".join(out)


def compare(
    game_id: str, match: Match[Any], step: Step, memory: Memory, tmp: Path, rng: random.Random, tally: dict[str, int]
) -> Memory:
    """One step: each role's screens compared with those of a copy redealt for that role."""
    chunks, after = screens(disposable(match), step, memory, tmp)
    for role in roles(match):
        copied = redealt_match(match, role, rng)
        ties = rule_implied_tie(game_id, match.state, copied.state)
        if ties is not None and not ties[1]:  # a position the rules never stop at: nothing to show
            assert ties[0] and not copied.legal_actions(resolver_of(copied.state) or ""), "a copy without a tie waits"
            tally["rule-implied"] += 1
            continue
        theirs, _ = screens(copied, step, memory, tmp)
        mine_text, their_text = seen_by(chunks, role), seen_by(theirs, role)
        if ties is not None:
            tally["rule-implied"] += 1
            tally["ties offered"] += assert_rule_implied(match, role, ties, mine_text, their_text)
            continue
        assert mine_text == their_text, (
            f"{game_id} step {len(match.actions)}: {role or 'anyone at the table'} can tell the hidden part apart:\n"
            + first_difference(mine_text, their_text)
        )
        tally["compared"] += 1
    return after


def assert_rule_implied(
    match: Match[Any], role: str | None, ties: tuple[tuple[str, ...], ...], mine: str, theirs: str
) -> bool:
    """The one difference the rules make (R-EU-30): the players offered for the next final turn
    of the ninth hour (a copy with no tie at all is a position the rules never stop at: they choose
    the next player at once; nothing of it is compared). The seat settling the tie is offered each
    side's tied players, and nothing else differs; nobody else sees any difference (nor anyone
    while a bot of the terminal settles it)."""
    real, other = ties
    if role != resolver_of(match.state) or not any(OPTION.match(line) for line in mine.splitlines()):
        assert mine == theirs, f"{role} sees the tie's difference:\n" + first_difference(mine, theirs)
        return False
    names = {match.config.players[match.state.players.index(p)] for p in {*real, *other}}
    assert without_tie_options(mine, names) == without_tie_options(theirs, names), first_difference(mine, theirs)
    for tie, text in ((real, mine), (other, theirs)):
        offered = {line.split(None, 1)[1].strip() for line in text.splitlines() if OPTION.match(line)} & names
        assert offered == {match.config.players[match.state.players.index(p)] for p in tie}, (offered, tie)
    return True


def play_and_compare(
    game_id: str, seed: int, tmp: Path, match: Match[Any] | None = None, until: Any = None, *, terminal_bot: bool = True
) -> dict[str, int]:
    """Play a match by bots through the terminal's eyes, comparing the compared steps (all of them
    with ``until``, until it holds); with ``terminal_bot`` the first seat (of three or more) is a
    bot of the terminal's own."""
    if match is None:
        game = get_game(game_id)
        names = tuple(f"P{i + 1}" for i in range(PLAYERS.get(game_id, 2)))
        match = Match(game, Config(names, {}, seed))
    people = [s for s in match.game.seats(match.state) if s != CHANCE]
    bots = {s: bot_for(game_id, seed + i) for i, s in enumerate(people)}
    terminal_bots = {people[0]: bots[people[0]]} if terminal_bot and len(people) > 2 else {}
    rng = random.Random(seed)
    memory = Memory()
    tally = {"compared": 0, "rule-implied": 0, "ties offered": 0, "steps": 0}
    limit = STEPS.get(game_id, DEFAULT_STEPS)
    for _ in range(limit):
        if match.is_over() or (until is not None and until(match)):
            break
        step = plan(match, terminal_bots, rng)
        hidden = match.game.meta.hidden_information
        if hidden and (until is not None or compared_now(game_id, match.state, len(match.actions))):
            memory = compare(game_id, match, step, memory, tmp, rng, tally)
        else:
            _, memory = screens(disposable(match), step, memory, tmp)
        if step.seat is None:
            match.deal()
        else:
            match.apply(bots[step.seat].decide(situation(match, step.seat)).as_action())
        tally["steps"] += 1
    return tally


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_no_terminal_screen_tells_a_redealt_game_apart(tmp_path: Path, game_id: str) -> None:
    tally = play_and_compare(game_id, 23, tmp_path)
    print(f"{game_id}: {tally}")


def replay_in_terminal(exploration: Exploration, tmp: Path, rng: random.Random, tally: dict[str, int]) -> set[str]:
    """Replay an explored match through the terminal's eyes: at each decision around a type's
    first taking the terminal runs that step (the deciding seat a person, its composed options
    opened) and every role's screens are compared with a copy redealt for it; the steps between
    are applied to the match alone (the terminal picks up again as after a resume). Returns the
    types of the compared steps."""
    match: Match[Any] = Match(get_game(exploration.game_id), exploration.config)
    wanted = windows(exploration)
    memory = Memory()
    shown: set[str] = set()
    for i, action in enumerate(exploration.actions):
        if action.seat == CHANCE:
            assert match.deal() == action, "the dealer dealt what the explorer's did not"
            continue
        if i in wanted:
            if i - 1 not in wanted:
                memory = Memory()  # a gap: the terminal starts afresh
            options = choices(match.legal_actions(action.seat))
            explore = [k + 1 for k, c in enumerate(options) if not c.single] if len(options) > 1 else []
            seats = list(match.pending().seats)
            step = Step(action.seat, seats.index(action.seat) + 1, explore, {})
            if match.game.meta.hidden_information:
                memory = compare(exploration.game_id, match, step, memory, tmp, rng, tally)
            else:  # a redealt copy is the game itself: the screens are only shown
                _, memory = screens(disposable(match), step, memory, tmp)
            shown.add(action.type)
        match.apply(action)
    return shown


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_every_action_type_in_the_terminal(tmp_path: Path, game_id: str) -> None:
    """The explorer's matches (``tests/explore.py``) replayed in the terminal: each role's screens
    compared with a redealt copy around every type's first taking; a type never reached fails."""
    tally = {"compared": 0, "rule-implied": 0, "ties offered": 0}
    reached: set[str] = set()
    for exploration in explorations(game_id):
        reached |= replay_in_terminal(exploration, tmp_path, random.Random(39), tally)
    line = reached_report(game_id, reached, "terminal")
    (tmp_path / "reached.txt").write_text(line + "\n")
    print(f"{line}\n{game_id}: {tally}")


def ninth_hour_over(match: Match[Any]) -> bool:
    return match.state.hour > 9 or match.is_over()


def test_r_eu_30_the_ninth_hours_final_round_in_the_terminal(tmp_path: Path) -> None:
    """Rule: R-EU-30; [The ninth hour]. Every step of the ninth hour's final round, every role:
    the same screens as a copy whose Committee Member was drawn again, except the tie for the next
    final turn, which the rule itself makes depend on him (and only for the seat settling it)."""
    total: dict[str, int] = {}
    for seed, players, options in [g for g in NINTH_HOUR_GAMES if g[0] in (4, 8)]:  # the terminal is slower
        match = to_ninth_hour_final_round(seed, players, options)
        tally = play_and_compare("euthymia", seed, tmp_path, match, until=ninth_hour_over, terminal_bot=False)
        print(f"seed {seed}, {players} players, {options}: {tally}")
        total = {k: total.get(k, 0) + v for k, v in tally.items()}
    assert total["compared"] > 0 and total["rule-implied"] > 0 and total["ties offered"] > 0, total
