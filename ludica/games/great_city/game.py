"""The Great City as a Ludica game: phases, pending decisions, legal actions, checks and plays.

The spec is ``shared/rules/the-great-city.md``; ``docs/rules/great-city.md`` tells how it is
implemented (action names, the split of ``flip_reaction`` into ``flip``/``end_reaction``, options).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ...core import (
    CHANCE,
    Action,
    Config,
    Event,
    Game,
    GameMeta,
    IntRange,
    NotYourDecision,
    OptionSpec,
    Outcome,
    Pending,
    PositionError,
    Roll,
    Secret,
    Text,
    decision,
)
from ...core.values import Value
from . import creation as C
from . import endgame as E
from . import oracle as O
from . import scene as SC
from . import stats
from .common import GM, S_REACTION, malformed, refuse, seat_label
from .names import GreatCityNamer
from .state import GreatCityState

OPTIONS = (
    OptionSpec("gm_name", "GM", "the GM's name (the GM is seat 'gm')"),
    OptionSpec(
        "scene_triad_mode",
        "persistent",
        "R-GC-03: persistent (flips stay on the characters' triads), rethrow (spotlight and foil roll 3d8 "
        "every scene), reset (flips revert at the end of each scene)",
        choices=("persistent", "rethrow", "reset"),
    ),
    OptionSpec(
        "reduce_from",
        "initial",
        "R-GC-05: reduce the initial throw or the trajectory pair",
        choices=("initial", "trajectory"),
    ),
    OptionSpec(
        "ante_increment_source",
        "pool",
        "R-GC-33: the per-round ante scarab comes from the pool or the bank",
        choices=("pool", "bank"),
    ),
    OptionSpec(
        "gm_may_accept", True, "R-GC-01: the GM may accept the judgment and take the ante", choices=(True, False)
    ),
    OptionSpec("gm_takes_rewards", True, "R-GC-01: the GM takes step-(6) rewards", choices=(True, False)),
    OptionSpec(
        "undo_random_flip", True, "R-GC-31: a stone's controller may undo the GM's random flip", choices=(True, False)
    ),
    OptionSpec(
        "reflip_model",
        "act",
        "R-GC-30: act (reconciled, default) or sequential (the literal sentence)",
        choices=("act", "sequential"),
    ),
    OptionSpec(
        "fate_contributions", "secret", "R-GC-38: Yea/Nay contributions secret or public", choices=("secret", "public")
    ),
    OptionSpec(
        "agent_triads",
        "rolled",
        "R-GC-17: agents' triads rolled (3d8) or chosen by the GM",
        choices=("rolled", "chosen"),
    ),
    OptionSpec(
        "hr_scene_guard",
        False,
        "HOUSE RULE HR-G1: after an all-pass round the spotlight must accept",
        choices=(True, False),
        house_rule=True,
    ),
    OptionSpec(
        "hr_trait_cap_3",
        False,
        "HR-G2 (reading (B) of R-GC-27): three trait flips per character per scene, one per mode",
        choices=(True, False),
        house_rule=True,
    ),
    OptionSpec(
        "hr_slow_clock",
        False,
        "HOUSE RULE HR-G3: rewards and the per-round ante scarab come from the bank",
        choices=(True, False),
        house_rule=True,
    ),
)

ARG_TYPES: Final[dict[str, type]] = {
    "position": int,
    "n": int,
    "blue": int,
    "white": int,
    "green": int,
    "vest": bool,
    "traits": dict,
}
"""Parameters that are not text; every other parameter is a string."""


@dataclass(frozen=True, slots=True)
class Spec(Value):
    """One action type of the game's table :data:`ACTIONS` (the convention of every Ludica game, see
    ``docs/architecture.md``): the phases it belongs to, its parameters, its ``play_<action>`` and
    its ``check_<action>`` (``None`` when the listing, :data:`LEGAL`'s ``legal_<phase>``, says it all)."""

    phases: tuple[str, ...]
    args: tuple[str, ...] | None
    play: Callable[[GreatCityState, Action], list[Event]]
    check: Callable[[GreatCityState, Action], None] | None = None
    texts: tuple[str, ...] = ()


ACTIONS: Final[dict[str, Spec]] = {
    "record_situation": Spec(
        ("record_situation",),
        ("situation", "peril", "face"),
        C.play_record_situation,
        texts=("situation", "peril", "face"),
    ),
    "create_agent": Spec(
        ("agents",), ("name", "description"), C.play_create_agent, C.check_create_agent, texts=("name", "description")
    ),
    "end_agents": Spec(("agents",), (), C.play_end_agents, C.check_end_agents),
    "set_triad": Spec(("create",), ("character", "blue", "white", "green"), C.play_set_triad, C.check_set_triad),
    "choose_kind": Spec(("create",), ("character", "kind"), C.play_choose_kind, C.check_choose_kind),
    "allocate_traits": Spec(("create",), ("character", "traits"), C.play_allocate_traits, C.check_allocate_traits),
    "choose_class": Spec(("create",), ("character", "class"), C.play_choose_class, C.check_choose_class),
    "choose_intent": Spec(
        ("create",), ("character", "color", "text"), C.play_choose_intent, C.check_choose_intent, texts=("text",)
    ),
    "name_character": Spec(
        ("create",), ("character", "name"), C.play_name_character, C.check_name_character, texts=("name",)
    ),
    "draw_name": Spec(("create",), ("character", "list"), C.play_draw_name, C.check_draw_name),
    "vest_class_scarab": Spec(
        ("vest", "create"), ("character", "vest"), C.play_vest_class_scarab, C.check_vest_class_scarab
    ),
    "add_tie": Spec(("ties", "create"), ("source", "target", "sign", "grant"), C.play_add_tie, C.check_add_tie),
    "buy_tie": Spec(("ties", "create"), ("source", "target", "sign"), C.play_buy_tie, C.check_buy_tie),
    "end_ties": Spec(("ties", "create"), ("source",), C.play_end_ties, C.check_end_ties),
    "start_scene": Spec(
        ("scene_start",), ("spotlight", "intent"), SC.play_start_scene, SC.check_start_scene, texts=("intent",)
    ),
    "choose_foil": Spec(("choose_foil",), ("foil",), SC.play_choose_foil, SC.check_choose_foil),
    "choose_ante_source": Spec(("ante",), ("role", "source"), SC.play_choose_ante_source, SC.check_choose_ante_source),
    "buy_in": Spec(("buy_in",), ("character",), SC.play_buy_in, SC.check_buy_in),
    "stay_out": Spec(("buy_in",), (), SC.play_stay_out),
    "undo_flip": Spec(("undo",), ("position",), SC.play_undo_flip, SC.check_undo),
    "decline_undo": Spec(("undo",), ("position",), SC.play_decline_undo, SC.check_undo),
    "arrive": Spec(("reaction",), ("character",), SC.play_arrive, SC.check_arrive),
    "pass_reaction": Spec(("reaction",), (), SC.play_pass_reaction, SC.check_pass_reaction),
    "flip": Spec(("reaction",), None, SC.play_flip, SC.check_flip),
    "end_reaction": Spec(("reaction",), (), SC.play_end_reaction, SC.check_pass_reaction),
    "accept_judgment": Spec(("reaction",), ("character",), SC.play_accept_judgment, SC.check_accept_judgment),
    "assign_narration": Spec(("assign_narration",), ("narrator",), SC.play_assign_narration, SC.check_assign_narration),
    "narrate": Spec(("narrate",), ("text",), SC.play_narrate, texts=("text",)),
    "give_scarabs": Spec(("distribution",), ("to_seat", "n"), SC.play_give_scarabs, SC.check_give_scarabs),
    "vest_own": Spec(("distribution",), ("character", "color", "n"), SC.play_vest_own, SC.check_vest_own),
    "fund_fate": Spec(("distribution",), ("box", "n"), SC.play_fund_fate, SC.check_fund_fate),
    "flip_city_stone": Spec(("distribution",), ("position",), SC.play_flip_city_stone, SC.check_flip_city_stone),
    "vest_city_stone": Spec(("distribution",), ("position", "n"), SC.play_vest_city_stone, SC.check_vest_city_stone),
    "end_distribution": Spec(("distribution",), (), SC.play_end_distribution),
    "narrate_city_fate": Spec(("city_fate",), ("text",), E.play_narrate_city_fate, texts=("text",)),
    "narrate_character_fate": Spec(
        ("character_fates",),
        ("character", "text"),
        E.play_narrate_character_fate,
        E.check_narrate_character_fate,
        texts=("text",),
    ),
}

CHANCE_PLAY: Final[dict[str, Callable[[GreatCityState, list[int]], list[Event]]]] = {
    "roll_situation": C.play_roll_situation,
    "roll_character_triad": C.play_roll_character_triad,
    "roll_name": C.play_roll_name,
    "roll_initiative": C.play_roll_initiative,
    "rethrow_triads": SC.play_rethrow_triads,
    "random_flip": SC.play_random_flip,
    "roll_rank_tie": E.play_roll_rank_tie,
}

PROMPTS: Final = {
    "record_situation": "record the table's reading of the situation, the peril and its face",
    "agents": "create one to three agents of peril",
    "vest": "vest the class scarab?",
    "ties": "make ties on the character network",
    "scene_start": "declare your intended action and your spotlight character",
    "choose_foil": "choose the foil (or NEW)",
    "ante": "ante from the peril pool or your purse",
    "buy_in": "buy in a character to the scene, or stay out",
    "undo": "undo the flip with the vested scarab?",
    "reaction": "arrive, pass, flip stones or accept the judgment",
    "forced_accept": "accept the judgment (scene guard HR-G1)",
    "assign_narration": "give the narration rights to another participant",
    "narrate": "narrate what the judgment means",
    "distribution": "distribute scarabs from your purse, then end the distribution",
    "city_fate": "narrate the fate of the Great City",
    "character_fates": "narrate your character's final fate",
}
CREATE_PROMPTS: Final = {
    "choose_triad": "set the agent's triad (d8 values)",
    "kind": "human or bug?",
    "traits": "allocate your +'s and -'s to the traits",
    "class": "choose a class",
    "intent": "will you save the Great City?",
    "name": "name the character",
    "vest": "vest the class scarab?",
    "ties": "buy ties for the new character",
}

CHANCE_PHASES: Final = ("roll_situation", "initiative", "rethrow", "random_flip", "rank")
_FIXED: Final[dict[str, Pending]] = {ph: Pending((CHANCE,), ph) for ph in CHANCE_PHASES}
_FIXED["over"] = Pending((), "over")
NOTHING: Final[list[Action]] = []
"""The legal actions of a seat that does not decide now (shared: never handed out)."""


class GreatCity(Game[GreatCityState]):
    meta = GameMeta(
        id="great-city",
        title="The Great City",
        description="Bill White's oracle game: triad stones, scarabs and the peril of a city walking on spider-back.",
        players_min=2,
        players_max=5,
        rules_version="1.0",
        chance=True,
        hidden_information=True,
        simultaneous=False,
        referee=GM,
        options=OPTIONS,
        max_steps=50_000,
        end_reasons=stats.END_REASONS,
        clock_unit="scene",
        counter_bounds=stats.COUNTER_BOUNDS,
    )

    # -- set-up --------------------------------------------------------------------------------
    def setup(self, config: Config) -> GreatCityState:
        """Two to five players and a GM, purses, the Yea and Nay purses (R-GC-44).

        Rule: [What You Will Need To Play]
        """
        options = {o.name: config.option(self.meta, o.name) for o in OPTIONS if o.name != "gm_name"}
        state = GreatCityState(tuple(config.players), config.option(self.meta, "gm_name"), options)
        n = len(config.players)
        state.nay = n + 1  # one per player including the GM [The Situation]
        state.pool = C.pool_size(n)  # [The Mounting Peril], R-GC-44
        state.bank_net = state.nay + state.pool
        return state

    def seats(self, state: GreatCityState) -> tuple[str, ...]:
        return state.seats

    def namer(self, state: GreatCityState, viewer: str | None) -> GreatCityNamer:
        return GreatCityNamer(self, state, viewer)

    def seat_name(self, state: GreatCityState, seat: str) -> str:
        return seat_label(state, seat) if seat in state.seats else seat

    # -- decisions -----------------------------------------------------------------------------
    def pending(self, state: GreatCityState) -> Pending:
        pend = state.memo_pending
        if pend is None:
            pend = state.memo_pending = self._pending(state)
        return pend

    def _pending(self, state: GreatCityState) -> Pending:
        ph = state.phase
        fixed = _FIXED.get(ph)
        if fixed is not None:  # the chance seat's phases, the end
            return fixed
        if ph == "reaction":
            sc = state.scene
            if sc.forced is not None:  # type: ignore[union-attr]
                return _decided(sc.forced, ph, PROMPTS["forced_accept"])  # type: ignore[union-attr]
            return _decided(sc.order[sc.turn], ph, PROMPTS[ph])  # type: ignore[union-attr]
        if ph == "create":
            c = state.characters[state.creating]  # type: ignore[index]
            if c.stage == "roll" or c.stage.startswith("name_roll"):
                return _decided(CHANCE, ph, "")
            return _decided(c.controller, ph, CREATE_PROMPTS[c.stage])
        decider = DECIDERS.get(ph)
        if decider is None:
            raise AssertionError(f"unknown phase {ph!r}")
        return _decided(decider(state), ph, PROMPTS[ph])

    def chance_step(self, state: GreatCityState) -> Roll:
        step = state.memo_chance
        if step is None:
            key = _roll_key(state)
            if key is None:
                step = self._chance_step(state)
            else:  # a roll is a value: one per phase and what it depends on, kept
                step = _ROLLS.get(key)
                if step is None:
                    if len(_ROLLS) > 20_000:
                        _ROLLS.clear()
                    step = _ROLLS[key] = self._chance_step(state)
            state.memo_chance = step
        return step

    def _chance_step(self, state: GreatCityState) -> Roll:
        ph = state.phase
        if ph == "roll_situation":
            city = tuple(f"the city's {c} stone ({t} triad)" for t in ("first", "second") for c in O.COLORS)
            return Roll((8,) * 6, type="roll_situation", labels=city)
        if ph == "create":
            c = state.characters[state.creating]  # type: ignore[index]
            if c.stage == "roll":
                triad = tuple(f"{c.id}'s {color} stone" for color in O.COLORS)
                return Roll((8, 8, 8), type="roll_character_triad", extra={"character": c.id}, labels=triad)
            names = ("the name's first d20", "the name's second d20")
            extra = {"character": c.id, "list": c.stage.split(":", 1)[1]}
            return Roll((20, 20), type="roll_name", extra=extra, labels=names)
        if ph == "initiative":
            cands = state.initiative["candidates"]
            labels = tuple(f"{p}'s die" for p in cands)
            return Roll((8,) * len(cands), type="roll_initiative", extra={"players": list(cands)}, labels=labels)
        if ph == "rethrow":
            chars = SC.rethrow_characters(state)
            triads = tuple(f"{c}'s {color} stone" for c in chars for color in O.COLORS)
            return Roll((8,) * (3 * len(chars)), type="rethrow_triads", extra={"characters": chars}, labels=triads)
        if ph == "random_flip":
            return Roll((6,), type="random_flip", labels=("the random flip: the stone to flip",))
        if ph == "rank":
            group = E.tied_group(state)
            labels = tuple(f"{p}'s die" for p in group)
            return Roll((8,) * len(group), type="roll_rank_tie", extra={"players": list(group)}, labels=labels)
        raise AssertionError(f"no chance step in phase {ph!r}")

    def legal_actions(self, state: GreatCityState, seat: str) -> list[Action]:
        return list(self._listed(state, seat))

    def _listed(self, state: GreatCityState, seat: str) -> list[Action]:
        """The seat's legal actions, remembered until the next play (``memo.py``)."""
        pend = state.memo_pending
        if pend is None:
            if state.phase not in LEGAL:  # the chance seat's phases, or the game is over
                return NOTHING
            pend = state.memo_pending = self._pending(state)
        if seat not in pend.seats or seat == CHANCE:
            return NOTHING
        listed = state.memo_legal
        if listed is None:
            listed = state.memo_legal = LEGAL[state.phase](state, seat)
        return listed

    def check(self, state: GreatCityState, action: Action) -> None:
        """Accept a listed action at once; validate anything else in full to name the rule it breaks."""
        pend = self.pending(state)
        if pend.is_over:
            raise refuse("the game is over", "end")
        if action.seat == CHANCE:
            self._check_chance(state, action, pend)
            return
        listed = self._listed(state, action.seat)
        for t in listed:
            if t is action:  # an interned listed action, as bots send them
                return
        if listed and _is_listed(listed, action):  # a filled template, a replayed record
            return
        spec = ACTIONS.get(action.type)
        if spec is None:
            raise malformed(f"unknown action {action.type!r}; the Great City's actions are: {', '.join(ACTIONS)}")
        if action.seat not in pend.seats:
            waiting = ", ".join(seat_label(state, s) if s != CHANCE else s for s in pend.seats)
            raise NotYourDecision(f"it is not {action.seat}'s decision now (waiting for {waiting})", rule="turn order")
        if state.phase not in spec.phases:
            raise refuse(f"{action.type} is not possible now ({pend.prompt or state.phase})", "turn order")
        args = action.args
        names = spec.args
        if names is None:  # flip: the parameters depend on the source
            source = args.get("source")
            if not isinstance(source, str) or source not in SC.FLIP_ARGS:
                raise malformed(
                    "a flip names its source: trait, tie, free_scarab or vested_scarab", "R-GC-25", S_REACTION
                )
            wanted = SC.FLIP_ARGS[source]
        else:
            wanted = set(names)
        if set(args) != wanted:
            missing, extra = sorted(wanted - set(args)), sorted(set(args) - wanted)
            parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
                [f"unknown {', '.join(extra)}"] if extra else []
            )
            raise malformed(f"{action.type} takes {', '.join(sorted(wanted)) or 'no parameters'} ({'; '.join(parts)})")
        for key, value in args.items():
            want = ARG_TYPES.get(key, str)
            if type(value) is not want:
                raise malformed(f"{key} of {action.type} must be {want.__name__}, not {value!r}")
            if key in spec.texts and not str(value).strip():
                raise malformed(f"{key} must say something")
        if spec.check is not None:  # names the rule the action breaks
            spec.check(state, action)
        for t in listed:
            if t.type == action.type:
                for key, want in t.args.items():
                    if isinstance(want, Text) and not want.min_len <= len(args[key]) <= want.max_len:
                        raise malformed(f"{key} must be {want.min_len}..{want.max_len} characters")
        raise refuse(f"{action.notation()} is not a legal move now", "turn order")

    def _check_chance(self, state: GreatCityState, action: Action, pend: Pending) -> None:
        if not pend.is_chance:
            raise NotYourDecision("no dice are due now", rule="chance")
        step = self.chance_step(state)
        if action.type != step.type:
            raise malformed(f"the dice due now are {step.type!r}", "chance")
        step.validate(dict(action.args))
        for key, value in action.args.items():
            if key == step.key:
                continue
            if key not in step.extra:
                raise malformed(f"{step.type} has no parameter {key!r}", "chance")
            if step.extra[key] != value:
                raise refuse(f"{step.type} is for {key}={step.extra[key]!r}, not {value!r}", "chance")

    def play(self, state: GreatCityState, action: Action) -> Sequence[Event]:
        # the state changes: its decisions are asked anew (memo.forget, inlined)
        state.memo_pending = state.memo_legal = state.memo_chance = None
        if action.seat == CHANCE:
            return CHANCE_PLAY[action.type](state, list(action.args["dice"]))
        return ACTIONS[action.type].play(state, action)

    # -- information ---------------------------------------------------------------------------
    def view(self, state: GreatCityState, seat: str | None) -> dict[str, Any]:
        from .view import view

        return view(state, seat)

    def redeal(self, state: GreatCityState, seat: str | None, rng: random.Random) -> GreatCityState:
        from .redeal import redeal

        return redeal(state, seat, rng)

    def standing(self, state: GreatCityState) -> dict[str, float]:
        """The fattest purse wins [Ending the Game]: each player's free scarabs."""
        return {s: float(state.purse[s]) for s in state.seats[:-1]}

    def secrets(self, state: GreatCityState) -> list[Secret]:
        from .view import secrets

        return secrets(state)

    def render(self, view: dict[str, Any]) -> str:
        from .view import render

        return render(view)

    # -- end -----------------------------------------------------------------------------------
    def outcome(self, state: GreatCityState) -> Outcome | None:
        if state.phase != "over":
            return None
        order = E.ranking(state)
        city = state.city
        name, judgment = O.lookup(city >> 3, city & 7)  # type: ignore[operator]
        fate = "survives" if state.endgame["survives"] else "succumbs"  # type: ignore[index]
        return Outcome(
            (order[0],),
            {s: float(state.purse[s]) for s in state.seats[:-1]},
            f"The Great City {fate} (Yea {state.yea}, Nay {state.nay}); its pair {O.pair_bits(city)} "  # type: ignore[arg-type]
            f"{name}: {judgment} {seat_label(state, order[0])} had the fattest purse.",
        )

    # -- positions -----------------------------------------------------------------------------
    def to_position(self, state: GreatCityState) -> dict[str, Any]:
        return state.to_json()

    def from_position(self, data: dict[str, Any], config: Config) -> GreatCityState:
        try:
            state = GreatCityState.from_json(data)
        except KeyError as exc:
            raise PositionError(f"the position has no field {exc}", rule="position") from None
        if len(state.players) != len(config.players):
            raise PositionError("the position's players do not match its config", rule="position")
        return state

    def invariants(self, state: GreatCityState) -> list[str]:
        return invariants(state)

    def copy(self, state: GreatCityState) -> GreatCityState:
        return state.copy()

    # -- statistics ----------------------------------------------------------------------------
    # (``stats`` stays the module imported at the top: a function-level ``from .stats import``
    # would leave that name ``None`` in the compiled build)
    def summarize(self, state: GreatCityState, steps: int) -> dict[str, Any]:
        return stats.summarize(state, steps)

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return stats.report(summaries)

    def end_reason(self, state: GreatCityState) -> str:
        return stats.end_reason(state)

    def clock(self, state: GreatCityState) -> int:
        return stats.clock(state)

    def sample(self, state: GreatCityState) -> dict[str, float]:
        return stats.sample(state)


_ROLLS: Final[dict[tuple[str, ...], Roll]] = {}


def _roll_key(state: GreatCityState) -> tuple[str, ...] | None:
    """What the chance step of ``state`` depends on (``_chance_step`` reads nothing else), for
    the frequent rolls whose ``extra`` holds only text; ``None``: made afresh (initiative, rethrow
    and rank ties list seats or characters in ``extra``, and are rare)."""
    ph = state.phase
    if ph == "create":
        c = state.characters[state.creating]  # type: ignore[index]
        return (ph, c.id, c.stage)
    if ph == "random_flip" or ph == "roll_situation":
        return (ph,)
    return None


_DECIDED: Final[dict[str, dict[str, dict[str, Pending]]]] = {}


def _decided(seat: str, phase: str, prompt: str) -> Pending:
    """The core's shared :func:`~ludica.core.decision`, kept here by seat, phase and prompt in
    nested dictionaries: string keys (their hashes kept, compared by identity), where the core's
    one dictionary builds, hashes and compares a tuple at every call."""
    by_phase = _DECIDED.get(seat)
    if by_phase is None:
        by_phase = _DECIDED[seat] = {}
    by_prompt = by_phase.get(phase)
    if by_prompt is None:
        by_prompt = by_phase[phase] = {}
    found = by_prompt.get(prompt)
    if found is None:
        found = by_prompt[prompt] = decision(seat, phase, prompt)
    return found


def _is_listed(listed: list[Action], action: Action) -> bool:
    """Whether ``action`` is an instance of a listed one, with the exact parameter types the full
    check demands (a bool is no int): then the full check would accept it, and is not needed."""
    kind, args = action.type, action.args
    if type(args) is not dict:
        return False
    for t in listed:
        if t.type != kind:
            continue
        want = t.args
        if t.is_template:
            if _fills(want, args):
                return True
        elif want == args and all(type(args[k]) is type(v) for k, v in want.items()):
            return True
    return False


def _fills(template: Mapping[str, Any], args: dict[str, Any]) -> bool:
    """Whether ``args`` fill a template's declarations (``Text``, ``IntRange``) and equal the rest."""
    if template.keys() != args.keys():
        return False
    for key, want in template.items():
        got = args[key]
        declared = type(want)
        if declared is Text:
            if type(got) is not str or not want.accepts(got):
                return False
        elif declared is IntRange:
            if type(got) is not int or not want.lo <= got <= want.hi:
                return False
        elif type(got) is not declared or got != want:
            return False
    return True


DECIDERS: Final[dict[str, Callable[[GreatCityState], str]]] = {
    "record_situation": lambda state: GM,
    "agents": lambda state: GM,
    "vest": C.vest_seat,
    "ties": C.tie_seat,
    "scene_start": SC.focal_seat,
    "choose_foil": SC.focal_seat,
    "ante": SC.ante_seat,
    "buy_in": SC.buy_seat,
    "undo": SC.undo_seat,
    "assign_narration": SC.acceptor_seat,
    "distribution": SC.acceptor_seat,
    "narrate": SC.narrator_seat,
    "city_fate": E.city_fate_seat,
    "character_fates": E.fate_seat,
}
"""Who decides in each phase with one deciding seat (``reaction`` and ``create`` are in ``pending``)."""

LEGAL: Final[dict[str, Callable[[GreatCityState, str], list[Action]]]] = {
    "record_situation": C.legal_record_situation,
    "agents": C.legal_agents,
    "create": C.legal_create,
    "vest": C.legal_vest,
    "ties": C.legal_ties,
    "scene_start": SC.legal_scene_start,
    "choose_foil": SC.legal_choose_foil,
    "ante": SC.legal_ante,
    "buy_in": SC.legal_buy_in,
    "undo": SC.legal_undo,
    "reaction": SC.legal_reaction,
    "assign_narration": SC.legal_assign_narration,
    "narrate": SC.legal_narrate,
    "distribution": SC.legal_distribution,
    "city_fate": E.legal_city_fate,
    "character_fates": E.legal_character_fates,
}

PHASES: Final = {*LEGAL, "roll_situation", "initiative", "rethrow", "random_flip", "rank", "over"}


def invariants(state: GreatCityState) -> list[str]:
    """Every rule of the state's shape that is broken, in words."""
    out = []
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    for name, value in (("pool", state.pool), ("yea", state.yea), ("nay", state.nay)):
        if value < 0:
            out.append(f"{name} is negative")
    for seat, n in state.purse.items():
        if n < 0:
            out.append(f"{seat}'s purse is negative")
    if set(state.purse) != set(state.seats):
        out.append("purses do not match the seats")
    for c in state.characters.values():
        if not 0 <= c.triad <= 7:
            out.append(f"{c.id} has a bad triad")
        if any(v < 0 for v in c.vested):
            out.append(f"{c.id} has negative vested scarabs")
        if c.controller not in state.seats:
            out.append(f"{c.id} is controlled by no seat")
    if any(v < 0 for v in state.city_vested):
        out.append("a city stone has negative vested scarabs")
    sc = state.scene
    if sc is not None:
        if sc.ante < 0:
            out.append("the ante is negative")
        for cid in sc.present:
            if cid not in state.characters:
                out.append(f"present character {cid} does not exist")
    if state.total_scarabs() != state.bank_net:
        out.append(f"scarabs in play ({state.total_scarabs()}) differ from those the bank issued ({state.bank_net})")
    if state.city is not None and not 0 <= state.city <= 63:
        out.append("the city pair is not six stones")
    out.extend(_phase_problems(state))
    return out


SCENE_PHASES: Final = {
    "scene_start",
    "choose_foil",
    "ante",
    "buy_in",
    "rethrow",
    "random_flip",
    "undo",
    "reaction",
    "assign_narration",
    "narrate",
    "distribution",
}


def _phase_problems(state: GreatCityState) -> list[str]:
    """What the current phase needs in the state (so that a bad position is refused, not run)."""
    ph, sc = state.phase, state.scene
    if ph == "create" and state.creating not in state.characters:
        return ["a character is being created but there is none"]
    if ph in SCENE_PHASES or (ph == "create" and sc is not None):
        if sc is None:
            return [f"phase {ph} needs a scene"]
        if sc.focal not in state.seats or (sc.order and set(sc.order) != set(state.seats)):
            return ["the scene's seats are not the table's"]
        if ph in ("ante", "buy_in", "random_flip", "undo", "reaction") and (
            sc.spotlight not in state.characters or sc.foil not in state.characters
        ):
            return ["the scene has no spotlight or foil"]
        if ph == "ante" and not sc.ante_roles:
            return ["no ante is due"]
        if ph == "undo" and not sc.undo:
            return ["no flip can be undone"]
        if ph == "reaction" and not 0 <= sc.turn < len(sc.order):
            return ["no seat is to react"]
        if ph in ("assign_narration", "narrate", "distribution") and sc.acceptor not in state.seats:
            return ["nobody accepted the judgment"]
    if (ph == "vest" and not state.vest_queue) or (ph == "ties" and not state.tie_queue):
        return [f"phase {ph} has nobody to decide"]
    if ph in ("rank", "city_fate", "character_fates", "over") and not state.endgame:
        return ["the end game has not begun"]
    if ph in ("city_fate", "character_fates") and any(len(g) != 1 for g in state.ranking):
        return ["the ranking is not settled"]
    if ph == "rank" and all(len(g) == 1 for g in state.ranking):
        return ["no tie to roll off"]
    return []
