"""What must always hold (docs/rules/misery-bubblegum.md, "Invariants checked"): above all, dice conservation
per colour."""

from __future__ import annotations

from .state import ATTRIBUTES, GM, MiseryState


def dice_of(state: MiseryState, colour: str) -> int:
    """Every die of one player's colour, wherever it sits."""
    c = state.characters[colour]
    total = sum(c.pool.values()) + c.misery + c.spare
    total += sum(other.influence.get(colour, 0) for other in state.characters.values())
    total += sum(p.dice for p in state.provisionals.values() if p.target == colour)
    decl = state.declaration
    if decl is not None and decl.seat == colour:
        total += decl.carried
    attempt = state.attempt
    if attempt is None:
        return total
    part = state.participant(colour)
    if part is not None and not part.reclaimed:
        total += len(part.dice) - len(part.spent) + len(part.fulfilment)
    chance = attempt.chance
    in_hand = colour == attempt.meaning_decider
    if chance is not None and in_hand and chance["type"] == "roll_misery":
        total += int(chance["k"])  # type: ignore[call-overload]
    spare_roll = chance is not None and chance["type"] == "roll_spare_until"
    if spare_roll and state.resources[str(chance["threat"])].owner == colour:  # type: ignore[index]
        total += len(chance["faces"])  # type: ignore[arg-type, index]
    if attempt.wipe is not None and in_hand:
        total += len(attempt.wipe["faces"])  # type: ignore[arg-type]
    return total


def problems(state: MiseryState) -> list[str]:
    out = []
    limit = state.settings.max_traits
    for seat, c in state.characters.items():
        have = dice_of(state, seat)
        if have != state.settings.dice_per_player:
            out.append(f"{seat} has {have} dice of their colour, not {state.settings.dice_per_player}")
        counts = [c.misery, c.spare, *c.pool.values(), *c.influence.values()]
        if min(counts) < 0:
            out.append(f"{seat} has a negative count of dice")
        if c.influence.get(seat):
            out.append(f"{seat} holds influence dice of their own colour")
        if len(state.traits_of(seat)) > limit:
            out.append(f"{seat} has more than {limit} Traits")
        if c.rating and not all(
            state.settings.rating_min <= c.rating[a] <= state.settings.rating_max for a in ATTRIBUTES
        ):
            out.append(f"{seat} has a number out of range")
    for t in state.traits.values():
        if t.value < 1 or t.owner == t.creator:
            out.append(f"Trait {t.id} has value {t.value} or was made by its owner")
    for p in state.provisionals.values():
        if p.dice < 1 or p.target == p.offerer:
            out.append(f"provisional Trait {p.id} is malformed")
    for r in state.resources.values():
        if r.value < 1:
            out.append(f"{r.kind} {r.id} has value {r.value}")
        if not r.active and (r.blocking or r.aid):
            out.append(f"inactive {r.kind} {r.id} keeps dice")
        if r.owner == GM:
            out.append(f"{r.kind} {r.id} is on the GM")
    return out
