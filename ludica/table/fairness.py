"""Provably fair dealing: check a finished game's record against its revealed seed.

At room creation the table publishes ``sha256("ludica-seed:" + seed)``
(:meth:`ludica.core.chance.Dealer.seed_commitment`); at the end the record it exports carries the
seed in ``config.seed`` and the published hash in ``table.seed_hash``. :func:`verify_record`
replays the record, recomputes every chance step *i* as ``Dealer(seed).fill(step, i)`` and checks
the final digest — what ``ludica verify RECORD`` prints.

>>> verify_record("game.json")  # doctest: +SKIP
FairnessReport(game='pig', steps=57, chance_steps=31, ...)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import CHANCE, Action, LudicaError, Match, RecordError
from ..core.chance import Dealer
from ..core.records import load_json, replay_record


@dataclass(frozen=True, slots=True)
class FairnessReport:
    """What :func:`verify_record` established about a record."""

    game: str
    steps: int
    chance_steps: int
    dealt_verified: int
    typed_by_hand: int
    seed_hash: str
    digest: str
    over: bool

    def lines(self) -> list[str]:
        out = [
            f"game: {self.game}",
            f"steps: {self.steps} ({self.chance_steps} chance steps)",
            f"seed hash: {self.seed_hash} (matches the revealed seed)",
            f"chance steps recomputed from the seed: {self.dealt_verified} of {self.chance_steps}",
        ]
        if self.typed_by_hand:
            out.append(
                f"chance steps typed by hand at the table: {self.typed_by_hand} of {self.chance_steps} "
                "(real dice or cards: they cannot be checked against the seed)"
            )
        out.append(f"digest: {self.digest} (matches the replayed game)")
        out.append("the game is finished" if self.over else "the game is not finished")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def verify_record(path: str | Path) -> FairnessReport:
    """Replay the record at ``path``, recompute every dealt chance step and check the digest.

    Raises :class:`~ludica.core.errors.RecordError` (or its subclass ``DigestMismatch``) saying
    what does not match.
    """
    return verify_data(load_json(path))


def verify_data(data: Any) -> FairnessReport:
    """:func:`verify_record` on an already-read record."""
    match = replay_record(data)
    config = match.config
    seed = config.seed
    if seed is None:
        raise RecordError("the record does not reveal its dealer's seed (config.seed)", rule="fairness")
    table = data.get("table") if isinstance(data.get("table"), dict) else {}
    seed_hash = table.get("seed_hash")
    commitment = Dealer.seed_commitment(seed)
    if seed_hash is not None and seed_hash != commitment:
        raise RecordError("the revealed seed does not match the hash published before play", rule="fairness")
    # Steps the record marks as typed (its "typed" list) are not compared; a table record written
    # before that list existed marks a whole physical table instead (any step may be typed).
    legacy_physical = table.get("physical_seat") is not None and "typed" not in data
    counts = _check_chance(match.restart(), data["actions"], seed, set(match.typed), legacy_physical)
    return FairnessReport(
        game=match.game.meta.id,
        steps=len(match.actions),
        chance_steps=counts[0],
        dealt_verified=counts[1],
        typed_by_hand=counts[0] - counts[1],
        seed_hash=commitment,
        digest=match.digest(),
        over=match.is_over(),
    )


def _check_chance(
    match: Match[Any], raw: list[Any], seed: int | str, typed: set[int], physical: bool
) -> tuple[int, int]:
    """Replay again from where the record starts (its setup, or its start position), comparing
    each chance step with the dealer's; returns (chance steps, verified)."""
    game = match.game
    dealer = Dealer(seed)
    chance = verified = 0
    for index, item in enumerate(raw):
        action = Action.from_json(item)
        if action.seat == CHANCE and index in typed:
            chance += 1
        elif action.seat == CHANCE:
            chance += 1
            expected = dealer.fill(game.chance_step(match.state), index)
            if expected == action.without_narration():
                verified += 1
            elif not physical:
                raise RecordError(
                    f"chance step {index + 1} ({action.type}) is not what the dealer's seed gives", rule="fairness"
                )
        try:
            match.apply(action)
        except LudicaError as exc:  # replay_record already accepted it; keep the message plain anyway
            raise RecordError(f"action {index + 1} of the record is refused: {exc}", rule="record") from None
    return chance, verified
