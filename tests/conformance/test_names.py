"""Names for people (``ludica.core.names``), checked for every game along random playthroughs:
every story line, every terminal face and every legal action as a person reads it (its sentence,
its choice and each value the composer offers) holds no raw id — seat ids, ``c3``, ``m4``,
``snake_case`` ids, JSON or Python reprs — and names nothing the seat may not see."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from ludica.bots.random_bot import RandomBot, random_step
from ludica.core import Match, available, get_game
from ludica.core.composer import Composition, choices, note
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


# -- issue 20: every option says what it does, in words ---------------------------------------------
RAW_KINDS = {
    "key: value prompt": re.compile(r"^[a-z_]+: [a-z_]+\.?$"),
    "Name:3 id": re.compile(r"\b[A-Za-z_]+:\d\b"),
    "rule id": re.compile(r"\b(?:R|HR)-[A-Z]{1,3}-?\d+|\bMB-R\d+"),
    "binary triad": re.compile(r"(?<![\w.])[01]{3}(?: [01]{3})?(?![\w.])"),
    "seal token": re.compile(r"sealed-bid:"),
    "the the": re.compile(r"\bthe the\b", re.I),
    "None": re.compile(r"\bNone\b(?! yet)"),
    "doubled name": re.compile(r"(?<![\w-])([A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?) \(\1\)"),
    "(s) plural": re.compile(r"\w\(s\)"),
    "count without its plural": re.compile(r"(?<![\w.,])(?:[02-9]|\d{2,}) success\b(?!es)"),
    "vesting jargon": re.compile(r"vests a scarab under"),
    "engine's option list": re.compile(r"\bchoose [a-z_]+ from\b|(?<![\w+])[a-z]+\+[a-z]+(?![\w+])"),
}


def raw_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in RAW_KINDS.items() if pattern.search(text)]


def test_raw_kinds_are_caught() -> None:
    for bad in (
        "answer: with",
        "retrieves Aquifer:5",
        "(R-GC-13)",
        "010 011",
        "the the group",
        "Scene 1: None",
        "scarab(s)",
        "Bo (Bo) takes a turn",
        "MB-R45",
        "(seal sealed-bid:Lia:m4:5)",
        "Ann: 2 success (sum 9)",
        "Ezra (aristocrat) vests a scarab under its blue stone",
        "pay: choose with from bliss+energy, free",
    ):
        assert raw_kinds(bad), bad
    assert not raw_kinds("Pay for the retrieval of your workers; −+− −++; 3 scarabs; None yet; 1 success, 2 successes.")


def _said(match: Match[Any], seat: str, namer: Namer) -> Iterator[tuple[str, str]]:
    for entry in match.story(seat)[-40:]:
        yield "story", namer.say(entry.event.text)
    pending = match.pending()
    if pending.prompt:
        yield "prompt", namer.prompt(pending.prompt, pending.phase)
    situation = namer.situation()
    if situation:
        yield "situation", situation
    for choice in choices(match.legal_actions(seat)):
        for template in choice.templates[:3]:
            effect = namer.action_effect(template)
            if effect:
                yield "effect", effect
        step = Composition(choice).ask()
        if step is not None:
            for value in step.values:
                said = note(namer, choice.type, step.param, value)
                if said:
                    yield "note", said


@pytest.mark.parametrize("game_id", GAMES)
def test_prompts_and_effects_speak_words(game_id: str) -> None:
    """Prompts and what each option does (issue 20): no ``key: value`` prompt, ``Name:3`` id, rule
    id, binary triad, "the the", ``None`` or "(s)" plural — and no raw id."""
    problems: dict[str, str] = {}
    for seed in range(2):
        for match in _walk(game_id, seed):
            for seat in match.pending().seats:
                if seat == "chance":
                    continue
                namer = namer_of(match, seat)
                for where, text in _said(match, seat, namer):
                    typed = ("the the", "None") if where in ("story", "situation") else ()  # players' words
                    for kind in [k for k in raw_kinds(text) if k not in typed] + raw_ids(text):
                        problems.setdefault(f"{where}: {kind}", text[:200])
    assert not problems, "\n".join(f"{k} in {v!r}" for k, v in list(problems.items())[:15])


def test_the_great_city_intent_says_its_answer_and_basis() -> None:
    """The intent's colour decides YES or NO and its basis (R-GC-18): said beside each colour."""
    game = get_game("great-city")
    for seed in range(6):
        for match in _walk("great-city", seed):
            for seat in match.pending().seats:
                for choice in choices(match.legal_actions(seat)):
                    if choice.type != "choose_intent":
                        continue
                    namer = namer_of(match, seat)
                    said = [namer.effect("choose_intent", "color", c) for c in ("blue", "white", "green")]
                    assert all(s and s.split(" — ")[0] in ("YES", "NO") for s in said), said
                    assert "deeds or actions" in str(said[0])
                    return
    pytest.skip(f"no intent decision met in {game.meta.title}'s walks")


# -- issue 20: the situation first, and each seat told what it is asked ----------------------------
SITUATED = {
    "euphoria": lambda m: m.state.prompt is not None and m.state.prompt[1] in ("pay", "take", "answer_trade"),
    "lost-days": lambda m: m.state.conflict is not None or m.pending().phase in ("SEALED_BID", "TRADE"),
    "euthymia": lambda m: m.state.conflict is not None,
    "great-city": lambda m: m.pending().phase == "reaction",
    "misery-bubblegum": lambda m: m.state.attempt is not None and bool(m.state.attempt.intent),
}
"""Per game, positions where the page must say what the pending decision is about."""


@pytest.mark.parametrize("game_id", sorted(SITUATED))
def test_each_game_says_what_the_decision_is_about(game_id: str) -> None:
    met = 0
    for seed in range(3):
        for match in _walk(game_id, seed):
            if SITUATED[game_id](match):
                seat = next((s for s in match.pending().seats if s != "chance"), None)
                said = namer_of(match, seat).situation()
                assert said, f"{game_id}: no situation said at phase {match.pending().phase}"
                met += 1
    if not met:
        pytest.skip(f"no situated decision met in {game_id}'s walks")


def test_euthymia_tells_each_seat_what_it_is_asked() -> None:
    """At the end of an hour only the group starts the next one: a player reads that it waits for
    the group (and what it may do meanwhile), the group reads its own decision; a tie says what
    naming the first player does; the final round is said as such."""
    from ludica.games.euthymia.names import ACTION_TITLES

    assert "Settle the tie" not in ACTION_TITLES.values()
    seen: set[str] = set()
    for seed in range(4):
        game = get_game("euthymia")
        match: Match[Any] = Match(game, default_config("euthymia", 4, seed))
        rng = random.Random(seed)
        bot = RandomBot(rng)
        for _ in range(1200):
            pending = match.pending()
            if pending.is_over:
                break
            if pending.phase == "HOUR_END" and pending.prompt:
                group = namer_of(match, "table").prompt(pending.prompt, pending.phase)
                player = namer_of(match, "p1").prompt(pending.prompt, pending.phase)
                assert "You: start the hour" in group, group
                assert "Waiting for the group" in player and "You:" not in player, player
                # the web's status line: the group is asked, a player only may act meanwhile
                assert namer_of(match, "table").asked() and not namer_of(match, "p1").asked()
                seen.add("hour end")
            if match.state.final_round_active and pending.prompt and pending.phase == "TURN":
                said = namer_of(match, "p1").prompt(pending.prompt, pending.phase)
                assert "final" in said, said
                seen.add("final round")
            for seat in pending.seats:
                for action in match.legal_actions(seat) if seat != "chance" else []:
                    if action.type == "designate_drink_order":
                        effect = namer_of(match, seat).effect(action.type, "ordered_players", ["x"])
                        assert effect, action
                        seen.add("tie")
            random_step(match, bot, rng)
    assert {"hour end", "final round"} <= seen, seen


def test_pig_names_its_caption() -> None:
    """The example's free-text action says what it is and that it changes nothing (no bare "Title")."""
    game = get_game("pig")
    match: Match[Any] = Match(game, default_config("pig", 2, 1))
    namer = namer_of(match, "p1")
    assert namer.action_title("title") != "Title"
    from ludica.core import Action

    assert "changes nothing" in str(namer.action_effect(Action("p1", "title", {"text": "x"})))


def test_euphoria_a_commodity_gain_says_what_its_total_counts() -> None:
    """ "Bob gains 1 food (total 6)" read as Bob's own total: the 6 is the workers' dice on the area,
    which picks the bracket ([Commodity Areas])."""
    match: Match[Any] = Match(get_game("euphoria"), default_config("euphoria", 3, 1))
    said = namer_of(match, "p1").say("p2 gains 1 food (total 6)")
    assert "(total" not in said and "the workers there show 6 in all" in said, said


# -- issue 35: the kinds of raw words a newcomer still met ----------------------------------------
WORD_KINDS = {
    "number list": re.compile(r"\[-?\d+(?:, -?\d+)+\]|(?<=[a-z] )\[-?\d+\]"),
    "upper-case id": re.compile(r"(?<![\w$])[A-Z]+_[A-Z_]+\b|\b(?:by|to|in|at|of|is) [A-Z]{4,}\b"),
    "1 <plural>": re.compile(
        r"(?<![\d.,-])\b1 (?:dice|coins|successes|items|stars|workers|points|cards|units|scarabs|actions"
        r"|memories|players|turns|minutes|seconds|flips)\b"
    ),
    "rule tag in brackets": re.compile(r"\[(?:LD|MB|EU|GC|HR|R)-[A-Z0-9-]+\]"),
    "sentences joined": re.compile(r"(?<=[a-z]{2})\.(?=[a-z]{2,}\b)"),
    "item listed twice": re.compile(r"\b([a-z]{3,}), (?:[a-z]+, )*\1(?=\)|,|$| and\b)"),
    "bare option word": re.compile(r"\((?:\w+ )?(?:done|use)\)|: (?:use|done)$"),
    "title said twice": re.compile(r"^(.+) — \1$", re.I),
    "number listed as an item": re.compile(r"\b[a-z]{3,} and \d+(?=$|[)\]:;,.])"),
}
"""Kinds of raw words (issue 35): a Python list of numbers ("aids with [5]", "[5, 5, 5]"), an
upper-case id ("held by CENTER", "GAME_OVER"), "1" with a plural ("1 dice"), a rule tag in
brackets in the story ("[LD-R6]"), two sentences joined without a space ("wins.the"), an item
listed again instead of counted ("energy, box, energy"), a track's step said as two items
("morale and 1"), an option's bare word ("(item done)",
"…: use") and a composer step whose label repeats its title ("Pay with — pay with")."""


def word_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in WORD_KINDS.items() if pattern.search(text)]


def test_word_kinds_are_caught() -> None:
    for bad in (
        '"Lamp" aids with [5]',
        "Misery rolls [5, 5, 5]",
        "Bottle: 0 units, held by CENTER",
        "EUTHYMIA — phase GAME_OVER",
        "Ann opposes (1 dice of insight)",
        "tied at 1 coins",
        "Ann: 2 success (1 successes)",
        "nobody raises: Ann, Bob roll off for “x” [LD-R6]",
        "Nobody wins.the session ends",
        "Ann offers nothing for bat, energy, box, energy",
        "Ann: give in the trade (item done)",
        "Cat uses Jonathan the Gambler: use",
        "Pay with — pay with",
        "Cat: the ability — morale and 1",
    ):
        assert word_kinds(bad), bad
    good = (
        '"Lamp" aids with 1 die showing 5; Misery rolls 5, 5, 5; [3] I remember; knowledge 1 · stars 2; '
        "the FINAL ROUND; 1 die, 1 coin, 2 coins; Nobody wins. The session ends; 2 energy and 1 Bat; "
        "Pay — what to pay with; you, you get an artifact"
    )
    assert not word_kinds(good), word_kinds(good)


def _headings(match: Match[Any], seat: str, namer: Namer) -> Iterator[tuple[str, str]]:
    """The terminal's heading of each composer step: "<title> — <label>"."""
    for choice in choices(match.legal_actions(seat)):
        step = Composition(choice).ask()
        if step is not None:
            yield "heading", f"{namer.action_title(choice.type)} — {namer.param_label(choice.type, step.param)}"
        for template in choice.templates[:3]:
            yield "sentence", namer.sentence(template)
            yield "label", namer.choice_label(template)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_text_is_said_in_words(game_id: str) -> None:
    """Along seeded play of every game, every text a person reads — story, terminal face, prompt,
    situation, effects, notes, each option's sentence and button and each step's heading — holds
    none of the kinds of raw words above."""
    problems: dict[str, str] = {}
    for seed in range(2):
        for match in _walk(game_id, seed):
            deciding = set(match.pending().seats)
            for seat in [*match.game.seats(match.state), None]:
                namer = namer_of(match, seat)
                texts = list(_texts(match, seat, namer))
                if seat in deciding:
                    texts += [*_said(match, seat, namer), *_headings(match, seat, namer)]
                for where, text in texts:
                    for kind in word_kinds(text):
                        problems.setdefault(f"{where}: {kind}", text[:200])
    assert not problems, "\n".join(f"{k} in {v!r}" for k, v in list(problems.items())[:15])


# -- issue 35: what an option does, computed by the rules, read as a newcomer reads it -------------
CONSEQUENCE_KINDS = {
    "phase id": re.compile(r"\bphase: |\b[A-Z]{3,}(?: [A-Z]{3,})+ →|→ [A-Z]{4,}\b"),
    "engine phase after then": re.compile(
        r"then you: (?:scene|stakes|trade|writing|sealed bid|tie raise|trade ask|trade give|strengths|build state"
        r"|select|agents|character fates|reaction)(?:;|$)"
    ),
    "clause said twice": re.compile(r"([+−]\d+) ([a-z]+)\b.*; \2 \1\b|\b([a-z]+) ([+−]\d+)\b.*; \4 \3\b"),
    "rule tag": re.compile(r"\[(?:chance|turn order|[A-Z]{1,3}-[A-Z0-9-]+)(?:;[^\]]*)?\]"),
    "bookkeeping gone": re.compile(r"\b(?:lot|proposer|selector|status|mode|step|controller|position) gone\b"),
    "field dump": re.compile(r"\+ (?:[^;,]+, ){2,}(?:none|no|yes|roll|created)(?:;|$)"),
}
"""Kinds of jargon a computed consequence once carried (issue 35): a phase id ("phase: TIE RAISE →
SELECT"), a phase's title as the next thing to do ("then you: trade ask"), a clause the
hand-written effect already says ("+2 morale; morale +2"), a refusal's rule tag ("[chance]"),
an engine field that went away ("lot gone"), a new entry said as its raw fields ("memories + 5,
the table, none, Ann, round1, yes, no, no")."""


def consequence_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in CONSEQUENCE_KINDS.items() if pattern.search(text)]


def test_consequence_kinds_are_caught() -> None:
    for bad in (
        "phase: TIE RAISE → SELECT; then Bob decides",
        "turn kind: normal → MORE CARDS",
        "then you: trade ask",
        "then you: scene; nothing else",
        "costs 1 bliss: +2 morale; morale +2",
        "not allowed: the dice due now are a roll [chance]",
        "not allowed: bidding starts again [LD-R3; Creating Memories]",
        "the King: yes → no; lot gone; proposer gone",
        "memories + 5, the table, none, Ann, round1, yes, no, no",
    ):
        assert consequence_kinds(bad), bad
    good = (
        "costs 1 bliss: +2 morale; in fact morale +1; then you choose the next memory to auction; "
        "then you: pay with; a new memory “I remember”; then Ann decides; the FINAL ROUND"
    )
    assert not consequence_kinds(good), consequence_kinds(good)


@pytest.mark.parametrize("game_id", GAMES)
def test_consequences_speak_words(game_id: str) -> None:
    """Along seeded play, what every option of a deciding seat does (``Namer.consequence``) and
    what every first step of a composed choice leads to (``option_note``) holds no raw id, none of
    the raw kinds above and none of the consequence kinds."""
    from ludica.core.composer import option_note
    from ludica.core.consequence import filled_in

    problems: dict[str, str] = {}
    for match in _walk(game_id, 0):
        for seat in match.pending().seats:
            if seat == "chance":
                continue
            namer = namer_of(match, seat)
            texts: list[tuple[str, str]] = []
            for choice in choices(match.legal_actions(seat)):
                for template in choice.templates[:4]:
                    texts.append((choice.type, namer.consequence(filled_in(template)) or ""))
                composing = Composition(choice)
                step = composing.ask()
                for value in step.values[:4] if step is not None and not choice.single else ():
                    texts.append((f"{choice.type} step", option_note(namer, composing, step.param, value) or ""))
            for where, text in texts:
                kinds = [k for k in word_kinds(text) if k != "item listed twice"]
                for kind in consequence_kinds(text) + kinds + raw_ids(text):
                    problems.setdefault(f"{where}: {kind}", text[:240])
    assert not problems, "\n".join(f"{k} in {v!r}" for k, v in list(problems.items())[:15])
