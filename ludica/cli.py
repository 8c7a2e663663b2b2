"""The ``ludica`` command: list games, play at one table, replay, simulate, serve, verify.

Every user mistake ends in a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from . import __version__
from ._build import describe as describe_build
from .bots.seating import seat_bots
from .core import Config, LudicaError, Match, available, get_game
from .core.names import namer_of
from .core.people import check_names
from .core.records import load_json, position_of, read_position, replay_record, save_record
from .lab import cli as lab_cli
from .lab.playthrough import NAMES
from .terminal import Terminal

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
        names = check_names([n.strip() for n in args.names.split(",")])
    else:
        n = args.players if args.players is not None else meta.players_min
        if n > len(NAMES):
            raise UserError(f"give the players' names with --names for more than {len(NAMES)} players")
        names = NAMES[:n]
    return Config(names, parse_options(args.option), args.seed)


# -- ludica games --------------------------------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    if args.game:
        return show_game(args.game)
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


def show_game(game_id: str) -> int:
    """``ludica games GAME``: a game's facts and every option with its documentation."""
    meta = get_game(game_id).meta
    wide = lab_cli.console  # full width into a file or a pipe (rich would cut option names at 80 columns)
    wide.print(f"[bold]{meta.title}[/bold] ({meta.id}) — {meta.players_min}-{meta.players_max} players")
    wide.print(meta.description, markup=False)
    if not meta.options:
        wide.print("This game has no options.")
        return 0
    table = Table(title="Options (ludica play/simulate … --option NAME=VALUE)")
    for column in ("option", "default", "values", "what it does"):
        table.add_column(column, no_wrap=column == "option", overflow="fold")
    for o in meta.options:
        values = ", ".join(map(json.dumps, o.choices)) if o.choices else lab_cli.kind_of(o.default).removeprefix("a ")
        tagged = o.house_rule and not o.doc.lower().startswith("house rule")
        doc = ("house rule: " if tagged else "") + o.doc
        table.add_row(o.name, json.dumps(o.default), values, doc)
    wide.print(table)
    return 0


def version_line() -> str:
    """``ludica 0.1.0 (compiled kernels (mypyc), C observation encoder)``: the version and the build."""
    return f"ludica {__version__} ({describe_build()})"


# -- ludica play ---------------------------------------------------------------------------------
def default_save_path(game_id: str) -> Path:
    from datetime import datetime

    from platformdirs import user_data_dir

    folder = Path(user_data_dir("ludica")) / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{game_id}-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"


PERSON = "human"
"""``--bot SEAT=human`` on a resume: a person takes back a seat the save gave a bot."""
OFF = "off"
"""``--physical off`` on a resume: the dealer rolls and deals again."""


def play_settings(saved: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """How this table plays: the saved game's bots and physical mode (its record's ``play``), each
    overridden by the command line (``--bot p2=random``, ``--bot p2=human``, ``--physical off``).
    A bot a file names is held to the web table's ceilings (:func:`ludica.table.bots.check_level`):
    a file is not the person at the keyboard."""
    from .table.bots import MAX_SPEC, check_level

    bots = dict(saved.get("bots", {}))
    for seat, spec in bots.items():
        if not isinstance(seat, str) or not isinstance(spec, str) or not spec or len(spec) > MAX_SPEC:
            raise UserError(f"the saved game names a bot that is not SEAT=BOT text (at {str(seat)[:20]!r})")
        check_level(spec, seat)
    for item in args.bot or ():
        seat, eq, spec = item.partition("=")
        seat, spec = seat.strip(), spec.strip()
        if not eq or not seat or not spec:
            raise UserError(f"--bot expects SEAT=BOT (e.g. p2=heuristic), not {item!r}")
        if spec == PERSON:
            bots.pop(seat, None)
        else:
            bots[seat] = spec
    physical = saved.get("physical") if args.physical is None else args.physical
    out: dict[str, Any] = {}
    if bots:
        out["bots"] = bots
    if physical not in (None, OFF):
        out["physical"] = physical
    return out


def refuse_setup_on_load(args: argparse.Namespace) -> None:
    """A resumed game keeps its players, names, options and seed (they are its record's config)."""
    for flag in ("players", "names", "option", "seed", "position"):
        if getattr(args, flag, None) is not None:
            raise UserError(f"--{flag} cannot change a saved game (its record keeps it); start a new game instead")


def cmd_play(args: argparse.Namespace) -> int:
    if args.load:
        refuse_setup_on_load(args)
        match = replay_record(load_json(args.load))
        if args.game and args.game != match.game.meta.id:
            raise UserError(f"{args.load} is a game of {match.game.meta.id}, not {args.game}")
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
    match.settings = play_settings(match.settings, args)
    chosen = [f"{seat}={spec}" for seat, spec in match.settings.get("bots", {}).items()]
    bots = seat_bots(match, chosen, seed=match.config.seed)
    table = Terminal(match, save, physical=match.settings.get("physical"), console=console, bots=bots)
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
    console.print(namer_of(match, seat).say(match.game.render(match.view(seat))), markup=False)
    return 0


# -- ludica position -----------------------------------------------------------------------------
def cmd_position(args: argparse.Namespace) -> int:
    data = load_json(args.file)
    match = replay_record(data)
    if args.at is not None:
        if not 0 <= args.at <= len(match.actions):
            raise UserError(f"--at must be 0..{len(match.actions)}")
        actions = match.actions[: args.at]
        match = match.restart()
        match.replay(actions)
    print(json.dumps(position_of(match.game, match.state, match.config), indent=1, ensure_ascii=False))
    return 0


# -- ludica serve / verify (the web table) -------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from .table.cluster import ClusterError
    from .table.server import serve

    try:
        serve(
            host=args.host,
            port=args.port,
            db_url=args.db,
            open_browser=not args.no_browser,
            workers=args.workers,
            forwarded_allow_ips=args.forwarded_allow_ips,
        )
    except ClusterError as exc:
        print(f"ludica serve: {exc}", file=sys.stderr)
        return 2
    except SQLAlchemyError as exc:  # a database that cannot be reached or opened: a user's URL, not a bug
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        print(f"ludica serve: cannot open the database given by --db: {reason}", file=sys.stderr)
        return 2
    console.print("Ludica table stopped.")
    quick_exit(0)
    return 0


def quick_exit(status: int) -> None:
    """End the program now, its work done and saved (the table closed its storage): Python's own
    teardown of the web stack's modules takes seconds on a busy machine, and Ctrl-C must stop
    ``serve`` within two."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


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
    games = sub.add_parser("games", help="list the games; 'ludica games GAME' lists a game's options")
    games.add_argument("game", nargs="?", help="a game id: show its options and their documentation")
    games.set_defaults(func=cmd_games)

    def game_setup(p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int, help="number of players (default: the game's minimum)")
        p.add_argument("--names", help="players' names in seat order, comma-separated (sets the number)")
        p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option or house rule")
        p.add_argument("--seed", type=int, help="the dealer's seed (default: random for play, 0 for simulate)")

    play = sub.add_parser("play", help="play at one table in the terminal (saved after every action)")
    play.add_argument("game", nargs="?", help="game id (see 'ludica games')")
    game_setup(play)
    play.add_argument(
        "--physical",
        nargs="?",
        const="all",
        choices=("all", "dice", OFF),
        help="type what real components show: 'all' (dice and cards, the default) or 'dice' (the table deals "
        "cards); with --load, 'off' lets the dealer deal again (a resume keeps the saved mode otherwise)",
    )
    play.add_argument("--save", metavar="FILE", help="where to save the record (default: your data folder)")
    play.add_argument("--load", metavar="FILE", help="resume a saved game")
    play.add_argument("--position", metavar="FILE", help="start from a position (JSON)")
    play.add_argument(
        "--bot",
        action="append",
        metavar="SEAT=BOT",
        help="a bot plays this seat: random, heuristic, ismcts, or a level such as ismcts:playouts=400 (repeatable); "
        "a resume keeps the saved bots, SEAT=human gives a seat back to a person",
    )
    play.set_defaults(func=cmd_play)

    replay = sub.add_parser("replay", help="replay a record, check it, and print the final view")
    replay.add_argument("file")
    replay.add_argument("--as", dest="as_seat", metavar="SEAT", help="whose view to print (default: spectator)")
    replay.set_defaults(func=cmd_replay)

    position = sub.add_parser("position", help="print the position (JSON) after a record, or after its first N actions")
    position.add_argument("file")
    position.add_argument("--at", type=int, metavar="N", help="after the first N actions")
    position.set_defaults(func=cmd_position)

    lab_cli.register(sub)  # simulate, compare (ludica/lab/cli.py)

    serve = sub.add_parser("serve", help="start the web table (SQLite by default)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", metavar="URL", help="database URL (default: SQLite in your data folder)")
    serve.add_argument("--no-browser", action="store_true", help="do not open the browser")
    serve.add_argument(
        "--workers", type=int, default=1, metavar="N", help="N processes on one address (needs --db postgresql://…)"
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="proxies (comma-separated addresses) whose X-Forwarded-For names the client; default: none",
    )
    serve.set_defaults(func=cmd_serve)

    verify = sub.add_parser("verify", help="recompute every chance step of a finished record from its seed")
    verify.add_argument("file")
    verify.set_defaults(func=cmd_verify)

    from .bots.tournament import add_parser as add_tournament

    add_tournament(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        status = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, not in Python's own flush at exit
        return status
    except (LudicaError, UserError) as exc:
        console.print(f"ludica: {exc}", style="red", markup=False, soft_wrap=True)  # one line, whatever the width
        return 2
    except BrokenPipeError:
        return quiet_broken_pipe()
    except KeyboardInterrupt as exc:  # Ctrl-C: one line, status 130 as a shell gives (128 + SIGINT)
        console.print(f"ludica: {str(exc) or 'stopped (Ctrl-C)'}", markup=False, soft_wrap=True)
        return INTERRUPTED


INTERRUPTED = 130


def quiet_broken_pipe() -> int:
    """The reader of our output went away (``ludica position FILE | head``): stop quietly.

    Standard output is pointed at the null device so that Python's own flush at exit does not
    fail again and print "Exception ignored"; the status is 1, as when Rich meets a closed pipe
    while printing a table.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor behind stdout (tests, embedding)
        pass
    return 1


if __name__ == "__main__":
    sys.exit(main())
