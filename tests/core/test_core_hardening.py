"""Issue 14 (hardening), the engine's part: strict chance outcomes (point 9), malformed ``args``
(point 10), one set of free-text rules for ``check`` and the legal actions (point 11), what a
shared screen may say about a chance step (point 3) and matches that start from a position
(point 16)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot
from ludica.core import (
    CHANCE,
    Action,
    Config,
    IllegalAction,
    LudicaError,
    MalformedAction,
    Match,
    RecordError,
    Text,
    fill,
    get_game,
    matches,
)
from ludica.core.chance import Pick, Roll, Shuffle, chance_action, describe_chance
from ludica.core.records import position_of, read_position, record_of, replay_record

GAMES = ("great-city", "euthymia", "misery-bubblegum", "lost-days", "euphoria", "pig")


def new_match(game_id: str, seed: int = 1) -> Match[Any]:
    game = get_game(game_id)
    n = max(3, game.meta.players_min) if game_id != "pig" else 2
    return Match(game, Config(("Ann", "Bob", "Cat", "Dan")[:n], {}, seed))


def play_until(match: Match[Any], done: Callable[[Match[Any]], bool], *, seed: int = 1, limit: int = 3000) -> None:
    """Random legal play (dealer for chance) until ``done(match)``."""
    bot, rng = RandomBot(random.Random(seed)), random.Random(seed)
    for _ in range(limit):
        if done(match):
            return
        pending = match.pending()
        assert not pending.is_over, "the game ended before the situation the test needs"
        if pending.is_chance:
            match.deal()
        else:
            match.apply(bot.choose(match, pending.seats[rng.randrange(len(pending.seats))]))
    raise AssertionError("the situation the test needs never came")


def chance_due(kind: str) -> Callable[[Match[Any]], bool]:
    return lambda m: m.pending().is_chance and m.game.chance_step(m.state).type == kind


def assert_refused_unchanged(match: Match[Any], action: Action, error: type[LudicaError] = IllegalAction) -> str:
    before, steps, log = match.digest(), len(match.actions), len(match.log)
    with pytest.raises(error) as info:
        match.check(action)
    assert info.value.reason and info.value.rule
    with pytest.raises(error):
        match.apply(action)
    assert (match.digest(), len(match.actions), len(match.log)) == (before, steps, log)
    return str(info.value)


# -- point 9: chance outcomes are validated strictly --------------------------------------------
@pytest.fixture(scope="module")
def euthymia_at_shuffle() -> Match[Any]:
    match = new_match("euthymia")
    play_until(match, chance_due("shuffle_and_deal"))
    return match


def test_point9_shuffle_of_floats_refused(euthymia_at_shuffle: Match[Any]) -> None:
    order = [float(i) for i in range(52)]
    assert_refused_unchanged(euthymia_at_shuffle, Action(CHANCE, "shuffle_and_deal", {"order": order}))


def test_point9_shuffle_of_booleans_refused(euthymia_at_shuffle: Match[Any]) -> None:
    order: list[Any] = [True, False, *range(2, 52)]
    assert_refused_unchanged(euthymia_at_shuffle, Action(CHANCE, "shuffle_and_deal", {"order": order}))


def test_point9_shuffle_of_mixed_types_refused(euthymia_at_shuffle: Match[Any]) -> None:
    order: list[Any] = ["a", *range(1, 52)]
    assert_refused_unchanged(euthymia_at_shuffle, Action(CHANCE, "shuffle_and_deal", {"order": order}))
    order = [[0], *range(1, 52)]
    assert_refused_unchanged(euthymia_at_shuffle, Action(CHANCE, "shuffle_and_deal", {"order": order}))


def test_point9_chance_outcome_with_extra_key_refused() -> None:
    match = new_match("pig")
    play_until(match, lambda m: m.pending().is_chance)
    text = assert_refused_unchanged(match, Action(CHANCE, "die", {"dice": [3], "note": "x"}))
    assert "note" in text
    match.check(Action(CHANCE, "die", {"dice": [3]}))


def test_point9_chance_step_parameters_must_be_the_steps_own() -> None:
    match = new_match("great-city")
    play_until(match, chance_due("roll_character_triad"))
    due = match.dealer.fill(match.game.chance_step(match.state), len(match.actions))
    assert "character" in due.args
    assert_refused_unchanged(match, Action(CHANCE, due.type, {**due.args, "character": "zz"}))
    assert_refused_unchanged(match, Action(CHANCE, due.type, {**due.args, "character": ["c1"]}))
    match.check(due)
    match.check(Action(CHANCE, due.type, {"dice": due.args["dice"]}))  # typed by hand


@pytest.mark.parametrize(
    ("step", "outcome"),
    [
        (Roll((6, 6)), {"dice": [1.0, 2]}),
        (Roll((6, 6)), {"dice": [True, 2]}),
        (Roll((6,)), {"dice": [7]}),
        (Roll((6,)), {"dice": "3"}),
        (Shuffle(3), {"order": [0, 1, 1]}),
        (Shuffle(3), {"order": [0.0, 1, 2]}),
        (Shuffle(3), {"order": [None, 1, 2]}),
        (Shuffle(3), {"order": [0, 1, 2], "also": 1}),
        (Pick((1, 2, 3)), {"picked": [1.0]}),
        (Pick((1, 2, 3)), {"picked": [True]}),
        (Pick(("a", "b")), {"picked": [["a"]]}),
        (Pick(("a", "b")), {}),
    ],
)
def test_point9_chance_steps_refuse_ill_typed_outcomes(step: Any, outcome: dict[str, Any]) -> None:
    with pytest.raises(MalformedAction) as info:
        chance_action(step, outcome)
    assert info.value.rule == "chance"


def test_point9_record_with_bad_shuffle_is_a_clear_record_error(euthymia_at_shuffle: Match[Any]) -> None:
    record = record_of(euthymia_at_shuffle)
    del record["digest"]
    order = [True, False, *range(2, 52)]
    record["actions"].append({"seat": CHANCE, "type": "shuffle_and_deal", "args": {"order": order}})
    with pytest.raises(RecordError, match="refused"):
        replay_record(record)


# -- point 10: args that are not an object ------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bad", [[1, 2], "text", None, 3, [["k", "v"]]])
def test_point10_args_not_an_object_refused(game_id: str, bad: Any) -> None:
    match = new_match(game_id)
    seat = match.pending().seats[0]
    kind = match.game.chance_step(match.state).type if seat == CHANCE else match.legal_actions(seat)[0].type
    text = assert_refused_unchanged(match, Action(seat, kind, bad), MalformedAction)
    assert "object" in text


@pytest.mark.parametrize("game_id", GAMES)
def test_point10_other_malformed_fields_refused(game_id: str) -> None:
    match = new_match(game_id)
    seat = match.pending().seats[0]
    for action in (
        Action(seat, "x", {1: 2}),
        Action(seat, "x", {"k": {1, 2}}),
    ):
        assert_refused_unchanged(match, action, MalformedAction)
    # a seat, type or narration that is not text cannot even make an action (both builds alike)
    for fields in ((seat, 7, {}), (["p1"], "x", {}), (seat, "x", {}, 5)):
        with pytest.raises(MalformedAction, match="must be text"):
            Action(*fields)


# -- point 11: one set of free-text rules ---------------------------------------------------------
def text_template(match: Match[Any]) -> Action | None:
    for seat in match.pending().seats:
        for template in match.legal_actions(seat):
            if any(isinstance(v, Text) for v in template.args.values()):
                return template
    return None


def with_text(template: Action, text: str, rng: random.Random) -> Action:
    args = {k: (text if isinstance(v, Text) else v) for k, v in template.args.items()}
    return fill(Action(template.seat, template.type, args), rng)


def test_point11_whitespace_only_text_refused() -> None:
    match = new_match("misery-bubblegum")
    play_until(match, lambda m: text_template(m) is not None)
    template = text_template(match)
    assert template is not None
    action = with_text(template, "   \n\t ", random.Random(1))
    assert not match.legal_matches(action)
    assert "text" in assert_refused_unchanged(match, action).lower()


def test_point11_text_over_its_limit_refused() -> None:
    match = new_match("pig")
    play_until(match, lambda m: text_template(m) is not None)
    template = text_template(match)
    assert template is not None
    action = with_text(template, "x" * 2001, random.Random(1))
    assert not match.legal_matches(action)
    assert "2000" in assert_refused_unchanged(match, action)


@pytest.mark.parametrize("game_id", ["great-city", "euthymia", "misery-bubblegum", "lost-days", "pig"])
def test_point11_check_and_legal_actions_agree_on_text(game_id: str) -> None:
    match = new_match(game_id)
    play_until(match, lambda m: text_template(m) is not None)
    template = text_template(match)
    assert template is not None
    rng = random.Random(3)
    spec = next(v for v in template.args.values() if isinstance(v, Text))
    texts = ("", " ", "\n", "ok", spec.prefix, f"{spec.prefix}  ", f"{spec.prefix} the sea", "y" * (spec.max_len + 1))
    for text in texts:
        action = with_text(template, text, rng)
        listed = any(matches(t, action) for t in match.legal_actions(action.seat))
        try:
            match.check(action)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == listed, f"{text!r}: check says {accepted}, legal actions say {listed}"


def test_point11_text_rules_are_written_once() -> None:
    spec = Text("a memory", max_len=20, prefix="I remember")
    assert spec.problem("I remember the sea") is None
    assert "empty" in (Text("a name").problem("   ") or "")
    assert "20" in (spec.problem("I remember " + "x" * 20) or "")
    assert "I remember" in (spec.problem("the sea") or "")
    assert spec.problem("I remember   ") is not None
    assert spec.problem(3) is not None
    assert spec.accepts("I remember the sea") and not spec.accepts(" ")


# -- point 3: a chance step as a shared screen may show it --------------------------------------
def test_point3_hidden_chance_outcomes_are_not_described() -> None:
    deal = Pick(("p1", "p2", "p3"), 1, type="deal_identity_cards", key="black")
    action = chance_action(deal, {"black": ["p3"]})
    shuffle = Shuffle(52, type="shuffle_and_deal")
    order = list(range(52))
    random.Random(2).shuffle(order)
    shuffled = chance_action(shuffle, {"order": order})
    for step, act, secret in ((deal, action, "p3"), (shuffle, shuffled, " ".join(map(str, order[:3])))):
        line = describe_chance(step, act)
        assert secret not in line and "black" not in line and "order=" not in line and "[" not in line
        assert step.type.replace("_", " ") in line


def test_point3_public_rolls_are_described_with_their_faces() -> None:
    roll = Roll((8, 8, 8), type="roll_character_triad", extra={"character": "c1"})
    line = describe_chance(roll, chance_action(roll, {"dice": [7, 2, 5]}))
    assert "7 2 5" in line and "c1" in line


@pytest.mark.parametrize("game_id", GAMES)
def test_point3_every_games_chance_steps_describe_without_leaks(game_id: str) -> None:
    match = new_match(game_id)
    rng = random.Random(4)
    bot = RandomBot(rng)
    for _ in range(400):
        pending = match.pending()
        if pending.is_over:
            break
        if pending.is_chance:
            step = match.game.chance_step(match.state)
            action = match.deal()
            line = describe_chance(step, action)
            if not step.public:
                assert "[" not in line and "=" not in line, line
            continue
        match.apply(bot.choose(match, pending.seats[0]))


# -- point 16: a match that starts from a position ----------------------------------------------
def test_point16_record_from_a_position_replays_resumes_and_undoes() -> None:
    source = new_match("pig", seed=8)
    play_until(source, lambda m: len(m.actions) >= 6 and not m.pending().is_chance)
    position = position_of(source.game, source.state, source.config)
    match = read_position(position)
    start = match.digest()
    play_until(match, lambda m: len(m.actions) >= 5, seed=9)
    record = record_of(match)
    assert record["start"] == position["state"]
    resumed = replay_record(record)
    assert resumed.digest() == match.digest() and len(resumed.actions) == 5
    for _ in range(5):
        resumed.undo()
    assert resumed.digest() == start and resumed.actions == []
    with pytest.raises(IllegalAction, match="nothing to undo"):
        resumed.undo()


def test_point16_undo_on_a_position_match_goes_back_one_step() -> None:
    source = new_match("great-city", seed=3)
    play_until(source, lambda m: len(m.actions) >= 20)
    match = read_position(position_of(source.game, source.state, source.config))
    before = match.digest()
    play_until(match, lambda m: len(m.actions) >= 1)
    match.undo()
    assert match.digest() == before


def test_point16_records_without_a_start_still_replay() -> None:
    match = new_match("pig", seed=2)
    play_until(match, lambda m: len(m.actions) >= 8)
    record = record_of(match)
    assert "start" not in record
    assert replay_record(record).digest() == match.digest()


def test_point16_a_broken_start_is_a_clear_error() -> None:
    source = new_match("pig", seed=8)
    match = read_position(position_of(source.game, source.state, source.config))
    record = record_of(match)
    record["start"] = {"seats": "nonsense"}
    with pytest.raises(LudicaError):
        replay_record(record)
    record["start"] = [1, 2]
    with pytest.raises(RecordError, match="start"):
        replay_record(record)


def test_point9_a_failing_play_leaves_the_match_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    match = new_match("pig", seed=3)
    play_until(match, lambda m: len(m.actions) >= 5)
    before = (match.digest(), len(match.actions), len(match.log))
    pending = match.pending()
    action = (
        match.dealer.fill(match.game.chance_step(match.state), len(match.actions))
        if pending.is_chance
        else fill(match.legal_actions(pending.seats[0])[0], random.Random(1))
    )
    original, calls = match.game.play, []

    def broken(state: Any, act: Action) -> Any:
        events = original(state, act)
        calls.append(act)
        if len(calls) == 1:  # the state is changed, then the bug strikes (once)
            raise RuntimeError("a bug in the rules")
        return events

    monkeypatch.setattr(match.game, "play", broken)
    with pytest.raises(RuntimeError):
        match.apply(action)
    monkeypatch.undo()
    assert (match.digest(), len(match.actions), len(match.log)) == before


def test_point9_a_record_the_rules_trip_over_is_a_record_error(monkeypatch: pytest.MonkeyPatch) -> None:
    match = new_match("pig", seed=3)
    play_until(match, lambda m: len(m.actions) >= 5)
    record = record_of(match)

    def tripping(state: Any, act: Action) -> None:
        raise TypeError("'<' not supported between instances of 'int' and 'str'")

    monkeypatch.setattr(match.game, "check", tripping)
    with pytest.raises(RecordError, match="action 1 of the record cannot be replayed"):
        replay_record(record)
