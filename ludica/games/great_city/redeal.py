"""Redeal: a state one seat cannot tell apart from the true one (for search bots).

Hidden until the end game reveals everything (R-GC-36, R-GC-38; docs/rules/great-city.md, "What each seat
sees"): every purse but one's
own, and, with secret fate contributions, the Yea and Nay purses and what each other player put in
them. Almost every payment is public, though: the start purses, antes, buy-ins, arrivals, free
scarabs, the ante won by the accepted judgment, vesting and flips are all told to the table. Only
two payments are not: a private gift (the table hears that the giver made one; giver and receiver
know the amount and the receiver) and a secret fate contribution (the table hears that the
contributor dropped scarabs; only he knows how many and where). The state keeps those in
``hidden_flows`` (bookkeeping outside the position, the views and the record).

So each other seat's purse is its *public balance* (what the public payments and the gifts that
``seat`` gave or received leave it) minus what it gave or contributed unseen plus what it received
unseen. The redeal keeps ``seat``'s own purse, contributions and gifts exactly, and draws again
only the unseen payments, one per announced event, in the same order:

* a gift between two other seats: a receiver among the seats other than the giver (never ``seat``:
  it would know), an amount of at least one scarab;
* a secret fate contribution: a box (Yea or Nay, evenly) and at least one scarab;

so that no purse ends negative (the first draws are retried; deficits are covered by raising the
gifts into them). Above the one-scarab minimum, each amount gets a geometric extra (mean one, as
far as the giver's purse allows): the prior of a table whose bots give a scarab at a time. The
Yea and Nay purses are recounted. The hidden total (every other purse plus the hidden
contributions) is unchanged, and the result depends only on what ``seat`` sees and on the
generator: the public balances, the announced events and their givers.

A state read from a position has no past (``hidden_flows`` is ``None``): there the redeal can only
spread the sum of the hidden scarabs at random over the other purses and contributors' shares, as
it also does if no consistent draw is found (never seen in the tests).
"""

from __future__ import annotations

import random

from ...core.redeal import split_total
from .memo import forget
from .state import GreatCityState

TRIES = 20
"""Draws of the unseen receivers before the last, greedy one (gifts to the neediest purse)."""
FATE_BOXES = ("yea", "nay")


def redeal(state: GreatCityState, seat: str | None, rng: random.Random) -> GreatCityState:
    new = state.copy()
    if new.endgame is not None:
        return new
    forget(new)
    if new.hidden_flows is None or not _follow_payments(new, seat, rng):
        _spread_sum(new, seat, rng)
    return new


def _unseen(flow: tuple[str, str, int], seat: str | None) -> bool:
    return seat is None or (flow[0] != seat and flow[1] != seat)


def _follow_payments(new: GreatCityState, seat: str | None, rng: random.Random) -> bool:
    """Redraw the unseen payments of ``new`` in place; False (``new`` untouched) if none fits."""
    flows = new.hidden_flows
    assert flows is not None
    others = [s for s in new.seats if s != seat]
    public = {s: new.purse[s] for s in others}
    unseen = [i for i, f in enumerate(flows) if _unseen(f, seat)]
    for i in unseen:
        giver, to, n = flows[i]
        public[giver] += n
        if to in public:
            public[to] -= n
    givers = [flows[i][0] for i in unseen]
    gifts = [flows[i][1] not in FATE_BOXES for i in unseen]
    drawn = _draw(givers, gifts, others, public, rng)
    if drawn is None:
        return False
    receivers, amounts, purses = drawn
    for i, to, n in zip(unseen, receivers, amounts, strict=True):
        flows[i] = (flows[i][0], to, n)
    new.purse.update(purses)
    if new.options["fate_contributions"] == "secret":
        _recount_fate(new, seat)
    return True


def _draw(
    givers: list[str], gifts: list[bool], others: list[str], public: dict[str, int], rng: random.Random
) -> tuple[list[str], list[int], dict[str, int]] | None:
    """Receivers, amounts and the purses they leave, or None when no draw keeps every purse >= 0."""
    for attempt in range(TRIES + 1):
        balance = dict(public)
        receivers: list[str] = []
        for giver, gift in zip(givers, gifts, strict=True):
            balance[giver] -= 1
            if gift:
                choices = [s for s in others if s != giver]
                to = rng.choice(choices) if attempt < TRIES else min(choices, key=balance.__getitem__)
                balance[to] += 1
            else:
                to = rng.choice(FATE_BOXES)
            receivers.append(to)
        amounts = [1] * len(givers)
        _cover_deficits(givers, receivers, amounts, balance)
        if min(balance.values(), default=0) >= 0:
            _add_extras(givers, receivers, amounts, balance, rng)
            return receivers, amounts, balance
    return None


def _cover_deficits(givers: list[str], receivers: list[str], amounts: list[int], balance: dict[str, int]) -> None:
    """Raise gifts into negative purses from givers with scarabs to spare (each move shrinks the deficit)."""
    moved = True
    while moved:
        moved = False
        for i, (giver, to) in enumerate(zip(givers, receivers, strict=True)):
            if to in balance and balance[to] < 0 < balance[giver]:
                t = min(-balance[to], balance[giver])
                amounts[i] += t
                balance[giver] -= t
                balance[to] += t
                moved = True


def _add_extras(
    givers: list[str], receivers: list[str], amounts: list[int], balance: dict[str, int], rng: random.Random
) -> None:
    """Each payment, in a random order, gets a geometric extra (mean 1) its giver can afford."""
    order = list(range(len(givers)))
    rng.shuffle(order)
    for i in order:
        extra = 0
        while rng.random() < 0.5:
            extra += 1
        extra = min(extra, balance[givers[i]])
        if extra:
            amounts[i] += extra
            balance[givers[i]] -= extra
            if receivers[i] in balance:
                balance[receivers[i]] += extra


def _recount_fate(new: GreatCityState, seat: str | None) -> None:
    """Other contributors' Yea/Nay shares from the (redrawn) fate payments; Yea and Nay recounted."""
    shares = {s: [0, 0] for s in new.contributions if s != seat}
    for giver, to, n in new.hidden_flows or ():
        if giver in shares and to in FATE_BOXES:
            shares[giver][FATE_BOXES.index(to)] += n
    new.contributions.update(shares)
    new.yea = sum(y for y, _n in new.contributions.values())
    new.nay = len(new.players) + 1 + sum(n for _y, n in new.contributions.values())


def _spread_sum(new: GreatCityState, seat: str | None, rng: random.Random) -> None:
    """Without the payments: the hidden sum spread at random (each contributor gave at least one
    scarab; the Nay purse keeps its starting scarabs). The unseen payments are then unknown."""
    secret_fate = new.options["fate_contributions"] == "secret"
    others = [s for s in new.seats if s != seat]
    contributors = [s for s in others if s in new.contributions] if secret_fate else []
    hidden = sum(new.purse[s] for s in others)
    if secret_fate:
        hidden += sum(sum(new.contributions[s]) for s in contributors)
    minimum = [0] * len(others)
    for _ in contributors:
        minimum += [1, 0] if rng.random() < 0.5 else [0, 1]
    parts = split_total(hidden, len(minimum), rng, minimum=minimum)
    for s, n in zip(others, parts, strict=False):
        new.purse[s] = n
    shares = parts[len(others) :]
    for i, s in enumerate(contributors):
        new.contributions[s] = [shares[2 * i], shares[2 * i + 1]]
    if secret_fate:
        new.yea = sum(y for y, _n in new.contributions.values())
        new.nay = len(new.players) + 1 + sum(n for _y, n in new.contributions.values())
    new.hidden_flows = None
