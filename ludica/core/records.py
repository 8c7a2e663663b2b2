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

Records and positions are untrusted input (a file anyone may have edited): every reader goes
through :func:`load_json` (bounded nesting, bounded numbers, no NaN) and :func:`_header` (the
header's and the config's types), so a malformed file is one :class:`RecordError` naming what is
wrong, never a ``RecursionError``, ``ValueError`` or ``TypeError`` — on either build.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .actions import CHANCE, Action
from .errors import DigestMismatch, LudicaError, PositionError, RecordError
from .game import Config, Game
from .match import Match, digest_of
from .people import name_problem
from .registry import get_game

FORMAT_VERSION = 1

MAX_DEPTH = 64
"""How deeply a record or position may nest (an action's args allow 32 levels; states need ~10)."""
MAX_DIGITS = 40
"""The most digits a number of a record may have (a seed, a count: 2**128 has 39)."""


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
    if match.typed:
        out["typed"] = list(match.typed)
    if match.settings:
        out["play"] = dict(match.settings)
    return out


PHYSICAL_MODES = ("all", "dice")
"""``play.physical`` of a record: what the people at the table typed (see ``ludica play --physical``)."""


def chance_indices(actions: list[Action]) -> list[int]:
    """The indices of the chance steps among ``actions`` (what a table that types every outcome marks)."""
    return [i for i, a in enumerate(actions) if a.seat == CHANCE]


def typed_of(data: dict[str, Any], match: Match[Any]) -> list[int]:
    """The record's ``typed`` list, checked: increasing indices of chance steps of its actions."""
    raw = data.get("typed", [])
    if not isinstance(raw, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in raw):
        raise RecordError("the record's typed must be a list of action indices (whole numbers)", rule="record")
    chance = set(chance_indices(match.actions))
    for i in raw:
        if i not in chance:
            raise RecordError(f"the record's typed lists {i}, which is not a chance step of its actions", rule="record")
    if raw != sorted(set(raw)):
        raise RecordError("the record's typed must list each chance step once, in order", rule="record")
    return list(raw)


def play_settings_of(data: dict[str, Any]) -> dict[str, Any]:
    """The record's ``play`` object (how ``ludica play`` was started), its types checked."""
    raw = data.get("play", {})
    if not isinstance(raw, dict):
        raise RecordError("the record's play must be an object", rule="record")
    unknown = set(raw) - {"bots", "physical"}
    if unknown:
        raise RecordError(f"the record's play has unknown field(s): {', '.join(sorted(unknown))}", rule="record")
    bots = raw.get("bots", {})
    if not isinstance(bots, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in bots.items()):
        raise RecordError("the record's play.bots must map seats to bot names (text)", rule="record")
    physical = raw.get("physical")
    if physical is not None and physical not in PHYSICAL_MODES:
        raise RecordError(f"the record's play.physical must be one of {', '.join(PHYSICAL_MODES)}", rule="record")
    out: dict[str, Any] = {}
    if bots:
        out["bots"] = dict(bots)
    if physical is not None:
        out["physical"] = physical
    return out


def save_record(match: Match[Any], path: str | Path) -> None:
    """Write the record atomically (write a temporary file, then rename): never half a file."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record_of(match), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def load_json(path: str | Path) -> Any:
    """A record or position file, read as untrusted: valid JSON, at most :data:`MAX_DEPTH` levels
    deep, numbers finite and of at most :data:`MAX_DIGITS` digits."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}", rule="record") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a folder, not a file", rule="record") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text ({exc.reason})", rule="record") from None
    return parse_json(text, str(path))


def parse_json(text: str, source: str = "the record") -> Any:
    """:func:`load_json` on text already read."""
    try:
        data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except RecursionError:
        raise RecordError(f"{source} is nested more than {MAX_DEPTH} levels deep", rule="record") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not valid JSON ({exc})", rule="record") from None
    except _BadNumber as exc:
        raise RecordError(f"{source} holds {exc}", rule="record") from None
    check_bounds(data, source)
    return data


class _BadNumber(ValueError):
    """A number the JSON reader refuses (said by :func:`parse_json` with the file's name)."""


def _digits(text: str) -> str:
    if len(text.lstrip("-").split(".")[0].split("e")[0].split("E")[0]) > MAX_DIGITS:
        raise _BadNumber(f"a number of more than {MAX_DIGITS} digits")
    return text


def _whole(text: str) -> int:
    return int(_digits(text))


def _real(text: str) -> float:
    value = float(_digits(text))
    if not math.isfinite(value):
        raise _BadNumber(f"a number out of range ({text[:20]})")
    return value


def _constant(text: str) -> Any:
    raise _BadNumber(f"{text}, which is not a number JSON allows")


def check_bounds(data: Any, source: str = "the record") -> None:
    """Refuse data nested more than :data:`MAX_DEPTH` levels or holding an unbounded number
    (walked without recursion, so that depth itself cannot crash the check)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise RecordError(f"{source} is nested more than {MAX_DEPTH} levels deep", rule="record")
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
        elif isinstance(value, float) and not math.isfinite(value):
            raise RecordError(f"{source} holds a number that is not finite", rule="record")
        elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * MAX_DIGITS:
            raise RecordError(f"{source} holds a number of more than {MAX_DIGITS} digits", rule="record")


def config_of(raw: Any, kind: str = "record") -> Config:
    """The ``config`` of a record or position, its types checked field by field (the same error on
    both builds: the compiled :class:`Config` would otherwise raise ``TypeError``)."""
    if not isinstance(raw, dict):
        raise RecordError(f"the {kind}'s config must be an object", rule=kind)
    players = raw.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError(f"the {kind}'s config.players must be a list of non-empty names", rule=kind)
    for i, player in enumerate(players):
        problem = name_problem(player)
        if problem is not None:  # the one check of names (ludica.core.people), as at every entry
            raise RecordError(f"the {kind}'s config.players[{i}]: {problem}", rule=kind)
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"the {kind}'s config.options must be an object", rule=kind)
    seed = raw.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise RecordError(f"the {kind}'s config.seed must be a whole number or text, not {_kind_of(seed)}", rule=kind)
    unknown = set(raw) - {"players", "options", "seed"}
    if unknown:
        raise RecordError(f"the {kind}'s config has unknown field(s): {', '.join(sorted(unknown))}", rule=kind)
    return Config.from_json(raw)


def _kind_of(value: Any) -> str:
    names = {bool: "true/false", float: "a fraction", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _header(data: Any, kind: str) -> tuple[Game[Any], Config]:
    if not isinstance(data, dict) or data.get("format") != f"ludica-{kind}":
        raise RecordError(f'this is not a Ludica {kind} (missing "format": "ludica-{kind}")', rule=kind)
    check_bounds(data, f"the {kind}")
    version = data.get("format_version")
    if isinstance(version, bool) or version != FORMAT_VERSION:
        raise RecordError(
            f"{kind} format version {data.get('format_version')!r} is not supported (this Ludica reads "
            f"{FORMAT_VERSION})",
            rule=kind,
        )
    if not isinstance(data.get("game"), str):
        raise RecordError(f"the {kind}'s game must be a game id (text)", rule=kind)
    game = get_game(data["game"])
    if data.get("rules_version") != game.meta.rules_version:
        raise RecordError(
            f"the {kind} was made with rules version {data.get('rules_version')!r} of {game.meta.title}; "
            f"this Ludica has version {game.meta.rules_version!r}",
            rule=kind,
        )
    return game, config_of(data.get("config"), kind)


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
    match.typed = typed_of(data, match)
    match.settings = play_settings_of(data)
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
