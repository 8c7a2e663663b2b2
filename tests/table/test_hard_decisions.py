"""The three hardest decisions of each game, in a real browser, with their effects shown (issue 20).

For each game, the three decisions a newcomer finds hardest (picked from the friends' remote trial):
a room is brought to the decision by random legal actions (``fast_forward``), then the deciding
seat's page is opened on a desktop (1280×800) and a phone (390×844), the decision's fold is opened
as a person opens it, and the test checks that what the page says holds the decision's situation
and each option's effect (the words a namer gives it). Screenshots go to the tests' artifacts;
with ``LUDICA_SCREENS=docs/screens`` they are the curated ones listed in ``docs/table.md``
(``hard-<game>-<n>-{desktop,phone}.png``, in 256 colours to keep them small).

The same mechanism shows, per game, a chat with a whisper on the receiving seat's page (absent from
a third seat's page; ``chat-<game>-*.png``) and "Just now" on the page of the seat whose own action
caused a consequence (a judgment, a roll, a reveal, a gain, a Conflict's result; ``just-now-<game>-*.png``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludica.core import CHANCE
from ludica.core.actions import fill
from ludica.table.seatview import news

from .test_table_browser import (  # noqa: F401  (the browser fixture)
    ARTIFACTS,
    ThreadServer,
    browser,
    server,
)
from .test_table_live import DESK, PHONE, PLAYERS, fast_forward, offers, open_room, page_for, shoot

SCREENS = Path(os.environ["LUDICA_SCREENS"]) if os.environ.get("LUDICA_SCREENS") else ARTIFACTS


def smaller(path: Path) -> None:
    """A curated screenshot in 256 colours (a third of the bytes, the same to the eye): they are committed."""
    try:
        from PIL import Image
    except ImportError:  # Pillow comes with matplotlib (the lab's extra); without it the PNG stays as taken
        return
    with Image.open(path) as image:
        quantized = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    quantized.save(path, optimize=True)


@dataclass(frozen=True)
class Hard:
    """One hard decision: the action type offered, an extra test of the position, the words the
    page must show once the decision's fold is open, and the seeds tried to reach it."""

    game: str
    n: int
    action: str
    shows: tuple[str, ...]
    where: Callable[[Any], bool] = lambda room: True
    seeds: tuple[int, ...] = (1, 2, 3, 4, 5)
    limit: int = 600
    prefer: frozenset[str] = frozenset()
    """Action types taken first whenever offered, to steer the random play towards the decision."""


def _prompt(kind: str, first: Callable[[Any], bool] = lambda c: True) -> Callable[[Any], bool]:
    """A Euphoria position whose question is ``kind`` (and whose context passes ``first``)."""
    return lambda room: (
        room.match.state.prompt is not None and room.match.state.prompt[1] == kind and first(room.match.state.prompt[3])
    )


TOWARDS_A_CONFLICT = frozenset({"frame_conflict", "agree_stakes", "done_narrating", "bring_staked_memory"})
"""Lost Days: the steps that lead into a conflict's dice, taken first when offered."""

HARD = [
    # The Great City: the intent's colour, the pair's judgment while reacting, a tie with its sign
    Hard("great-city", 1, "choose_intent", (" — by ", "save the Great City")),
    Hard("great-city", 2, "accept_judgment", ("On the table:", "the judgment stands")),
    Hard("great-city", 3, "add_tie", ("positive", "negative")),
    # Euphoria: paying a space's cost, retrieving workers, taking a gain (resource or artifact)
    Hard("euphoria", 1, "pay", ("paying its cost",), _prompt("pay", lambda c: bool(c) and c[0] != "retrieve")),
    Hard("euphoria", 2, "pay", ("morale", "retrieves"), _prompt("pay", lambda c: bool(c) and c[0] == "retrieve")),
    # a worker's space says "choosing what it gives", a recruit's gift "gives something: choosing what"
    Hard("euphoria", 3, "take", ("choosing what",), _prompt("take")),
    # Lost Days: the sealed bid, the deal offered, a side's dice to influence
    Hard("lost-days", 1, "place_bid", ("The auction of", "in secret")),
    Hard("lost-days", 2, "accept_trade", ("offers", "change hands")),
    Hard("lost-days", 3, "influence", ("The conflict:", "side"), prefer=TOWARDS_A_CONFLICT, limit=1200),
    # Euthymia: launching a Conflict, playing a card into it, dividing the bottle in the final round
    Hard("euthymia", 1, "launch_conflict", ("fought",)),
    Hard("euthymia", 2, "play_conflict_card", ("The Conflict",)),
    Hard("euthymia", 3, "divide_bottle", ("final round",), prefer=frozenset({"trigger_final_round"}), limit=1500),
    # Misery Bubblegum: calling an action (the challenge), pointing the arrow, reclaiming dice
    Hard("misery-bubblegum", 1, "call_action", ("challenge",)),
    Hard("misery-bubblegum", 2, "choose_arrow", ("towards the others", "towards yourself")),
    Hard(
        "misery-bubblegum",
        3,
        "reclaim",
        ("into Misery",),
        lambda r: any(
            a.type == "reclaim" and "reclaim_count" in a.args
            for s in r.match.pending().seats
            if s != CHANCE
            for a in r.match.legal_actions(s)
        ),
    ),
]


def deciding_seat(room: Any, action: str) -> str | None:
    return next((s for s in room.match.pending().seats if s != CHANCE and offers(room, s, action)), None)


def reach(srv: ThreadServer, hard: Hard) -> tuple[str, dict[str, str], str]:
    """A room at ``hard``'s decision: its id, its links and the deciding seat."""
    for seed in hard.seeds:
        room_id, links = open_room(srv, hard.game)
        try:
            fast_forward(
                srv,
                room_id,
                lambda r: deciding_seat(r, hard.action) is not None and hard.where(r),
                seed=seed,
                limit=hard.limit,
                prefer=hard.prefer,
            )
        except (AssertionError, StopIteration):
            continue
        seat = deciding_seat(srv.room(room_id), hard.action)
        assert seat is not None
        return room_id, links, seat
    pytest.skip(f"{hard.game}: no {hard.action} reached with seeds {hard.seeds}")


OPEN_DECISION = """([kind]) => {
  const fold = document.querySelector(`#actions details.choice[data-type="${kind}"]`);
  if (fold) fold.open = true;
  for (let d = fold, depth = 0; d && depth < 3; depth++) {  // the first option at each step, as a person tries one
    d = d.querySelector('details.option');
    if (d) d.open = true;
  }
  return fold ? fold : document.querySelector(`#actions form[data-type="${kind}"]`);
}"""
"""Open the decision's fold, and its first option at each step, as a person tries one."""

SHOW_DECISION = """([kind]) => {
  const el = document.querySelector(`#actions details.choice[data-type="${kind}"]`)
    || document.querySelector(`#actions form[data-type="${kind}"]`);
  const box = document.getElementById('actions');
  const fits = box.getBoundingClientRect().height < window.innerHeight - 120;
  const target = fits ? box : ((el && el.closest('.single, details.choice')) || el || box);
  const below = target.getBoundingClientRect().bottom > window.innerHeight;
  if (below) target.scrollIntoView({block: fits ? 'end' : 'start'});
}"""
"""Bring the decision on screen: all the seat's choices when they fit, else the decision's fold."""


@pytest.mark.parametrize("hard", HARD, ids=[f"{h.game}-{h.n}" for h in HARD])
def test_a_hard_decision_says_what_it_does(browser: Any, server: ThreadServer, hard: Hard) -> None:  # noqa: F811
    _room, links, seat = reach(server, hard)
    for viewport, label in ((DESK, "desktop"), (PHONE, "phone")):
        page = page_for(browser, server, links[seat], viewport)
        page.wait_for_selector("#view *")
        kind = hard.action  # the decision's own fold or form: the page draws its parts after the view
        page.wait_for_selector(f'#actions details.choice[data-type="{kind}"], #actions form[data-type="{kind}"]')
        page.evaluate(OPEN_DECISION, [hard.action])
        text = page.locator("#table").inner_text()
        for words in hard.shows:
            assert words in text, f"{hard.game} {hard.action}: {words!r} not on {seat}'s page"
        page.evaluate(SHOW_DECISION, [hard.action])
        name = f"hard-{hard.game}-{hard.n}-{label}"
        shoot(page, name, SCREENS)
        if SCREENS != ARTIFACTS:
            smaller(SCREENS / f"{name}.png")
        page.context.close()


def curate(page: Any, name: str) -> None:
    """``page``'s first screen as ``name`` (the artifacts, or the curated ``docs/screens`` in 256 colours)."""
    shoot(page, name, SCREENS)
    if SCREENS != ARTIFACTS:
        smaller(SCREENS / f"{name}.png")


# -- a chat with a whisper, per game -----------------------------------------------------------
GAMES = ["great-city", "euphoria", "lost-days", "euthymia", "misery-bubblegum"]
WHISPER_PAIRS = {  # (who whispers, who receives, a third seat): the GM where the game has one
    "great-city": ("gm", "p1", "p2"),
    "misery-bubblegum": ("gm", "p1", "p2"),
    "lost-days": ("p2", "p1", "p3"),
    "euthymia": ("p2", "p1", "p3"),
    "euphoria": ("p2", "p1", "p3"),
}


def say(page: Any, text: str, to: str = "") -> None:
    """Say ``text`` in the table talk, to the table or (``to``, a seat) as a whisper, as a person does."""
    page.wait_for_selector("#chat-form:not([hidden])")
    page.select_option("#chat-to", to)
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


@pytest.mark.parametrize("game", GAMES)
def test_a_whisper_reaches_its_seat_and_not_a_third(browser: Any, server: ThreadServer, game: str) -> None:  # noqa: F811
    players = [*PLAYERS[game], "Cy"][:3]  # three players, so there is a third seat (Euphoria's default is two)
    created = httpx.post(server.url + "/rooms", json={"game": game, "players": players}).json()
    links = {i["role"]: i["url"] for i in created["invites"]}
    sender, receiver, third = WHISPER_PAIRS[game]
    aloud, secret = "Shall we begin?", "Watch the one on your left; they are not what they seem."
    speaker = page_for(browser, server, links[sender], DESK)
    pages = {
        label: {seat: page_for(browser, server, links[seat], view) for seat in (receiver, third)}
        for view, label in ((DESK, "desktop"), (PHONE, "phone"))
    }
    for seat_pages in pages.values():
        for page in seat_pages.values():
            page.wait_for_selector("#chat-form:not([hidden])")
    say(speaker, aloud)
    say(speaker, secret, receiver)
    for label, seat_pages in pages.items():
        seat_pages[receiver].locator("#chat-log", has_text=secret).wait_for()
        seat_pages[third].locator("#chat-log", has_text=aloud).wait_for()
        log = seat_pages[receiver].locator("#chat-log").inner_text()
        assert "(whisper)" in log and aloud in log
        assert secret not in seat_pages[third].content(), f"{game}: the whisper reached {third}'s page"
        seat_pages[receiver].locator("#chat").scroll_into_view_if_needed()
        curate(seat_pages[receiver], f"chat-{game}-{label}")
    # after the last line the third page has still not received it (it never will: it is not sent there)
    assert secret not in pages["desktop"][third].content()
    for page in (speaker, *(p for seat_pages in pages.values() for p in seat_pages.values())):
        page.context.close()


# -- "Just now" after a consequence of the seat's own action, per game --------------------------
@dataclass(frozen=True)
class Cause:
    """A seat's action (``action``) and what it causes (an event of a kind in ``kinds``), which the
    seat's "Just now" must hold; ``others`` lets the other seats act before the consequence comes
    (a call is opposed before its roll)."""

    game: str
    action: str
    kinds: frozenset[str]
    others: bool = False
    prefer: frozenset[str] = frozenset()
    limit: int = 800


CAUSES = [
    Cause("great-city", "accept_judgment", frozenset({"accept"})),
    Cause("misery-bubblegum", "call_action", frozenset({"roll"}), others=True),
    Cause("lost-days", "place_bid", frozenset({"reveal"})),
    Cause("euphoria", "place", frozenset({"gain", "roll"})),
    Cause("euthymia", "play_conflict_card", frozenset({"resolve"})),
]


def act_once(room: Any, seat: str, action: str, rng: random.Random) -> int:
    """``seat`` takes an ``action`` of that type (arguments at random); returns its index in the record."""
    legal = [a for a in room.match.legal_actions(seat) if a.type == action]
    a = fill(rng.choice(legal), rng)
    at = len(room.match.actions)
    room.act(seat, {"step": room.step, "action": {"type": a.type, "args": dict(a.args)}})
    return at


def caused(room: Any, at: int, kinds: frozenset[str]) -> bool:
    return any(e.step >= at and e.event.kind in kinds for e in room.match.log)


def cause(srv: ThreadServer, cause: Cause) -> tuple[dict[str, str], str, int]:
    """A room where a seat's own action caused ``cause``'s consequence: its links, the seat, the action's index."""
    room_id, links = open_room(srv, cause.game)
    room = srv.room(room_id)
    rng = random.Random(7)
    for attempt in range(40):
        try:
            fast_forward(
                srv,
                room_id,
                lambda r: deciding_seat(r, cause.action) is not None,
                seed=attempt,
                limit=cause.limit,
                prefer=cause.prefer,
            )
        except AssertionError:
            break
        seat = deciding_seat(room, cause.action)
        assert seat is not None
        at = act_once(room, seat, cause.action, rng)
        while cause.others and not caused(room, at, cause.kinds) and not room.match.is_over():
            seats = [s for s in room.match.pending().seats if s != CHANCE]
            if seat in seats or not seats:
                break
            pick = seats[0]
            act_once(room, pick, rng.choice(room.match.legal_actions(pick)).type, rng)
        if caused(room, at, cause.kinds):
            return links, seat, at
        if room.match.is_over():
            break
    pytest.skip(f"{cause.game}: {cause.action} never caused {sorted(cause.kinds)}")


SHOW_CONSEQUENCE = """([kinds]) => {
  const box = document.querySelector('#news .news');
  const first = box.querySelector(kinds.map((k) => `li.kind-${k}`).join(', '));
  if (first) box.scrollTop += first.getBoundingClientRect().top - box.getBoundingClientRect().top - 4;
}"""
"""On a phone "Just now" scrolls within its box: bring the consequence's first line to its top, as a person scrolls."""


@pytest.mark.parametrize("what", CAUSES, ids=[c.game for c in CAUSES])
def test_just_now_holds_what_my_own_action_caused_in_the_browser(
    browser: Any,  # noqa: F811
    server: ThreadServer,  # noqa: F811
    what: Cause,
) -> None:
    links, seat, at = cause(server, what)
    room_id = links[seat].split("/")[2].split("#")[0]
    said = [e for e in news(server.room(room_id), seat) if e["step"] >= at and e["kind"] in what.kinds]
    assert said, f"{what.game}: the consequence is not in {seat}'s news"
    for viewport, label in ((DESK, "desktop"), (PHONE, "phone")):
        page = page_for(browser, server, links[seat], viewport)
        page.wait_for_selector("#news .news")
        text = page.locator("#news").inner_text()
        assert "Since your last turn" in text or "Just now" in text  # the digest, or the table's last lines
        for entry in said:
            assert " ".join(entry["text"].split()) in " ".join(text.split()), f"{what.game}: {entry['text']!r}"
        page.locator("#news").scroll_into_view_if_needed()
        page.evaluate(SHOW_CONSEQUENCE, [sorted(what.kinds)])
        curate(page, f"just-now-{what.game}-{label}")
        page.context.close()


def test_a_conflict_stands_beside_the_prompt(browser: Any, server: ThreadServer) -> None:  # noqa: F811
    """What the decision is about (ludica/core/names.py, ``Namer.about``) is in the part beside
    the prompt, on the first screen of a phone: a Lost Days influence shows the conflict's dice
    above the seat's choices."""
    hard = next(h for h in HARD if h.game == "lost-days" and h.action == "influence")
    _room, links, seat = reach(server, hard)
    page = page_for(browser, server, links[seat], PHONE)
    page.wait_for_selector("#pending div.about")
    about = page.locator("#pending div.about")
    said = about.inner_text()
    assert "conflict:" in said and "memories:" in said and "purse" in said
    box = about.bounding_box()
    assert box is not None and box["y"] < PHONE["height"]  # on the first screen
    actions = page.locator("#actions").bounding_box()
    assert actions is not None and actions["y"] > box["y"]  # the context first, the choices after
    curate(page, "about-lost-days-influence-phone")
    page.context.close()
