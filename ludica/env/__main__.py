"""``python -m ludica.env describe GAME``: a game's action catalogue and observation layout;
``python -m ludica.env protocol GAME --agent SPEC``: the benchmark protocol (:mod:`ludica.env.protocol`).

Prints every shape of the catalogue with its first index, size and parameter domains (ranked
shapes marked), then the observation vector's slices, for the given player count and options.
"""

from __future__ import annotations

import argparse
import json
import re

from rich.console import Console
from rich.table import Table

from .driver import Driver
from .encoding import FREE
from .protocol import add_arguments as add_protocol_arguments
from .protocol import main as run_protocol


def describe(game: str, players: int | None, options: dict[str, object]) -> None:
    driver = Driver(game, players, options)
    cat = driver.catalogue
    table = Table(title=f"{driver.game.meta.title}: {cat.size:,} actions, seats {', '.join(driver.seats)}")
    for col in ("first index", "size", "action", "parameters"):
        table.add_column(col, justify="right" if col in ("first index", "size") else "left")
    for offset, shape in zip(cat.offsets, cat.shapes, strict=True):
        if shape.ranked:
            params = f"ranked: the legal {shape.type} actions in canonical order"
        else:
            params = ", ".join(
                f"{name}=<text>" if domain is FREE else f"{name}[{len(domain)}]" for name, domain in shape.params
            )
        table.add_row(f"{offset:,}", f"{shape.size:,}", shape.type, params)
    console = Console()
    console.print(table)
    console.print(f"observation: {driver.observer.size} floats; its slots:")
    console.print(observation_table(game, players), markup=False, highlight=False)


def _group(name: str) -> str:
    """A slot's field with ids, seats and values folded (``players[seat0].purse`` -> ``players[·].purse``)."""
    name = re.sub(r"\[[^\]]*\]", "[·]", name)
    return re.split(r"[=∋#?]|:seat", name, maxsplit=1)[0]


def observation_table(game: str, players: int | None = None) -> str:
    """The observation tensor's layout of ``game`` as a markdown table, one row per field (its slots folded)."""
    driver = Driver(game, players)
    rows = driver.observer.rows()
    groups: dict[str, list[tuple[int, str, str]]] = {}
    for row in rows:
        groups.setdefault(_group(row[1]), []).append(row)
    n = len(driver.seats)
    heads = driver.catalogue.heads
    lines = [
        f"{driver.game.meta.title}, {len(driver.players)} players: {driver.observer.size} slots "
        f"(seats in your order: {n}); factored action heads {list(heads)} "
        f"(flat catalogue {driver.catalogue.size:,})",
        "",
        "| field | slots | first | example slot: meaning |",
        "|---|---:|---:|---|",
    ]
    for field, members in groups.items():
        first = members[0]
        lines.append(f"| `{field}` | {len(members)} | {first[0]} | `{first[1]}`: {first[2]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ludica.env", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    desc = sub.add_parser("describe", help="print a game's action catalogue and observation layout")
    desc.add_argument("game", help="game id, e.g. euphoria")
    desc.add_argument("--players", type=int, default=None, help="number of players (default: the fewest)")
    desc.add_argument("--options", default="{}", help="the game's options as a JSON object")
    proto = sub.add_parser("protocol", help="play the benchmark protocol of a game against an agent")
    add_protocol_arguments(proto)
    doc = sub.add_parser("tensors", help="print every game's observation layout as markdown (docs/env.md)")
    doc.add_argument("games", nargs="*", help="game ids (default: the five games)")
    args = parser.parse_args(argv)
    if args.command == "protocol":
        run_protocol(args)
        return
    if args.command == "tensors":
        print(observation_tables(args.games or None))
        return
    describe(args.game, args.players, json.loads(args.options))


GAMES = ("great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria")


def observation_tables(games: list[str] | None = None) -> str:
    """Every game's observation layout (fewest players), as in ``docs/env.md``."""
    return "\n\n".join(observation_table(g) for g in games or GAMES)


if __name__ == "__main__":
    main()
