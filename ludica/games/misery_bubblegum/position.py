"""The whole state as JSON and back (a *position*), and a fast copy."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ...core import PositionError
from ...core.mechanisms import DicePool, Die, Proposal
from .state import (
    Attempt,
    Character,
    Declaration,
    MiseryState,
    Participant,
    Provisional,
    Resource,
    Settings,
    Trait,
)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def _participant_json(p: Participant) -> dict[str, Any]:
    out = _fields(p)
    out["dice"] = [[d.face, d.owner] for d in p.dice.dice]
    return {k: (list(v) if isinstance(v, list) else v) for k, v in out.items()}


def _attempt_json(a: Attempt) -> dict[str, Any]:
    out = _fields(a)
    out["participants"] = [_participant_json(p) for p in a.participants]
    for key in ("answering", "traits_used", "selected", "denied"):
        out[key] = list(out[key])
    out["touched"] = dict(a.touched)
    out["chance"] = _plain(a.chance)
    out["wipe"] = _plain(a.wipe)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_position(state: MiseryState) -> dict[str, Any]:
    s = state.settings
    return {
        "settings": {**_fields(s), "starting_pools": list(s.starting_pools)},
        "players": list(state.players),
        "characters": {
            seat: {
                "name": c.name,
                "rating": dict(c.rating),
                "pool": dict(c.pool),
                "misery": c.misery,
                "spare": c.spare,
                "influence": dict(c.influence),
            }
            for seat, c in state.characters.items()
        },
        "traits": [_fields(t) for t in state.traits.values()],
        "provisionals": [_fields(p) for p in state.provisionals.values()],
        "resources": [
            {**_fields(r), "blocking": list(r.blocking), "aid": list(r.aid)} for r in state.resources.values()
        ],
        "next_id": state.next_id,
        "attempt": None if state.attempt is None else _attempt_json(state.attempt),
        "declaration": None
        if state.declaration is None
        else {**_fields(state.declaration), "accepted": list(state.declaration.accepted)},
        "turn": state.turn,
        "end_vote": None if state.end_vote is None else state.end_vote.to_json(),
        "attempts_done": state.attempts_done,
        "ready": state.ready,
        "over": state.over,
        "history": [list(h) for h in state.history],
    }


def _participant(data: dict[str, Any]) -> Participant:
    dice = DicePool(Die(6, face, owner, owner) for face, owner in data["dice"])
    rest: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in data.items() if k != "dice"}
    return Participant(dice=dice, **rest)


def _attempt(data: dict[str, Any]) -> Attempt:
    rest = {k: v for k, v in data.items() if k != "participants"}
    for key in ("answering", "traits_used", "selected", "denied"):
        rest[key] = list(rest[key])
    rest["touched"] = dict(rest["touched"])
    rest["chance"] = _plain(rest["chance"])
    rest["wipe"] = _plain(rest["wipe"])
    return Attempt(participants=[_participant(p) for p in data["participants"]], **rest)


def from_position(data: dict[str, Any]) -> MiseryState:
    try:
        raw = dict(data["settings"])
        raw["starting_pools"] = tuple(raw["starting_pools"])
        characters = {
            seat: Character(
                seat, c["name"], dict(c["rating"]), dict(c["pool"]), c["misery"], c["spare"], dict(c["influence"])
            )
            for seat, c in data["characters"].items()
        }
        vote = data["end_vote"]
        decl = data["declaration"]
        return MiseryState(
            settings=Settings(**raw),
            players=tuple(data["players"]),
            characters=characters,
            traits={t["id"]: Trait(**t) for t in data["traits"]},
            provisionals={p["id"]: Provisional(**p) for p in data["provisionals"]},
            resources={
                r["id"]: Resource(**{**r, "blocking": list(r["blocking"]), "aid": list(r["aid"])})
                for r in data["resources"]
            },
            next_id=data["next_id"],
            attempt=None if data["attempt"] is None else _attempt(data["attempt"]),
            declaration=None if decl is None else Declaration(decl["seat"], list(decl["accepted"]), decl["carried"]),
            turn=data["turn"],
            end_vote=None if vote is None else Proposal.from_json(vote),
            attempts_done=data["attempts_done"],
            ready=data["ready"],
            over=data["over"],
            history=[list(h) for h in data["history"]],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PositionError(f"not a Misery Bubblegum position: {exc!r}", rule="position") from None
