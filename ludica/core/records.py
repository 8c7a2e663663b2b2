"""Records and positions: the JSON forms of a game (see ``docs/record-format.md``).

A **record** is the truth of a game::

    {"format": "ludica-record", "format_version": 1, "game": "great-city", "rules_version": "1.0",
     "config": {...}, "actions": [...], "digest": "<sha256 of the final position>"}

Replaying the actions from the config rebuilds the exact state; the digest checks it. A record
of a game that began from a position also carries ``"start"``: that position's ``state`` object,
which the replay starts from instead of the setup.

A **position** is one state, whole, what FEN is to chess::

    {"format": "ludica-position", "format_version": 1, "game": ..., "rules_version": ...,
     "config": {...}, "state": {...game-specific...}}

Reading a position refuses one that breaks an invariant of its game, naming the reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import Action
from .errors import DigestMismatch, LudicaError, PositionError, RecordError
from .game import Config, Game
from .match import Match, digest_of
from .registry import get_game

FORMAT_VERSION = 1


def record_of(match: Match[Any]) -> dict[str, Any]:
    """The record of a match; ``start`` only when it began from a position (not the setup)."""
    out: dict[str, Any] = {
        "format": "ludica-record",
        "format_version": FORMAT_VERSION,
        "game": match.game.meta.id,
        "rules_version": match.game.meta.rules_version,
        "config": match.config.to_json(),
        "actions": [a.to_json() for a in match.actions],
        "digest": match.digest(),
    }
    if match.start is not None:
        out["start"] = match.start
    return out


def save_record(match: Match[Any], path: str | Path) -> None:
    """Write the record atomically (write a temporary file, then rename): never half a file."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record_of(match), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def load_json(path: str | Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}", rule="record") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path} is not valid JSON ({exc})", rule="record") from None


def _header(data: Any, kind: str) -> tuple[Game[Any], Config]:
    if not isinstance(data, dict) or data.get("format") != f"ludica-{kind}":
        raise RecordError(f'this is not a Ludica {kind} (missing "format": "ludica-{kind}")', rule=kind)
    if data.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            f"{kind} format version {data.get('format_version')!r} is not supported (this Ludica reads "
            f"{FORMAT_VERSION})",
            rule=kind,
        )
    game = get_game(str(data.get("game")))
    if data.get("rules_version") != game.meta.rules_version:
        raise RecordError(
            f"the {kind} was made with rules version {data.get('rules_version')!r} of {game.meta.title}; "
            f"this Ludica has version {game.meta.rules_version!r}",
            rule=kind,
        )
    return game, Config.from_json(data.get("config"))


def replay_record(data: Any, *, verify_digest: bool = True, check: bool = True) -> Match[Any]:
    """Rebuild a match from a record, checking every action and the final digest.

    ``check=False`` re-applies the actions without validating each (only for records this
    installation wrote itself, e.g. a table's own storage); the digest is still compared.
    """
    game, config = _header(data, "record")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("the record has no 'actions' list", rule="record")
    start = data.get("start")
    if start is None:
        match: Match[Any] = Match(game, config)
    else:
        try:
            match = _match_at(game, config, start)
        except PositionError as exc:
            raise RecordError(f"the record's start position is refused: {exc.reason}", rule="record") from None
    for i, raw in enumerate(actions):
        try:
            match.apply(Action.from_json(raw), trusted=not check)
        except LudicaError as exc:
            raise RecordError(f"action {i + 1} of the record is refused: {exc}", rule="record") from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            # A record is read from a file anyone may have edited: whatever the rules trip over in
            # it is the record's fault to the person reading it, said in one line.
            raise RecordError(
                f"action {i + 1} of the record cannot be replayed ({type(exc).__name__} in the rules)", rule="record"
            ) from None
    claimed = data.get("digest")
    if verify_digest and claimed is not None and claimed != match.digest():
        raise DigestMismatch(
            "the record's digest does not match the replayed game: it was altered or is corrupt", rule="record"
        )
    return match


def position_of(game: Game[Any], state: Any, config: Config) -> dict[str, Any]:
    return {
        "format": "ludica-position",
        "format_version": FORMAT_VERSION,
        "game": game.meta.id,
        "rules_version": game.meta.rules_version,
        "config": config.to_json(),
        "state": game.to_position(state),
    }


def read_position(data: Any) -> Match[Any]:
    """A match whose state is the position (its record starts there, with no actions)."""
    game, config = _header(data, "position")
    return _match_at(game, config, data.get("state"))


def _match_at(game: Game[Any], config: Config, raw: Any) -> Match[Any]:
    """A match that starts at the position state ``raw``, refused if malformed or unsound."""
    game.validate_config(config)
    if not isinstance(raw, dict):
        raise PositionError("the position has no 'state' object", rule="position")
    try:
        match: Match[Any] = Match(game, config, validate=False, start=raw)
    except LudicaError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PositionError(
            f"the position's state is malformed: {type(exc).__name__}: {exc}", rule="position"
        ) from None
    problems = game.invariants(match.state)
    if problems:
        raise PositionError("the position breaks the rules: " + "; ".join(problems), rule="position")
    return match


def position_digest(game: Game[Any], state: Any) -> str:
    return digest_of(game.to_position(state))
