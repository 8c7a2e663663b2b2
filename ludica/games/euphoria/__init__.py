"""Euphoria: Build a Better Dystopia (Stonemaier Games, 2013), base game, 2-6 players.

Dice are workers; their numbers are their knowledge. On your turn you place one worker (or all
your workers that share a number), retrieve workers (paying food or bliss for +2 morale, or
nothing for -1 morale), or once per game resolve your ethical dilemma. Workers gather
commodities, dig tunnels, build markets whose penalties bind everyone without a star on them,
and trade goods and artifacts for authority stars. The first player to place all ten stars wins.

Modules, in the order of the rulebook:

* :mod:`.oracle` - the component facts (``data/*.yaml``), validated at load;
* :mod:`.setup` - setup, the opening roll and the sealed choice of recruits;
* :mod:`.turn` - the turn, rolling and the knowledge check, retrieval, the ethical dilemma;
* :mod:`.spaces` - worker placement and every kind of action space;
* :mod:`.payments` - costs and the ways to pay them;
* :mod:`.markets` and :mod:`.status` - construction, and the markets' penalties;
* :mod:`.tracks` - morale, knowledge, allegiance, tunnels, stars, artifacts;
* :mod:`.recruits` - the 48 recruits' abilities (original and revised printings);
* :mod:`.trade` - trading during your own turn;
* :mod:`.variants` - the rulebook's advanced variants (drafts);
* :mod:`.ending` - the end, its tie-breakers and the ``round_limit`` bound;
* :mod:`.agenda` - how a placement unfolds when it must wait for dice or a choice;
* :mod:`.view` - what each seat sees, the hidden items, the terminal face;
* :mod:`.stats` - the figures ``ludica simulate`` reports;
* :mod:`.memo` - the one cache: who decides and the legal actions of a state, until it changes.

The rules as implemented, every option and every ruling: ``docs/rules/euphoria.md``.

Actions (public vocabulary, see ``docs/rules/euphoria.md``): ``choose_recruits active hidden``,
``place worker space``, ``retrieve worker`` (then ``retrieve_more worker``), ``resolve_dilemma``,
``offer_trade to``, ``end_turn``, the variants' ``draft_recruit``, ``keep_market``, ``place_token``,
and the answers to questions: ``pay with``, ``take gain``, ``place_star on``, ``discard_artifact kind``,
``lose_good good``, ``use_ability choice``, ``choose_side side``, ``keep_recruit recruit``,
``sacrifice worker``, ``trade_give item``, ``trade_ask item``, ``answer_trade answer``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...core import (
    CHANCE,
    Action,
    Config,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    OptionSpec,
    Outcome,
    Pending,
    PositionError,
    Roll,
    Secret,
    Shuffle,
    decision,
)
from ...core.chance import ChanceStep
from . import ending, markets, memo, recruits, redeal, setup, spaces, stats, trade, turn, variants, view  # noqa: F401  (register tasks)
from .agenda import PARAM, answer_prompt, resolve_chance, run
from .names import EuphoriaNamer
from .oracle import RECRUITS
from .standing import standing
from .state import EuphoriaState, Task
from .stats import report_lines, summary

SECTION = {
    "place": "Worker Placement",
    "retrieve": "Retrieve Any/All Workers",
    "resolve_dilemma": "Ethical Dilemma Cards",
    "end_turn": "Game Play Overview",
    "choose_recruits": "Setup",
    "offer_trade": "Trading",
}
ANSWER_PROMPTS: dict[str, str] = {kind: f"answer: {param}" for kind, param in PARAM.items()}
"""The prompt of each kind of question (its answer's parameter), written once."""

MAIN_PARAMS: dict[str, set[str]] = {
    "place": {"worker", "space"},
    "retrieve": {"worker"},
    "resolve_dilemma": set(),
    "end_turn": set(),
    "offer_trade": {"to"},
}


class Euphoria(Game[EuphoriaState]):
    meta = GameMeta(
        id="euphoria",
        title="Euphoria",
        description="Worker-placement with dice: build a better dystopia (2-6 players).",
        players_min=2,
        players_max=6,
        rules_version="1.0",
        chance=True,
        hidden_information=True,
        simultaneous=True,
        options=(
            OptionSpec(
                "printing",
                "original",
                "recruit cards: the original printing or the 15 revised cards",
                choices=("original", "revised"),
            ),
            OptionSpec(
                "double_house_rule",
                False,
                "placing a 2nd/3rd/4th same-number worker costs 1 morale each",
                house_rule=True,
            ),
            OptionSpec(
                "round_limit",
                300,
                "a bound for endless random play: after this many rounds the most stars placed wins "
                "(0: no limit; real games end long before)",
                choices=(0, 50, 100, 150, 200, 300),
            ),
            OptionSpec(
                "trades_per_turn",
                1,
                "trade proposals the player to move may make per turn (ruling: one by default; 0: no trading)",
                choices=(0, 1, 2, 3),
            ),
            OptionSpec(
                "recruit_draft", False, "draft the four recruits (pick one, pass the rest left)", house_rule=True
            ),
            OptionSpec(
                "market_draft", False, "deal two markets each, keep one; fill up to six from the rest", house_rule=True
            ),
            OptionSpec("morale_knowledge_draft", False, "place morale and knowledge tokens by draft", house_rule=True),
        ),
        max_steps=100_000,
        end_reasons=stats.END_REASONS,
        bound_reasons=stats.BOUND_REASONS,
        clock_unit="round",
        counter_bounds=stats.COUNTER_BOUNDS,
    )

    # -- set-up ----------------------------------------------------------------------------------
    def setup(self, config: Config) -> EuphoriaState:
        seats = tuple(f"p{i + 1}" for i in range(len(config.players)))
        options = {o.name: config.option(self.meta, o.name) for o in self.meta.options}
        st = setup.new_state(seats, options)
        run(st, [])
        return st

    def seats(self, state: EuphoriaState) -> tuple[str, ...]:
        return state.seats

    # -- decisions -------------------------------------------------------------------------------
    def pending(self, state: EuphoriaState) -> Pending:
        remembered = state.memo  # the answer is kept until the next play (memo.py)
        if remembered.pending is None:
            remembered.pending = self._pending(state)
        return remembered.pending

    def _pending(self, state: EuphoriaState) -> Pending:
        if state.phase == "over":
            return Pending((), "over")
        if state.chance is not None:
            return Pending((CHANCE,), state.chance[0])
        if state.phase == "recruits":
            waiting = tuple(s for s in state.seats if not state.players[s].choice)
            return Pending(waiting, "choose_recruits", "keep two recruits: one active, one hidden")
        if state.phase == "recruit_draft":
            waiting = tuple(s for s in state.seats if s not in state.drafts["picks"])
            return Pending(waiting, "recruit_draft", "pick one recruit of your pack")
        if state.phase == "market_draft":
            waiting = tuple(s for s in state.seats if s not in state.drafts["market_choice"])
            return Pending(waiting, "market_draft", "keep one of your two markets")
        if state.phase == "track_draft":
            return Pending((state.drafts["track_order"][0],), "track_draft", "place a morale or knowledge token")
        if state.prompt is not None:
            return decision(state.prompt.seat, state.prompt.kind, ANSWER_PROMPTS[state.prompt.kind])
        return decision(state.turn, "turn", "place a worker, retrieve workers or resolve your dilemma")

    def chance_step(self, state: EuphoriaState) -> ChanceStep:
        assert state.chance is not None
        kind, arg = state.chance
        if kind.startswith("shuffle"):
            return Shuffle(arg, type=kind)
        if kind != "roll_workers":
            return _roll(state)
        key = (arg[0], arg[1])  # a seat's roll of n workers, the step of nearly every turn
        step = _WORKER_ROLLS.get(key)
        if step is None:
            step = _WORKER_ROLLS[key] = _roll(state)
        return step

    def legal_actions(self, state: EuphoriaState, seat: str) -> list[Action]:
        remembered = state.memo.legal  # kept until the next play (memo.py); a copy is handed out
        listed = remembered.get(seat)
        if listed is None:
            listed = remembered[seat] = self._legal_actions(state, seat)
        return list(listed)

    def _legal_actions(self, state: EuphoriaState, seat: str) -> list[Action]:
        pending = self.pending(state)
        if seat not in pending.seats or seat == CHANCE:
            return []
        if state.phase == "recruits":
            return [
                Action(seat, "choose_recruits", {"active": a, "hidden": h}) for a, h in setup.recruit_pairs(state, seat)
            ]
        if state.phase in DRAFTS:
            return [Action(seat, DRAFTS[state.phase], args) for args in draft_options(state, seat)]
        if state.prompt is not None:
            kind = state.prompt.kind
            return memo.answers(seat, kind, PARAM[kind], state.prompt.options)
        return self._main_actions(state, seat)

    def _main_actions(self, st: EuphoriaState, seat: str) -> list[Action]:
        p = st.players[seat]
        faces = turn.chain_faces(st) if st.placed_this_turn else sorted(set(p.available))
        out = []
        if trade.can_offer(st, seat):
            out += memo.answers(seat, "offer_trade", "to", [s for s in st.seats if s != seat])
        if faces:
            legal = spaces.legal_spaces(st, seat)
            for f in faces:
                out += memo.placements(seat, f, legal)
        if st.placed_this_turn:
            out.append(memo.bare(seat, "end_turn"))
            return out
        out += memo.answers(seat, "retrieve", "worker", sorted(set(turn.placed_tokens(st, seat))))
        if not p.dilemma_done and turn.dilemma_payable(st, seat):
            out.append(memo.bare(seat, "resolve_dilemma"))
        return out

    # -- checking --------------------------------------------------------------------------------
    def check(self, state: EuphoriaState, action: Action) -> None:
        if action.seat == CHANCE:
            return
        if memo.accepts(state.memo, action):
            return
        kind, args = action.type, dict(action.args)
        if state.phase == "recruits":
            self._check_recruits(state, action)
            return
        if state.phase in DRAFTS:
            self._check_draft(state, action)
            return
        if state.prompt is not None:
            self._check_answer(state, action)
            return
        if kind not in MAIN_PARAMS:
            raise MalformedAction(
                f"unknown action {kind!r} now: place, retrieve, resolve_dilemma, offer_trade or end_turn",
                rule="turn",
                section="Game Play Overview",
            )
        if set(args) != MAIN_PARAMS[kind]:
            raise MalformedAction(
                f"{kind} takes exactly: {', '.join(sorted(MAIN_PARAMS[kind])) or 'no parameters'}",
                rule=kind,
                section=SECTION[kind],
            )
        getattr(self, f"_check_{kind}")(state, action.seat, args)

    def _check_recruits(self, st: EuphoriaState, action: Action) -> None:
        args = dict(action.args)
        if action.type != "choose_recruits" or set(args) != {"active", "hidden"}:
            raise MalformedAction(
                "now every player chooses recruits: choose_recruits active=ID hidden=ID",
                rule="recruits",
                section="Setup",
            )
        a, h = args["active"], args["hidden"]
        if not isinstance(a, str) or not isinstance(h, str):
            raise MalformedAction("recruits are named by their ids", rule="recruits", section="Setup")
        if (a, h) not in setup.recruit_pairs(st, action.seat):
            raise IllegalAction(
                "keep two different recruits from the four you were dealt", rule="recruits", section="Setup"
            )

    def _check_draft(self, st: EuphoriaState, action: Action) -> None:
        kind = DRAFTS[st.phase]
        options = draft_options(st, action.seat)
        args = dict(action.args)
        if action.type != kind or not options or set(args) != set(options[0]):
            raise MalformedAction(
                f"the draft waits for {kind} " + " ".join(f"{k}=..." for k in options[0]),
                rule=kind,
                section="Advanced Variants",
            )
        if args not in options:
            raise IllegalAction(
                f"not a choice you have now: {action.notation()}", rule=kind, section="Advanced Variants"
            )

    def _check_answer(self, st: EuphoriaState, action: Action) -> None:
        _seat, kind, options, _ctx = st.prompt  # type: ignore[misc]
        param = PARAM[kind]
        if action.type != kind:
            raise MalformedAction(f"the game waits for {kind} {param}=...", rule=kind, section="Game Play Overview")
        args = dict(action.args)
        if set(args) != {param}:
            raise MalformedAction(f"{kind} takes exactly one parameter: {param}", rule=kind)
        if not isinstance(args[param], str):
            raise MalformedAction(f"{param} must be one of the offered options (text)", rule=kind)
        if args[param] not in options:
            raise IllegalAction(
                f"{args[param]!r} is not an option now; choose one of: {', '.join(options)}",
                rule=kind,
                section="Game Play Overview",
            )

    def _check_place(self, st: EuphoriaState, seat: str, args: dict[str, Any]) -> None:
        face, space = args["worker"], args["space"]
        if not isinstance(face, int) or isinstance(face, bool) or not isinstance(space, str):
            raise MalformedAction("place worker=<die number> space=<space id>", rule="place", section=SECTION["place"])
        p = st.players[seat]
        if face not in p.available:
            raise IllegalAction(f"you have no available worker showing {face}", rule="place", section=SECTION["place"])
        if st.placed_this_turn and face not in turn.chain_faces(st):
            raise IllegalAction(
                "only workers sharing the number of the first one, held since the turn began, may follow it",
                rule="doubles",
                section="Game Play Overview",
            )
        if space not in spaces.all_spaces(st):
            raise IllegalAction(f"there is no open action space {space!r}", rule="place", section=SECTION["place"])
        reason = spaces.refusal(st, seat, space)
        if reason:
            raise IllegalAction(reason, rule="place", section=SECTION["place"])

    def _check_retrieve(self, st: EuphoriaState, seat: str, args: dict[str, Any]) -> None:
        worker = args["worker"]
        if not isinstance(worker, str):
            raise MalformedAction("retrieve worker=space:face", rule="retrieve", section=SECTION["retrieve"])
        if st.placed_this_turn:
            raise IllegalAction(
                "you placed a worker this turn; you cannot also retrieve", rule="retrieve", section=SECTION["retrieve"]
            )
        if worker not in turn.placed_tokens(st, seat):
            raise IllegalAction(
                f"you have no worker {worker!r} on the board (name it as space:face)",
                rule="retrieve",
                section=SECTION["retrieve"],
            )

    def _check_resolve_dilemma(self, st: EuphoriaState, seat: str, args: dict[str, Any]) -> None:
        p = st.players[seat]
        if p.dilemma_done:
            raise IllegalAction(
                "your ethical dilemma is already resolved", rule="dilemma", section=SECTION["resolve_dilemma"]
            )
        if st.placed_this_turn:
            raise IllegalAction("the dilemma takes the whole turn", rule="dilemma", section=SECTION["resolve_dilemma"])
        if not turn.dilemma_costs(st, seat):
            raise IllegalAction(
                "you need the pictured artifact or any two artifacts",
                rule="dilemma",
                section=SECTION["resolve_dilemma"],
            )

    def _check_offer_trade(self, st: EuphoriaState, seat: str, args: dict[str, Any]) -> None:
        to = args["to"]
        if not isinstance(to, str):
            raise MalformedAction("offer_trade to=<seat>", rule="trade", section=SECTION["offer_trade"])
        if to not in st.seats or to == seat:
            raise IllegalAction(f"{to!r} is not another player", rule="trade", section=SECTION["offer_trade"])
        if not trade.can_offer(st, seat):
            raise IllegalAction("no more trade offers this turn", rule="trade", section=SECTION["offer_trade"])

    def _check_end_turn(self, st: EuphoriaState, seat: str, args: dict[str, Any]) -> None:
        if not st.placed_this_turn:
            raise IllegalAction(
                "you may not pass: place, retrieve or resolve your dilemma", rule="turn", section=SECTION["end_turn"]
            )

    # -- playing ---------------------------------------------------------------------------------
    def play(self, state: EuphoriaState, action: Action) -> Sequence[Event]:
        memo.forget(state.memo)
        ev: list[Event] = []
        if action.seat == CHANCE:
            resolve_chance(state, dict(action.args), ev)
            return ev
        args = action.args
        seat = action.seat
        if action.type == "choose_recruits":
            setup.commit_recruits(state, seat, args["active"], args["hidden"], ev)
        elif action.type == "draft_recruit":
            variants.draft_pick(state, seat, args["recruit"], ev)
        elif action.type == "keep_market":
            variants.market_pick(state, seat, args["market"], ev)
        elif action.type == "place_token":
            if variants.track_pick(state, seat, args["track"], args["value"], ev):
                setup.begin_play(state, ev)
        elif state.prompt is not None:
            answer_prompt(state, args[PARAM[action.type]], ev)
            return ev
        elif action.type == "place":
            turn.begin_placement(state, seat, args["worker"], ev)
            state.agenda.append(Task("hand_limit"))
            state.agenda.append(Task("after_placement"))
            spaces.place(state, seat, args["worker"], args["space"], ev)
        elif action.type == "retrieve":
            turn.retrieve(state, seat, args["worker"], ev)
        elif action.type == "resolve_dilemma":
            turn.resolve_dilemma(state, seat, ev)
        elif action.type == "offer_trade":
            trade.offer(state, seat, args["to"], ev)
        elif action.type == "end_turn":
            state.agenda.append(Task("end_turn"))
        run(state, ev)
        return ev

    # -- information -----------------------------------------------------------------------------
    def namer(self, state: EuphoriaState, viewer: str | None) -> EuphoriaNamer:
        return EuphoriaNamer(self, state, viewer)

    def view(self, state: EuphoriaState, seat: str | None) -> dict[str, Any]:
        return view.view(state, seat)

    def secrets(self, state: EuphoriaState) -> list[Secret]:
        return view.secrets(state)

    def redeal(self, state: EuphoriaState, seat: str | None, rng: random.Random) -> EuphoriaState:
        return redeal.redeal(state, seat, rng)

    def standing(self, state: EuphoriaState) -> dict[str, float]:
        return standing(state)

    def render(self, v: dict[str, Any]) -> str:
        return view.render(v)

    def outcome(self, state: EuphoriaState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = {s: float(10 - p.stars) for s, p in state.players.items()}
        return Outcome(tuple(state.winners), scores, state.end_reason)

    # -- positions -------------------------------------------------------------------------------
    def to_position(self, state: EuphoriaState) -> dict[str, Any]:
        return state.to_json()

    def from_position(self, data: dict[str, Any], config: Config) -> EuphoriaState:
        try:
            return EuphoriaState.from_json(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise PositionError(f"not a Euphoria position: {exc}", rule="position") from None

    def copy(self, state: EuphoriaState) -> EuphoriaState:
        return state.copy()

    def invariants(self, state: EuphoriaState) -> list[str]:
        return invariants(state)

    def summarize(self, state: EuphoriaState, steps: int) -> dict[str, Any]:
        return summary(state, steps)

    def report(self, summaries: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return report_lines(summaries)

    def end_reason(self, state: EuphoriaState) -> str:
        return stats.end_reason(state)

    def clock(self, state: EuphoriaState) -> int:
        return stats.clock(state)

    def sample(self, state: EuphoriaState) -> dict[str, float]:
        return stats.sample(state)


DRAFTS = {"recruit_draft": "draft_recruit", "market_draft": "keep_market", "track_draft": "place_token"}


def _roll(st: EuphoriaState) -> Roll:
    """The roll step the rules wait for: its dice and whose they are."""
    assert st.chance is not None
    return Roll(setup.chance_sides(st), type=st.chance[0], labels=setup.chance_labels(st))


_WORKER_ROLLS: dict[tuple[str, int], Roll] = {}
"""The ``roll_workers`` steps, one per (seat, number of dice): a step is a value (frozen), and
making one runs the dataclass's interpreted constructor (about 10k instructions compiled)."""


def draft_options(st: EuphoriaState, seat: str) -> list[dict[str, Any]]:
    if st.phase == "recruit_draft":
        return [{"recruit": r} for r in sorted(st.players[seat].dealt)]
    if st.phase == "market_draft":
        return [{"market": m} for m in sorted(st.drafts["market_hands"][seat])]
    return [{"track": t, "value": v} for t, v in variants.track_options(st, seat)]


def invariants(st: EuphoriaState) -> list[str]:
    problems = []
    for seat, p in st.players.items():
        placed = len(st.placed(seat))
        if p.workers != placed + len(p.available) + p.rolling:
            problems.append(
                f"{seat} controls {p.workers} workers but has {placed} placed + {len(p.available)} "
                f"available + {p.rolling} to roll"
            )
        if not 1 <= p.workers <= 4:
            problems.append(f"{seat} has {p.workers} workers")
        if any(v < 0 for v in p.goods.values()):
            problems.append(f"{seat} has a negative count of goods")
        if not (1 <= p.morale <= 6 and 1 <= p.knowledge <= 6):
            problems.append(f"{seat} is off a chart")
        placed_stars = (
            sum(o.count(seat) for o in st.territory.values())
            + sum(o.count(seat) for o in st.built.values())
            + len(p.starred)
            + int(p.dilemma_star)
        )
        if placed_stars + p.stars != 10:
            problems.append(f"{seat} has {placed_stars} stars placed and {p.stars} left")
        if st.phase == "play" and not st.agenda and st.prompt is None and len(p.hand) > p.morale:
            problems.append(f"{seat} holds more artifacts than morale")
    cards = len(st.artifacts.cards) + len(st.artifacts.discards) + sum(len(p.hand) for p in st.players.values())
    if cards != 36:
        problems.append(f"{cards} artifact cards instead of 36")
    for faction, owners in st.territory.items():
        if len(owners) > len(st.seats):
            problems.append(f"the {faction} territory is overfull")
    if st.phase in ("play", "track_draft", "over"):
        recruits = sum(len(p.active) + len(p.hidden) + len(p.discarded) + len(p.dealt) for p in st.players.values())
        if recruits + len(st.recruit_deck.cards) != len(RECRUITS):
            problems.append("recruit cards are lost or doubled")
    return problems


GAME = Euphoria()
