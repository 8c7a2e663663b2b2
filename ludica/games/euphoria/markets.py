"""Construction of markets and their completion.

Rulebook "Construction Sites": a market is built when the number of its site's spots occupied
at once reaches 2 (2-3 players), 3 (4 players) or 4 (5-6 players). The tile is flipped, the
builders' workers return and are rolled, and each builder places exactly one star on it. From
then on its penalty applies to every player without a star on it (see :mod:`.status`).
"""

from __future__ import annotations

from ...core import Event
from .agenda import Events, push, task
from .oracle import BUILD_THRESHOLD, MARKETS, spot_ids
from .state import EuphoriaState, Task
from .status import has
from .tracks import knowledge, morale, place_star


def occupied_spots(st: EuphoriaState, site: str) -> list[list]:
    return [occ for spot in spot_ids(site) for occ in st.occupants.get(spot, [])]


@task("build_check")
def _build_check(st: EuphoriaState, t: Task, ev: Events) -> None:
    """The market of ``site`` is built once its occupied spots reach the threshold for the number
    of players; any spot counts, one player may fill several (queued after the placement's own
    effects).

    Rule: [Construction Sites]; SP 17
    """
    site = t.args[0]
    if site in st.built or len(occupied_spots(st, site)) < BUILD_THRESHOLD[len(st.seats)]:
        return
    complete(st, site, ev)


def complete(st: EuphoriaState, site: str, ev: Events) -> None:
    """Flip the tile, star each builder once, return and roll the builders' workers (in the
    order of the spots: SP 11), then Ray the Foreman reacts for everyone.

    Rule: [Constructed Markets]; SP 11; SP 19
    """
    market = MARKETS[st.sites[site]]
    workers = occupied_spots(st, site)
    for spot in spot_ids(site):
        st.occupants.pop(spot, None)
    builders: list[str] = []
    for seat, _face in workers:
        if seat not in builders:
            builders.append(seat)
    st.built[site] = []
    ev.append(Event("market", f"{market.name} ({market.id}) is built at {site}: {market.summary}"))
    for seat in builders:
        place_star(st, seat, f"market:{site}", ev)
    rolls = []
    for seat in builders:
        n = sum(1 for occ in workers if occ[0] == seat)
        st.players[seat].rolling += n
        rolls.append(Task("roll", (seat, n, "built market")))
    push(st, *rolls, Task("ray", (site,)))


@task("ray")
def _ray(st: EuphoriaState, t: Task, ev: Events) -> None:
    """Ray the Foreman: +2 morale with a star on the new market, else -2 knowledge."""
    site = t.args[0]
    for seat in st.seats:
        if has(st, seat, "ray_the_foreman"):
            if seat in st.built[site]:
                morale(st, seat, 2, ev)
            else:
                knowledge(st, seat, -2, ev)
