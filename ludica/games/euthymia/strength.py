"""The Strength of your Aspects: the fifteen starting points, and how a Conflict changes them.

**[The Strength of your Aspects]** Fifteen points, no Strength above six, none above the Feel
Aspect (R-EU-36, so Feel is 4, 5 or 6). **[Changing the Strength of the Aspect]** a change by the
number of Jacks, Queens and Kings played, never above Feel (R-EU-16), never below zero, death at
ten; **[As the end of the hour approaches]** and **[The final hour]** one *plus* the face cards,
Feel raised to compensate; **[On the Strength of Aspects]** a zero never rises again (R-EU-17).
"""

from __future__ import annotations

from itertools import product

from .state import COMMITTEE, FEEL

STARTING_POINTS = 15
STARTING_MAX = 6
DEATH = 10

STARTING_STRENGTHS: tuple[tuple[int, int, int, int], ...] = tuple(
    (f, s, b, love)
    for f, s, b, love in product(range(STARTING_MAX + 1), repeat=4)
    if f + s + b + love == STARTING_POINTS and max(s, b, love) <= f
)
"""Every legal starting sheet (F, S, B, L): 61 of them, all with Feel 4, 5 or 6."""


def starting_problem(values: tuple[int, int, int, int]) -> str | None:
    """Why a starting sheet is illegal, in words (``None`` when legal)."""
    f, s, b, love = values
    if any(v < 0 or v > STARTING_MAX for v in values):
        return f"no Strength may be greater than {STARTING_MAX} (or below 0) at the start"
    if max(s, b, love) > f:
        return "no Strength may be greater than the Strength of the Feel Aspect"
    if sum(values) != STARTING_POINTS:
        return f"divide exactly {STARTING_POINTS} points between the four Strengths, not {sum(values)}"
    return None


def direction(launch_type: str, won: bool) -> int:
    """The table of [Changing the Strength…]: WANT and TEMPTED follow the result, a Committee
    demand goes against it (R-EU-19, as printed)."""
    up = won if launch_type != COMMITTEE else not won
    return 1 if up else -1


def magnitude(faces: int, final_mode: bool) -> int:
    """Face cards played; one more in a final turn and throughout the final hour.

    Rule: R-EU-29
    """
    return faces + 1 if final_mode else faces


def apply_change(
    strength: list[int], aspect: int, sign: int, amount: int, final_mode: bool, clamp_to_feel: bool = False
) -> None:
    """[Changing the Strength of the Aspect] on a character's Strengths, in place."""
    if amount == 0:
        return
    if sign < 0:
        strength[aspect] = max(0, strength[aspect] - amount)
        if aspect == FEEL:
            for i in range(1, 4):
                strength[i] = min(strength[i], strength[FEEL])
        return
    if strength[aspect] == 0:
        return  # R-EU-17: a Strength at zero never rises above zero
    new = min(DEATH, strength[aspect] + amount)  # R-EU-18
    feel = strength[FEEL]
    if aspect == FEEL or new <= feel:
        strength[aspect] = new
    elif final_mode:
        strength[aspect] = new
        strength[FEEL] = new  # "the Strength of the Feel Aspect is increased to compensate"
    elif clamp_to_feel:
        strength[aspect] = feel  # CAP_MODE_REGULAR = clamp_to_feel (alternative reading)
    # else: "that Strength stays at its present level instead" (R-EU-16)


def is_dead(strength: list[int]) -> bool:
    """An Aspect at 10 kills the character.

    Rule: [Dying]
    """
    return DEATH in strength


def is_ideal(strength: list[int]) -> bool:
    return not any(strength)


def band(value: int) -> str:
    """R-EU-35: the rulebook's anchors; values in between use the lower anchor (informational)."""
    if value >= DEATH:
        return "has lost control: about to die"
    if value >= 8:
        return "losing control"
    if value >= 7:
        return "embodies it completely and happily"
    if value >= 5:
        return "actively living it, tortured"
    if value >= 3:
        return "acts like an Ideal Citizen but is tempted"
    return "not present at all"
