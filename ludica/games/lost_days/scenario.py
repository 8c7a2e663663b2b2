"""Set a table at a given point of play, for tests, tutorials and the rulebook's examples.

>>> from ludica.games.lost_days.scenario import table
>>> match, ids = table(["Hugo", "Cate", "Martin"], king="p1", purses={"p2": 4},
...                    memories={"debate": ("p1", 4), "lost": ("market", 4)})
>>> match.state.king, match.state.value(ids["lost"])
('p1', 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core import CHANCE, Action, Config, Match
from ...core.mechanisms import Referee
from . import GAME
from .coins import new_memory
from .scenes import build_cycle
from .state import MARKET, OWNED, PERSONAL, SCENE, Scene, mad_key


def table(
    names: Sequence[str],
    *,
    king: str | None = "p1",
    purses: Mapping[str, int] | None = None,
    madness: Mapping[str, int] | None = None,
    memories: Mapping[str, tuple[str, int]] | None = None,
    mok: str | None = None,
    framer: str | None = None,
    kind: str = PERSONAL,
    framed: bool = True,
    options: Mapping[str, Any] | None = None,
) -> tuple[Match[Any], dict[str, str]]:
    """A match in play: purses (default 0), madness, memories ``name: (owner seat or "market", value)``.

    The king owns the Memory of Kingship: ``mok`` names it (default: a memory "kingship" of value 1
    is added to the king's). The scene in progress is ``kind`` framed by ``framer`` (default: the
    player to the king's left). Returns the match and the memory ids by name.
    """
    match: Match[Any] = Match(GAME, Config(tuple(names), dict(options or {}), 0))
    st = match.state
    st.memories.clear()
    st.next_memory = 1
    counts = {k: 0 for k in st.coins.counts}
    counts.update(purses or {})
    for seat, n in (madness or {}).items():
        counts[mad_key(seat)] = n
    st.coins.counts = counts
    wanted = dict(memories or {})
    if king is not None and mok is None:
        wanted["kingship"], mok = (king, 1), "kingship"
    ids: dict[str, str] = {}
    for name, (where, value) in wanted.items():
        owned = where != "market"
        memory = new_memory(
            st, f"I remember {name}", where if owned else st.seats[0], "round1", OWNED if owned else MARKET
        )
        memory.owner = where if owned else None
        st.coins.counts[memory.id] = value
        ids[name] = memory.id
    if mok is not None:
        st.memories[ids[mok]].is_mok = True
        st.memories[ids[mok]].mok_candidate = True
    st.bank_out = st.coins.total()
    for elf in st.elves.values():
        elf.to_write, elf.won_this_round = 0, True
    st.round, st.session = 5, 1
    st.crown = Referee(king) if king is not None else None
    st.last_king = king or st.seats[0]
    st.cycle = build_cycle(st)
    who = framer or st.cycle[0][0]
    st.slot = next((i for i, (s, _) in enumerate(st.cycle) if s == who), 0)
    st.scene = Scene(who, kind, framed=framed)
    st.scenes_played = 1
    st.phase = SCENE
    return match, ids


def act(match: Match[Any], *notations: str) -> None:
    """Apply actions written in notation, in order (``"p2 agree_stakes"``)."""
    for text in notations:
        match.apply(Action.parse(text))


def dice(match: Match[Any], kind: str, faces: Sequence[int]) -> None:
    """Pin a chance step: ``roll_conflict``, ``reroll_die``, ``extra_die`` or ``roll_off``."""
    match.apply(Action(CHANCE, kind, {"dice": list(faces)}))
