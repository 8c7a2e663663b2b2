"""The example in docs/env.md runs (the last python block, under "Example")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).parents[2] / "docs" / "env.md"


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Example", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "docs/env.md has an example block"
    exec(compile(block.group(1), str(DOC), "exec"), {"__name__": "docs_env_example"})
    assert "first legal:" in capsys.readouterr().out


def test_the_pettingzoo_snippet_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"## PettingZoo\n\n```python\n(.*?)```", text, re.S)
    assert block
    code = block.group(1).replace('render_mode="human"', "max_steps=200")
    exec(compile(code, str(DOC), "exec"), {})
