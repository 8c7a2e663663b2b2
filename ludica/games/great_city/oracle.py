"""The Great City oracle: stones, triads, triad-pairs, the d8 rule, traits, ties and names.

Every table comes from ``data/oracle.yaml`` (a copy of ``shared/rules/great-city-oracle.yaml``),
loaded once at import. A triad is an int 0..7 with blue as the high bit, so ``0b101`` is
``+-+`` (The Chrysalis); a triad-pair is ``first << 3 | second`` and stone position ``p`` (1..6,
ruling R-GC-10) is bit ``6 - p`` of the pair. **[THE GREAT CITY ORACLE]**

>>> lookup(0b101, 0b011)
('Novelty', 'Unanticipated events occur.')
>>> triad_name(0b101), triad_name(0b011)
('The Chrysalis', 'The Nymph')
>>> bits(reduce(0b101, 0b011)), triad_name(reduce(0b101, 0b011)), face_of_peril(reduce(0b101, 0b011))
('001', 'The Queen', ['economic'])
>>> [d8(v) for v in (1, 2, 5, 8)]
[(0, True), (0, False), (1, False), (1, True)]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import yaml  # type: ignore[import-untyped]

DATA_FILE: Final = Path(__file__).parent / "data" / "oracle.yaml"
ORACLE: Final[dict[str, Any]] = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
"""The whole YAML, loaded once."""

COLORS: Final[tuple[str, str, str]] = tuple(ORACLE["stone_order"])  # type: ignore[assignment]
"""blue, white, green: the fixed order of a triad's stones (Table 1)."""
MODES: Final[tuple[str, str, str]] = tuple(s["mode_key"] for s in ORACLE["stones"])  # type: ignore[assignment]
"""deeds, thoughts, words: the mode that flips the stone of the same index (Table 5)."""
MODE_OF_COLOR: Final = dict(zip(COLORS, MODES, strict=True))
COLOR_OF_MODE: Final = {m: c for c, m in MODE_OF_COLOR.items()}
KINDS: Final = ("human", "bug")

_STONES: Final = {s["color"]: s for s in ORACLE["stones"]}
CLASS_OF_COLOR: Final[dict[str, dict[str, str]]] = {
    "human": {c: _STONES[c]["human_class"] for c in COLORS},
    "bug": {c: _STONES[c]["bug_class"] for c in COLORS},
}
"""The class a + or moving stone of each colour permits, by kind (Tables 1, Human/Bug Characters)."""
DEFAULT_CLASS: Final[dict[str, str]] = dict(ORACLE["default_class"])
"""commoner / worker: the class of a character that takes none it is entitled to."""
COLOR_OF_CLASS: Final = {cls: c for kind in KINDS for c, cls in CLASS_OF_COLOR[kind].items()}
INITIATIVE_TIER: Final[dict[str, int]] = dict(ORACLE["initiative_class_tiers"])
FACE_OF_PERIL: Final = {c: _STONES[c]["face_of_peril"].lower() for c in COLORS}
JUSTIFICATION: Final = {c: _STONES[c]["intent_justification"] for c in COLORS}
"""What an intent answer must be justified by, per stone colour (Human Characters)."""

TRIAD_NAMES: Final[tuple[str, ...]] = tuple(t["name"] for t in sorted(ORACLE["triads"], key=lambda t: t["bits"]))
TRIAD_MEANINGS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(t["meanings"]) for t in sorted(ORACLE["triads"], key=lambda t: t["bits"])
)
_PAIRS: Final = {(int(p["first"], 2) << 3) | int(p["second"], 2): p for p in ORACLE["pairs"]}
PAIR_NAMES: Final[tuple[str, ...]] = tuple(_PAIRS[i]["name"] for i in range(64))
PAIR_JUDGMENTS: Final[tuple[str, ...]] = tuple(_PAIRS[i]["judgment"] for i in range(64))

D8: Final[dict[int, tuple[int, bool]]] = {int(k): (int(v["bit"]), bool(v["moving"])) for k, v in ORACLE["d8"].items()}

TRAITS: Final[dict[str, dict[str, dict[str, Any]]]] = ORACLE["traits_in_action"]
"""kind -> trait -> {dimension, sign, deeds, thoughts, words}; a null cell is '--' (Table 5)."""
DIMENSIONS: Final[dict[str, tuple[tuple[str, str, str], ...]]] = {
    kind: tuple((dim, signs["+"], signs["-"]) for dim, signs in ORACLE["trait_dimensions"][kind].items())
    for kind in KINDS
}
"""kind -> ((dimension, + trait, - trait), ...) in the text's order."""
HUMAN_TIES: Final[dict[str, Any]] = ORACLE["human_ties_in_action"]
INSECT_TIES: Final[dict[str, dict[str, str]]] = ORACLE["insect_ties_in_action"]
DEFAULT_RELATION: Final[dict[str, dict[str, str]]] = ORACLE["default_relation"]
NAMES: Final[dict[str, dict[int, str]]] = {k: {int(i): n for i, n in v.items()} for k, v in ORACLE["names"].items()}
PERIL_POOL_SIZE: Final[dict[int, int]] = {int(k): int(v) for k, v in ORACLE["peril_pool_size"].items()}


_BITS: Final = tuple(format(triad, "03b") for triad in range(8))
_PAIR_BITS: Final = tuple(f"{_BITS[pair >> 3]} {_BITS[pair & 7]}" for pair in range(64))
_SIGNS: Final = tuple(b.replace("1", "+").replace("0", "-") for b in _BITS)
""":func:`signs` of the eight triads, worked out once (every view shows each character's)."""
"""Every triad's and every pair's bits, written once (they appear in most events)."""


def bits(triad: int) -> str:
    """The triad as three bits, blue first: ``bits(5) == '101'``."""
    return _BITS[triad] if 0 <= triad <= 7 else format(triad, "03b")


def signs(triad: int) -> str:
    """The triad as stone signs, blue first: ``signs(5) == '+-+'``."""
    if 0 <= triad <= 7:
        return _SIGNS[triad]
    return bits(triad).replace("1", "+").replace("0", "-")


def pair_bits(pair: int) -> str:
    """A pair as ``'101 011'``."""
    return _PAIR_BITS[pair] if 0 <= pair <= 63 else f"{bits(pair >> 3)} {bits(pair & 7)}"


def parse_triad(text: str) -> int:
    """``'101'`` or ``'+-+'`` -> 5."""
    return int(text.replace("+", "1").replace("-", "0").replace("−", "0"), 2)


def triad_name(triad: int) -> str:
    """The triad's name in Table 2 (``triad_name(0b101) == 'The Chrysalis'``).

    Rule: [The Symbolism of the Triads]
    """
    return TRIAD_NAMES[triad]


def lookup(first: int, second: int) -> tuple[str, str]:
    """Name and judgment of a triad-pair (Table 3); ``first`` is the active triad.

    Rule: [The Symbolism of the Triad-Pairs]
    """
    index = (first << 3) | second
    return PAIR_NAMES[index], PAIR_JUDGMENTS[index]


def reduce(first: int, second: int) -> int:
    """The reduced triad: + where the two triads agree, - where they differ (The Situation)."""
    return ~(first ^ second) & 7


def face_of_peril(reduced: int) -> list[str]:
    """Every dimension whose reduced stone is +; none for The Void (ruling R-GC-08)."""
    if 0 <= reduced <= 7:
        return list(_FACES_OF_PERIL[reduced])
    return [FACE_OF_PERIL[c] for i, c in enumerate(COLORS) if reduced >> (2 - i) & 1]


_FACES_OF_PERIL: Final = tuple(
    tuple(FACE_OF_PERIL[c] for i, c in enumerate(COLORS) if reduced >> (2 - i) & 1) for reduced in range(8)
)
""":func:`face_of_peril` of the eight triads, worked out once (every view shows the city's)."""


def d8(value: int) -> tuple[int, bool]:
    """A d8 read as a stone: (bit, moving). 1 moving minus, 2-4 minus, 5-7 plus, 8 moving plus.

    Rule: [The Symbolism of the Stones]
    """
    return D8[value]


def stone(triad: int, color_index: int) -> int:
    """The bit of the stone of colour index 0 (blue), 1 (white) or 2 (green)."""
    return triad >> (2 - color_index) & 1


def position_color(position: int) -> int:
    """The colour index of a pair position 1..6 (ruling R-GC-10)."""
    return (position - 1) % 3


def trait_options(kind: str, triad: int) -> list[tuple[str, str, str]]:
    """Every way to allocate the triad's signs to the trait dimensions (ruling R-GC-09)."""
    plus = sum(stone(triad, i) for i in range(3))
    dims = DIMENSIONS[kind]
    out = []
    for mask in range(8):
        if bin(mask).count("1") == plus:
            out.append(tuple(dims[i][1] if mask >> (2 - i) & 1 else dims[i][2] for i in range(3)))
    return out  # type: ignore[return-value]


def class_options(kind: str, triad: int, moving: int) -> list[str]:
    """Classes a character may take: a + or moving stone of the colour (R-GC-11), or the default."""
    allowed = [CLASS_OF_COLOR[kind][c] for i, c in enumerate(COLORS) if stone(triad | moving, i)]
    return [*allowed, DEFAULT_CLASS[kind]]


def trait_descriptor(kind: str, trait: str, mode: str) -> str | None:
    """The Table 5 descriptor of a trait in a mode, or None for '--'."""
    return TRAITS[kind][trait][mode]


def relation(source_class: str, target_class: str) -> str:
    """The default social standing of a tie's target seen from a human source (R-GC-41, EX-G13)."""
    return DEFAULT_RELATION[source_class][target_class]


def tie_manner(source_kind: str, source_class: str, attitude: str | None, target_class: str, sign: str) -> str:
    """How a tie is played (Table 6 for human sources, Table 7 for bugs; R-GC-28).

    >>> tie_manner("human", "aristocrat", "kind", "mercantile", "+")
    'Patronizing (benevolently)'
    >>> tie_manner("bug", "queen", None, "aristocrat", "-")
    'Haughty'
    """
    key = (source_kind, source_class, attitude, target_class, sign)
    known = _MANNERS.get(key)
    if known is None:
        known = _MANNERS[key] = _tie_manner(source_kind, source_class, attitude, target_class, sign)
    return known


_MANNERS: dict[tuple[str, str, str | None, str, str], str] = {}
""":func:`tie_manner`'s answers (a few dozen at most: the tables' cells), remembered: every view
shows each tie's manner, and the answer depends on the tables alone."""


def _tie_manner(source_kind: str, source_class: str, attitude: str | None, target_class: str, sign: str) -> str:
    """:func:`tie_manner` worked out from the tables (Table 6 for human sources, Table 7 for bugs;
    R-GC-28)."""
    if source_kind == "bug":
        return INSECT_TIES[source_class][sign]
    cell = HUMAN_TIES[source_class][sign][f"to_{relation(source_class, target_class)}"]
    if cell is None:
        return "no standard manner: describe freely"
    adverb = cell.get(attitude) if attitude in ("kind", "cruel") else None
    return f"{cell['manner']} ({adverb})" if adverb else cell["manner"]
