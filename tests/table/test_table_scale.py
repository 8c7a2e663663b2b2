"""Issue 24: the table at scale — renderings reused, never changed; rooms followed by what changed.

Each test names the waste it removes; every reuse is checked against a rendering from scratch.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludica.bots.random_bot import RandomBot
from ludica.core import get_game
from ludica.core.actions import fill
from ludica.core.names import Namer, namer_of
from ludica.core.registry import GAME_MODULES
from ludica.table import faces, seatview
from ludica.table.faces import Parts, PartStore, environment, face_input
from ludica.table.faces import say_html as plain_say_html
from ludica.table.render_cache import Encoded, SaidStore, digest, encode, encoded, fingerprint, say_html, say_page
from ludica.table.rooms import Room, Rooms
from ludica.table.seatview import payload
from ludica.table.storage import HOST, SPECTATOR, Store


def _act(room: Room, bot: RandomBot) -> None:
    seat = room.match.pending().seats[0]
    room.act(seat, {"step": room.step, "action": bot.choose(room.match, seat).to_json()})


def _fresh(room: Room, role: str) -> dict[str, Any]:
    """The role's message rendered from nothing (no cached rendering)."""
    kept, room.cache = room.cache, {}
    try:
        return payload(room, role, full_log=False)
    finally:
        room.cache = kept


def _count_faces(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    render_view = seatview.render_view

    def counting(*args: Any, **kwargs: Any) -> str:
        calls[0] += 1
        return render_view(*args, **kwargs)

    monkeypatch.setattr(seatview, "render_view", counting)
    return calls


@pytest.fixture
def store(tmp_path: Path) -> Any:
    store = Store(f"sqlite:///{tmp_path / 't.sqlite3'}")
    yield store
    store.close()


def test_a_view_is_drawn_once_per_seat_per_step_spectators_and_host_share_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, _ = Rooms(store).create("euphoria", ["Ann", "Bob", "Cat", "Dan"], {})
    bot = RandomBot(random.Random(3))
    for _ in range(30):
        _act(room, bot)
    calls = _count_faces(monkeypatch)
    roles = [*room.seats(), SPECTATOR, HOST, SPECTATOR]  # a second spectator's browser
    for _ in range(10):
        _act(room, bot)
        calls[0] = 0
        for role in roles:
            payload(room, role, full_log=False)
        assert calls[0] <= len(room.seats()) + 1, "one face per seat, one for everyone who plays no seat"
        for role in roles:  # a second broadcast of the same step (a sync, a reconnection) draws nothing
            payload(room, role, full_log=False)
        assert calls[0] <= len(room.seats()) + 1


def test_reused_renderings_are_exactly_the_fresh_ones(store: Store) -> None:
    """Every part of every role's message equals the one rendered from nothing, step after step
    (Euphoria: private mats, hidden recruits; Pig: a seat that waits keeps its decision box)."""
    for game, players in (("euphoria", ["Ann", "Bob", "Cat"]), ("pig", ["Ann", "Bob", "Cat"])):
        room, _ = Rooms(store).create(game, players, {})
        bot = RandomBot(random.Random(5))
        roles = [*room.seats(), SPECTATOR, HOST]
        for _ in range(60):
            if room.is_over():
                break
            _act(room, bot)
            for role in roles:
                kept = payload(room, role, full_log=False)
                fresh = _fresh(room, role)
                assert kept["html"] == fresh["html"], (game, room.step, role)
                assert kept["legal"] == fresh["legal"] and kept["log"] == fresh["log"]
                assert encode(kept) == json.dumps(kept, ensure_ascii=False), "the face's JSON made with it"


def test_a_message_encoded_from_its_parts_json_is_json_dumps() -> None:
    """:func:`encode` joins the JSON each part was given when rendered: byte for byte what
    ``json.dumps`` makes, whatever the text holds (quotes, backslashes, controls, any script)."""
    odd = 'a "quote" \\ back\nslash\t\x00\x1f \u2028 é 漢字 \U0001f600 </script>'
    namer = Namer(None, None, None, {})
    kept: dict[Any, Any] = {}
    for pieces in (
        [odd, "<p>plain</p>", odd[::-1]],
        [f"<p>{odd[:20]}</p>", "<i>\t</i>", "<b>\u2028 é 漢字 \U0001f600</b>"],
    ):
        page = "<div>" + "</div><div>".join(pieces) + "</div>"
        for _ in range(2):  # drawn, then kept
            said = say_page(page, pieces, namer, fingerprint(namer), kept)
            assert said == plain_say_html(page, namer)
            assert isinstance(said, Encoded) == (pieces[0] != odd), "said in parts (the first is said whole)"
            assert not isinstance(said, Encoded) or said.json == json.dumps(str(said), ensure_ascii=False)
    for html in ({"view": said, "news": odd}, {"view": encoded(odd)}, {}, {"news": odd}):
        for message in (
            {"type": "state", "you": odd, "html": html, "log": [odd], "seats": []},
            {"html": html},
            {"html": html, "step": 3},
            {"step": 3, "html": html},
        ):
            assert encode(message) == json.dumps(message, ensure_ascii=False), message


@pytest.mark.parametrize("game", [*GAME_MODULES, "pig"])
def test_texts_said_once_say_the_same(store: Store, game: str) -> None:
    """Every game's namer says a text from its id table alone (``Namer.SAY_FROM_TABLE``), so a
    text said once per table is said as afresh; a page said part by part is said as a whole."""
    meta = get_game(game).meta
    room, _ = Rooms(store).create(game, ["Ann", "Bob", "Cat", "Dan", "Eve"][: max(3, meta.players_min)], {})
    bot = RandomBot(random.Random(9))
    held: dict[str | None, dict[str, Any]] = {}
    said: dict[str | None, dict[str, Any]] = {}
    for _ in range(40):
        if room.is_over():
            break
        _act(room, bot)
        for seat in [*room.seats(), None]:
            view, names, pending = room.match.view(seat), room.seat_names(), room.match.pending().to_json()
            parts = Parts(held.setdefault(seat, {}))
            page = seatview.render_view(room.game, view, seat, names, pending, parts=parts)
            assert page == seatview.render_view(room.game, view, seat, names, pending), "drawn in parts = whole"
            namer = namer_of(room.match, seat)
            plain = plain_say_html(page, namer)
            assert say_html(page, namer) == plain, (game, room.step, seat)
            key = fingerprint(namer)
            assert say_page(page, parts.drawn, namer, key, said.setdefault(seat, {})) == plain, (game, seat)


def test_seats_share_a_room_s_parts_only_where_their_inputs_are_the_same(store: Store) -> None:
    """One store of parts and sayings per room (:class:`PartStore`, :class:`SaidStore`), shared
    by every seat and the spectators: each seat's page is exactly its page drawn whole and said
    afresh, step after step of a long game (private mats, hands, hidden recruits, drafts), so no
    seat ever receives a part drawn for another seat's view; and the seats do share parts."""
    room, _ = Rooms(store).create("euphoria", ["Ann", "Bob", "Cat", "Dan"], {})
    bot = RandomBot(random.Random(7))
    parts_store, sayings = PartStore(), SaidStore()
    drawn, given = [0], [0]
    draw = Parts._draw

    def counting(self: Parts, caller: Any) -> str:
        drawn[0] += 1
        return draw(self, caller)

    Parts._draw = counting  # type: ignore[method-assign]
    try:
        for _ in range(300):
            if room.is_over():
                break
            _act(room, bot)
            parts_store.turn(room.step)
            sayings.turn(room.step)
            names, pending = room.seat_names(), room.match.pending().to_json()
            for seat in [*room.seats(), None]:
                view = room.match.view(seat)
                parts = Parts(parts_store)
                page = seatview.render_view(room.game, view, seat, names, pending, parts=parts)
                given[0] += len(parts.drawn)
                assert page == seatview.render_view(room.game, view, seat, names, pending), (room.step, seat)
                namer = namer_of(room.match, seat)
                said = say_page(page, parts.drawn, namer, fingerprint(namer), sayings)
                assert said == plain_say_html(page, namer), (room.step, seat)
    finally:
        Parts._draw = draw  # type: ignore[method-assign]
    assert room.step > 250 and drawn[0] < given[0] / 4, "most parts given to a seat were drawn for the room"


def test_a_page_said_in_parts_falls_back_where_a_part_is_not_at_markup() -> None:
    """A part that begins or ends with text (it would join the text beside it) or opens a
    ``<style>`` block makes the page be said whole: the same text either way."""
    namer = Namer(None, None, None, {"p1": "Ann"})
    namer._table = {"p1": "Ann", "next_turn": "next turn"}
    key = fingerprint(namer)
    for page, pieces in (
        ("<p>p1 <b>p1</b> next_turn</p>", ["<b>p1</b> next_turn"]),
        ("<p>see p1<i>p1</i>p1 plays</p>", ["p1<i>p1</i>"]),
        ("<div><style>.p1 { }</style><b>p1</b></div>", ["<style>.p1 { }"]),
        ("<ul> <li>p1</li> <li>next_turn</li> </ul>", [" <li>p1</li>", "<li>next_turn</li> "]),
    ):
        assert say_page(page, pieces, namer, key, {}) == plain_say_html(page, namer), page


def test_the_story_is_sent_from_where_the_page_is(client: TestClient, seat_client: Any, opener: Any) -> None:
    """A broadcast carries only the story entries the page lacks; a seat that joins gets all."""
    room = opener(client)
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    bob = seat_client(client, room["room"], room["tokens"]["p2"])
    try:
        held = bob.state["log_total"]
        assert ann.act_type("wager", amount=2)["type"] == "ack"
        seen = bob.receive("state")
        assert seen["log_start"] == held and len(seen["log"]) == seen["log_total"] - held
        watcher = seat_client(client, room["room"], room["tokens"][SPECTATOR])
        assert watcher.state["log_start"] == 0 and len(watcher.state["log"]) == watcher.state["log_total"]
        watcher.close()
    finally:
        ann.close()
        bob.close()


def test_a_room_nobody_watches_keeps_no_renderings(client: TestClient, seat_client: Any, opener: Any) -> None:
    room = opener(client, game="euphoria", players=("Ann", "Bob", "Cat"))
    ann = seat_client(client, room["room"], room["tokens"]["p1"])
    live = client.app.state.table().rooms.live[room["room"]]  # type: ignore[attr-defined]
    assert any(isinstance(k, tuple) for k in live.cache)
    ann.close()
    for _ in range(50):  # the server notices the closed socket
        if not any(isinstance(k, tuple) for k in live.cache):
            break
        client.get("/healthz")
    assert not any(isinstance(k, tuple) for k in live.cache)


def test_following_another_process_reads_only_the_new_actions(store: Store) -> None:
    """``Room.catch_up``: the second process applies what the first appended, reading the record
    from where it was; the result is the room replayed from the whole record, and undo works."""
    first, _ = Rooms(store).create("euphoria", ["Ann", "Bob", "Cat"], {})
    other = Rooms(store)
    second = other.get(first.id)
    assert second is not None
    bot = RandomBot(random.Random(11))
    reads: list[int] = []
    actions = store.actions

    def counting(room_id: str, start: int = 0) -> list[dict[str, Any]]:
        found = actions(room_id, start)
        reads.append(len(found))
        return found

    for _ in range(40):
        _act(first, bot)
        store.actions = counting  # type: ignore[method-assign]
        assert second.catch_up()
        store.actions = actions  # type: ignore[method-assign]
        assert second.step == first.step and second.match.digest() == first.match.digest()
    assert max(reads) < 20, "only the new actions are read, never the whole record"
    assert not second.catch_up(), "nothing new"
    fresh = Rooms(store).get(first.id)
    assert fresh is not None and fresh.match.digest() == second.match.digest()
    if second.can_undo_own(second.match.actions[-1].seat):
        second.undo_own(second.match.actions[-1].seat)  # the snapshot kept by catch_up
        assert second.step == first.step - 1


def test_a_process_overtaken_by_another_catches_up_without_replaying(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes' seats act at the same step: the second commit is refused by the record's
    key, that seat is told to look again, and its process applies the first one's action on top
    of the state before its own (no replay of the record)."""
    first, _ = Rooms(store).create("pig", ["Ann", "Bob"], {"target": 30})
    second = Rooms(store).get(first.id)
    assert second is not None
    bot = RandomBot(random.Random(2))
    for _ in range(30):  # a record long enough that replaying it would show (never holding: no one wins)
        seat = first.match.pending().seats[0]
        legal = [a for a in first.match.legal_actions(seat) if a.type not in ("hold", "title")]
        action = fill(bot.rng.choice(legal), bot.rng) if legal else bot.choose(first.match, seat)
        first.act(seat, {"step": first.step, "action": action.to_json()})
    assert second.catch_up() and not first.is_over()
    seat, step = first.match.pending().seats[0], first.step
    index = next(i for i, a in enumerate(first.match.legal_actions(seat)) if a.type != "title")
    first.act(seat, {"step": step, "index": index})
    plays = [0]
    play = second.game.play

    def counting(state: Any, action: Any) -> Any:
        plays[0] += 1
        return play(state, action)

    monkeypatch.setattr(second.game, "play", counting)
    with pytest.raises(Exception, match="moved on"):
        second.act(seat, {"step": step, "index": index})
    assert plays[0] <= 4, "only our action and the other's were applied"
    assert second.step == first.step and second.match.digest() == first.match.digest()


def test_the_table_s_websocket_compresses_at_a_fast_level(live_server: Any) -> None:
    """The server runs its own WebSocket protocol (deflate at level 1): the handshake still
    agrees on per-message deflate, and a seat gets its state."""
    import json

    import httpx
    from websockets.extensions.permessage_deflate import PerMessageDeflate
    from websockets.sync.client import connect

    from ludica.table import ws_deflate

    assert ws_deflate.protocol().endswith(":TableWebSocketProtocol")
    created = httpx.post(live_server.url + "/rooms", json={"game": "pig", "players": ["Ann", "Bob"]}).json()
    token = next(i["token"] for i in created["invites"] if i["role"] == "p1")
    url = live_server.url.replace("http", "ws") + f"/ws/{created['room']}"
    with connect(url, proxy=None, open_timeout=10) as ws:
        assert any(isinstance(e, PerMessageDeflate) for e in ws.protocol.extensions)
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"


def test_a_part_is_drawn_again_exactly_when_its_inputs_change() -> None:
    """``part`` gives back the body it drew for the same name and inputs, draws it again when an
    input changes, and draws every body when it has no store (tests, exports)."""
    template = environment().from_string(
        '{% for s in seats %}{% call part("p-" ~ s, s, scores[s]) %}<b>{{ s }} {{ scores[s] }} {{ extra }}</b>'
        "{% endcall %}{% endfor %}"
    )
    held: dict[str, Any] = {}
    first = template.render(seats=["a", "b"], scores={"a": 1, "b": 2}, extra="x", part=Parts(held))
    assert first == "<b>a 1 x</b><b>b 2 x</b>"
    kept = Parts(held)  # what the body reads beyond its inputs is not looked at: the inputs must say it all
    assert template.render(seats=["a", "b"], scores={"a": 1, "b": 2}, extra="y", part=kept) == first
    assert kept.drawn == ["<b>a 1 x</b>", "<b>b 2 x</b>"]
    again = template.render(seats=["a", "b"], scores={"a": 1, "b": 3}, extra="y", part=Parts(held))
    assert again == "<b>a 1 x</b><b>b 3 y</b>"
    whole = template.render(seats=["a", "b"], scores={"a": 1, "b": 3}, extra="y", part=Parts())
    assert whole == "<b>a 1 y</b><b>b 3 y</b>"


def test_a_room_s_parts_keep_the_parts_drawn_inside_them() -> None:
    """In a room's :class:`PartStore` a part given back whole keeps the parts drawn inside it
    (it does not look them up): when it is drawn again, a step later, its unchanged inner parts
    are not; a part no page used for a whole step is forgotten."""
    template = environment().from_string(
        '{% call part("outer", a, b) %}[{{ a }}{% for s in "xy" %}{% call part("in-" ~ s, s, b) %}'
        "{{ s }}{{ b }}{{ count() }}{% endcall %}{% endfor %}]{% endcall %}"
    )
    drawn: list[int] = [0]

    def count() -> str:
        drawn[0] += 1
        return ""

    store = PartStore()
    pages = []
    for step, (a, b) in enumerate([(1, 2), (1, 2), (1, 2), (3, 2), (3, 5)]):
        store.turn(step)
        pages.append(template.render(a=a, b=b, count=count, part=Parts(store)))
        assert pages[-1] == template.render(a=a, b=b, count=count, part=Parts())
    assert pages == ["[1x2y2]", "[1x2y2]", "[1x2y2]", "[3x2y2]", "[3x5y5]"]
    drawn[0] = 0
    for step, (a, b) in enumerate([(3, 5), (4, 5)], start=10):  # kept through steps where only "outer" was used
        store.turn(step)
        template.render(a=a, b=b, count=count, part=Parts(store))
    assert drawn[0] == 0, "the inner parts of a part given back whole are kept with it"
    store.turn(12)
    store.turn(13)
    template.render(a=4, b=5, count=count, part=Parts(store))
    assert drawn[0] == 2, "a step no page drew at forgets the parts"


@pytest.mark.parametrize("game", [g for g in GAME_MODULES if face_input(get_game(g)) is not None])
def test_a_face_s_input_holds_all_that_it_reads(store: Store, game: str) -> None:
    """A game's ``web.face_input`` says what its face reads: wherever a seat's input is the same
    as at an earlier step, the page drawn whole from its view and pending decision is the same
    page (so the table may keep it, :func:`seatview._face_key`), and the input leaves something out
    (a step whose page is kept though its view changed)."""
    meta = get_game(game).meta
    room, _ = Rooms(store).create(game, ["Ann", "Bob", "Cat", "Dan"][: max(3, meta.players_min)], {})
    reads = face_input(room.game)
    assert reads is not None
    bot = RandomBot(random.Random(11))
    pages: dict[tuple[str | None, str], str] = {}
    views: dict[tuple[str | None, str], str] = {}
    kept_though_changed = 0
    for _ in range(300):
        if room.is_over():
            break
        _act(room, bot)
        names, pending = room.seat_names(), room.match.pending().to_json()
        for seat in [*room.seats(), None]:
            view = room.match.view(seat)
            key = (seat, digest(reads(view, pending)))
            page = seatview.render_view(room.game, view, seat, names, pending)
            assert pages.setdefault(key, page) == page, (game, room.step, seat)
            kept_though_changed += views.setdefault(key, digest([view, pending])) != digest([view, pending])
    assert kept_though_changed > 0


def test_a_page_the_face_failed_to_draw_is_not_kept(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """When a game's face breaks on a view, the seat gets the generic face, and its page is drawn
    again at the next broadcast (kept by what the game's face reads, it might stand for a view
    the generic face shows differently)."""
    room, _ = Rooms(store).create("euphoria", ["Ann", "Bob", "Cat"], {})
    _act(room, RandomBot(random.Random(2)))

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("a face that breaks")

    monkeypatch.setattr(faces, "render_face", broken)
    seat = room.seats()[0]
    page = payload(room, seat, full_log=False)["html"]["view"]
    assert "<dl" in page and ("face", seat) not in room.cache, "the generic face, not kept"
    monkeypatch.undo()
    room.cache.pop(("part", seat))
    assert payload(room, seat, full_log=False)["html"]["view"] != page and ("face", seat) in room.cache


def test_value_keys_tell_apart_what_json_tells_apart() -> None:
    """``faces.value_key`` (a view, a part's inputs, the decision box's legal actions): equal
    values give equal keys, and values JSON tells apart (``1``, ``1.0``, ``True``, ``"1"``; a key
    order) are told apart; a value that does not pickle is keyed by its JSON."""
    view = {"board": {"s1": [["p1", 3]], "s2": []}, "turn": "p2", "n": 1, "ok": True, "x": None}
    assert faces.value_key(view) == faces.value_key(json.loads(json.dumps(view)))
    for other in (1.0, True, "1", [1], None):
        assert faces.value_key({**view, "n": other}) != faces.value_key(view), other
    assert faces.value_key({"a": 1, "b": 2}) != faces.value_key({"b": 2, "a": 1})
    odd = {"f": len}
    assert faces.value_key(odd) == faces.value_key({"f": len}) and isinstance(faces.value_key(lambda: 0), str)


def test_a_part_s_undefined_inputs_are_one_key() -> None:
    """``faces.part_key``: an undefined input (``p.hidden`` of a mat that has none) is the same
    key whatever dict it was read from, as its JSON was; a defined one is never that key."""
    template = environment().from_string("{% call part('x', p.hidden, p.n) %}{{ p.n }}{% endcall %}")
    store = PartStore()
    drawn = [template.render(p=p, part=Parts(store)) for p in ({"n": 1}, {"n": 1, "o": 2}, {"n": 2})]
    assert drawn == ["1", "1", "2"] and len(store.now) == 2, "the second mat's part is the first's"
    undefined = environment().undefined(obj={"a": 1}, name="hidden")
    assert faces.part_key((undefined, 1)) == faces.part_key((environment().undefined(obj={}, name="k"), 1))
    assert faces.part_key((undefined, 1)) not in (faces.part_key((None, 1)), faces.part_key(("Undefined", 1)))


def test_templates_escape_as_markupsafe_does() -> None:
    """The table's templates write ``{{ value }}`` through ``faces._escape``: the same text and
    type as markupsafe's ``escape``, for every kind of value a view holds."""
    import markupsafe

    values: list[Any] = ["a<b&c'\"d>", "plain", "", "é — “quoted”", 0, 7, -12, 2.5, True, None, [1, "<"]]
    values += [markupsafe.Markup("<b>kept</b>"), {"k": "<v>"}]
    for value in values:
        ours, theirs = faces._escape(value), markupsafe.escape(value)
        assert type(ours) is type(theirs) and ours == theirs, value
    template = environment().from_string("{{ x }}|{{ y }}|{{ z }}")
    assert template.root_render_func.__globals__["escape"] is faces._escape  # type: ignore[attr-defined]
    assert template.render(x="<i>", y=3, z=markupsafe.Markup("<b>")) == "&lt;i&gt;|3|<b>"


def test_a_serving_process_freezes_its_start_up_and_collects_young_objects_less_often() -> None:
    """``steady_collector``: what exists at start-up is frozen out of later collections and the
    young generation is collected every ``COLLECTOR_THRESHOLD`` allocations, the old one looked at
    after ``OLD_COLLECTOR_THRESHOLD`` collections of the middle one (issue 24)."""
    import gc

    from ludica.table.server import COLLECTOR_THRESHOLD, OLD_COLLECTOR_THRESHOLD, steady_collector

    before = gc.get_threshold()
    try:
        steady_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (COLLECTOR_THRESHOLD, before[1], OLD_COLLECTOR_THRESHOLD)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
