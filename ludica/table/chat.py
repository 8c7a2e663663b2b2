"""Table talk: a chat per room, beside the game (issue 20, "the table can talk").

Anyone seated speaks without taking an action: a line **to the table** (every seat, the host and
the spectators read it), a **whisper** to one seat (only its two ends read it: the GM briefing a
player, a player asking the GM), or — for the referee's seat (the GM) — **narration** to the
table, set apart as the scene's description. The host speaks as the host; spectators only read.

Lines are stored durably with the room (table ``chat``, Alembic migration ``0003_chat``), each
with the room's step when it was said, so the story export puts them in order with the actions.
A whisper is a secret: it reaches only the connections of its two roles, and only their exports.
Lines carry names (the seat's label), never tokens or role ids; the text is plain (a browser shows
it with ``textContent``, the story templates escape it), at most :data:`MAX_TEXT` characters, and
each role may say at most :data:`BURST` lines per :data:`WINDOW` seconds in a room.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Connection, DateTime, ForeignKey, Integer, String, Table, Text, func, insert, select

from .rooms import TABLE_SPEAKER, TableError
from .storage import HOST, SPECTATOR, Store, metadata

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(40), ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("step", Integer, nullable=False),
    Column("sender", String(60), nullable=False),
    Column("recipient", String(60), nullable=True),
    Column("kind", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

MAX_TEXT = 500
"""The longest line, in characters."""
BURST = 5
WINDOW = 10.0
"""At most ``BURST`` lines per ``WINDOW`` seconds, per role and room."""
MAX_LINES = 2000
"""The most lines of people's talk a room keeps (past it a line is refused; the table's own
lines still go in the story)."""
PAGE = 100
"""The most lines one ``chat_history`` answer carries (the latest; older pages with ``before``)."""
KINDS = ("say", "whisper", "narrate")
"""What a person may say; the table itself says lines of kind ``table`` (undo, declines, the
clock, an action that left nothing in the story: :meth:`Room.say`)."""
TALK = frozenset(KINDS)
"""The kinds of the talk panel: what people write (and the GM's narration). The table's own lines
are stored with the talk (the story export puts them in order) but read in the log: a seat's
"Since your last turn" and the story, never the talk panel."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of table talk, as stored."""

    id: int
    step: int
    sender: str
    recipient: str | None
    kind: str
    text: str

    def visible(self, role: str) -> bool:
        """A whisper is read by its two ends only; every other line by everyone in the room."""
        return self.recipient is None or role in (self.sender, self.recipient)

    @property
    def talk(self) -> bool:
        """Whether a person said it (the talk panel's lines), not the table."""
        return self.kind in TALK


class Limiter:
    """The rate limit of table talk (one per table process; a room is served by one process)."""

    def __init__(self, burst: int = BURST, window: float = WINDOW) -> None:
        self.burst, self.window = burst, window
        self.said: dict[tuple[str, str], deque[float]] = {}

    def allow(self, room_id: str, role: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self.said.setdefault((room_id, role), deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) >= self.burst:
            return False
        times.append(now)
        return True


LIMITER = Limiter()


def clean(text: Any) -> str:
    """The line's text: a string, stripped, not empty, at most :data:`MAX_TEXT` characters, no
    control characters but line breaks."""
    if not isinstance(text, str):
        raise TableError("a chat line is text", rule="chat")
    text = "".join(c for c in text if c in "\n" or c.isprintable()).strip()
    if not text:
        raise TableError("say something (the line is empty)", rule="chat")
    if len(text) > MAX_TEXT:
        raise TableError(f"a chat line is at most {MAX_TEXT} characters (this one has {len(text)})", rule="chat")
    return text


def check(room: Any, role: str, message: dict[str, Any]) -> tuple[str, str | None, str]:
    """``(kind, recipient, text)`` of a ``chat`` message from ``role``, or a :class:`TableError`
    naming what is wrong: spectators read only; a whisper goes to another seat of the room;
    narration is the referee's (the GM's)."""
    if role == SPECTATOR:
        raise TableError("spectators read the table talk; only seats and the host speak", rule="chat")
    text = clean(message.get("text"))
    to = message.get("to")
    narrate = bool(message.get("narrate"))
    if to is not None:
        if not isinstance(to, str) or to not in room.seats() or to == role:
            raise TableError("whisper to another seat at this table", rule="chat")
        if narrate:
            raise TableError("narration is said to the whole table, not whispered", rule="chat")
        return "whisper", to, text
    if narrate:
        if role != room.game.meta.referee:
            raise TableError("only the GM narrates the scene; say it to the table instead", rule="chat")
        return "narrate", None, text
    return "say", None, text


def add(store: Store, room_id: str, step: int, role: str, kind: str, recipient: str | None, text: str) -> Line:
    """Store a line (committed before anyone is told)."""
    with store.engine.begin() as conn:
        return write(conn, room_id, step, role, kind, recipient, text)


_INSERT = insert(chat)
"""The statement of :func:`write`, built once and given each line's values as parameters (a
statement built with ``.values(...)`` at every line cost about five times its run on SQLite)."""


def write(conn: Connection, room_id: str, step: int, role: str, kind: str, recipient: str | None, text: str) -> Line:
    """Insert a line in ``conn``'s transaction."""
    values = {"room_id": room_id, "step": step, "sender": role, "recipient": recipient, "kind": kind, "text": text}
    result = conn.execute(_INSERT, {**values, "created": datetime.now(UTC)})
    key = result.inserted_primary_key
    return Line(int(key[0]) if key else 0, step, role, recipient, kind, text)


def table_lines(room_id: str, said: list[tuple[int, str]]) -> Callable[[Connection], list[Line]]:
    """The table's own lines ``(step, text)``, to be written in the transaction of the actions
    they speak of (:meth:`Store.append`'s ``also``): one commit for both."""
    return lambda conn: [write(conn, room_id, step, TABLE_SPEAKER, "table", None, text) for step, text in said]


def lines(store: Store, room_id: str, before: int | None = None, latest: int | None = None) -> list[Line]:
    """The lines of a room in the order said: every one, or those before line id ``before``, or
    only the ``latest`` of them."""
    query = select(chat).where(chat.c.room_id == room_id)
    if before is not None:
        query = query.where(chat.c.id < before)
    query = query.order_by(chat.c.id.desc()).limit(latest) if latest is not None else query.order_by(chat.c.id)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    found = [Line(r.id, r.step, r.sender, r.recipient, r.kind, r.text) for r in rows]
    return found[::-1] if latest is not None else found


def said_by_people(store: Store, room_id: str) -> int:
    """How many lines people said in the room (the table's own lines not counted)."""
    query = select(func.count()).where(chat.c.room_id == room_id, chat.c.kind != "table")
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def add_checked(store: Store, room_id: str, step: int, role: str, kind: str, recipient: str | None, text: str) -> Line:
    """:func:`add` a person's line, refused once the room holds :data:`MAX_LINES` of them."""
    if said_by_people(store, room_id) >= MAX_LINES:
        raise TableError(f"this room's talk is full ({MAX_LINES} lines): nothing more can be said here", rule="chat")
    return add(store, room_id, step, role, kind, recipient, text)


def history_page(store: Store, room: Any, role: str, before: Any = None) -> dict[str, Any]:
    """A ``chat`` frame of at most :data:`PAGE` lines ``role`` may read: the latest, or those said
    before line id ``before``; ``more`` says whether older lines are left, ``full`` (the whole
    talk so far) only for the first page when nothing older is left."""
    if before is not None and (not isinstance(before, int) or isinstance(before, bool)):
        raise TableError("'before' is the id of a line of talk", rule="chat")
    found: list[Line] = []
    scanned, more = before, True
    while more and len(found) < PAGE + 1:
        chunk = lines(store, room.id, scanned, PAGE * 4)
        more = len(chunk) == PAGE * 4
        found[:0] = [line for line in chunk if line.visible(role)]
        if chunk:
            scanned = chunk[0].id
    older = len(found) > PAGE or more
    frame = history(room, role, found[-PAGE:])
    frame["full"] = before is None and not older
    frame["more"] = older
    return frame


def label(room: Any, role: str) -> str:
    if role == TABLE_SPEAKER:
        return "the table"
    return "the host" if role == HOST else str(room.label(role))


def line_json(room: Any, line: Line) -> dict[str, Any]:
    """A line as a browser receives it: names, never roles or tokens."""
    out: dict[str, Any] = {"id": line.id, "step": line.step, "kind": line.kind, "who": label(room, line.sender)}
    out["text"] = line.text
    if line.recipient is not None:
        out["to"] = label(room, line.recipient)
    return out


def history(room: Any, role: str, found: list[Line]) -> dict[str, Any]:
    """The ``chat`` frame a connection gets when it (re)connects: the lines it may read, whom it
    may whisper to, and whether it may narrate."""
    targets = [{"role": s, "label": room.label(s)} for s in room.seats() if s != role] if role != SPECTATOR else []
    return {
        "type": "chat",
        "lines": [line_json(room, line) for line in found if line.talk and line.visible(role)],
        "full": True,
        "targets": targets,
        "narrate": role == room.game.meta.referee,
        "speak": role != SPECTATOR,
        "max": MAX_TEXT,
    }


def story_lines(room: Any, role: str, found: list[Line]) -> list[dict[str, Any]]:
    """The lines ``role`` may read, as story entries (a whisper only in its two ends' stories):
    said before the action of step ``n`` -> placed with step ``n``."""
    out = []
    for line in found:
        if not line.visible(role):
            continue
        who = label(room, line.sender)
        if line.kind == "whisper":
            who = f"{who}, whispering to {label(room, line.recipient or '')}"
        elif line.kind == "narrate":
            who = f"{who}, narrating"
        kind = "table" if line.kind == "table" else "narration"  # the table's own lines read as events
        out.append({"step": line.step, "kind": kind, "text": line.text, "who": who, "private": False})
    return out


def merged(entries: list[dict[str, Any]], talk: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The story's entries and the table talk in one order: a line said at step ``n`` comes after
    the entries of the steps before ``n`` (stable otherwise)."""
    out: list[dict[str, Any]] = []
    pending = list(talk)
    for entry in entries:
        while pending and pending[0]["step"] <= entry["step"]:
            out.append({**pending.pop(0), "step": entry["step"]})
        out.append(entry)
    last = entries[-1]["step"] if entries else 0
    out.extend({**line, "step": max(line["step"], last)} for line in pending)
    return out
