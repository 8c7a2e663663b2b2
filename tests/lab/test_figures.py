"""The lab's tables on crafted records: win rate by turn order where the game decides it, ranked
lists with both ends and the correction, constants kept out of the figures, the note of a
comparison of two files dealt from different seeds."""

from __future__ import annotations

from typing import Any

from ludica.core import get_game
from ludica.lab.analysis import attribute_rates, order_rates, ordinal, warnings
from ludica.lab.batch import Batch
from ludica.lab.cli import compare_rows, figure_constants, figure_rows, paired_note, ranked_rows
from ludica.lab.report import Arm


def _record(index: int, winner: str, order: list[str], **summary: Any) -> dict[str, Any]:
    seats = ["p1", "p2", "p3", "p4"]
    return {
        "index": index,
        "seed": index,
        "bots": dict.fromkeys(seats, "heuristic"),
        "players": 4,
        "end_reason": "ten_stars",
        "winners": [winner],
        "steps": 100 + index % 7,
        "turns": 40 + index % 5,
        "summary": {"players": 4, "turn_order": order, "end_reason": "ten_stars"} | summary,
        "timeline": {},
        "actions_offered": {},
        "actions_taken": {},
    }


def test_the_first_player_is_told_apart_from_seat_p1() -> None:
    game = get_game("euphoria")
    records = []
    for i in range(200):  # the first player (rotating over the seats) wins 60% of the games
        order = [f"p{1 + (i + k) % 4}" for k in range(4)]
        records.append(_record(i, order[0] if i % 5 < 3 else order[1 + i % 3], order))
    rates = {r.who: r for r in order_rates(records)}
    assert list(rates) == ["1st", "2nd", "3rd", "4th"]
    assert (rates["1st"].wins, rates["1st"].games, rates["1st"].fair) == (120, 200, 0.25)
    found = warnings(game, records)
    order = [w.message for w in found if w.kind == "turn-order advantage"]
    assert order[0].startswith("the 1st player wins more than its share: 60.0% [53.1, 66.5] of 200")
    assert "seat advantage" not in {w.kind for w in found}  # each seat is first a quarter of the time
    assert order_rates([{**r, "summary": {}} for r in records]) == []  # no turn order: no table
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        *("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"),
    ]


def test_a_ranked_list_shows_both_ends_corrected() -> None:
    recruits = [f"r{k:02d}" for k in range(20)]
    records = []
    for i in range(400):
        by_seat = {f"p{1 + s}": recruits[(i + 5 * s) % 20] for s in range(4)}
        # r00 always wins when it is dealt; otherwise p2 wins
        winner = next((seat for seat, r in by_seat.items() if r == "r00"), "p2")
        records.append(_record(i, winner, ["p1", "p2", "p3", "p4"], by_seat={"starting recruit": by_seat}))
    rates = attribute_rates(records, "starting recruit")
    assert len(rates) == 20
    rows = ranked_rows(rates)
    assert len(rows) == 11 and rows[5][1] == "10 more between"
    assert rows[0][1] == "r00" and rows[0][4] == "yes"  # its p corrected over all 20 still below 5%
    assert [row[0] for row in rows[-5:]] == ["16", "17", "18", "19", "20"]  # the bottom end too


def test_constants_are_not_figures_and_different_seeds_are_not_called_the_same() -> None:
    records = [_record(i, "p1", ["p1", "p2", "p3", "p4"], deaths=0) for i in range(30)]
    a = Arm("A", Batch("euphoria", ("Ann", "Bob", "Cat", "Dan"), games=30, seed=0), records)
    names = [row[0] for row in figure_rows(a)[1]]
    assert "players" not in names and "deaths" not in names and "steps" in names
    assert figure_constants(a) == {"players": 4.0, "deaths": 0.0}
    b = Arm("B", Batch("euphoria", ("Ann", "Bob", "Cat", "Dan"), games=30, seed=500), records)
    head, rows = compare_rows(a, b)
    assert "players" not in [row[0] for row in rows]
    assert "Benjamini-Hochberg" in head[3]
    note = paired_note(a, b, rows)
    assert "not dealt with the same seeds (A from seed 0, B from seed 500)" in note
    assert "same seed" not in paired_note(a, b, rows).replace("not dealt with the same seeds", "")
    assert "dealt with the same seed" in paired_note(a, a, rows)


def test_game_length_is_named_by_what_it_counts() -> None:
    from ludica.lab.analysis import figures, length_unit

    with_turns = [_record(i, "p1", ["p1", "p2", "p3", "p4"], turns=40) for i in range(3)]
    without = [_record(i, "p1", ["p1", "p2", "p3", "p4"]) for i in range(3)]
    assert length_unit(with_turns) == "turns" and "turns" in figures(with_turns)
    assert length_unit(without) == "decisions" and "decisions" in figures(without) and "turns" not in figures(without)
