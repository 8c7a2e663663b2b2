"""The Game protocol for Misery Bubblegum: set-up, pending decisions, check and play, views, positions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from ...core import (
    CHANCE,
    Action,
    Config,
    ConfigError,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    NotYourDecision,
    OptionSpec,
    Outcome,
    Pending,
    Roll,
)
from . import legal, position, rolls, rules, stats
from . import view as faces
from .memo import Memo, memo_of
from .names import MiseryNamer
from .rules import HANDLERS
from .state import ATTRIBUTES, GM, Character, MiseryState, Settings

TEXT_PARAMS = {"intent", "text"}
GM_ONLY = {"gm_oppose"}
GM_MAY = {
    "pass_opposition",
    "decide_success",
    "choose_arrow",
    "create_resource",
    "activate_resource",
    "deactivate_resource",
    "increase_resource",
    "select_die",
    "unselect_die",
    "end_meaning",
}
GM_ACTIONS = GM_MAY | GM_ONLY
PROMPTS = {
    "SETUP": "set your character's Passion, Confidence and Insight",
    "IDLE": "call an action, offer a Trait, or agree to end the session",
    "DECLARING": "accept or refuse offered Traits, then call your action",
    "OPPOSITION": "oppose the action or pass",
    "REROLL": "use a Trait to reroll dice, or pass",
    "SUCCESS": "decide whether the action succeeds",
    "MEANING": "decide what the action means",
    "GROWTH": "raise Traits used in the action with your success dice",
    "RECLAIM": "reclaim your rolled dice",
}

OPTIONS = (
    OptionSpec("gm", True, "a GM seat opposes with NPCs and the environment (MB-R36)"),
    OptionSpec("dice_per_player", 20, "dice of each player's colour, at least 20 [Character Attributes]"),
    OptionSpec(
        "starting_pools", [5, 5, 5], "dice starting in Passion, Confidence, Insight; the rest are spare (MB-R3)"
    ),
    OptionSpec("rating_min", 1, "lowest attribute number (MB-R4)"),
    OptionSpec("rating_max", 6, "highest attribute number (MB-R4)"),
    OptionSpec("max_traits", 10, "most Traits a character may have [Growing and changing]"),
    OptionSpec("gm_max_dice", 6, "most dice the GM rolls (MB-R36)"),
    OptionSpec("trait_reroll_scope", "any", "which rolled dice a Trait may reroll (MB-R12)", choices=("any", "own")),
    OptionSpec("calling_order", "free", "who may call an action (MB-R6)", choices=("free", "round_robin")),
    OptionSpec("session_actions", 60, "the session ends after this many actions (0: only by consent, MB-R45)"),
)


PLAYERS_MAX = 12
"""Not a rule (MB-R6 seats "2 or more players"): the software's bound. The web lobby's form has a
name field per seat up to the maximum, and the terminal's 80×24 screen lists every player's sheet."""


class MiseryBubblegum(Game[MiseryState]):
    meta = GameMeta(
        id="misery-bubblegum",
        title="Misery Bubblegum (draft rules)",
        description="Who will you let influence the person you become? Dice, Traits, Misery and meaning. "
        "2 or more players (MB-R6); Ludica seats up to 12, a bound of its screens, not of the rules.",
        players_min=2,  # MB-R6: "2 or more players plus an optional GM"
        players_max=PLAYERS_MAX,
        rules_version="draft-1",
        chance=True,
        hidden_information=False,
        referee=GM,
        options=OPTIONS,
        max_steps=200_000,
        end_reasons=stats.END_REASONS,
        clock_unit="action",
        counter_bounds=stats.COUNTER_BOUNDS,
    )

    # -- set-up --------------------------------------------------------------------------------
    def setup(self, config: Config) -> MiseryState:
        """Ratings to choose, dice in the pools and Spare, and no Desire, Threat or Promise yet.

        Rule: MB-R5
        """
        opt = {o.name: config.option(self.meta, o.name) for o in OPTIONS}
        pools = opt["starting_pools"]
        if not (isinstance(pools, list) and len(pools) == 3 and all(isinstance(n, int) and n >= 0 for n in pools)):
            raise ConfigError("starting_pools lists three counts: Passion, Confidence, Insight", rule="MB-R3")
        if opt["dice_per_player"] < 20:
            raise ConfigError("each player needs at least 20 dice", rule="Character Attributes")
        if sum(pools) > opt["dice_per_player"]:
            raise ConfigError("the starting pools hold more dice than a player has", rule="MB-R3")
        if not 1 <= opt["rating_min"] <= opt["rating_max"]:
            raise ConfigError("rating_min must be at least 1 and at most rating_max", rule="MB-R4")
        if opt["max_traits"] < 1 or opt["gm_max_dice"] < 1 or opt["session_actions"] < 0:
            raise ConfigError("max_traits and gm_max_dice are at least 1; session_actions at least 0", rule="config")
        settings = Settings(**{**opt, "starting_pools": tuple(pools)})
        players = tuple(f"p{i + 1}" for i in range(len(config.players)))
        characters = {
            seat: Character(
                seat,
                name,
                {},
                dict(zip(ATTRIBUTES, pools, strict=True)),
                0,
                settings.dice_per_player - sum(pools),
                {other: 0 for other in players if other != seat},
            )
            for seat, name in zip(players, config.players, strict=True)
        }
        return MiseryState(settings=settings, players=players, characters=characters, turn=players[0])

    def seats(self, state: MiseryState) -> tuple[str, ...]:
        return state.seats()

    def namer(self, state: MiseryState, viewer: str | None) -> MiseryNamer:
        return MiseryNamer(self, state, viewer)

    def seat_name(self, state: MiseryState, seat: str) -> str:
        return "GM" if seat == GM else state.characters[seat].name

    # -- decisions -----------------------------------------------------------------------------
    def pending(self, state: MiseryState) -> Pending:
        memo = state.memo
        if memo is None:  # asked first about a new state: start its memo (memo.memo_of)
            memo = state.memo = Memo(rules.context(state))
        pending = memo.pending
        if pending is None:
            pending = memo.pending = who_decides(state, memo.context)
        return pending

    def chance_step(self, state: MiseryState) -> Roll:
        memo = memo_of(state)
        if memo.chance_step is None:
            step = d6_roll(*rules.chance_size(state))
            labels = rolls.dice_labels(state)  # never part of the record: whose die each one is
            memo.chance_step = Roll(step.sides, type=step.type, labels=labels) if labels else step
        return memo.chance_step

    def legal_actions(self, state: MiseryState, seat: str) -> list[Action]:
        memo = state.memo or memo_of(state)
        listed = memo.legal.get(seat)
        if listed is None:
            listed = memo.legal[seat] = legal.legal_actions(state, seat, memo.context)
        return list(listed)

    def check(self, state: MiseryState, action: Action) -> None:
        """Accept at once an action listed for this state (see :mod:`.memo`); otherwise the
        detailed validators decide, and name the rule of a refusal."""
        if action.seat == CHANCE:
            self._check_chance(state, action)
            return
        if not (state.memo or memo_of(state)).listed(action):
            self._validate(state, action)

    def _validate(self, state: MiseryState, action: Action) -> None:
        """The detailed validators of :mod:`.rules` (they agree with :mod:`.legal`)."""
        kind, args = action.type, dict(action.args)
        if kind not in rules.PARAMS:
            raise MalformedAction(f"Misery Bubblegum has no action {kind!r}", rule="actions")
        self._check_shape(state, kind, args)
        ctx = memo_of(state).context
        if ctx not in rules.CONTEXTS[kind]:
            where = rules.PHASES.get(ctx, "a roll")
            raise IllegalAction(f"{kind} is not possible now (the table is at {where})", rule="phases")
        if action.seat not in self.pending(state).seats:
            raise NotYourDecision(f"it is not {action.seat}'s decision now", rule="turn order")
        if action.seat == GM and kind not in GM_ACTIONS:
            raise IllegalAction("the GM has no character, Traits or Misery", rule="MB-R36", section=rules.S_DONE)
        if action.seat != GM and kind in GM_ONLY:
            raise IllegalAction("players oppose with oppose; gm_oppose is the GM's", rule="MB-R36")
        rules.HANDLERS[kind][0](state, action.seat, args)

    def _check_shape(self, state: MiseryState, kind: str, args: dict[str, Any]) -> None:
        """Unknown, missing or extra parameters and values of the wrong type are malformed."""
        want = rules.PARAMS[kind]
        if kind == "reclaim" and memo_of(state).context == "reclaim" and state.attempt is not None:
            seat = rules.proc.current_player(state.attempt)
            if rules.reclaim_orientation(state, seat) != "others":
                want = {}
        if args.keys() != want.keys():
            expected = ", ".join(want) or "no parameters"
            raise MalformedAction(f"{kind} takes {expected}; got {', '.join(args) or 'none'}", rule="actions")
        for name, typ in want.items():
            value = args[name]
            ok = isinstance(value, typ) and (typ is bool or not isinstance(value, bool))
            if not ok:
                raise MalformedAction(f"{name} must be {typ.__name__}, not {value!r}", rule="actions")
            if name in TEXT_PARAMS and not 1 <= len(value) <= 2000:
                raise MalformedAction(f"{name} is 1 to 2000 characters of text", rule="actions")

    def _check_chance(self, state: MiseryState, action: Action) -> None:
        if memo_of(state).context != "chance":
            raise NotYourDecision("no dice are waiting to be rolled", rule="chance")
        step = self.chance_step(state)
        kind, n = step.type, len(step.sides)
        dice = action.args.get("dice")
        if action.type != kind or set(action.args) != {"dice"}:
            raise MalformedAction(f"the chance seat must take a {kind!r} step with 'dice'", rule="chance")
        if not isinstance(dice, list) or len(dice) != n:
            raise MalformedAction(f"'dice' must list {n} result(s)", rule="chance")
        if not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in dice):
            raise MalformedAction("a die shows 1 to 6", rule="chance")

    def play(self, state: MiseryState, action: Action) -> Sequence[Event]:
        state.memo = None  # the state changes: every remembered answer is void (memo.forget)
        if action.seat == CHANCE:
            return rules.play_chance(state, list(action.args["dice"]))
        return HANDLERS[action.type][1](state, action.seat, dict(action.args))

    # -- information ---------------------------------------------------------------------------
    def view(self, state: MiseryState, seat: str | None) -> dict[str, Any]:
        return faces.view(state, seat)

    def render(self, view: dict[str, Any]) -> str:
        return faces.render(view)

    def outcome(self, state: MiseryState) -> Outcome | None:
        if not self.pending(state).is_over:
            return None
        misery = {s: float(c.misery) for s, c in state.characters.items()}
        return Outcome((), misery, f"the session ends after {state.attempts_done} actions; nobody wins (MB-R45)")

    # -- positions -----------------------------------------------------------------------------
    def to_position(self, state: MiseryState) -> dict[str, Any]:
        return position.to_position(state)

    def from_position(self, data: dict[str, Any], config: Config) -> MiseryState:
        return position.from_position(data)

    def copy(self, state: MiseryState) -> MiseryState:
        return position.from_position(position.to_position(state))

    def invariants(self, state: MiseryState) -> list[str]:
        from .invariants import problems

        return problems(state)

    # -- statistics ----------------------------------------------------------------------------
    def summarize(self, state: MiseryState, steps: int) -> dict[str, Any]:
        return stats.summarize(state, steps)

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return stats.report(summaries)

    def end_reason(self, state: MiseryState) -> str:
        return stats.end_reason(state)

    def clock(self, state: MiseryState) -> int:
        return stats.clock(state)

    def sample(self, state: MiseryState) -> dict[str, float]:
        return stats.sample(state)


@cache
def d6_roll(kind: str, n: int) -> Roll:
    """The chance step rolling ``n`` six-sided dice (a value, made once: it is slow to create)."""
    return Roll((6,) * n, type=kind)


GAME_OVER = Pending((), "GAME_OVER")
NOBODY_LEFT = Pending((), "GAME_OVER", "nobody can act any more")


def who_decides(state: MiseryState, ctx: str) -> Pending:
    """The pending decision in context ``ctx``: the chance seat, the seats deciding, or nobody
    (docs/rules/misery-bubblegum.md, "Phases")."""
    attempt = state.attempt
    if attempt is not None:
        if ctx == "meaning" or ctx == "wipe":
            seats: tuple[str, ...] = (attempt.meaning_decider or "",)
        elif ctx == "chance":
            return Pending((CHANCE,), attempt.stage, "roll the dice")
        elif ctx == "opposition":
            seats = (attempt.answering[0],)
        elif ctx == "success":
            seats = (attempt.success_decider or "",)
        elif ctx == "over":
            return GAME_OVER
        else:
            seats = (rules.proc.current_player(attempt),)
    elif ctx == "idle":
        seats = tuple(s for s in state.players if rules.idle_can_act(state, s))
    elif ctx == "setup":
        seats = tuple(s for s in state.players if not state.characters[s].rating)
    elif ctx == "over":
        return GAME_OVER
    else:
        assert state.declaration is not None
        seats = (state.declaration.seat,)
    if not seats:
        return NOBODY_LEFT
    phase = rules.PHASES[ctx]
    return Pending(seats, phase, PROMPTS[phase])


GAME = MiseryBubblegum()
