"""Names for people (``ludica.core.names``), checked for every game along random playthroughs:
every story line, every terminal face and every legal action as a person reads it (its sentence,
its choice and each value the composer offers) holds no raw id — seat ids, ``c3``, ``m4``,
``snake_case`` ids, JSON or Python reprs — and names nothing the seat may not see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, available, get_game
from ludica.core.composer import Composition, choices
from ludica.core.names import Namer, namer_of, raw_ids
from ludica.lab.playthrough import default_config

GAMES = available()
STEPS = 300


def _texts(match: Match[Any], seat: str | None, namer: Namer) -> Iterator[tuple[str, str]]:
    game = match.game
    for entry in match.story(seat):
        yield "story", namer.say(entry.event.text)
    yield "face", namer.say(game.render(match.view(seat)))
    if seat is None:
        return
    for choice in choices(match.legal_actions(seat)):
        yield "choice", namer.action_title(choice.type)
        for template in choice.templates:
            yield "action", namer.sentence(template)
        step = Composition(choice).ask()
        if step is not None:
            yield "step", namer.param_label(choice.type, step.param)
            for value in step.values:
                yield "value", namer.value(choice.type, step.param, value)


def _walk(game_id: str, seed: int) -> Iterator[Match[Any]]:
    game = get_game(game_id)
    match: Match[Any] = Match(game, default_config(game_id, min(4, game.meta.players_max), seed))
    rng = random.Random(seed)
    bot = RandomBot(rng)
    for step in range(STEPS):
        if match.pending().is_over:
            break
        if step % 25 == 0:
            yield match
        random_step(match, bot, rng)
    yield match


@pytest.mark.parametrize("game_id", GAMES)
def test_people_never_meet_a_raw_id(game_id: str) -> None:
    problems: dict[str, str] = {}
    for seed in range(3):
        for match in _walk(game_id, seed):
            state = match.state
            for seat in [*match.game.seats(state), None]:
                namer = namer_of(match, seat)
                for where, text in _texts(match, seat, namer):
                    for token in raw_ids(text):
                        problems.setdefault(f"{where}: {token}", text[:200])
    assert not problems, "\n".join(f"{k} in {v!r}" for k, v in list(problems.items())[:15])


@pytest.mark.parametrize("game_id", GAMES)
def test_names_never_name_a_secret(game_id: str) -> None:
    for seed in range(2):
        for match in _walk(game_id, seed):
            game, state = match.game, match.state
            secrets = game.secrets(state)
            for seat in [*game.seats(state), None]:
                namer = namer_of(match, seat)
                hidden = [s for s in secrets if seat not in s.holders]
                named = " ".join(namer.ids().values())
                texts = " ".join(text for _, text in _texts(match, seat, namer))
                for secret in hidden:
                    if len(secret.token) >= 4:  # short tokens (card faces like "QC") are ids, not names
                        assert secret.token not in named, f"{seat} is told the name of {secret.what}"
                        assert secret.token not in texts, f"{seat} reads {secret.what}"
