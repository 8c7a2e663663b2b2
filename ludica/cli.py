"""The ``ludica`` command: list games, play at one table, replay, simulate, serve, verify.

Every user mistake ends in a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from . import __version__
from ._build import describe as describe_build
from .core import Action, Config, IntRange, LudicaError, Match, Text, available, get_game, matches
from .core.chance import ChanceStep, Pick, Roll, Shuffle, chance_action
from .core.records import load_json, position_of, read_position, replay_record, save_record
from .lab.playthrough import NAMES

console = Console(highlight=False)


class UserError(Exception):
    """A mistake of the person at the keyboard: printed as one line, exit status 2."""


# -- shared helpers ------------------------------------------------------------------------------
def parse_options(items: Sequence[str] | None) -> dict[str, Any]:
    """``--option key=value`` pairs; values are JSON when they parse, text otherwise."""
    options: dict[str, Any] = {}
    for item in items or ():
        key, eq, raw = item.partition("=")
        if not eq or not key:
            raise UserError(f"--option expects key=value, got {item!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def make_config(game_id: str, args: argparse.Namespace) -> Config:
    meta = get_game(game_id).meta
    if args.names:
        names = tuple(n.strip() for n in args.names.split(","))
    else:
        n = args.players if args.players is not None else meta.players_min
        if n > len(NAMES):
            raise UserError(f"give the players' names with --names for more than {len(NAMES)} players")
        names = NAMES[:n]
    return Config(names, parse_options(args.option), args.seed)


# -- ludica games --------------------------------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    table = Table(title="Ludica games")
    for column in ("id", "title", "players", "rules", "description"):
        table.add_column(column)
    for game_id in available():
        meta = get_game(game_id).meta
        table.add_row(
            game_id, meta.title, f"{meta.players_min}-{meta.players_max}", meta.rules_version, meta.description
        )
    console.print(table)
    console.print(f"rules kernels: {describe_build()}", markup=False)
    return 0


def version_line() -> str:
    """``ludica 0.1.0 (compiled kernels (mypyc))``: the version and which build of the rules runs."""
    return f"ludica {__version__} ({describe_build()})"


# -- ludica play ---------------------------------------------------------------------------------
def default_save_path(game_id: str) -> Path:
    from datetime import datetime

    from platformdirs import user_data_dir

    folder = Path(user_data_dir("ludica")) / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{game_id}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"


class TerminalTable:
    """One table in the terminal: shows whose decision it is, their view, the legal actions."""

    def __init__(self, match: Match[Any], save: Path, *, physical: bool, ask: Callable[[str], str] = input) -> None:
        self.match = match
        self.save = save
        self.physical = physical
        self.ask = ask
        self.last_seat: str | None = None

    def run(self) -> int:
        game = self.match.game
        console.print(f"[bold]{game.meta.title}[/bold] — saved after every action to {self.save}")
        console.print("Type the number of an action, or an action in notation; '?' for help.\n")
        while True:
            pending = self.match.pending()
            if pending.is_over:
                self.finish()
                return 0
            if pending.is_chance:
                self.chance()
            else:
                self.decide(pending.seats[0] if len(pending.seats) == 1 else self.pick_seat(pending.seats))
            save_record(self.match, self.save)

    def finish(self) -> None:
        console.rule("The game is over")
        console.print(self.match.game.render(self.match.view(None)), markup=False)
        outcome = self.match.game.outcome(self.match.state)
        if outcome is not None:
            console.print(f"[bold]Result:[/bold] {outcome.summary or ', '.join(outcome.winners)}")
        save_record(self.match, self.save)
        console.print(f"Record saved to {self.save}")

    def pick_seat(self, seats: Sequence[str]) -> str:
        while True:
            answer = self.ask(f"Several seats decide now ({', '.join(seats)}). Which seat acts? ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(seats):
                return seats[int(answer) - 1]
            if answer in seats:
                return answer
            console.print(f"[red]Choose one of {', '.join(seats)}[/red]")

    def hand_over(self, seat: str) -> None:
        """With hidden information, the screen is cleared and handed to the next seat first."""
        if not self.match.game.meta.hidden_information or seat == self.last_seat:
            return
        console.clear()
        name = self.match.game.seat_name(self.match.state, seat)
        self.ask(f"Hand the keyboard to {name} ({seat}), who presses Enter (others look away). ")
        self.last_seat = seat

    def chance(self) -> None:
        step = self.match.game.chance_step(self.match.state)
        if not self.physical:
            action = self.match.deal()
            console.print(f"dealer: {action.notation()}", style="dim", markup=False)
            return
        while True:
            raw = self.ask(f"[physical] {describe_step(step)}: ").strip()
            try:
                action = chance_action(step, parse_chance(step, raw))
                self.match.apply(action)
                return
            except (LudicaError, UserError) as exc:
                console.print(str(exc), style="red", markup=False)

    def decide(self, seat: str) -> None:
        game, match = self.match.game, self.match
        self.hand_over(seat)
        console.rule(f"{game.seat_name(match.state, seat)} ({seat}) decides — {match.pending().phase}")
        console.print(game.render(match.view(seat)), markup=False)
        legal = match.legal_actions(seat)
        for i, template in enumerate(legal, 1):
            console.print(f"  {i:>3}. {describe_template(template)}", markup=False)
        while True:
            raw = self.ask(f"{seat}> ").strip()
            if not raw:
                continue
            if raw in ("?", "help"):
                console.print(HELP_PROMPT)
                continue
            if raw == "log":
                for entry in match.story(seat)[-20:]:
                    console.print(f"  [{entry.step}] {entry.event.text}", markup=False)
                continue
            if raw in ("quit", "exit"):
                raise KeyboardInterrupt
            try:
                action = self.read_action(seat, raw, legal)
                match.apply(action)
                return
            except (LudicaError, UserError) as exc:
                console.print(f"Refused: {exc}", style="red", markup=False)

    def read_action(self, seat: str, raw: str, legal: list[Action]) -> Action:
        if raw.isdigit():
            index = int(raw) - 1
            if not 0 <= index < len(legal):
                raise UserError(f"choose 1..{len(legal)}")
            action = self.fill_in(legal[index])
            narration = self.ask("  narration (Enter to skip): ").strip()
            return action.with_narration(narration or None)
        action = Action.parse(raw if raw.startswith(seat + " ") else f"{seat} {raw}")
        if not any(matches(t, action.without_narration()) for t in legal):
            # Still ask the rules, so the refusal names the rule that refused it.
            self.match.check(action)
        return action

    def fill_in(self, template: Action) -> Action:
        args: dict[str, Any] = {}
        for key, value in template.args.items():
            if isinstance(value, Text):
                lead = f"{value.prefix} " if value.prefix else ""
                answer = self.ask(f"  {key} ({value.hint}): {lead}").strip()
                args[key] = answer if not lead or answer.startswith(value.prefix) else lead + answer
            elif isinstance(value, IntRange):
                raw = self.ask(f"  {key} ({value.lo}..{value.hi}): ").strip()
                if not raw.lstrip("-").isdigit():
                    raise UserError(f"{key} must be a whole number")
                args[key] = int(raw)
            else:
                args[key] = value
        return Action(template.seat, template.type, args)


def describe_template(template: Action) -> str:
    """A legal action as a person reads it: free parameters shown as ``<hint>`` or ``<lo..hi>``."""
    parts = [template.type]
    for key, value in template.args.items():
        if isinstance(value, Text):
            parts.append(f"{key}=<{value.hint}>")
        elif isinstance(value, IntRange):
            parts.append(f"{key}=<{value.lo}..{value.hi}>")
        else:
            parts.append(Action(template.seat, "x", {key: value}).notation().split(" ", 2)[2])
    return " ".join(parts)


HELP_PROMPT = """  N            take action number N (you are asked for any free text and for narration)
  TYPE k=v     take an action in notation, e.g.  pass_reaction   or   flip position=2 source=free_scarab
  ... -- text  add narration to an action in notation
  log          the last lines of the story log you may see
  quit         stop (the game is saved; resume with --load FILE)"""


def describe_step(step: ChanceStep) -> str:
    if isinstance(step, Roll):
        return f"type the {len(step.sides)} die result(s) ({' '.join(f'd{s}' for s in step.sides)}), space-separated"
    if isinstance(step, Shuffle):
        return f"type the order of the {step.n} shuffled items (0..{step.n - 1}), space-separated"
    options = [str(o) for o in step.options]
    shown = ", ".join(options) if len(options) <= 20 else ", ".join(options[:8]) + f", … ({len(options)} in all)"
    return f"type the {step.k} item(s) picked from {shown}, space-separated"


def parse_chance(step: ChanceStep, raw: str) -> dict[str, Any]:
    parts = raw.replace(",", " ").split()
    if isinstance(step, Pick):
        values: list[Any] = [json.loads(p) if p.lstrip("-").isdigit() else p for p in parts]
    else:
        if not all(p.lstrip("-").isdigit() for p in parts):
            raise UserError("type whole numbers separated by spaces")
        values = [int(p) for p in parts]
    return {step.key: values}


def cmd_play(args: argparse.Namespace) -> int:
    if args.load:
        match = replay_record(load_json(args.load))
        save = Path(args.save or args.load)
        console.print(f"Resumed {args.load} at step {len(match.actions)}.")
    elif args.position:
        match = read_position(load_json(args.position))
        save = Path(args.save) if args.save else default_save_path(match.game.meta.id)
    else:
        if not args.game:
            raise UserError("name a game (see 'ludica games') or --load a saved game")
        config = make_config(args.game, args)
        if config.seed is None:
            import secrets

            config = Config(config.players, config.options, secrets.randbelow(2**63))
        match = Match(get_game(args.game), config)
        save = Path(args.save) if args.save else default_save_path(args.game)
    table = TerminalTable(match, save, physical=args.physical)
    try:
        return table.run()
    except (KeyboardInterrupt, EOFError):
        save_record(match, save)
        console.print(f"\nStopped. Nothing is lost: resume with  ludica play --load {save}")
        return 0


# -- ludica replay -------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace) -> int:
    match = replay_record(load_json(args.file))
    seat = None if args.as_seat in (None, "spectator") else args.as_seat
    if seat is not None and seat not in match.game.seats(match.state):
        raise UserError(f"no seat {seat!r}; the seats are {', '.join(match.game.seats(match.state))}")
    console.print(f"[green]Record verified[/green]: {len(match.actions)} actions, digest {match.digest()[:16]}…")
    console.print(match.game.render(match.view(seat)), markup=False)
    return 0


# -- ludica position -----------------------------------------------------------------------------
def cmd_position(args: argparse.Namespace) -> int:
    data = load_json(args.file)
    match = replay_record(data)
    if args.at is not None:
        if not 0 <= args.at <= len(match.actions):
            raise UserError(f"--at must be 0..{len(match.actions)}")
        actions = match.actions[: args.at]
        match = Match(match.game, match.config)
        match.replay(actions)
    print(json.dumps(position_of(match.game, match.state, match.config), indent=1, ensure_ascii=False))
    return 0


# -- ludica simulate -----------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    from .lab.simulate import simulate

    game = get_game(args.game)
    config = make_config(args.game, args)
    summaries = simulate(args.game, config, games=args.games, seed=args.seed or 0, jobs=args.jobs, console=console)
    table = Table(title=f"{game.meta.title}: {args.games} random games, seed {args.seed or 0}")
    table.add_column("figure")
    table.add_column("value")
    for label, value in game.report(summaries):
        table.add_row(label, value)
    console.print(table)
    if args.out:
        Path(args.out).write_text(json.dumps(summaries, indent=1) + "\n", encoding="utf-8")
        console.print(f"Per-game figures written to {args.out}")
    return 0


# -- ludica serve / verify (the web table) -------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    from .table.server import serve

    serve(host=args.host, port=args.port, db_url=args.db, open_browser=not args.no_browser)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from .table.fairness import verify_record

    report = verify_record(args.file)
    console.print(f"[green]Verified[/green]: {report}")
    return 0


# -- parser --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ludica", description="Five tabletop games, run exactly by their rules.")
    parser.add_argument("--version", action="version", version=version_line(), help="the version and which build runs")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("games", help="list the games, their player counts and descriptions").set_defaults(func=cmd_games)

    def game_setup(p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
        p.add_argument("--names", help="players' names in seat order, comma-separated (sets the number)")
        p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option or house rule")
        p.add_argument("--seed", type=int, help="the dealer's seed (default: random for play, 0 for simulate)")

    play = sub.add_parser("play", help="play at one table in the terminal (saved after every action)")
    play.add_argument("game", nargs="?", help="game id (see 'ludica games')")
    game_setup(play)
    play.add_argument("--physical", action="store_true", help="type the results of real dice and cards")
    play.add_argument("--save", metavar="FILE", help="where to save the record (default: your data folder)")
    play.add_argument("--load", metavar="FILE", help="resume a saved game")
    play.add_argument("--position", metavar="FILE", help="start from a position (JSON)")
    play.set_defaults(func=cmd_play)

    replay = sub.add_parser("replay", help="replay a record, check it, and print the final view")
    replay.add_argument("file")
    replay.add_argument("--as", dest="as_seat", metavar="SEAT", help="whose view to print (default: spectator)")
    replay.set_defaults(func=cmd_replay)

    position = sub.add_parser("position", help="print the position (JSON) after a record, or after its first N actions")
    position.add_argument("file")
    position.add_argument("--at", type=int, metavar="N", help="after the first N actions")
    position.set_defaults(func=cmd_position)

    simulate = sub.add_parser("simulate", help="random legal play of many games, with statistics")
    simulate.add_argument("game")
    game_setup(simulate)
    simulate.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    simulate.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    simulate.add_argument("--out", metavar="FILE", help="also write every game's figures as JSON")
    simulate.set_defaults(func=cmd_simulate)

    serve = sub.add_parser("serve", help="start the web table (SQLite by default)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", metavar="URL", help="database URL (default: SQLite in your data folder)")
    serve.add_argument("--no-browser", action="store_true", help="do not open the browser")
    serve.set_defaults(func=cmd_serve)

    verify = sub.add_parser("verify", help="recompute every chance step of a finished record from its seed")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except (LudicaError, UserError) as exc:
        console.print(f"ludica: {exc}", style="red", markup=False)
        return 2


if __name__ == "__main__":
    sys.exit(main())
