"""The second leak test (issue 23, point 10): a seat's page compared with a redealt copy.

For every game, a room is played by bots (heuristic where the game has one, else random) through
the table's own :meth:`Room.act`; at each step, for every role (each seat, the spectators, the
host), the whole page and the WebSocket frame that role receives are compared with those of a
copy of the room whose state was redealt for that role (the game's own ``redeal``: everything
the role may not see drawn again). The role cannot tell the two states apart, so any difference
in what it is sent — a view, a prompt, who is waited for, an option — is a leak of the hidden
part. The Euthymia inference of the ninth hour's final round was its first case: what is left of
it is the rule's own (R-EU-30, :func:`assert_rule_implied`). The games, bots, moments and copies
are those of the terminal's test (``tests/redeal_helpers.py``).
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from ludica.bots.base import situation
from ludica.core import CHANCE
from ludica.core.names import namer_of
from ludica.core.registry import available
from ludica.table import chat, rooms
from ludica.table.rooms import Room, Rooms
from ludica.table.seatview import payload, seat_of
from ludica.table.server import _story_with_talk
from ludica.table.storage import HOST, SPECTATOR, Store
from tests.explore import Exploration, explorations, reached_report, windows
from tests.redeal_helpers import (
    DEFAULT_STEPS,
    NINTH_HOUR_GAMES,
    PLAYERS,
    STEPS,
    bot_for,
    compared_now,
    first_difference,
    redealt_match,
    resolver_of,
    rule_implied_tie,
    to_ninth_hour_final_round,
)


def redealt(room: Room, role: str, rng: random.Random) -> Room:
    """A copy of ``room`` whose state is the game's redeal for ``role`` (the record and the story
    stay: they are what was seen)."""
    other = copy.copy(room)
    other._match = redealt_match(room.match, seat_of(role), rng)  # the copy shares nothing else that changes
    # What the room worked out of what was seen stays: the story as it was rendered when each
    # entry happened, and whether the last action may be taken back (it revealed nothing).
    # (renderings of the parts, kept under tuple keys, are drawn again from the redealt state)
    other.cache = {
        k: v for k, v in room.cache.items() if isinstance(k, str) and (k == "log" or k.startswith(("log:", "undo:")))
    }
    return other


def _frames(room: Room, role: str) -> tuple[str, str]:
    """What ``role`` is sent: the page a (re)connection gets and a broadcast frame, with the chat
    frame of its talk and its story export (the table's own lines in order with the actions)."""
    found = chat.lines(room.store, room.id)
    whole = json.dumps(
        [payload(room, role), chat.history(room, role, found), _story_with_talk(room, role)],
        ensure_ascii=False,
        sort_keys=True,
    )
    frame = json.dumps(payload(room, role, full_log=False), ensure_ascii=False, sort_keys=True)
    return whole, frame


def _roles(room: Room) -> list[str]:
    return [*room.seats(), SPECTATOR, HOST]


def compare(room: Room, rng: random.Random, tally: dict[str, int]) -> None:
    """Every role's page and frame at this step, against a copy redealt for that role."""
    game_id = room.game.meta.id
    for role in _roles(room):
        room.can_undo_own(seat_of(role))
        mine = _frames(room, role)
        copied = redealt(room, role, rng)
        theirs = _frames(copied, role)
        ties = rule_implied_tie(game_id, room.match.state, copied.match.state)
        if ties is not None:
            tally["ties offered"] += assert_rule_implied(room, copied, role, ties, mine[0], theirs[0])
            tally["rule-implied"] += 1
            continue
        said = f"{game_id} step {room.step}: {role} can tell the hidden part apart:\n"
        assert mine == theirs, said + first_difference(mine[0], theirs[0])
        tally["compared"] += 1


def assert_rule_implied(
    room: Room, copied: Room, role: str, ties: tuple[tuple[str, ...], ...], mine: str, theirs: str
) -> bool:
    """The one difference the rules make (R-EU-30): the players offered for the next final turn
    of the ninth hour. A copy with no tie at all is a position the rules never stop at (they choose
    the next player at once): nothing of it is compared. Otherwise the seat settling the tie is
    offered each side's tied players, and nothing else differs; nobody else sees any difference."""
    real, other = ties
    assert real, "the true game waits for a tie to be settled"
    if not other:
        assert not copied.match.legal_actions(resolver_of(copied.match.state) or ""), "a copy without a tie still waits"
        return False
    if seat_of(role) != resolver_of(room.match.state):
        assert mine == theirs, f"{role} sees the tie's difference:\n" + first_difference(mine, theirs)
        return False
    (a, *talk_a), (b, *talk_b) = json.loads(mine), json.loads(theirs)  # the page, then its talk and story
    assert talk_a == talk_b, "the talk or the story tells the tie apart"
    for page, tie in ((a, real), (b, other)):
        assert [act["args"]["ordered_players"] for act in page.pop("legal")] == [[p] for p in tie]
        page["html"]["actions"] = _without_options(page["html"]["actions"], {*real, *other})
    assert a == b, first_difference(json.dumps(a, sort_keys=True), json.dumps(b, sort_keys=True))
    return True


def _without_options(html: str, players: set[str]) -> str:
    """The actions' HTML with the option naming each of ``players`` put aside."""
    for p in players:
        option = rf'\s*<li data-param="ordered_players" data-value="\[&#34;{p}&#34;\]">.*?</li>'
        html = re.sub(option, "", html, flags=re.S)
    return html


def _play_and_compare(room: Room, seed: int, until: Any = None) -> dict[str, int]:
    game_id = room.game.meta.id
    bots = {s: bot_for(game_id, seed + i) for i, s in enumerate(room.seats())}
    rng = random.Random(seed)
    tally = {"compared": 0, "rule-implied": 0, "ties offered": 0}
    for _ in range(STEPS.get(game_id, DEFAULT_STEPS)):
        if room.is_over() or (until is not None and until(room.match)):
            break
        wanted = until is not None or compared_now(game_id, room.match.state, room.step)
        if room.game.meta.hidden_information and wanted:
            compare(room, rng, tally)
        pending = room.match.pending()
        seat = next(s for s in pending.seats if s != CHANCE)
        action = bots[seat].decide(situation(room.match, seat)).as_action()
        if room.is_clock(action):  # the table's own clock, hurried for the test: an hour in minutes
            room.match.check(action)
            room._commit_from(action)
            continue
        room.act(seat, {"step": room.step, "action": action.to_json()})
        if room.game.meta.hidden_information:
            assert_no_secret_said(room)
    return tally


def assert_no_secret_said(room: Room) -> None:
    """Every line the table said so far (an action that left no story line, the clock, undo) is
    read by everyone: none may name a hidden item of the state that not every seat holds (the
    artifact given in a trade was read by a spectator, issue 35)."""
    match = room.match
    seats = set(room.seats())
    said = [line.text for line in chat.lines(room.store, room.id) if line.kind == "table"]
    if not said:
        return
    spectator = namer_of(match, None)
    for secret in match.game.secrets(match.state):
        if seats <= secret.holders:
            continue
        words = {secret.token, spectator.say(secret.token)} | {
            namer_of(match, h).say(secret.token) for h in secret.holders
        }
        for text in said:
            for word in words:
                assert len(word) < 3 or not re.search(rf"\b{re.escape(word)}\b", text, re.I), (
                    f"the table said {secret.what} ({word!r}) to everyone: {text!r}"
                )


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_no_page_or_frame_tells_a_redealt_game_apart(tmp_path: Path, game_id: str) -> None:
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    try:
        players = [f"P{i + 1}" for i in range(PLAYERS.get(game_id, 2))]
        room, _ = Rooms(store).create(game_id, players, {})
        tally = _play_and_compare(room, 23)
    finally:
        store.close()
    print(f"{game_id}: {tally['compared']} pages and frames compared with a redealt copy ({tally})")


def replay_and_compare(store: Store, exploration: Exploration, rng: random.Random, tally: dict[str, int]) -> set[str]:
    """Replay an explored match in a room (its seed the explorer's): every action of the steps
    around a type's first taking acted through :meth:`Room.act` (or the table's clock), each of
    those steps compared for every role; the steps between come from storage as another table
    process would write them (:meth:`Room.catch_up`). Returns the types acted through the room."""
    actions = exploration.actions
    config = exploration.config
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rooms.secrets, "token_hex", lambda _n: config.seed)
        room, _ = Rooms(store).create(exploration.game_id, list(config.players), dict(config.options))
    wanted = windows(exploration)
    acted: set[str] = set()
    while room.step < len(actions):
        start = room.step
        assert room.match.actions == actions[:start], "the room's dealer dealt what the explorer's did not"
        action = actions[start]
        if start not in wanted or action.seat == CHANCE:
            end = next((i for i in sorted(wanted) if i > start and actions[i].seat != CHANCE), len(actions))
            store.append(room.id, start, [a.to_json() for a in actions[start:end]])
            assert room.catch_up()
            continue
        if room.game.meta.hidden_information:  # else a redealt copy is the game itself
            compare(room, rng, tally)
        if room.is_clock(action):  # the table's own clock
            room.match.check(action)
            room._commit_from(action)
        else:
            room.act(action.seat, {"step": start, "action": action.to_json(), "narration": action.narration})
        acted.add(action.type)
        if room.game.meta.hidden_information:
            assert_no_secret_said(room)
    return acted


@pytest.mark.parametrize("game_id", [g for g in available() if g != "pig"])
def test_every_action_type_on_the_page(tmp_path: Path, game_id: str) -> None:
    """The explorer's matches (``tests/explore.py``) replayed in rooms: every action type of the
    game is acted through the room, each role's page, frame, talk and story compared with a
    redealt copy around each type's first taking; a type never reached fails the test."""
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    tally = {"compared": 0, "rule-implied": 0, "ties offered": 0}
    reached: set[str] = set()
    try:
        for exploration in explorations(game_id):
            reached |= replay_and_compare(store, exploration, random.Random(39), tally)
    finally:
        store.close()
    line = reached_report(game_id, reached, "web table")
    (tmp_path / "reached.txt").write_text(line + "\n")
    print(f"{line}\n{game_id}: {tally}")


def test_r_eu_30_the_ninth_hours_final_round_on_the_page(tmp_path: Path) -> None:
    """Rule: R-EU-30; [The ninth hour]. Every step of the ninth hour's final round, every role:
    the same page and frame as a copy whose Committee Member was drawn again, except the tie for
    the next final turn, which the rule itself makes depend on him (and only for the seat settling
    it)."""
    total: dict[str, int] = {}
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    try:
        for seed, players, options in NINTH_HOUR_GAMES:
            match = to_ninth_hour_final_round(seed, players, options)
            room, _ = Rooms(store).create("euthymia", list(match.config.players), options)
            store.append(room.id, 0, [a.to_json() for a in match.actions])
            room.match = match  # the room plays on from the fast-forwarded game
            tally = _play_and_compare(room, seed, until=lambda m: m.state.hour > 9 or m.is_over())
            print(f"seed {seed}, {players} players, {options}: {tally}")
            total = {k: total.get(k, 0) + v for k, v in tally.items()}
    finally:
        store.close()
    assert total["compared"] > 0 and total["rule-implied"] > 0 and total["ties offered"] > 0, total
