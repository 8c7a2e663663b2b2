"""The semantic observation tensors: every view key declared, distinct views give distinct
tensors, small values, the observer's own seat first, and docs/reference/observations.md matches the code."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from ludica.core.match import canonical_json
from ludica.env.__main__ import observation_tables
from ludica.env.driver import Driver
from ludica.env.tensor import Schema

from .conftest import GAMES, walk

DOC = Path(__file__).parents[2] / "docs" / "reference" / "observations.md"


@pytest.mark.parametrize("game_id", GAMES)
def test_distinct_views_give_distinct_tensors(game_id: str) -> None:
    """Strict encoding (an undeclared view key fails) and no aliasing: over random states, two
    views of one seat whose declared content differs never share a tensor."""
    seen: dict[tuple[int, str, bytes], str] = {}
    for players, seed in (("min", 1), ("max", 2)):
        driver = Driver(game_id, None, seed=seed)
        if players == "max":
            driver = Driver(game_id, driver.game.meta.players_max, seed=seed)
        schema = driver.observer
        assert isinstance(schema, Schema), "every game declares a semantic schema"
        for _ in walk(driver, 250, seed):
            for seat in driver.seats:
                view = driver.view(seat)
                tensor = schema.encode(seat, view, driver.pending, strict=True)
                assert tensor.shape == (schema.size,)
                assert float(abs(tensor).max()) <= 12.0, "values are normalised"
                key = (len(driver.seats), seat, tensor.tobytes())
                content = canonical_json(schema.project(view))
                assert seen.setdefault(key, content) == content, f"{seat}: two views share a tensor"
    assert len(seen) > 50


@pytest.mark.parametrize("game_id", GAMES)
def test_the_incremental_encoding_gives_the_fresh_tensor(game_id: str) -> None:
    """The schema patches each seat's last tensor (only changed fields laid out again): along
    random play, for every seat and the spectator, it equals a strict fresh encoding, also when
    a view the encoder saw is changed afterwards (Lost Days and Euphoria hand out lists their
    state changes later)."""
    for players, seed in (("min", 3), ("max", 4)):
        driver = Driver(game_id, None, seed=seed)
        if players == "max":
            driver = Driver(game_id, driver.game.meta.players_max, seed=seed)
        schema = driver.observer
        for _ in walk(driver, 200, seed):
            for seat in (*driver.seats, None):
                view = copy.deepcopy(driver.match.view(seat))
                fresh = schema.encode(seat, view, driver.pending, strict=True)
                patched = schema.encode(seat, view, driver.pending)
                assert (patched == fresh).all(), f"{seat}: the incremental tensor differs"
                patched[:] = -1.0  # the caller's copy: changing it changes nothing inside
                for value in view.values():
                    if isinstance(value, list):
                        value.append(None)
                    elif isinstance(value, dict):
                        value["changed afterwards"] = 1


def test_the_observers_own_seat_comes_first() -> None:
    driver = Driver("lost-days", 3, seed=4)
    for _ in walk(driver, 40, 4):
        pass
    rows = {name: i for i, name, _ in driver.observer.rows()}
    for seat in driver.players:
        view = driver.view(seat)
        purse = next(p["purse"] for p in view["players"] if p["seat"] == seat)
        tensor = driver.observe(seat)
        assert tensor[rows["players[seat0].purse"]] == pytest.approx(purse / 60)


def test_a_tensor_depends_on_the_view_alone() -> None:
    driver = Driver("euthymia", 4, seed=2)
    for _ in walk(driver, 60, 2):
        pass
    seat = driver.players[0]
    view = driver.view(seat)
    assert (driver.observe(seat) == driver.observer.encode(seat, view, driver.pending)).all()


def test_docs_tables_match_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- tensors:begin -->\n(.*?)\n<!-- tensors:end -->", text, re.S)
    assert found, "docs/reference/observations.md holds the generated tables between the tensors markers"
    assert found.group(1).strip() == observation_tables().strip(), "run: python -m ludica.env tensors"
