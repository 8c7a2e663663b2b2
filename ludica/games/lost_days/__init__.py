"""Lost Days of Memories and Madness (Andrew Kenrick, Game Chef 2007), for 3-5 players.

Immortal elves trade memories like currency. Each player's elf is defined by memory cards
("I remember ...") whose value is the coins on them; one of them, the Memory of Kingship, makes
its owner King of the Elves, who narrates the story and plays the opposition. The game:

1. **Memory creation** (``WRITING``, ``SELECT``, ``SEALED_BID``, ``TIE_RAISE``, ``ROLL_OFF``,
   ``KING_TIE``): four themed rounds; every player takes a coin and writes a memory (one writes an
   extra); the selector reads one out; sealed bids revealed at once, ties raised openly in turn;
   one memory won per player per round. Then the actual Memory of Kingship is chosen by value and
   takes an extra coin; leftovers go to the market.
2. **Play** (``SESSION``, ``REPLENISH``, ``SCENE``, ``TRADE``): sessions of scene cycles, one scene
   per player from the king's left, then the king's story scene; new memories for a coin; selling
   for value less one; trades that bind nobody; a new king frames a scene at once.
3. **Conflicts** (``STAKES``, ``NARRATION``, ``ROLL``, ``INFLUENCE``, ``OUTCOME``, ``TRIBUTE``,
   ``PLACE_TRIBUTE``, ``NARRATE_TRIBUTE``, ``STRAIN_AND_GAIN``): agreed stakes, memories narrated in
   and accepted by the opponent, dice equal to their value, the influence round clockwise from the
   loser, tribute (coins or a memory in lieu), gain on sixes and strain on ones.
4. **Madness and the end** (``EPILOGUE``, ``GAME_OVER``): more madness coins than coins on memories
   and the elf descends; his memories go to the market tainted; his player plays adversity. The
   game ends when one elf remains, who may narrate the epilogue.

Rules: ``shared/seeds/lost-days-of-memories-and-madness.txt``; rulings: ``shared/rules/lost-days.md``
(LD-R1..LD-R41); as implemented: ``docs/rules/lost-days.md``.

Version history: 1.0 — first implementation. 1.1 — a memory that does not begin "I remember" is
refused (TV-LD-12) instead of rewritten; a trade carries any number of memories each way; the
write-out scene goes on after the narration (no conflict); faster listing and checking.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...core import (
    Action,
    Config,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    OptionSpec,
    Outcome,
    Pending,
    PositionError,
    Roll,
    Secret,
)
from ...core.mechanisms import Purses
from . import redeal, rules, stats, view
from .creation import begin_round
from .madness import tipped
from .names import LostDaysNamer
from .state import BANK, CONFLICT_PHASES, GAME_OVER, MARKET, OWNED, Elf, LostDaysState, Rules

OPTIONS = (
    OptionSpec("starting_purse", 11, "coins in each purse before memory creation [Creating Characters]"),
    OptionSpec(
        "opposition_dice_min",
        0,
        "house rule: the fewest dice the opposition rolls for a staked memory (LD-R14)",
        choices=(0, 1),
        house_rule=True,
    ),
    OptionSpec(
        "tie_rule", "cascade", "equal highest dice: cancel in pairs or stalemate (LD-R12)", ("cascade", "stalemate")
    ),
    OptionSpec("market_minimum", 2, "the market is replenished below this many memories (LD-R35)"),
    OptionSpec("first_seat", 0, "the seat that writes the extra memory of round 1 (LD-R4)"),
    OptionSpec(
        "scene_limit",
        200,
        "bound: the court falls after this many scenes, for elves with no coins never go mad (0: no bound)",
    ),
)


PENDING = ("pending",)
"""The memo key of :meth:`LostDays.pending`."""


class LostDays(Game[LostDaysState]):
    meta = GameMeta(
        id="lost-days",
        title="Lost Days of Memories and Madness",
        description="Decadent elves bid, fight and trade for memories until madness leaves one standing.",
        players_min=3,
        players_max=5,
        rules_version="1.1",
        chance=True,
        hidden_information=True,
        simultaneous=True,
        referee=None,
        options=OPTIONS,
        max_steps=60_000,
        end_reasons=stats.END_REASONS,
        bound_reasons=stats.BOUND_REASONS,
        clock_unit="scene",
        counter_bounds=stats.COUNTER_BOUNDS,
    )

    def setup(self, config: Config) -> LostDaysState:
        """Three to five elves, each with a purse of coins (11 at the start) and no memories yet.

        Rule: [What Do You Need to Play?]; [Creating Characters]
        """
        seats = tuple(f"p{i + 1}" for i in range(len(config.players)))
        opts = Rules(**{o.name: config.option(self.meta, o.name) for o in OPTIONS})
        if not 0 <= opts.first_seat < len(seats) or opts.starting_purse < 0 or opts.market_minimum < 0:
            from ...core import ConfigError

            raise ConfigError("first_seat must be a seat index; purse and market minimum not negative", rule="config")
        state = LostDaysState(
            seats, opts, {s: Elf(s, n) for s, n in zip(seats, config.players, strict=True)}, Purses(bank=BANK)
        )
        for seat in seats:
            state.coins.counts[seat] = 0
            state.coins.counts["mad:" + seat] = 0
        state.coins.counts["tribute"] = 0
        for seat in seats:
            state.coins.transfer(BANK, seat, opts.starting_purse)
            state.bank_out += opts.starting_purse
        begin_round(state, [])
        return state

    def seats(self, state: LostDaysState) -> tuple[str, ...]:
        return state.seats

    def namer(self, state: LostDaysState, viewer: str | None) -> LostDaysNamer:
        return LostDaysNamer(self, state, viewer)

    def seat_name(self, state: LostDaysState, seat: str) -> str:
        elf = state.elves.get(seat)
        return elf.name if elf else seat

    def pending(self, state: LostDaysState) -> Pending:
        pending = state.memo.get(PENDING)
        if pending is None:
            seats = () if state.phase == GAME_OVER else rules.seats_now(state)
            pending = state.memo[PENDING] = Pending(seats, state.phase)
        return pending

    def legal_actions(self, state: LostDaysState, seat: str) -> list[Action]:
        listed = state.memo.get(seat)  # remembered since the last action (see rules.legal)
        return list(listed) if listed is not None else rules.legal(state, seat)

    def chance_step(self, state: LostDaysState) -> Roll:
        return rules.chance_step(state)

    def check(self, state: LostDaysState, action: Action) -> None:
        rules.check(state, action)

    def explain_refusal(self, state: LostDaysState, action: Action) -> IllegalAction | None:
        return rules.explain_refusal(state, action)

    def play(self, state: LostDaysState, action: Action) -> Sequence[Event]:
        return rules.play(state, action)

    def view(self, state: LostDaysState, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def secrets(self, state: LostDaysState) -> list[Secret]:
        return view.secrets(state)

    def standing(self, state: LostDaysState) -> dict[str, float]:
        """The sane share the end (LD-R40): each sane elf's coins, purse and memories; 0 when mad."""
        sane = set(state.sane())
        return {s: float(state.purse(s) + state.memory_coins(s)) if s in sane else 0.0 for s in state.seats}

    def redeal(self, state: LostDaysState, seat: str | None, rng: random.Random) -> LostDaysState:
        return redeal.redeal(state, seat, rng)

    def render(self, v: dict[str, Any]) -> str:
        return view.render(v)

    def outcome(self, state: LostDaysState) -> Outcome | None:
        if state.phase != GAME_OVER:
            return None
        scores = {s: float(state.purse(s) + state.memory_coins(s)) for s in state.seats}
        if state.survivor:
            return Outcome((state.survivor,), scores, f"{state.elves[state.survivor].name} is the last elf standing")
        sane = tuple(state.sane())
        return Outcome(sane, scores, "the Eternal Court has fallen")

    def to_position(self, state: LostDaysState) -> dict[str, Any]:
        return state.to_json()

    def from_position(self, data: dict[str, Any], config: Config) -> LostDaysState:
        try:
            return LostDaysState.from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PositionError(f"not a Lost Days position ({exc!r})", rule="position") from None

    def copy(self, state: LostDaysState) -> LostDaysState:
        return state.copy()

    def invariants(self, state: LostDaysState) -> list[str]:
        problems = [f"{k} holds {v} coins" for k, v in state.coins.counts.items() if v < 0]
        if state.coins.total() != state.bank_out:
            problems.append(f"coins on the table {state.coins.total()} != coins out of the bank {state.bank_out}")
        if sum(1 for m in state.memories.values() if m.is_mok) > 1:
            problems.append("more than one actual Memory of Kingship")
        for m in state.memories.values():
            if (m.place == OWNED) != (m.owner is not None):
                problems.append(f"{m.id} is {m.place} with owner {m.owner}")
            if m.owner is not None and state.elves[m.owner].mad:
                problems.append(f"mad {m.owner} owns {m.id}")
            if m.is_mok and m.place == OWNED and state.king != m.owner:
                problems.append(f"{m.owner} owns the Memory of Kingship but {state.king} is king")
            if m.is_mok and m.place == MARKET and state.king is not None:
                problems.append("the Memory of Kingship is in the market but there is a king")
        if state.phase not in CONFLICT_PHASES:
            problems.extend(f"{s} is past the madness threshold but sane" for s in state.sane() if tipped(state, s))
        if state.phase not in CONFLICT_PHASES and state.coins["tribute"]:
            problems.append("tribute coins lie unplaced outside a conflict")
        return problems

    def summarize(self, state: LostDaysState, steps: int) -> dict[str, Any]:
        return stats.summarize(state, steps)

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return stats.report(summaries)

    def end_reason(self, state: LostDaysState) -> str:
        return stats.end_reason(state)

    def clock(self, state: LostDaysState) -> int:
        return stats.clock(state)

    def sample(self, state: LostDaysState) -> dict[str, float]:
        return stats.sample(state)


GAME = LostDays()
