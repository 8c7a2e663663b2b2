"""The rules core: the game protocol, actions, chance, records, positions, errors, registry."""

from .actions import CHANCE, Action, IntRange, Text, fill, matches
from .chance import ChanceStep, Dealer, Pick, Roll, Shuffle, describe_chance
from .errors import (
    ConfigError,
    DigestMismatch,
    IllegalAction,
    LudicaError,
    MalformedAction,
    NotYourDecision,
    PositionError,
    RecordError,
    UnknownGame,
)
from .game import PUBLIC, Config, Event, Game, GameMeta, OptionSpec, Outcome, Pending, Secret, decision
from .match import Match
from .registry import available, get_game

__all__ = [
    "CHANCE",
    "PUBLIC",
    "Action",
    "ChanceStep",
    "Config",
    "ConfigError",
    "Dealer",
    "DigestMismatch",
    "Event",
    "Game",
    "GameMeta",
    "IllegalAction",
    "IntRange",
    "LudicaError",
    "MalformedAction",
    "Match",
    "NotYourDecision",
    "OptionSpec",
    "Outcome",
    "Pending",
    "Pick",
    "PositionError",
    "RecordError",
    "Roll",
    "Secret",
    "Shuffle",
    "Text",
    "UnknownGame",
    "available",
    "decision",
    "describe_chance",
    "fill",
    "get_game",
    "matches",
]
