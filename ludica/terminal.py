"""One table in the terminal (``ludica play``): names instead of ids, choices composed step by step.

The screen speaks through the game's :class:`~ludica.core.names.Namer` and offers decisions through
the :mod:`~ludica.core.composer`, like every other front end. It is built to fit 80×24: a compact
header, the seat's table cut to what fits (``view`` shows all of it), at most a dozen numbered
options at a time. At every prompt ``?`` gives help, ``log`` the story so far, ``view`` the whole
table, ``back`` goes one step back and ``quit`` stops (the game is saved after every action).
Narration is never asked for: add it to any answer after ``--`` (``3 -- I bribe the guard``).
"""

from __future__ import annotations

import getpass
import re
import shutil
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from .core import CHANCE, Action, IntRange, LudicaError, Match, Text, matches
from .core.chance import ChanceStep, EachSays, Pick, Roll, Shuffle, chance_action, describe_chance
from .core.composer import (
    PAGE,
    Ask,
    Choice,
    Composition,
    choice_note,
    choices,
    only_text_left,
    option_note,
    sections,
)
from .core.digest import Part, digest, last_turn
from .core.names import Namer, decision_context, face_blocks, listing, namer_of, sentence_case
from .core.records import save_record
from .handover import SharedScreen, holds_secret, private_story

HEIGHT = 24
WIDTH = 80
FACE_LINES = 8
"""How many lines of the seat's table a decision screen shows (``view`` shows them all)."""
NEWS = 4
"""How many lines of news (what happened since the seat last acted) a decision screen shows."""
CONTEXT_LINES = 15
"""At most this many lines of what the decision is about (:func:`~ludica.core.names.decision_context`)
head a question's screen; the rest is one key away (``view``)."""

HELP = """  N          choose option N; add narration after --, e.g.  2 -- I bribe the guard
  TYPE k=v   an action in notation, e.g.  pass_reaction  (narration after -- too)
  back       one step back (another option, or another seat)
  view       the whole table as you may see it
  log        the story so far, as you may see it
  quit       stop here (the game is saved; resume with  ludica play --load FILE)"""


class Back(Exception):
    """The person asked to go one step back."""


class Quit(Exception):
    """The person asked to stop."""


class Notation(Exception):
    """The person typed a whole action in notation instead of answering the question."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class UserError(Exception):
    """A mistake at the keyboard: said in one line, and the question is asked again."""


def split_narration(raw: str) -> tuple[str, str | None]:
    """``"2 -- I bribe the guard"`` -> ``("2", "I bribe the guard")``."""
    head, sep, tail = raw.partition(" -- ")
    if not sep and raw.endswith(" --"):
        head = raw[:-3]
    return head.strip(), (tail.strip() or None) if sep else None


class Terminal:
    """Plays a match at one table: whose decision it is, their table, their options, by name."""

    def __init__(
        self,
        match: Match[Any],
        save: Path,
        *,
        physical: str | None = None,
        ask: Callable[[str], str] | None = None,
        console: Console | None = None,
        bots: Mapping[str, Any] | None = None,
        ask_secret: Callable[[str], str] | None = None,
    ) -> None:
        self.match = match
        self.save = save
        self.physical = physical
        """``None`` (the dealer rolls and shuffles), ``"all"`` (everything typed from the real
        components) or ``"dice"`` (real dice typed, hidden cards dealt by the table)."""
        self.ask_raw: Callable[[str], str] = ask or (lambda prompt: input(prompt))
        self.ask_secret: Callable[[str], str] = ask_secret or getpass.getpass
        """A hidden chance outcome typed at a real table is read without echo."""
        self.console = console or Console(highlight=False, width=min(WIDTH, shutil.get_terminal_size().columns))
        self.bots = dict(bots or {})
        self.last_seat: str | None = None
        self.seen: dict[str | None, int] = {}
        """Per seat, how much of the story it has been shown (what happened since is said first)."""
        self.narration: str | None = None
        """Narration typed after ``--`` in any answer of the decision under way."""
        people = [s for s in match.game.seats(match.state) if s not in self.bots]
        hidden = match.game.meta.hidden_information and len(people) > 1  # alone with bots: nobody else looks
        self.screen = SharedScreen(self.console, hidden=hidden)
        """The hand-over protocol: whose private things may be on the screen, wiped between holders."""
        self.typed_ahead: list[str] = []
        """What was typed at a hand-over prompt: the first answer of the screen that follows."""
        self.printed = 0
        """Lines printed so far (what scrolls the screen), to keep a decision's context in sight."""
        self._context: tuple[tuple[str, int] | None, list[str]] = (None, [])
        self.context_at: int | None = None
        self.bots_went: tuple[str, ...] | None = None
        """The seats of the decision a bot last took a step of, until a person takes one: a bot
        that may act again at once (Euthymia's group letting the clock run) waits for a person
        who decides beside it."""
        """:attr:`printed` just before the decision's context was last printed (``None``: not yet)."""

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the end; on ``quit`` or any error the screen is wiped before it is said."""
        game = self.match.game
        self.say(f"{game.meta.title} — saved after every action to {self.save}")
        self.say("Type the number of an option; '?' for help. Narration is optional: add it after --.")
        try:
            while True:
                pending = self.match.pending()
                if pending.is_over:
                    self.finish()
                    return 0
                try:
                    if pending.is_chance:
                        self.chance()
                    else:
                        self.turn(pending.seats)
                except Back:
                    self.screen.public()
                    continue
                save_record(self.match, self.save)
        except BaseException:
            self.screen.public()
            raise

    def turn(self, seats: Sequence[str]) -> None:
        """Bots decide first, without asking; but where a person decides beside a bot that has
        just taken a step of this same decision, the person is asked who goes on (Enter: the
        person), so that a bot never runs the game on while a person waits."""
        bots = [s for s in seats if s in self.bots]
        people = [s for s in seats if s not in self.bots]
        if bots and (not people or self.bots_went != tuple(seats)):
            seat = bots[0]
        elif len(seats) == 1:
            seat = seats[0]
        else:
            seat = self.choose_seat([*people, *bots])
        if seat in self.bots:
            self.bots_went = tuple(seats)
            self.bot_turn(seat)
            return
        self.bots_went = None
        self.hand_over(seat)
        self.decide(seat)

    def finish(self) -> None:
        """The end of the game is public."""
        self.screen.public()
        namer = self.namer(None)
        self.console.rule("The game is over")
        self.say(namer.say(self.match.game.render(self.match.view(None))))
        outcome = self.match.game.outcome(self.match.state)
        if outcome is not None:
            winners = ", ".join(namer.seat(s) for s in outcome.winners)
            self.say(f"Result: {namer.say(outcome.summary) if outcome.summary else winners}")
        save_record(self.match, self.save)
        self.say(f"Record saved to {self.save}")

    # -- output --------------------------------------------------------------------------------
    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False)
        self.printed += text.count("\n") + 1

    def context_lines(self, seat: str) -> list[str]:
        """What the decision is about (:func:`~ludica.core.names.decision_context`), wrapped to
        the width, at most :data:`CONTEXT_LINES` lines."""
        key = (seat, len(self.match.actions))
        if self._context[0] == key:
            return self._context[1]
        lines: list[str] = []
        for line in decision_context(self.match, seat):
            lines.extend(textwrap.wrap(line, WIDTH - 1, subsequent_indent="    ", break_on_hyphens=False) or [""])
        if len(lines) > CONTEXT_LINES:
            lines = [*lines[: CONTEXT_LINES - 1], f"… {len(lines) - CONTEXT_LINES + 1} more lines: type 'view'"]
        self._context = (key, lines)
        return lines

    def show_context(self, lines: Sequence[str]) -> None:
        """The decision's context, printed where the question's screen starts."""
        self.context_at = self.printed
        for line in lines:
            self.say(line, style="bold")

    def keep_context(self, seat: str, need: int, *, again: bool = False) -> None:
        """Before a question of ``need`` lines: when the decision's context would scroll off the
        80×24 screen (or ``again``: a step of a decision under way, whose screen starts with it
        whatever its length, so that what shows does not tell how many options there are), it is
        printed again above the question (cut to the room left)."""
        lines = self.context_lines(seat)
        if not lines or self.context_at is None:
            return
        if not again and self.printed - self.context_at + need <= HEIGHT:
            return
        room = max(1, HEIGHT - need - 1)
        self.say("")
        self.show_context(lines if len(lines) <= room else [*lines[: room - 1], "… type 'view' for the rest"])

    def namer(self, viewer: str | None) -> Namer:
        return namer_of(self.match, viewer)

    def show_face(self, seat: str | None, *, whole: bool = False, budget: int = 0, shown: bool = False) -> None:
        """The seat's table as the game draws it; cut to ``budget`` lines, what the decision is
        about first (see :func:`focus`), the rest one key away (``view``). ``shown``: the parts
        the decision is about (:meth:`~ludica.core.names.Namer.about`) are already on the screen
        and are left out here."""
        face = self.match.game.render(self.match.view(seat))
        if shown and seat is not None:
            heads = tuple(h for h in self.namer(seat).about() if h)
            rows = face.splitlines()
            blocks = [b for b in face_blocks(rows[1:]) if not (heads and b[0].startswith(heads))]
            kept = [row for block in blocks for row in block]
            face = "\n".join(rows[:1] + kept)
        text = self.namer(seat).say(face)
        if not whole and budget < 2 and shown:
            self.say("(the whole table: type 'view')")
            return
        keep = max(2, budget) if shown else max(3, budget or FACE_LINES)  # never past the room left
        rows = text.splitlines()
        if not whole:
            phase = self.namer(seat).say(str(self.match.pending().phase))
            rows = focus(rows, phase)
        lines: list[str] = []
        for line in rows:
            lines.extend(textwrap.wrap(line, WIDTH - 1, subsequent_indent="    ", break_on_hyphens=False) or [""])
        if not whole and len(lines) > keep:
            lines = [*lines[: keep - 1], f"… {len(lines) - keep + 1} more lines: type 'view'"]
        self.say("\n".join(lines))

    def show_news(self, seat: str | None, namer: Namer, budget: int = NEWS) -> int:
        """What happened since this seat last acted, its own results first (a Conflict's result,
        a roll), said in at most ``budget`` lines; returns how many were printed."""
        if seat is None:
            return 0
        public = self.screen.hidden and self.screen.holder != seat  # a screen nobody handed over
        return self.show_digest(digest(self.match, seat, public=public), namer, seat, budget)

    def show_digest(self, parts: list[Part], namer: Namer, seat: str, budget: int) -> int:
        """A digest (:func:`~ludica.core.digest.digest`) in at most ``budget`` lines: per player a
        heading and their lines, the earliest of the longest groups cut first (``log`` has them)."""
        lines = digest_lines(parts, namer, seat, budget)
        for line in lines:
            self.say(line)
        return len(lines)

    def show_log(self, seat: str | None) -> None:
        namer = self.namer(seat)
        entries = self.match.story(seat)[-(HEIGHT - 4) :]
        for entry in entries:
            line = namer.say(entry.event.text)
            if entry.event.kind == "narration":
                line = f"“{line}”"
            self.say(textwrap.shorten(f"{entry.step:>4}  {line}", WIDTH - 1, placeholder="…"))
        if not entries:
            self.say("  (nothing yet)")

    # -- asking --------------------------------------------------------------------------------
    def ask(self, prompt: str, seat: str | None = None) -> str:
        """A line from the keyboard; the words every prompt knows are answered here."""
        while True:
            typed = self.typed_ahead.pop(0) if self.typed_ahead else self.ask_raw(prompt)
            self.printed += 1  # the prompt's line, answered
            raw, narration = split_narration(typed.strip())
            if narration:
                self.narration = narration
            word = raw.lower()
            if word in ("?", "help"):
                self.say(HELP)
            elif word == "log":
                held = seat is None or not self.screen.hidden or self.screen.holder == seat
                if not held and private_story(self.match, str(seat)):  # its secrets: its player first
                    self.hand_over(str(seat), force=True)
                self.show_log(seat)
            elif word == "view":
                self.show_face(seat, whole=True)
            elif word in ("quit", "exit"):
                raise KeyboardInterrupt
            elif word in ("back", "<"):  # not "b": options may be lettered
                raise Back
            else:
                return raw

    def numbered(
        self, labels: Sequence[str], details: Sequence[str | None] = (), *, letters: bool = False, rows: int = 2
    ) -> None:
        """Options as a numbered (or lettered) list, each with its text beneath when it has one
        (a recruit's ability) in at most ``rows`` lines; at most
        :data:`~ludica.core.composer.PAGE` at a time is the caller's duty."""
        for i, label in enumerate(labels, 1):
            mark = f"{LETTERS[i - 1]:>2})" if letters else f"{i:>2}."
            self.say(f"  {mark} " + textwrap.shorten(label, WIDTH - 7, placeholder="…"))
            detail = details[i - 1] if i - 1 < len(details) else None
            if detail:
                self.say("\n".join(detail_rows(detail, rows)))

    # -- seats ---------------------------------------------------------------------------------
    def choose_seat(self, seats: Sequence[str]) -> str:
        """Several seats decide now (sealed bids, answers): the chooser names them; Enter takes
        the first; ``back`` from a seat's screen returns here."""
        self.screen.public()
        namer = self.namer(None)
        names = [namer.seat(s) for s in seats]
        self.console.rule("Several players decide now")
        self.numbered(
            [f"{name} (a bot: it goes on)" if s in self.bots else name for s, name in zip(seats, names, strict=True)]
        )
        while True:
            raw = self.ask(f"Who decides? [Enter: {names[0]}] ")
            if not raw:
                return seats[0]
            if raw.isdigit() and 1 <= int(raw) <= len(seats):
                return seats[int(raw) - 1]
            for seat, name in zip(seats, names, strict=True):
                if raw.lower() in (seat.lower(), name.lower()):
                    return seat
            self.say(f"Choose 1..{len(seats)} or a name.", style="red")

    def hand_over(self, seat: str, *, force: bool = False) -> None:
        """With hidden information, a seat's private screen is shown only once its player holds
        the keyboard: the screen is wiped (scrollback too) and, until they press Enter, shows only
        what every seat may see (what happened in the open since the last hand-over). A screen
        with nothing private on it (:func:`~ludica.handover.holds_secret`) asks nobody: a private
        screen before it is wiped and the next person goes on. What is typed at the prompt is the
        first answer of the seat's screen (it is not lost)."""
        if not self.screen.needs_hand_over(seat):
            return
        if self.last_seat == seat and self.screen.holder is None:  # the same person goes on
            if force or holds_secret(self.match, seat, self.seen_of(seat)):
                self.screen.private(seat)
            return
        if not force and not holds_secret(self.match, seat, self.seen_of(seat)):
            self.screen.public()
            self.last_seat = seat
            return
        self.screen.public()
        namer = self.namer(None)
        self.console.rule(f"{self.match.game.meta.title} — {namer.seat(seat)} next")
        self.show_digest(digest(self.match, seat, public=True), namer, seat, HEIGHT - 4)
        typed = self.screen.hand_over(seat, namer.seat(seat), self.ask)
        if isinstance(typed, str) and typed.strip():
            self.typed_ahead.append(typed)
        self.last_seat = seat

    def seen_of(self, seat: str) -> int:
        """The step the news of ``seat``'s next screen starts at (its last action)."""
        return max(0, last_turn(self.match, seat))

    def bot_turn(self, seat: str) -> None:
        from .bots.base import situation

        self.screen.public()
        namer = self.namer(None)
        self.say(f"{namer.seat(seat)} is thinking…", style="cyan")
        decision = self.bots[seat].decide(situation(self.match, seat))
        events = self.match.apply(decision.as_action())
        # The screen is shared: a bot's move is said as every seat may see it (its public events;
        # the action itself only in a game without hidden information, never a sealed bid).
        lines = [namer.say(e.text) for e in events if e.visible(None)]
        if not self.match.game.meta.hidden_information:
            lines.insert(0, namer.sentence(decision.action))
        for line in lines or [f"{namer.seat(seat)} (a bot) has decided"]:
            self.say(line, style="cyan")
        if decision.narration:
            self.say(f"{namer.seat(seat)}: “{decision.narration}”", style="cyan")

    # -- a decision ----------------------------------------------------------------------------
    def decide(self, seat: str) -> None:
        match, namer = self.match, self.namer(seat)
        phase = namer.say(str(match.pending().phase)).replace("_", " ").lower()
        self.console.rule(sentence_case(f"{namer.seat(seat)} decides") + (f" — {phase}" if phase else ""))
        self.printed += 1
        legal = match.legal_actions(seat)
        options = choices(legal)
        notes = [choice_note(namer, c) for c in options]  # each one-button choice's consequence
        context = self.context_lines(seat)
        rows = detail_budget(notes, HEIGHT - 4 - len(context))
        listed = len(options) > 1 or options[0].single
        asked = options_height(notes, rows) if listed else 6
        self.context_at = None
        self.show_context(context)  # what the decision is about, first
        room = HEIGHT - 3 - len(context) - asked
        news = self.show_news(seat, namer, max(0, min(NEWS, room - 2)))
        self.show_face(seat, budget=room - news, shown=bool(context))
        self.narration = None
        if len(options) == 1 and not options[0].single:  # one choice: straight to its first question
            self.apply_composed(namer, options[0], seat)
            return
        while True:
            self.keep_context(seat, 2 + asked)
            self.say("")
            self.numbered([self.choice_label(namer, c) for c in options], notes, rows=rows)
            head = self.ask(f"{namer.seat(seat)}> ", seat)
            if not head:
                continue
            try:
                if head.isdigit():
                    index = int(head) - 1
                    if not 0 <= index < len(options):
                        raise UserError(f"choose 1..{len(options)}")
                    try:
                        action = self.compose(namer, Composition(options[index]), seat)
                    except Notation as typed:
                        action = self.parse(seat, typed.text, legal)
                else:
                    action = self.parse(seat, head, legal)
                match.apply(action.with_narration(self.narration))
                return
            except Back:
                continue
            except (LudicaError, UserError, ValueError) as exc:
                self.say(f"Refused: {namer.say(str(exc))}", style="red")

    def apply_composed(self, namer: Namer, choice: Choice, seat: str) -> None:
        while True:
            try:
                try:
                    action = self.compose(namer, Composition(choice), seat)
                except Notation as typed:
                    action = self.parse(seat, typed.text, self.match.legal_actions(seat))
                self.match.apply(action.with_narration(self.narration))
                return
            except (LudicaError, ValueError) as exc:
                self.say(f"Refused: {namer.say(str(exc))}", style="red")

    @staticmethod
    def choice_label(namer: Namer, choice: Choice) -> str:
        if choice.single:
            return namer.choice_label(choice.templates[0])
        composed = Composition(choice)
        step = composed.ask()
        if step is not None and not step.values and len(choice.templates) == 1:
            return f"{namer.action_title(choice.type)} (type {namer.param_label(choice.type, step.param)})"
        return f"{namer.action_title(choice.type)} …"

    def compose(self, namer: Namer, composition: Composition, seat: str) -> Action:
        """Walk one choice parameter by parameter; ``back`` undoes the last pick (and, with
        nothing picked, returns to the list of options)."""
        while True:
            step = composition.ask()
            if step is None:
                return composition.action()
            try:
                value = self.pick(namer, composition.choice, step, seat, composition)
            except Back:
                if not composition.picks:
                    raise
                composition = composition.back()
                continue
            try:
                composition = composition.pick(step.param, value)
            except ValueError as exc:
                self.say(f"Refused: {exc}", style="red")

    def pick(self, namer: Namer, choice: Choice, step: Ask, seat: str, composition: Composition | None = None) -> Any:
        """One value for ``step``: from the numbered values (by pages of :data:`PAGE`, grouped
        when the game groups them), or typed into the field. A number is never both: where the
        values are numbers (an amount of coins), the person types the number itself; where a
        number may be typed beside named values, those are lettered (``a``, ``b``…)."""
        composing = composition if composition is not None else Composition(choice)
        if is_amount(step):
            return self.pick_amount(namer, choice, step, seat, composing)
        label = namer.param_label(choice.type, step.param)
        title = namer.action_title(choice.type)
        detailed = any(option_note(namer, composing, step.param, v) for v in step.values)
        limit = PAGE // 2 if detailed else PAGE
        pages = sections(step.values, lambda v: namer.group(choice.type, step.param, v), limit)
        lettered = isinstance(step.field, IntRange)
        page = 0
        while True:
            if step.values:
                heading, values = pages[page]
                details = [option_note(namer, composing, step.param, v) for v in values]  # detail and consequence
                rows = detail_budget(details, HEIGHT - 3 - len(self.context_lines(seat)))
                self.keep_context(seat, 2 + options_height(details, rows), again=True)
                self.say(f"{title} — {label}" + (f" ({heading})" if heading else ""))
                labels = [namer.value(choice.type, step.param, v) for v in values]
                self.numbered(labels, details, letters=lettered, rows=rows)
                more = f", 'n' for the next {len(pages) - 1} page(s)" if len(pages) > 1 else ""
                field = self.field_hint(namer, choice.type, step) if step.field is not None else ""
                span = f"a..{LETTERS[len(values) - 1]}" if lettered else f"1..{len(values)}"
                raw = self.ask(f"  {label}? ({span}{more}{field}) ", seat)
                if raw.lower() == "n" and len(pages) > 1:
                    page = (page + 1) % len(pages)
                    continue
                chosen = option_index(raw, len(values), letters=lettered)
                if chosen is not None:
                    return values[chosen]
                if step.field is None:
                    if raw and self.is_notation(seat, raw):
                        raise Notation(raw)
                    self.say(f"Choose {span}.", style="red")
                    continue
            else:
                effect = text_effect(namer, composing)
                self.keep_context(seat, 2 + len(effect), again=True)
                self.say(f"{title} — {label}" + self.field_hint(namer, choice.type, step, prompt=False))
                for line in effect:  # what the action does once its words are written (they change nothing)
                    self.say(line)
                spec = step.field
                lead = f"{spec.prefix} " if isinstance(spec, Text) and spec.prefix else ""
                raw = self.ask(f"  {label}: {lead}", seat)
            try:
                return self.typed(step.field, raw)
            except UserError as exc:
                self.say(str(exc), style="red")

    def pick_amount(
        self, namer: Namer, choice: Choice, step: Ask, seat: str, composition: Composition | None = None
    ) -> int:
        """A number asked on its own line: the person types the amount itself (``1`` is one
        coin, never option 1); what a number means, and what it does as the rules will apply
        it, is said beside it."""
        label = namer.param_label(choice.type, step.param)
        allowed = amount_words(step)
        composing = composition or Composition(choice)
        lead = namer.action_effect(composing.remaining[0]) if not composing.picks else None
        named = [(v, amount_note(namer, composing, step, v)) for v in amount_values(step)]
        named = [(v, text) for v, text in named if text and text.strip() != str(v)]
        # the numbers' meanings give way before what the decision is about (the dice a die is picked from)
        room = max(2, min(PAGE, HEIGHT - 3 - (2 if lead else 0) - len(self.context_lines(seat))))
        shown = named if len(named) <= room else named[: room - 1]
        rows = 2 if 2 * len(shown) <= room else 1  # a value's meaning on two lines when the screen has room
        said = [amount_rows(value, text, rows) for value, text in shown]
        need = 2 + (2 if lead else 0) + sum(map(len, said)) + (len(shown) < len(named))
        self.keep_context(seat, need, again=True)
        self.say(f"{namer.action_title(choice.type)} — {label} ({allowed})")
        if lead:  # what the whole action commits, before its first number (ratings fixed for the game)
            short = textwrap.shorten(lead, 2 * (WIDTH - 4), placeholder="…")
            self.say(textwrap.fill(short, WIDTH - 1, initial_indent="  ", subsequent_indent="  "))
        for lines in said:
            self.say("\n".join(lines))
        if len(shown) < len(named):
            rest = [v for v, _ in named[len(shown) :]]
            self.say(f"  … and {amount_span(rest)} alike")
        while True:
            raw = self.ask(f"  {label}? ({allowed}) ", seat)
            if _is_whole(raw) and accepts_amount(step, int(raw)):
                return int(raw)
            if raw and not _is_whole(raw) and self.is_notation(seat, raw):
                raise Notation(raw)
            self.say(f"Type {allowed}.", style="red")

    def is_notation(self, seat: str, raw: str) -> bool:
        """Whether an answer is a whole action typed in notation (it starts with an action type
        the seat may play now); anything else is a mistyped answer, asked again."""
        head = raw.split()[0].lower() if raw.split() else ""
        return any(t.type == head for t in self.match.legal_actions(seat))

    @staticmethod
    def field_hint(namer: Namer, kind: str, step: Ask, *, prompt: bool = True) -> str:
        spec = step.field
        if isinstance(spec, IntRange):
            return f", or a number {spec.lo}..{spec.hi}" if prompt else f" (a number {spec.lo}..{spec.hi})"
        if isinstance(spec, Text):
            return f" ({spec.hint})"
        return ""

    @staticmethod
    def typed(spec: Text | IntRange | None, raw: str) -> Any:
        if isinstance(spec, IntRange):
            if not raw.lstrip("-").isdigit():
                raise UserError(f"type a whole number {spec.lo}..{spec.hi}")
            return int(raw)
        if isinstance(spec, Text):
            text = raw
            if spec.prefix and not text.startswith(spec.prefix):
                text = f"{spec.prefix} {text}"
            if not spec.accepts(text):
                raise UserError(f"write {spec.min_len}..{spec.max_len} characters ({spec.hint})")
            return text
        raise UserError("choose one of the numbers")

    def parse(self, seat: str, raw: str, legal: list[Action]) -> Action:
        """An action typed in notation (the seat may be left out)."""
        action = Action.parse(raw if raw.startswith(seat + " ") else f"{seat} {raw}")
        if not any(matches(t, action) for t in legal):
            self.match.check(action)  # the refusal names the rule that refuses it
        return action

    def fill_in(self, template: Action) -> Action:
        """Every free parameter of one template typed in turn (kept for tools and tests)."""
        namer = self.namer(template.seat)
        composition = Composition(choices([template])[0])
        return self.compose(namer, composition, template.seat)

    # -- chance --------------------------------------------------------------------------------
    def chance(self) -> None:
        """Fill a chance step. The screen is shared: it shows the step only as every seat may
        see it (:func:`~ludica.core.chance.describe_chance`: a die's faces, never a shuffled
        order or a card dealt). At a real table, dice are typed in the open; a hidden pick that
        each seat can say for itself (an identity card's colour) is typed by each seat in its
        own turn at the keyboard, without echo; a hidden deal nobody may type alone (a whole
        deck's order) is dealt by the table, each seat seeing its own cards on its own screen."""
        step = self.match.game.chance_step(self.match.state)
        namer = self.namer(None)
        self.screen.public()
        if isinstance(step, Pick) and step.each is not None and self.physical == "all":
            self.each_says(step, step.each)
            return
        if not self.typed_by_hand(step):
            action = self.match.deal()
            by = "the table deals" if self.physical and not step.public else "dealer"
            self.say(f"{by}: {namer.say(describe_chance(step, action))}", style="dim")
            return
        ask = self.ask if step.public else self.ask_secret
        hidden = "" if step.public else " (not shown on screen)"
        while True:
            what = step.type.replace("_", " ")
            self.say("\n".join(wrapped(f"{sentence_case(what)}: {namer.say(describe_step(step))}{hidden}.")))
            raw = ask(f"[at the table] {what}: ").strip()
            if raw.lower() in ("quit", "exit"):
                raise KeyboardInterrupt
            try:
                action = chance_action(step, parse_chance(step, raw, namer))
                self.match.enter(action)  # typed at the table: listed in the record's "typed"
            except (LudicaError, UserError) as exc:
                self.say(str(exc), style="red")
                continue
            self.say(f"at the table: {namer.say(describe_chance(step, action))}", style="dim")
            return

    def each_says(self, step: Pick, says: EachSays) -> None:
        """Each seat types its own part of a hidden pick, privately, in its own turn at the
        keyboard and without echo; nobody is asked for another's secret."""
        namer = self.namer(None)
        what = namer.say(step.type.replace("_", " "))
        while True:
            typed: dict[str, str] = {}
            for seat in says.seats:
                self.hand_over(seat, force=True)
                typed[seat] = self.private_answer(seat, says)
                self.screen.public()
            fitting = says.outcome(step.options, typed)
            if len(fitting) == 1:
                self.match.enter(chance_action(step, {step.key: fitting}))  # typed at the table
                self.say(f"at the table: {what}: each player has said their own, unseen", style="dim")
                return
            self.say(f"The answers for the {what} do not fit together: each player types theirs again.", style="red")

    def private_answer(self, seat: str, says: EachSays) -> str:
        """One seat's own part of a hidden pick, typed without echo: a word (``red``) or another
        player's name."""
        namer = self.namer(seat)
        others = {namer.seat(s).lower(): s for s in says.seats if s != seat}
        words = listing(list(says.answers) or [namer.seat(s) for s in others.values()], "or")
        self.say("\n".join(wrapped(f"{namer.seat(seat)}, type {says.question} ({words}); it is not shown.")))
        while True:
            raw = self.ask_secret(f"[{namer.seat(seat)}, not shown]: ").strip().lower()
            if raw in ("quit", "exit"):
                raise KeyboardInterrupt
            if says.answers and raw in says.answers:
                return raw
            if not says.answers and (raw in others or raw in others.values()):
                return others.get(raw, raw)
            self.say(f"Type {words}.", style="red")

    def typed_by_hand(self, step: ChanceStep) -> bool:
        """Dice are typed at a real table; open picks and shuffles too with ``all``; a hidden deal
        that one person would type for everybody is never asked for (the table deals it)."""
        if self.physical is None:
            return False
        if isinstance(step, Roll):
            return True
        return self.physical == "all" and step.public


def amount_rows(value: int, text: str, rows: int) -> list[str]:
    """What a number does, beside it ("  3 = Confidence pool +3; …"), in at most ``rows`` lines."""
    if rows <= 1:
        return [textwrap.shorten(f"  {value:>3} = {text}", WIDTH - 1, placeholder="…")]
    short = textwrap.shorten(f"{value:>3} = {text}", rows * (WIDTH - 10), placeholder="…")
    return textwrap.wrap(short, WIDTH - 1, initial_indent="  ", subsequent_indent="        ")[:rows]


def text_effect(namer: Namer, composition: Composition) -> list[str]:
    """What an action whose last step is a text does (its consequence), in at most two lines of
    the screen; for a text asked first, what the action does as the game writes it (the options
    of the later steps say their own)."""
    if only_text_left(composition):
        said = namer.consequence(composition.remaining[0], composition.picked)
    elif not composition.picked:  # a text first, other steps after: what the whole action does
        said = namer.action_effect(composition.remaining[0])
    else:
        return []
    if not said:
        return []
    short = textwrap.shorten(f"what it does: {said}", 2 * (WIDTH - 4), placeholder="…")
    return textwrap.wrap(short, WIDTH - 1, initial_indent="  ", subsequent_indent="  ")


def digest_lines(parts: Sequence[Part], namer: Namer, seat: str, budget: int) -> list[str]:
    """The lines of a digest: a heading per player (``You`` for ``seat``), each story line under
    it, shortened to the width; past ``budget`` lines the earliest lines of the longest group
    give way to one "… N earlier" line."""
    if not parts or budget < 2:
        return []
    said: list[tuple[str, list[str]]] = []
    for part in parts:
        who = "You" if part.who == seat else namer.seat(part.who) if part.who else "The table"
        texts = []
        for entry in part.entries:
            line = namer.say(entry.event.text)
            if entry.event.kind == "narration":
                line = f"{namer.seat(str(entry.event.data.get('seat', '')))}: “{line}”"
            texts.append(textwrap.shorten("  • " + line, WIDTH - 1, placeholder="…"))
        said.append((who, texts))
    cut = [0] * len(said)

    def size() -> int:
        return sum(1 + len(texts) - cut[i] + (1 if cut[i] else 0) for i, (_, texts) in enumerate(said))

    while size() > budget:
        longest = max(range(len(said)), key=lambda i: len(said[i][1]) - cut[i])
        if len(said[longest][1]) - cut[longest] <= 1:
            break
        cut[longest] += 1 if cut[longest] else 2  # the first cut makes room for its own note
    out: list[tuple[str | None, str]] = []  # (the player, for a heading; its line)
    for i, (who, texts) in enumerate(said):
        out.append((who, f"{who}:"))
        if cut[i]:
            out.append((None, f"  … {cut[i]} earlier lines: type 'log'"))
        out.extend((None, text) for text in texts[cut[i] :])
    if len(out) <= budget:
        return [line for _, line in out]
    # too many players for the room: the last line names those left out (none vanishes unsaid)
    kept = out[: budget - 1]
    if kept and kept[-1][0] is not None:  # a heading without its lines goes too
        kept.pop()
    shown = {who for who, _ in kept if who is not None}
    left = listing([who for who, _ in said if who not in shown])
    last = f"… and {left}: type 'log'" if kept else f"… {left}: type 'log'"
    return [*(line for _, line in kept), textwrap.shorten(last, WIDTH - 1, placeholder="…")]


def detail_rows(detail: str, rows: int = 2) -> list[str]:
    """An option's text beneath it, in at most ``rows`` lines (see :meth:`Terminal.numbered`)."""
    short = textwrap.shorten(detail, rows * (WIDTH - 8), placeholder="…")
    return textwrap.wrap(short, WIDTH - 1, initial_indent="      ", subsequent_indent="      ")


def options_height(details: Sequence[str | None], rows: int = 2) -> int:
    """How many lines a list of options takes, each with its text beneath in ``rows`` lines."""
    return len(details) + sum(len(detail_rows(d, rows)) for d in details if d)


def detail_budget(details: Sequence[str | None], room: int) -> int:
    """Lines of text beneath each option so that the list fits in ``room`` lines (2, else 1)."""
    return 2 if options_height(details, 2) <= room else 1


def wrapped(text: str) -> list[str]:
    """A long prompt wrapped at word boundaries to the screen's width."""
    return textwrap.wrap(text, WIDTH - 1, break_long_words=False, break_on_hyphens=False) or [""]


# -- what the decision needs first -------------------------------------------------------------
OWN = re.compile(r"^\s*(You \(|your\b)|\byour (hand|purse|mat|sealed bid)\b|— you are\b")
"""A line about the viewer's own things ("You (Ana): hand …", "your purse 3", "your hand: …")."""


def focus(rows: Sequence[str], phase: str = "") -> list[str]:
    """A face's lines with what the decision is about first: the title line, then the blocks
    (a line and the indented lines under it) that speak of the viewer ("You (Ana): hand …",
    "your purse", "your hand") or of the phase under way (the conflict, the scene and its stones,
    the auction), then the rest in the game's order. Nothing is dropped."""
    if not rows:
        return []
    blocks: list[list[str]] = []
    for row in rows[1:]:
        if blocks and row[:1] == " " and row.strip():
            blocks[-1].append(row)
        else:
            blocks.append([row])
    words = {w for w in re.split(r"[\s_]+", phase.lower()) if len(w) >= 4}
    theme = re.compile(rf"\b({'|'.join(map(re.escape, sorted(words)))})", re.I) if words else None

    def first(block: list[str]) -> bool:
        head = block[0]
        return any(OWN.search(row) for row in block) or bool(theme and theme.match(head.strip()))

    ahead = [b for b in blocks if b[0].strip() and first(b)]
    rest = [b for b in blocks if not (b[0].strip() and first(b))]
    return [rows[0], *(row for block in [*ahead, *rest] for row in block)]


# -- amounts and option marks -------------------------------------------------------------------
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def amount_values(step: Ask) -> list[int]:
    """The numbers a person may type at an amount step: the listed ones, and a small typed range."""
    values = [v for v in step.values if isinstance(v, int)]
    spec = step.field
    if isinstance(spec, IntRange) and spec.hi - spec.lo < PAGE:
        values += [v for v in range(spec.lo, spec.hi + 1) if v not in values]
    return sorted(values)


def amount_note(namer: Namer, composition: Composition, step: Ask, value: int) -> str:
    """What typing ``value`` means: its name and its consequence as the rules will apply it."""
    named = namer.value(composition.choice.type, step.param, value)
    said = option_note(namer, composition, step.param, value)
    parts = [p for p in (named if named.strip() != str(value) else "", said) if p]
    return " — ".join(parts)


def is_amount(step: Ask) -> bool:
    """Whether every value of a step is a number (listed or typed): then the number is typed."""
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in step.values)
    return (
        numbers
        and (bool(step.values) or isinstance(step.field, IntRange))
        and (step.field is None or isinstance(step.field, IntRange))
    )


def accepts_amount(step: Ask, value: int) -> bool:
    spec = step.field
    in_range = isinstance(spec, IntRange) and spec.lo <= value <= spec.hi
    return in_range or value in step.values


def amount_words(step: Ask) -> str:
    """The numbers a step accepts, as spans: ``0..5``, ``0, 2 or 4``, ``0, 3..9``."""
    numbers = set(step.values)
    spec = step.field
    if isinstance(spec, IntRange) and spec.hi - spec.lo < 1000:
        numbers |= set(range(spec.lo, spec.hi + 1))
    elif isinstance(spec, IntRange):
        return f"a number {spec.lo}..{spec.hi}"
    spans: list[list[int]] = []
    for n in sorted(numbers):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    words: list[str] = []
    for lo, hi in spans:
        words.extend([f"{lo}..{hi}"] if hi > lo + 1 else [str(lo), str(hi)] if hi > lo else [str(lo)])
    return listing(words, "or")


def amount_span(values: Sequence[int]) -> str:
    """Numbers left unsaid, as one span when they follow each other (``7..10``)."""
    if len(values) > 2 and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return listing([str(v) for v in values])


def option_index(raw: str, count: int, *, letters: bool) -> int | None:
    """The option an answer names (``3`` or ``c``), or ``None``."""
    if letters:
        key = raw.strip().lower()
        return LETTERS.index(key) if len(key) == 1 and key in LETTERS[:count] else None
    return int(raw) - 1 if raw.isdigit() and 1 <= int(raw) <= count else None


# -- physical components -------------------------------------------------------------------------
def describe_step(step: ChanceStep) -> str:
    """What the person at the table types for a chance step, with whose die each field is."""
    if isinstance(step, Roll):
        labels = list(step.labels) if step.labels else []
        if labels and len(labels) == len(step.sides):
            runs: list[list[Any]] = []  # consecutive dice of one owner: [label, sides, how many]
            for label, sides in zip(labels, step.sides, strict=True):
                if runs and runs[-1][:2] == [label, sides]:
                    runs[-1][2] += 1
                else:
                    runs.append([label, sides, 1])
            fields = ", ".join(f"{label} (d{s})" if n == 1 else f"{n} × {label} (d{s})" for label, s, n in runs)
            return f"type what the dice show, in this order: {fields}"
        if len(step.sides) == 1:
            return f"type what the die shows (a d{step.sides[0]})"
        return f"type what the {len(step.sides)} dice show ({' '.join(f'd{s}' for s in step.sides)}), space-separated"
    if isinstance(step, Shuffle):
        if step.items:
            return f"type the {step.n} cards in the order they are dealt, by their faces (e.g. AS KD 10H)"
        return f"type the order of the {step.n} shuffled items (1..{step.n}), space-separated"
    options = [str(o) for o in step.options]
    shown = ", ".join(options) if len(options) <= 12 else ", ".join(options[:8]) + f", … ({len(options)} in all)"
    return f"type the {step.k} item(s) picked from {shown}, space-separated"


def card_key(face: str) -> str:
    """A card face as people type it (``10h``, ``th``, ``q♣``) in one spelling: ``10H``, ``QC``."""
    face = face.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
    return "10" + face[1:] if face.startswith("T") else face


def parse_chance(step: ChanceStep, raw: str, namer: Namer | None = None) -> dict[str, Any]:
    """What a person typed for a chance step as its outcome (seats may be typed by name)."""
    parts = raw.replace(",", " ").split()
    if isinstance(step, Pick):
        by_name = {namer.seat(str(o)).lower(): o for o in step.options if namer and namer.is_seat(o)}
        values: list[Any] = [by_name.get(p.lower(), int(p) if _is_whole(p) else p) for p in parts]
        return {step.key: values}
    if isinstance(step, Shuffle) and step.items:
        index = {card_key(item): i for i, item in enumerate(step.items)}
        unknown = [p for p in parts if card_key(p) not in index]
        if unknown:
            raise UserError(f"no card {unknown[0]!r} in this deck")
        return {step.key: [index[card_key(p)] for p in parts]}
    if not all(_is_whole(p) for p in parts):
        raise UserError("type whole numbers separated by spaces")
    numbers = [int(p) for p in parts]
    if isinstance(step, Shuffle):
        numbers = [n - 1 for n in numbers]  # people count cards from 1
    return {step.key: numbers}


def _is_whole(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


__all__ = ["CHANCE", "Terminal", "card_key", "describe_step", "parse_chance", "split_narration"]
