"""The data files load, are validated, and every component is used by some rule."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ludica.games.euphoria import oracle
from ludica.games.euphoria.oracle import DILEMMAS, MARKETS, RECRUITS, SITES, SPACES, DataError
from ludica.games.euphoria.spaces import GAINS, kind_of

PACKAGE = Path(oracle.__file__).parent
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
TESTS = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_eu_*.py"))


def test_counts() -> None:
    assert len(RECRUITS) == 48 and len(MARKETS) == 18 and len(DILEMMAS) == 6 and len(SITES) == 6
    assert len(oracle.ARTIFACT_CARDS) == 36
    assert {r.faction for r in RECRUITS.values()} == {"euphorian", "subterran", "wastelander", "icarite"}


@pytest.mark.parametrize("rid", sorted(RECRUITS))
def test_every_recruit_has_a_rule_and_a_scenario(rid: str) -> None:
    assert f'"{rid}"' in SOURCE, f"{rid} is used by no rule"
    assert f"def test_{rid}" in TESTS, f"{rid} has no scenario test"


@pytest.mark.parametrize("market", sorted(MARKETS))
def test_every_market_is_tested(market: str) -> None:
    assert market in TESTS or MARKETS[market].penalty == "roll_loss"


@pytest.mark.parametrize("space", sorted(SPACES))
def test_every_space_has_a_benefit_rule(space: str) -> None:
    assert kind_of(space) in GAINS


def test_every_dilemma_pictures_an_artifact() -> None:
    assert {d.artifact for d in DILEMMAS.values()} == set(oracle.ARTIFACT_KINDS)


def test_numbers_read_from_the_data() -> None:
    assert oracle.KNOWLEDGE_LIMIT == 16 and oracle.TIER_LEVELS == (2, 5, 8, 11)
    assert oracle.REVEAL_LEVEL == 6 and oracle.TUNNEL_END == 9
    assert oracle.BUILD_THRESHOLD == {2: 2, 3: 2, 4: 3, 5: 4, 6: 4}
    assert oracle.BRACKETS[1] == (5, 8, 1, ("knowledge", -1))
    assert SPACES["worker_activation_energy"].cost == (("energy", 3),)


def test_a_broken_data_file_is_refused(tmp_path, monkeypatch) -> None:
    data = tmp_path / "data"
    shutil.copytree(oracle.DATA, data)
    text = (data / "markets.yaml").read_text(encoding="utf-8")
    (data / "markets.yaml").write_text(
        text.replace("visit_cost: {water: 4, gold: 1}", "visit_cost: {water: 4, diamonds: 1}"), encoding="utf-8"
    )
    monkeypatch.setattr(oracle, "DATA", data)
    with pytest.raises(DataError, match="diamonds"):
        oracle._load_markets()
    (data / "setup.yaml").write_text("schema_version: 2\n", encoding="utf-8")
    with pytest.raises(DataError):
        oracle._load("setup.yaml")
