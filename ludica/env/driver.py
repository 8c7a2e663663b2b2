"""One Ludica match seen through the encodings: what every environment adapter drives.

The driver owns a :class:`~ludica.core.match.Match`; chance steps are dealt inside it by the
match's seeded Dealer (:meth:`Match.deal`), so every adapter only ever sees seats deciding.
Where several seats may decide at once (sealed choices, Euthymia's table clock beside the
players), :func:`next_seat` lets the pending seat that has waited longest act first (table order
breaks ties), so no seat is starved; the game hides each sealed choice from the others, and who
waited longest is public, so the order tells nothing. An action a seat took while it was the only
seat pending (an answer it alone owed, such as a trade put to it) is not a turn among others and
does not count as one (:func:`took_turn`): otherwise a Lost Days framer who answers bystanders'
trades would never again be the seat that waited longest, and his scene would never end.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from ..bots.base import Bot, situation
from ..core.actions import Action, Text
from ..core.game import Config, Game, Pending
from ..core.match import Match
from ..core.registry import get_game
from ..core.values import rebuilt
from .encoding import Catalogue, EncodingError, Legal, TextFiller, catalogue, default_text, observer, rewards
from .encoding import max_steps as default_max_steps

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
"""The players' names, in seat order (the rules never look at them)."""


def took_turn(last_acted: dict[str, int], seat: str, step: int, pending: tuple[str, ...]) -> None:
    """Count ``seat``'s action at ``step`` as its turn, unless it was the only seat pending."""
    if len(pending) > 1:
        last_acted[seat] = step


def next_seat(pending: tuple[str, ...], last_acted: dict[str, int]) -> str:
    """The pending seat that acted longest ago (never acted = first), ties in table order."""
    if len(pending) == 1:
        return pending[0]
    return min(pending, key=lambda seat: last_acted.get(seat, -1))


def _writes_text(template: Action) -> bool:
    """Whether ``template`` has a free-text parameter (its words are written when it is decoded)."""
    for value in template.args.values():  # noqa: SIM110 (a loop is cheaper than any() over a generator)
        if isinstance(value, Text):
            return True
    return False


def listed(legal: list[Action], action: Action) -> bool:
    """Whether ``action`` is one of ``legal`` itself (the very object, as a bot picks one) and
    needs no filling: the match takes it without the second look (:meth:`Match.apply`'s
    ``trusted``), since every listed action passes the full check."""
    for template in legal:
        if template is action:
            return not action.is_template
    return False


FROZEN: set[str] = set()
"""The games a driver was made for in this process (:func:`freeze_heap` ran for each once)."""


def freeze_heap(game_id: str) -> None:
    """Once per game in a process: collect Python's cyclic garbage, then move every object alive
    out of the collector's sight (``gc.freeze``). What exists when the first environment of a game
    is made (modules, the game's data, its catalogue and observation schema) lives about as long as
    the process, and a full pass of the collector would otherwise walk it again and again while a
    game's records and the encoders' memos grow (about a tenth of a decision's CPU time in Euphoria
    and Lost Days). Frozen objects are still freed when their last reference goes;
    ``gc.unfreeze()`` gives them back. Later drivers of the game (copies, a protocol's games) do not
    collect again."""
    if game_id in FROZEN:
        return
    FROZEN.add(game_id)
    gc.collect()
    gc.freeze()


def make_config(
    game: Game[Any], players: int | None, seed: int | str | None, options: Mapping[str, Any] | None
) -> Config:
    """A validated config: ``players`` seats named Ann, Bob..., ``options`` and the dealer's seed."""
    n = game.meta.players_min if players is None else int(players)
    if not game.meta.players_min <= n <= game.meta.players_max:
        raise ValueError(f"{game.meta.title} takes {game.meta.players_min}-{game.meta.players_max} players, not {n}")
    config = Config(tuple(NAMES[:n]), dict(options or {}), seed)
    game.validate_config(config)
    return config


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, it may still be subclassed (examples/lost_days_turns.py)
class Driver:
    """A match with its catalogue and observer; ``reset`` starts a new game with a seed."""

    def __init__(
        self,
        game: str | Game[Any],
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        reward: str = "outcome",
        text: TextFiller = default_text,
        max_steps: int | None = None,
        seed: int | str = 0,
    ) -> None:
        self.game: Game[Any] = get_game(game) if isinstance(game, str) else game
        self.config = make_config(self.game, players, seed, options)
        rewards(None, (), (), reward)  # checks the mode
        self.reward_mode = reward
        self.text = text
        self.max_steps = max_steps if max_steps is not None else default_max_steps(self.game)
        self.match: Match[Any] = Match(self.game, self.config)
        self.seats: tuple[str, ...] = tuple(self.game.seats(self.match.state))
        referee = self.game.meta.referee
        self.players: tuple[str, ...] = tuple(s for s in self.seats if s != referee)
        self.catalogue: Catalogue = catalogue(self.game, self.config, self.seats)
        self.observer = observer(self.game, self.config, self.seats)
        self.steps = 0
        self._last_acted: dict[str, int] = {}
        self._legal: dict[str, Legal] = {}
        self._views: dict[str | None, dict[str, Any]] = {}
        self._pending: Pending | None = None
        self._current: str | None = None
        self._deal()
        freeze_heap(self.game.meta.id)

    def __reduce__(self) -> tuple[Any, ...]:  # compiled with mypyc: built from its game, then restored
        return rebuilt(self, self.game)

    # -- life ----------------------------------------------------------------------------------
    def reset(self, seed: int | str | None = None) -> None:
        if seed is not None:
            self.config = Config(self.config.players, self.config.options, seed)
        self.match = Match(self.game, self.config, validate=False)
        self.steps = 0
        self._last_acted = {}
        self._forget()
        self._deal()

    def _forget(self) -> None:
        self._legal.clear()
        self._views.clear()
        self._pending = None
        self._current = None

    def _deal(self) -> None:
        match = self.match
        game, state = match.game, match.state
        pending = game.pending(state)
        while pending.is_chance:
            match.deal(trusted=True, pending=pending)
            pending = game.pending(match.state)
        self._forget()
        self._pending = pending

    @property
    def pending(self) -> tuple[str, ...]:
        found = self._pending  # the game's answer since the last change (every change goes through _deal)
        if found is None:
            found = self._pending = self.match.game.pending(self.match.state)
        return found.seats

    @property
    def over(self) -> bool:
        return not self.pending

    @property
    def truncated(self) -> bool:
        return self.steps >= self.max_steps and not self.over

    def current(self) -> str | None:
        """The seat that acts next (the first pending seat), ``None`` when the game is over."""
        found = self._current  # who acts changes only with an action (every one goes through _deal)
        if found is None:
            pending = self.pending
            if pending:
                found = self._current = next_seat(pending, self._last_acted)
        return found

    # -- what a seat sees ------------------------------------------------------------------------
    def view(self, seat: str | None) -> dict[str, Any]:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.match.view(seat)
        return view

    def take_view(self, seat: str | None) -> dict[str, Any]:
        """``seat``'s view, handed over: the driver keeps no reference to it (a caller may keep or
        change it), so a view the observation was just encoded from is not built twice."""
        view = self._views.pop(seat, None)
        return self.match.view(seat) if view is None else view

    def legal(self, seat: str) -> Legal:
        found = self._legal.get(seat)
        if found is None:
            templates = self.match.legal_actions(seat) if seat in self.pending else []
            found = self._legal[seat] = self.catalogue.legal(templates)
        return found

    def mask(self, seat: str) -> np.ndarray:
        out = np.zeros(self.catalogue.size, dtype=np.int8)
        self.legal(seat).mark(out)
        return out

    def observe(self, seat: str) -> np.ndarray:
        return self.observer.encode(seat, self.view(seat), self.pending)

    def observe_room(self, seat: str, room: int) -> np.ndarray:
        """:meth:`observe` followed by ``room`` zeros, in one new writable array (the action
        heads' prefix slots go there: no second copy of the tensor)."""
        return self.observer.encode_room(seat, self.view(seat), self.pending, room)  # type: ignore[no-any-return]

    # -- acting ---------------------------------------------------------------------------------
    def act(self, seat: str, index: int, text: TextFiller | None = None) -> None:
        """Seat ``seat`` takes the legal action at ``index``; chance steps after it are dealt."""
        pending = self.pending
        if seat not in pending:
            raise EncodingError(f"it is not {seat}'s decision now (waiting for {', '.join(pending) or 'nobody'})")
        index = int(index)
        legal = self.legal(seat)
        self._take(seat, legal, index, legal.entry(index), text or self.text, pending)

    def act_if_legal(self, seat: str, index: int) -> bool:
        """:meth:`act` (the default text) when ``index`` is legal for ``seat`` now, else ``False``
        and nothing changes."""
        legal = self.legal(seat)  # empty for a seat not pending
        entry = legal.entry(index)
        if entry is None:
            return False
        self._take(seat, legal, index, entry, self.text, self.pending)
        return True

    def _take(
        self,
        seat: str,
        legal: Legal,
        index: int,
        entry: tuple[Action, dict[str, Any]] | None,
        text: TextFiller,
        pending: tuple[str, ...],
    ) -> None:
        action = self.catalogue.decode(legal, index, text)  # refuses an index that is not legal
        # An action decoded from a listed legal action is an instance of it (values within its
        # ranges), which the full check would only confirm; free text written by a filler is
        # checked as the game checks it.
        trusted = not _writes_text(entry[0])  # type: ignore[index]  # decode found it
        self.match.apply(action, trusted=trusted, pending=self._pending)
        took_turn(self._last_acted, seat, self.steps, pending)
        self.steps += 1
        self._deal()

    def apply(self, action: Any, *, trusted: bool = False) -> None:
        """Apply a filled action chosen elsewhere (a Ludica bot's), then deal; checked in full
        unless ``trusted`` (an action listed as legal now, as :meth:`Match.apply` says)."""
        pending = self.pending
        self.match.apply(action, trusted=trusted, pending=self._pending)  # the game not asked twice
        took_turn(self._last_acted, action.seat, self.steps, pending)
        self.steps += 1
        self._deal()

    def play(self, bot: Bot, seat: str) -> None:
        """``seat`` takes ``bot``'s decision, then chance is dealt: a listed action the bot picked
        as it is goes in trusted (:func:`listed`), any other (filled, written) is checked in full."""
        now = situation(self.match, seat)
        decision = bot.decide(now)
        self.apply(decision.as_action(), trusted=listed(now.legal, decision.action))

    def settle(self, referee: str, bot: Bot) -> str | None:
        """The seat to act next once ``referee`` (the GM, the table) has taken ``bot``'s decisions
        for as long as it is the seat to act and the game is not truncated; ``None`` once over."""
        seat = self.current()
        while seat == referee and self.steps < self.max_steps:  # not truncated: no seat is current once over
            self.play(bot, referee)
            seat = self.current()
        return seat

    def rewards(self) -> dict[str, float]:
        """Each seat's reward: 0 until the game ends, then from the outcome."""
        if not self.over:
            return dict.fromkeys(self.seats, 0.0)
        return rewards(self.game.outcome(self.match.state), self.seats, self.players, self.reward_mode)

    def render(self, seat: str | None = None) -> str:
        """The terminal face of ``seat``'s view (a spectator's by default)."""
        return self.game.render(self.view(seat))
