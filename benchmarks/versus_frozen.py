"""A tournament between today's heuristic and a frozen one (the plugin of an earlier commit).

The frozen heuristic is read from git (``git show REV:ludica/games/<package>/bot.py``, and
Euphoria's ``bot_view.py`` beside it), loaded under another module name and registered as the bot
``frozen``; then ``ludica tournament`` runs in this process with whatever arguments follow, so
``frozen`` can be named in ``--bots``. Nothing of the frozen copy enters the package.

    python benchmarks/versus_frozen.py --rev a5adf28 great-city --bots heuristic,frozen,frozen,frozen \\
        --players 4 --games 100

Seats rotate as in any tournament; the intervals are ``ludica tournament``'s.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ludica.bots.base import Decision, Situation, register_bot
from ludica.cli import main as ludica_main
from ludica.core.registry import GAME_MODULES

ROOT = Path(__file__).resolve().parent.parent


def _source(rev: str, path: str) -> str | None:
    done = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def frozen_plugin(game_id: str, rev: str) -> Any:
    """The ``decide`` of the game's heuristic plugin at ``rev``, loaded beside the package."""
    package = GAME_MODULES[game_id]
    folder = package.replace(".", "/")
    where = Path(tempfile.mkdtemp(prefix="frozen-bot-"))
    names = {"bot_view": f"_frozen_{rev}_bot_view", "bot": f"_frozen_{rev}_bot"}
    loaded: Any = None
    for part in ("bot_view", "bot"):
        text = _source(rev, f"{folder}/{part}.py")
        if text is None:
            continue
        text = text.replace("from .bot_view import", f"from .{names['bot_view']} import")
        text = text.replace("from . import bot_view", f"from . import {names['bot_view']} as bot_view")
        file = where / f"{names[part]}.py"
        file.write_text(text, encoding="utf-8")
        name = f"{package}.{names[part]}"
        spec = importlib.util.spec_from_file_location(name, file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        loaded = module
    return loaded.decide


class FrozenBot:
    name = "frozen"

    def __init__(self, plugin: Any, seed: int) -> None:
        self.plugin = plugin
        self.rng = random.Random(seed)

    def decide(self, situation: Situation) -> Decision:
        decision: Decision = self.plugin(situation, self.rng)
        return decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", default="a5adf28", help="the commit whose heuristic is frozen (default a5adf28)")
    parser.add_argument("game")
    args, rest = parser.parse_known_args()
    plugin = frozen_plugin(args.game, args.rev)
    register_bot("frozen", lambda game_id, params, seed: FrozenBot(plugin, seed))
    sys.exit(ludica_main(["tournament", args.game, *rest]))


if __name__ == "__main__":
    main()
