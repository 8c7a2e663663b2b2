"""Coverage: which of a game's moves the bots of a batch make, against what random play reaches.

A game declares its *mechanics* in its stats plugin (``ludica/games/<game>/stats.py``):

* ``MECHANICS``: a mechanic's name (``"Trait reroll"``) -> the actions that realise it, each an
  action type (``"use_trait"``) or a type with parameter values (``"flip source=free_scarab"``);
* ``OPTION_MECHANICS``: an option or house rule -> the mechanics it touches.

Each record counts, per action type and per mechanic, at how many decisions it was legal and how
often it was taken (:func:`Mechanics.count`). The coverage of an arm is then read against a small
batch of random play with the same settings (random play reaches every corner the rules open):
an action type or mechanic random play takes and the arm's bots never take is named, and so is a
house rule of ``compare`` whose touched mechanics neither arm ever took, since B − A cannot show
what the bots never do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .analysis import DesignWarning
from .mechanics import mechanics_of


# -- the figure ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Reach:
    """One action type or mechanic over a batch: at how many decisions legal, how often taken,
    in how many games taken."""

    name: str
    legal: int
    taken: int
    games: int


def reach(records: Sequence[dict[str, Any]], kind: str) -> dict[str, Reach]:
    """``kind`` ``"actions"`` (action types) or ``"mechanics"``: each one's :class:`Reach`."""
    legal: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for r in records:
        legal.update(r.get(f"{kind}_offered", {}))
        took = r.get(f"{kind}_taken", {})
        taken.update(took)
        games.update(k for k, n in took.items() if n)
    return {k: Reach(k, legal[k], taken[k], games[k]) for k in sorted(set(legal) | set(taken))}


def coverage_rows(
    records: Sequence[dict[str, Any]], reference: Sequence[dict[str, Any]], declared: Iterable[str]
) -> tuple[list[str], list[list[str]]]:
    """The coverage table: each declared mechanic, then each action type random play takes, with
    the arm's legal and taken counts beside random play's."""
    n, m = len(records), len(reference)
    rows = []
    for kind, names in (("mechanics", list(declared)), ("actions", None)):
        mine, theirs = reach(records, kind), reach(reference, kind)
        for name in names if names is not None else sorted(k for k, v in theirs.items() if v.taken):
            a, b = mine.get(name, Reach(name, 0, 0, 0)), theirs.get(name, Reach(name, 0, 0, 0))
            what = f"mechanic: {name}" if kind == "mechanics" else name
            rows.append(
                [what, str(a.legal), f"{a.taken} (in {a.games} of {n} games)", f"{b.taken} (in {b.games} of {m})"]
            )
    return ["mechanic / action type", "legal at (decisions)", "taken", "random play: taken"], rows


def coverage_line(records: Sequence[dict[str, Any]], reference: Sequence[dict[str, Any]]) -> str:
    """``action types taken: 15 of the 19 random play takes (79%); never legal: …; legal, never taken: …``."""
    mine = {k for k, v in reach(records, "actions").items() if v.taken}
    legal = {k for k, v in reach(records, "actions").items() if v.legal}
    wanted = {k for k, v in reach(reference, "actions").items() if v.taken}
    if not wanted:
        return ""
    share = 100 * len(mine & wanted) / len(wanted)
    line = f"Action types taken: {len(mine & wanted)} of the {len(wanted)} random play takes ({share:.0f}%)"
    if never_legal := sorted(wanted - legal):
        line += f"; never legal here: {', '.join(never_legal)}"
    if never_taken := sorted((wanted & legal) - mine):
        line += f"; legal, never taken: {', '.join(never_taken)}"
    return line + "."


def unreached(records: Sequence[dict[str, Any]], reference: Sequence[dict[str, Any]], game_id: str) -> list[str]:
    """The declared mechanics random play takes and these records never take."""
    mine, theirs = reach(records, "mechanics"), reach(reference, "mechanics")
    return [
        name
        for name in mechanics_of(game_id).patterns
        if theirs.get(name, Reach(name, 0, 0, 0)).taken and not mine.get(name, Reach(name, 0, 0, 0)).taken
    ]


def coverage_warnings(
    records: Sequence[dict[str, Any]], reference: Sequence[dict[str, Any]], game_id: str
) -> list[DesignWarning]:
    """A warning naming the mechanics random play takes and the bots of ``records`` never do."""
    names = unreached(records, reference, game_id)
    if not names:
        return []
    mine = reach(records, "mechanics")
    said = ", ".join(f"{n!r} (legal at {mine[n].legal if n in mine else 0})" for n in names)
    message = f"taken by random play, never by these bots: {said}; a rule that touches them shows no effect here"
    return [DesignWarning("mechanic never taken", message)]


def house_rule_warnings(
    game_id: str, changed: Iterable[str], arms: Sequence[tuple[str, Sequence[dict[str, Any]]]]
) -> list[DesignWarning]:
    """For each option that differs between the arms of ``compare``: the mechanics it touches that
    no arm ever took, by name (the comparison cannot show what the change does to them)."""
    declared = mechanics_of(game_id)
    out = []
    for option in changed:
        touched = declared.options.get(option, ())
        reached = {label: reach(records, "mechanics") for label, records in arms}
        idle = [m for m in touched if all(not (r.get(m) and r[m].taken) for r in reached.values())]
        if not idle:
            continue
        legal = {m: sum(r[m].legal for r in reached.values() if m in r) for m in idle}
        games = " and ".join(f"{len(records)} games of {label}" for label, records in arms)
        said = ", ".join(f"{m!r} (legal at {legal[m]} decisions)" for m in idle)
        message = f"{option} touches {said}, taken in none of the {games}: B - A cannot show what {option} does there"
        out.append(DesignWarning("change never came into play", message))
    return out
