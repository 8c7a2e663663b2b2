"""``ludica``, ``ludica -h``, ``ludica --help`` and every subcommand's ``--help`` print help, never a traceback."""

from __future__ import annotations

import argparse

import pytest

from ludica.cli import build_parser, main


def subcommands() -> list[str]:
    parser = build_parser()
    for action in parser._actions:  # argparse keeps its subcommands here; no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return sorted(action.choices)
    raise AssertionError("ludica has no subcommands")


def test_bare_ludica_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: ludica" in out and "tournament" in out


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_top_level_help(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([flag])
    assert exit_info.value.code == 0
    assert "usage: ludica" in capsys.readouterr().out


@pytest.mark.parametrize("command", subcommands())
def test_subcommand_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert f"usage: ludica {command}" in capsys.readouterr().out
