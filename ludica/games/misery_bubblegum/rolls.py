"""The chance steps' effects: the action roll, rerolls, Misery rolls, unaligned and spare dice ([Getting
things done], [Misery, Misery, Misery])."""

from __future__ import annotations

from ...core import Event
from ...core.names import counted
from . import procedure as proc
from .arithmetic import (
    lowered_trait_value,
    raised_threat_value,
)
from .meaning import finish_threat_address
from .state import (
    THREAT,
    MiseryState,
    Participant,
)


# -- chance ------------------------------------------------------------------------------------
def chance_size(state: MiseryState) -> tuple[str, int]:
    """The pending chance step: its type and how many dice it rolls (every roll of [Getting things done] and
    [Misery, Misery, Misery])."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    kind = str(attempt.chance["type"])
    if kind == "roll_action":
        return kind, proc.dice_on_table(attempt)
    if kind == "reroll":
        return kind, len(attempt.chance["dice"])  # type: ignore[arg-type]
    if kind == "roll_misery":
        return kind, int(attempt.chance["k"])  # type: ignore[call-overload]
    return kind, 1


def dice_labels(state: MiseryState) -> tuple[str, ...]:
    """For people at a real table: whose die each rolled die is, in roll order (A3: participants in
    order, pool dice before Trait dice); empty where the dice belong to nobody in particular."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    kind = str(attempt.chance["type"])
    if kind == "roll_action":
        return tuple(label for part in attempt.participants for label in _participant_labels(part))
    if kind == "reroll":
        out = []
        for ref in attempt.chance["dice"]:  # type: ignore[attr-defined]
            found = proc.parse_ref(state, ref)
            out.append(_participant_labels(found[0])[found[1]] if found else "a rerolled die")
        return tuple(out)
    if kind == "roll_misery":
        return ("the Misery die",) * int(attempt.chance["k"])  # type: ignore[call-overload]
    return ()


def _participant_labels(part: Participant) -> list[str]:
    """Each die on the table is its roller's (a player's dice are of the player's own colour)."""
    return [f"{part.seat}'s die"] * len(part.dice)


def play_chance(state: MiseryState, faces: list[int]) -> list[Event]:
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    kind = attempt.chance["type"]
    shown = " ".join(map(str, faces))
    if kind == "roll_action":
        proc.set_roll(state, faces)
        return [Event("roll", f"The dice are rolled: {shown}")]
    if kind == "reroll":
        for ref, face in zip(attempt.chance["dice"], faces, strict=True):  # type: ignore[call-overload]
            found = proc.parse_ref(state, ref)
            assert found is not None
            found[0].dice.dice[found[1]].face = face
        attempt.chance = None
        return [Event("reroll", f"Rerolled: {shown}")]
    if kind == "roll_misery":
        return _misery_rolled(state, faces)
    if kind == "roll_unaligned_until":
        return _unaligned_rolled(state, faces[0])
    return _spare_rolled(state, faces[0])


def shown(faces: list[int]) -> str:
    """Dice faces as people read them: ``[5, 5, 5]`` -> "5, 5, 5"."""
    return ", ".join(map(str, faces))


def _misery_rolled(state: MiseryState, faces: list[int]) -> list[Event]:
    """[Misery] on a Trait (MB-R16) or [Threats] on a Threat (MB-R48)."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    target = str(attempt.chance["target"])
    me = state.characters[attempt.meaning_decider or ""]
    attempt.chance = None
    if target in state.traits:
        trait = state.traits[target]
        value = lowered_trait_value(trait.value, faces)
        if value == 0:
            attempt.wipe = {"trait": target, "value": trait.value, "faces": faces}
            return [Event("misery_roll", f'Misery rolls {shown(faces)}: enough to wipe out "{trait.text}"')]
        trait.value = value
        me.spare += len(faces)
        return [Event("misery_roll", f'Misery rolls {shown(faces)}: "{trait.text}" falls to {value}')]
    threat = state.resources[target]
    threat.value = raised_threat_value(threat.value, faces)
    me.spare += len(faces)
    return [Event("misery_roll", f'Misery rolls {shown(faces)}: "{threat.text}" rises to {threat.value}')]


def _unaligned_rolled(state: MiseryState, face: int) -> list[Event]:
    """Blocking dice [Threats] and aid dice [Promises]: roll until the total reaches the value."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    faces: list[int] = attempt.chance["faces"]  # type: ignore[assignment]
    faces.append(face)
    res = state.resources[str(attempt.chance["resource"])]
    if sum(faces) < res.value:
        return []
    attempt.chance = None
    dice = f"{counted(len(faces), 'die', 'dice')} showing {shown(faces)}"
    if res.kind == THREAT:
        res.blocking = list(faces)
        return [Event("blocking", f'"{res.text}" blocks with {dice}')]
    res.aid = list(faces)
    return [Event("aid", f'"{res.text}" aids with {dice}')]


def _spare_rolled(state: MiseryState, face: int) -> list[Event]:
    """MB-R32: spare dice rolled one at a time until the total reaches the Threat's value."""
    attempt = state.attempt
    assert attempt is not None and attempt.chance is not None
    faces: list[int] = attempt.chance["faces"]  # type: ignore[assignment]
    faces.append(face)
    res = state.resources[str(attempt.chance["threat"])]
    me = state.characters[res.owner]
    me.spare -= 1
    if sum(faces) < res.value and me.spare > 0:
        return []
    text = f'{me.name} claims {counted(len(faces), "spare die", "spare dice")} ({shown(faces)}); "{res.text}" halves'
    finish_threat_address(state)
    return [Event("claim", text)]
