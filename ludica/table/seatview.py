"""What one connection receives: its seat's view, rendered, and nothing else.

:func:`payload` is the only function that turns a room into something a browser sees. It reads
``match.view(seat)``, ``match.story(seat)``, ``match.pending()`` and the seat's own legal actions
— never the state, the record or another seat's view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..core import CHANCE
from ..core.digest import digest, last_turn, trim
from ..core.match import LogEntry
from ..core.names import Namer, namer_of
from .faces import Key, Parts, PartStore, chance_form, composed_choices, face_input, render, render_view, value_key
from .render_cache import SaidStore, Table, fingerprint, memo, say_page, say_text
from .rooms import Room
from .storage import HOST, SPECTATOR


def seat_of(role: str) -> str | None:
    """The game seat a role plays (``None`` for spectators and the host)."""
    return None if role in (HOST, SPECTATOR) else role


Stamp = tuple[int, Key | None, tuple[tuple[int, str], ...]]
"""A step's rendering of the seats' parts (:func:`_stamp`)."""


LOG_TAIL = 30
"""A broadcast carries only the last entries of the story; a (re)connection gets all of it."""


def payload(room: Room, role: str, *, full_log: bool = True, log_from: int | None = None) -> dict[str, Any]:
    """The message for one role at the room's current step.

    The story: all of it (``full_log``), else its last :data:`LOG_TAIL` entries; ``log_from``
    (the number of entries the connection already holds) sends only the entries after those,
    or all of them when the story got shorter (an undo). The seat's part is rendered once per
    step and shared by every role that plays no seat (:func:`seat_part`)."""
    seat = seat_of(role)
    part = seat_part(room, seat)
    names = part["names"]
    return {
        "type": "state",
        "room": room.id,
        "step": room.step,
        "role": role,
        "seat": seat,
        "you": room.label(role, names),
        "waiting_for": part["waiting_for"],
        "your_turn": part["your_turn"],
        "asked": part["asked"],
        "over": part["over"],
        "html": part["html"],
        **log_part(room, seat, full_log, log_from),
        "legal": part["legal"],
        "chance": part["chance"],
        "fairness": fairness(room),
        "timer": timer(room, part["over"]),
        "notices": room.notices(),
        "archived": room.archived,
        "manage": room.can_manage(role),
        "seats": [{"role": s, "label": names[s]} for s in room.seats()] if room.can_manage(role) else [],
    }


def seat_part(room: Room, seat: str | None) -> dict[str, Any]:
    """What every role of ``seat`` (``None``: spectators and the host) sees at this step, rendered
    once per step; each rendered part is also kept until its own input changes
    (:mod:`ludica.table.render_cache`)."""
    undo_request = room.undo_request.to_json() if room.undo_request else None
    stamp = _stamp(room, undo_request)
    held = room.cache.get(("part", seat))
    if held is not None and held[0] == stamp:
        return dict(held[1])
    part = _render_part(room, seat, undo_request, _step_shared(room, stamp, undo_request))
    room.cache[("part", seat)] = (stamp, part)
    return dict(part)


def _step_shared(room: Room, stamp: Stamp, undo_request: dict[str, Any] | None) -> dict[str, Any]:
    """What every role's part reads alike at this step, read and keyed once per step (not once
    per seat): the seat names, the pending decision, the outcome, and ``renders``, the table's
    parts already rendered at this step for another seat whose input was the same."""
    held = room.cache.get(("step",))
    if held is not None and held[0] == stamp:
        return held[1]  # type: ignore[no-any-return]
    match = room.match
    pending = match.pending()
    names = room.seat_names()
    pending_json = pending.to_json()
    shared: dict[str, Any] = {
        "names": names,
        "pending": pending,
        "pending_json": pending_json,
        "outcome": _outcome_json(match) if pending.is_over else None,
        "bots": room.row.settings.get("bots") or {},
        "keys": (value_key(names), value_key(pending_json), value_key(undo_request)),
        "renders": {},
    }
    room.cache[("step",)] = (stamp, shared)
    return shared


def _stamp(room: Room, undo_request: dict[str, Any] | None) -> Stamp:
    """What tells one step's rendering of a seat's part from another's: the step, the undo
    request (as JSON) and the table's recent lines (steps and texts, compared as they are)."""
    return (room.step, None if undo_request is None else value_key(undo_request), tuple(room.recent))


def part_is_current(room: Room, seat: str | None) -> bool:
    """True when :func:`seat_part` of ``seat`` would render nothing (its part is of this step)."""
    held = room.cache.get(("part", seat))
    return held is not None and held[0] == _stamp(room, room.undo_request.to_json() if room.undo_request else None)


def _outcome_json(match: Any) -> dict[str, Any] | None:
    outcome = match.game.outcome(match.state)
    return outcome.to_json() if outcome else None


def _render_part(
    room: Room, seat: str | None, undo_request: dict[str, Any] | None, shared: dict[str, Any]
) -> dict[str, Any]:
    match = room.match
    names, pending, outcome = shared["names"], shared["pending"], shared["outcome"]
    undo_key = shared["keys"][2]
    over = pending.is_over
    legal = room.seat_legal(seat) if seat is not None and seat in pending.seats else []
    namer = namer_of(match, seat)
    said = fingerprint(namer)
    chance = None
    if seat is not None and pending.is_chance and room.physical_seat == seat:
        chance = chance_form(match.game.chance_step(match.state), namer)
    pending_json = shared["pending_json"]
    prompt = None
    if pending_json.get("prompt"):
        prompt = namer.prompt(pending_json["prompt"], pending.phase)
        pending_json = {**pending_json, "prompt": prompt}
    legal_json = [a.to_json() for a in legal]
    can_undo = room.can_undo_own(seat)
    can_request = room.can_request_undo(seat) and not can_undo
    view = match.view(seat)
    cache = room.cache
    fell_back = [False]

    def face() -> str:
        store, sayings = _room_stores(room)
        store.turn(room.step)
        sayings.turn(room.step)
        parts = Parts(store)  # the parts drawn for the room's seats, shared where their inputs are
        page = render_view(match.game, view, seat, names, pending_json, parts=parts)
        fell_back[0] = parts.fell_back
        return say_page(page, parts.drawn, namer, said, sayings)

    def actions() -> str:
        return render(
            "actions.html",
            choices=composed_choices(legal, namer),
            chance=chance,
            seat=seat,
            can_undo=can_undo,
            can_request_undo=can_request,
            undo_request=undo_request,
        )

    situation = namer.situation() if not over else None
    # what the decision is about (the parts of the face the game names), beside the prompt
    about = namer.context(match.game.render(view)) if seat is not None and seat in pending.seats and not over else []
    about = [line for line in about if line != situation]
    outcome_said = said_outcome(outcome, namer) if outcome else None

    def status() -> str:
        return render(
            "pending.html",
            pending=pending_json,
            seat=seat,
            seat_names=names,
            step=room.step,
            over=over,
            outcome=outcome_said,
            undo_request=undo_request,
            situation=situation,
            about=about,
            bots=shared["bots"],
        )

    entries = news(room, seat, namer, said)
    # each option says its consequence, computed from what the seat sees and who is waited for
    consequence_key = (value_key(view), value_key(pending_json)) if legal_json else ()
    actions_key = (value_key(legal_json), value_key(chance), can_undo, can_request, undo_key, said, consequence_key)
    # the status line reads the seat only to mark it among the awaited: every other seat shares it
    awaited = seat if seat in pending.seats else None
    outcome_key = value_key(outcome_said) if outcome_said else None
    status_key = ("pending", awaited, prompt, situation, tuple(about), outcome_key)
    news_key = ("news", *((e["kind"], e["who"], e["text"], e.get("group"), e.get("own")) for e in entries))
    face_key = _face_key(match.game, view, pending_json, shared["keys"], prompt, said)
    html = {
        "pending": _shared_render(shared, status_key, status),
        "news": _shared_render(shared, news_key, lambda: render("news.html", entries=entries)),
        "view": memo(cache, ("face", seat), face_key, face),
        "actions": memo(cache, ("actions", seat), actions_key, actions),
    }
    if fell_back[0]:  # the game's face broke and the generic one stands in: drawn again next time
        cache.pop(("face", seat), None)
    return {
        "names": names,
        "waiting_for": list(pending.seats),
        "your_turn": seat is not None and (seat in pending.seats or chance is not None),
        "asked": seat is not None and (chance is not None or (seat in pending.seats and namer.asked())),
        "over": over,
        "html": html,
        "legal": legal_json,
        "chance": chance,
    }


def _face_key(
    game: Any, view: dict[str, Any], pending: dict[str, Any], keys: tuple[Key, Key, Key], prompt: Any, said: Table
) -> tuple[Any, ...]:
    """What a seat's page is drawn from: what the game's face reads of the view and the pending
    decision (:func:`ludica.table.faces.face_input`; else both whole), the seat names and the
    namer's table."""
    names_key, pending_key, _ = keys
    reads = face_input(game)
    if reads is None:
        return (value_key(view), names_key, pending_key, prompt, said)
    return (value_key(reads(view, pending)), names_key, said)


def _room_stores(room: Room) -> tuple[PartStore, SaidStore]:
    """The room's parts drawn and said, shared by its seats (:class:`PartStore`, :class:`SaidStore`)."""
    held = room.cache.get(("face-parts",))
    if held is None:
        held = room.cache[("face-parts",)] = (PartStore(), SaidStore())
    return held  # type: ignore[no-any-return]


def _shared_render(shared: dict[str, Any], key: tuple[Any, ...], make: Callable[[], str]) -> str:
    """``make()`` once per step for every seat whose input (``key``) is the same."""
    renders: dict[tuple[Any, ...], str] = shared["renders"]
    found = renders.get(key)
    if found is None:
        found = renders[key] = make()
    return found


def said_outcome(outcome: dict[str, Any], namer: Namer) -> dict[str, Any]:
    """The outcome with its summary said in words for the viewer ("2 death(s)" -> "2 deaths")."""
    summary = outcome.get("summary")
    return {**outcome, "summary": namer.say(summary)} if isinstance(summary, str) and summary else outcome


NEWS = 5
"""How many lines of news a spectator (or the host) reads: the last ones of the story."""
DIGEST = 60
"""At most this many lines of a seat's digest (since its last turn) are said above its decision."""


def news(room: Room, seat: str | None, namer: Namer | None = None, said: Table | None = None) -> list[dict[str, Any]]:
    """What happened since ``seat`` last acted (:func:`~ludica.core.digest.digest`), grouped by
    player, its own results first, kept until it acts again (at most :data:`DIGEST` lines, the
    earliest of the others' given way first); the table's own lines of those steps last. A
    spectator reads the last :data:`NEWS` lines of the story. Each entry names its ``group``
    (the player whose action it came from; ``own`` for the seat's own)."""
    match = room.match
    names, namer = room.seat_names(), namer or namer_of(match, seat)
    if seat is None:
        found: list[LogEntry] = []
        for entry in reversed(match.log):
            if len(found) == NEWS:
                break
            if entry.event.visible(None):
                found.append(entry)
        lines = [_entry(entry, names, namer, said) for entry in reversed(found)]
        table = [_said(step, text) for step, text in room.recent]
        return sorted(lines + table, key=lambda e: e["step"])[-NEWS:]  # stable: the table's lines after a step's
    out: list[dict[str, Any]] = []
    parts = digest(match, seat)
    for part, cut in zip(parts, trim(parts, DIGEST), strict=True):  # every player keeps its latest lines
        own = part.who == seat
        group = "You" if own else names.get(part.who, part.who) if part.who else "The table"
        if cut:
            note = f"… {cut} earlier line{'s' if cut > 1 else ''}: in the story below"
            out.append({"step": part.entries[0].step, "kind": "note", "text": note, "who": group, "private": False})
            out[-1].update(group=group, own=own)
        out.extend({**_entry(entry, names, namer, said), "group": group, "own": own} for entry in part.entries[cut:])
    start = max(0, last_turn(match, seat))
    table = [{**_said(step, text), "group": "The table", "own": False} for step, text in room.recent if step >= start]
    return out + table


def _said(step: int, text: str) -> dict[str, Any]:
    """One of the table's own lines (:meth:`Room.say`) as a story entry."""
    return {"step": step, "kind": "table", "text": text, "who": "the table", "private": False}


def story_entries(room: Room, seat: str | None) -> list[dict[str, Any]]:
    """The story log as ``seat`` may see it, as plain entries in names."""
    names = room.seat_names()
    namer = namer_of(room.match, seat)
    return [_entry(entry, names, namer) for entry in room.match.story(seat)]


def story_steps(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The story as a story: per step, the narration first and the mechanical events beneath."""
    steps: list[dict[str, Any]] = []
    for e in entries:
        if not steps or steps[-1]["step"] != e["step"]:
            steps.append({"step": e["step"], "narration": [], "events": []})
        steps[-1]["narration" if e["kind"] == "narration" else "events"].append(e)
    return steps


def _entry(entry: LogEntry, names: dict[str, str], namer: Namer, said: Table | None = None) -> dict[str, Any]:
    """One story entry in names (``said``: the namer's fingerprint, its texts said once)."""
    event = entry.event
    who = names.get(str(event.data.get("seat", "")), str(event.data.get("seat", "")))
    if event.kind == "narration" and event.data.get("seat") == CHANCE:
        who = "the dealer"
    text = event.text if event.kind == "narration" else say_text(event.text, namer, said)
    return {"step": entry.step, "kind": event.kind, "text": text, "who": who, "private": bool(event.visible_to)}


def story_items(room: Room, seat: str | None) -> list[str]:
    """The seat's story as rendered list items.

    Each entry is rendered once, and each seat's list of the entries it may see grows as the
    story does (both cached on the room, dropped when undo replaces the match): a broadcast
    costs the same at step 2,000 as at step 50.
    """
    log = room.match.log
    rendered: list[str] = room.cache.setdefault("log", [])
    if len(rendered) < len(log):
        names = room.seat_names()
        namer = namer_of(room.match, None)  # the texts a seat sees name only what they already say
        for entry in log[len(rendered) :]:
            rendered.append(render("log_entry.html", entry=_entry(entry, names, namer)))
    seen, items = room.cache.setdefault(f"log:{seat}", (0, []))
    if seen < len(log):
        items.extend(html for entry, html in zip(log[seen:], rendered[seen:], strict=True) if entry.event.visible(seat))
        room.cache[f"log:{seat}"] = (len(log), items)
    return items


def log_part(room: Room, seat: str | None, full: bool, log_from: int | None = None) -> dict[str, Any]:
    items = story_items(room, seat)
    if log_from is not None and 0 <= log_from <= len(items):
        start = log_from  # the connection holds the entries before it
    else:
        start = 0 if full or log_from is not None else max(0, len(items) - LOG_TAIL)
    return {"log": items[start:], "log_start": start, "log_total": len(items)}


def timer(room: Room, over: bool) -> dict[str, float] | None:
    """The turn timer: its length and the seconds left for the current decision (None: no timer)."""
    if not room.turn_timer or over:
        return None
    left = room.decision_started + room.turn_timer - time.time()
    return {"seconds": room.turn_timer, "left": round(left, 1)}


def fairness(room: Room) -> dict[str, Any]:
    """The published seed hash; the seed itself only once the game is over."""
    out: dict[str, Any] = {"seed_hash": room.row.seed_hash, "physical_seat": room.physical_seat}
    if room.is_over():
        out["seed"] = room.row.seed
    return out
