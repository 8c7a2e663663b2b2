"""Copying and pickling behave alike on both builds (DESIGN.md principle 13; ``ludica.core.values``).

``scripts/test`` runs this module on the pure build and on the compiled one: every game's states
(at its setup and along a game), every ``Config`` and a whole ``Match`` survive ``copy.copy``,
``copy.deepcopy`` and a ``pickle`` round trip, and every class of the kernels follows the rules
that make it so. Also the other differences the compiled build once had: an ill-typed seed, and a
statistics module that a compiled method saw as ``None``.
"""

from __future__ import annotations

import ast
import copy
import pickle
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ludica import _build
from ludica.bots.random_bot import play_random
from ludica.core import Action, Config, ConfigError, MalformedAction, Match, available, get_game
from ludica.core.actions import check_form
from ludica.lab.playthrough import default_config
from tests.random_play import random_steps

ROOT = Path(__file__).resolve().parents[2]
COPIES: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


def states_along(game_id: str, seed: int, every: int = 9, limit: int = 200) -> list[Match[Any]]:
    """Snapshots (independent matches) of one random game: its setup, every ``every`` steps, its end."""
    match: Match[Any] = Match(get_game(game_id), default_config(game_id, seed=seed))
    rng = random.Random(seed)
    out = [copy.deepcopy(match)]
    out += [copy.deepcopy(match) for step, _ in enumerate(random_steps(match, rng, limit)) if step % every == 0]
    out.append(match)
    return out


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("game_id", available())
def test_every_state_copies_and_pickles(game_id: str, how: str) -> None:
    for match in states_along(game_id, seed=5):
        game, state = match.game, match.state
        again = COPIES[how](state)
        assert type(again) is type(state)
        assert game.to_position(again) == game.to_position(state)
        assert game.pending(again) == game.pending(state)
        assert game.view(again, None) == game.view(state, None)


@pytest.mark.parametrize("game_id", available())
def test_a_deep_copy_is_independent(game_id: str) -> None:
    match = states_along(game_id, seed=2, limit=30)[-1]
    before = match.game.to_position(match.state)
    twin = copy.deepcopy(match)
    play_random(twin, random.Random(1))
    assert twin.is_over() and match.game.to_position(match.state) == before


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("game_id", available())
def test_every_config_copies_and_pickles(game_id: str, how: str) -> None:
    config = default_config(game_id, seed=11)
    again = COPIES[how](config)
    assert again == config and type(again) is Config
    assert Config(("Ann", "Bo"), {}, "seed text") == COPIES[how](Config(("Ann", "Bo"), {}, "seed text"))


@pytest.mark.parametrize("game_id", available())
def test_a_pickled_match_plays_on_alike(game_id: str) -> None:
    match = states_along(game_id, seed=4, limit=25)[-1]
    again = pickle.loads(pickle.dumps(match))
    assert again.digest() == match.digest() and again.actions == match.actions
    play_random(match, random.Random(9))
    play_random(again, random.Random(9))
    assert again.digest() == match.digest()


def kernel_classes() -> list[tuple[str, ast.ClassDef]]:
    out = []
    for path in _build.kernel_sources(ROOT):
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(ROOT)
        out += [(f"{where}:{n.lineno} {n.name}", n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    return out


def decorators(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(d) for d in node.decorator_list]


def required_init_args(node: ast.ClassDef) -> list[str]:
    init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return []
    positional = init.args.posonlyargs + init.args.args
    required = positional[1 : len(positional) - len(init.args.defaults)]
    keywords = [a for a, d in zip(init.args.kwonlyargs, init.args.kw_defaults, strict=True) if d is None]
    return [a.arg for a in required + keywords]


def defines(node: ast.ClassDef, method: str) -> bool:
    return any(isinstance(n, ast.FunctionDef) and n.name == method for n in node.body)


def is_value(node: ast.ClassDef) -> bool:
    """The class derives from ``Value`` (directly, or through a base of the kernels that does)."""
    classes = {n.name: n for _, n in kernel_classes()}
    bases = [ast.unparse(b) for b in node.bases]
    return "Value" in bases or any(b in classes and is_value(classes[b]) for b in bases)


def test_every_frozen_value_of_the_kernels_is_a_value() -> None:
    """A frozen dataclass derives from ``Value`` (directly, or through a base that does)."""
    frozen = [(where, n) for where, n in kernel_classes() if any("frozen=True" in d for d in decorators(n))]
    assert len(frozen) >= 15
    assert [where for where, node in frozen if not is_value(node)] == []


def test_every_class_built_with_arguments_says_how_to_rebuild_it() -> None:
    """A class whose own ``__init__`` requires arguments defines ``__reduce__`` (``rebuilt``);
    a dataclass's generated ``__init__`` needs nothing (compiled, ``__new__`` does not call it)."""
    need = [(where, n) for where, n in kernel_classes() if required_init_args(n)]
    assert len(need) > 10
    assert [where for where, node in need if not (defines(node, "__reduce__") or is_value(node))] == []


@pytest.mark.parametrize("seed", [[1, 2], 1.5, True, {"a": 1}])
def test_a_config_with_an_ill_typed_seed_is_refused_by_name(seed: Any) -> None:
    with pytest.raises(ConfigError, match="'seed' must be"):
        Config.from_json({"players": ["Ann", "Bo"], "seed": seed})


@pytest.mark.parametrize("game_id", available())
def test_every_game_figures_work(game_id: str) -> None:
    """The designer's figures (a compiled method once met its statistics module as ``None``)."""
    match = states_along(game_id, seed=1, limit=60)[-1]
    game, state = match.game, match.state
    assert isinstance(game.clock(state), int)
    assert isinstance(game.sample(state), dict)
    assert isinstance(game.end_reason(state), str)
    play_random(match, random.Random(3))
    summary = game.summarize(match.state, len(match.actions))
    assert game.report([summary, summary])


def imported_modules(path: Path, nodes: list[ast.AST]) -> list[tuple[int, str, bool]]:
    """(line, module, bound) for every module the imports among ``nodes`` name (relative ones
    resolved); ``bound``: the module object itself is bound to a name (``from . import stats``)."""
    name = _build.module_name(ROOT, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in (n for top in nodes for n in ast.walk(top)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name, True) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            out.append((node.lineno, source, False))
            out += [(node.lineno, f"{source}.{alias.name}", True) for alias in node.names]
    return [(line, m, bound) for line, m, bound in out if not bound or is_module(m)]


def is_module(name: str) -> bool:
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_no_compiled_module_imports_a_module_again_inside_a_function() -> None:
    """mypyc keeps a module reference in one slot: ``from . import stats`` at the top and ``from
    .stats import report`` in a method left ``stats`` as ``None`` in the compiled build."""
    clashes = []
    for path in _build.kernel_sources(ROOT):
        tree = ast.parse(path.read_text(), str(path))
        top: list[ast.AST] = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        bound = {m for _, m, is_bound in imported_modules(path, top) if is_bound}
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for line, module, _ in imported_modules(path, [fn]):
                    if module in bound:
                        clashes.append(f"{path.relative_to(ROOT)}:{line} imports {module} again")
    assert sorted(set(clashes)) == []


def test_an_action_with_a_name_not_text_is_refused_and_can_be_written_down() -> None:
    """Parameter names that are not text reach the form check (and a log line) in both builds."""
    action = Action("p1", "bid", {1: 2, "k": 3})  # type: ignore[dict-item]
    assert action.notation() == "p1 bid 1=2 k=3" and action.to_json()["args"] == {1: 2, "k": 3}
    with pytest.raises(MalformedAction, match="needs a text name"):
        check_form(action)


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ((["Ann", "Bo"], {}, 1.5), "'seed'"),
        (("Ann",), "'players'"),
        ((("Ann", 3),), "'players'"),
        ((("Ann",), [1]), "'options'"),
    ],
)
def test_a_config_with_an_ill_typed_field_is_refused_by_name(fields: tuple[Any, ...], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        Config(*fields)
    assert Config(["Ann", "Bo"]).players == ("Ann", "Bo") and Config(("Ann",), None).options == {}
