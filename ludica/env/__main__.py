"""``python -m ludica.env describe GAME``: a game's action catalogue and observation layout.

Prints every shape of the catalogue with its first index, size and parameter domains (ranked
shapes marked), then the observation vector's slices, for the given player count and options.
"""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from .driver import Driver
from .encoding import FREE, HASHED


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
    n = len(driver.seats)
    console.print(
        f"observation: {driver.observer.size} floats = [0, {n}) observing seat one-hot, "
        f"[{n}, {2 * n}) seats to decide now, [{2 * n}, {2 * n + HASHED}) hashed view features"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ludica.env", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    desc = sub.add_parser("describe", help="print a game's action catalogue and observation layout")
    desc.add_argument("game", help="game id, e.g. euphoria")
    desc.add_argument("--players", type=int, default=None, help="number of players (default: the fewest)")
    desc.add_argument("--options", default="{}", help="the game's options as a JSON object")
    args = parser.parse_args(argv)
    describe(args.game, args.players, json.loads(args.options))


if __name__ == "__main__":
    main()
