"""The match driver, records, positions and chance, on the example game (Pig with a wager)."""

from __future__ import annotations

import json
import random

import pytest

from ludica.bots.random_bot import play_random
from ludica.core import (
    Action,
    Config,
    ConfigError,
    Dealer,
    DigestMismatch,
    IllegalAction,
    Match,
    NotYourDecision,
    PositionError,
    RecordError,
    Roll,
    UnknownGame,
    get_game,
)
from ludica.core.chance import Pick, Shuffle, StepRandom, step_key
from ludica.core.records import position_of, read_position, record_of, replay_record

PIG = get_game("pig")


def new_match(seed: int = 5) -> Match:
    return Match(PIG, Config(("Ann", "Bob"), {}, seed))


def test_config_is_validated() -> None:
    with pytest.raises(ConfigError, match="2-4 players"):
        Match(PIG, Config(("Ann",)))
    with pytest.raises(ConfigError, match="no option"):
        Match(PIG, Config(("Ann", "Bob"), {"nope": 1}))
    with pytest.raises(ConfigError, match="one of"):
        Match(PIG, Config(("Ann", "Bob"), {"target": 7}))
    with pytest.raises(UnknownGame):
        get_game("chess")


def test_refused_action_changes_nothing() -> None:
    m = new_match()
    before = m.digest()
    with pytest.raises(NotYourDecision):
        m.apply(Action("chance", "die", {"dice": [3]}))
    with pytest.raises(IllegalAction, match="1, 2 or 3"):
        m.apply(Action("p1", "wager", {"amount": 9}))
    assert m.digest() == before and m.actions == [] and m.log == []


def test_simultaneous_sealed_choice_hides_until_reveal() -> None:
    m = new_match()
    assert m.pending().seats == ("p1", "p2")
    m.apply(Action("p2", "wager", {"amount": 3}))
    assert m.view("p2")["wagers"]["mine"] == 3
    assert "mine" not in m.view("p1")["wagers"]
    assert all(e.event.kind != "wager" for e in m.story("p1"))
    m.apply(Action("p1", "wager", {"amount": 1}))
    assert m.view(None)["wagers"]["revealed"] == {"p1": 1, "p2": 3}


def test_chance_is_an_action_pinned_by_tests() -> None:
    m = new_match()
    m.apply(Action.parse("p1 wager amount=1"))
    m.apply(Action.parse("p2 wager amount=1"))
    m.apply(Action.parse("p1 roll"))
    assert m.pending().is_chance
    with pytest.raises(IllegalAction, match="d6"):
        m.apply(Action("chance", "die", {"dice": [7]}))
    m.apply(Action("chance", "die", {"dice": [5]}))
    assert m.view(None)["turn_total"] == 5


def test_dealer_depends_only_on_seed_and_step() -> None:
    step = Roll((8, 8, 8))
    assert Dealer(1).fill(step, 4) == Dealer(1).fill(step, 4)
    assert step_key(1, 4) != step_key(1, 5)
    faces = [StepRandom(step_key(9, i)).randint(1, 6) for i in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    shuffled = Dealer(2).fill(Shuffle(10), 0).args["order"]
    assert sorted(shuffled) == list(range(10))
    picked = Dealer(3).fill(Pick(("a", "b", "c"), 2), 0).args["picked"]
    assert len(set(picked)) == 2
    assert len(Roll((6, 6)).outcomes()) == 36
    assert Dealer.seed_commitment(5) != Dealer.seed_commitment(6)


def test_record_replays_and_detects_tampering() -> None:
    m = new_match()
    play_random(m, random.Random(1))
    record = json.loads(json.dumps(record_of(m)))
    assert replay_record(record).digest() == m.digest()
    tampered = json.loads(json.dumps(record))
    tampered["digest"] = "0" * 64
    with pytest.raises(DigestMismatch):
        replay_record(tampered)
    wrong_version = {**record, "rules_version": "0"}
    with pytest.raises(RecordError, match="rules version"):
        replay_record(wrong_version)
    unknown = json.loads(json.dumps(record))
    unknown["actions"][0]["type"] = "teleport"
    with pytest.raises(RecordError, match="action 1"):
        replay_record(unknown)


def test_position_round_trip_and_invariants() -> None:
    m = new_match()
    m.apply(Action.parse("p1 wager amount=2"))
    pos = json.loads(json.dumps(position_of(PIG, m.state, m.config)))
    again = read_position(pos)
    assert position_of(PIG, again.state, again.config) == pos
    broken = json.loads(json.dumps(pos))
    broken["state"]["scores"]["p1"] = -4
    with pytest.raises(PositionError, match="negative"):
        read_position(broken)
    with pytest.raises(PositionError):
        read_position({**pos, "state": {"seats": []}})


def test_undo_replays_without_the_last_action() -> None:
    m = new_match()
    m.apply(Action.parse("p1 wager amount=2"))
    digest = m.digest()
    m.apply(Action.parse("p2 wager amount=3"))
    assert m.undo() == Action.parse("p2 wager amount=3")
    assert m.digest() == digest
    with pytest.raises(IllegalAction):
        new_match().undo()


def test_narration_rides_on_any_action() -> None:
    m = new_match()
    m.apply(Action.parse("p1 wager amount=2 -- I feel lucky"))
    assert [e.event.text for e in m.story("p2") if e.event.kind == "narration"] == ["I feel lucky"]
