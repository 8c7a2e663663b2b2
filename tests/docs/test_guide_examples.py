"""The Python blocks of the guides run as written: the bot of ``docs/writing-bots.md`` plays a
whole game, the training loop of ``docs/learning.md`` learns over its episodes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def python_blocks(page: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", (DOCS / page).read_text(encoding="utf-8"), re.S | re.M)


def test_the_bot_of_the_guide_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    from ludica.bots.base import BOTS

    (block,) = python_blocks("writing-bots.md")
    try:
        exec(compile(block, str(DOCS / "writing-bots.md"), "exec"), {"__name__": "docs_writing_bots"})
    finally:
        BOTS.pop("first", None)  # the guide's bot registers itself; other tests list the bots
    assert "over: True" in capsys.readouterr().out


def test_the_training_loop_of_the_guide_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gymnasium")
    (block,) = python_blocks("learning.md")
    exec(compile(block, str(DOCS / "learning.md"), "exec"), {"__name__": "docs_learning"})
    assert capsys.readouterr().out.count("episode ") == 4
