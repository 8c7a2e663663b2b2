"""The observation encoder in C (``ludica/env/_tensorc.c``) gives the Python encoder's tensors and
errors: along seeded random play of the five games (several player counts, every seat and the
spectator), on a schema of every field kind with awkward values, and on views with gaps.

The C encoder runs where the compiled build does; these tests skip where it is absent, except in
the compiled build, where its absence fails (the compiled pass of the suite must test it).
"""

from __future__ import annotations

import json
import random
from array import array
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludica import _build
from ludica.env import tensor
from ludica.env.driver import Driver
from ludica.env.tensor import (
    TEXT,
    Bits,
    ById,
    BySeat,
    Ctx,
    Dice,
    Field,
    Flag,
    Members,
    Num,
    OneOf,
    Opt,
    Rec,
    Schema,
    SchemaError,
    Seat,
    SeatOr,
    Seats,
    Sentence,
    Seq,
    Workers,
)

from .conftest import GAMES, walk


def test_the_encoder_is_named() -> None:
    """The compiled build runs the C encoder (its absence there is a failure); the pure one runs Python."""
    if _build.build() == "compiled":
        assert tensor.encoder() == "C", "the compiled build runs without the C encoder"
    else:
        assert tensor.encoder() == "Python"
    assert ("C observation encoder" in _build.describe()) == (tensor.encoder() == "C")


needs_c = pytest.mark.skipif(tensor.encoder() != "C", reason="the C encoder is not built (pure build)")


def _python(schema: Schema, seat: str | None, view: Any, pending: Any = ()) -> np.ndarray:
    return schema._fresh(seat, view, pending, schema.ctx(seat))


@needs_c
@pytest.mark.parametrize("game_id", GAMES)
def test_c_gives_the_python_tensors_along_play(game_id: str) -> None:
    """For every seat and the spectator, at every step: C, Python afresh and Python incremental agree."""
    low = Driver(game_id, None, seed=5)
    meta = low.game.meta
    counts = sorted({meta.players_min, (meta.players_min + meta.players_max) // 2, meta.players_max})
    compared = 0
    for players in counts:
        driver = Driver(game_id, players, seed=5 + players)
        schema = driver.observer
        assert schema._c is not None
        for _ in walk(driver, 150, players):
            for seat in (*driver.seats, None):
                view = driver.match.view(seat)
                c = schema.encode(seat, view, driver.pending)
                fresh = _python(schema, seat, view, driver.pending)
                patched = schema._patch(seat, view, driver.pending, schema.ctx(seat))
                assert c.dtype == np.float32 and c.shape == (schema.size,)
                assert c.tobytes() == fresh.tobytes() == patched.tobytes(), f"{players} players, {seat}"
                compared += 1
    assert compared > 300


def _every_kind(n: int = 3) -> Rec:
    item = Rec(num=Num(7.0, offset=0.5), flag=Flag(), name=TEXT)
    return Rec(
        num=Num(3.0),
        shifted=Num(9.0, offset=-1.0),
        flag=Flag(),
        one=OneOf([None, 1, "a", 2.5]),
        many=Members(["x", "y", 3]),
        counted=Members(["x", "y"], counts=True),
        seat=Seat(n),
        seat_extra=Seat(n, extra=(None, "gm", 0)),
        seats=Seats(n),
        seats_counted=Seats(n, counts=True),
        words=TEXT,
        opt=Opt(Num(2.0)),
        opt_one=Opt(OneOf(["p", "q"])),
        by_seat=BySeat(n, item, key="seat"),
        by_id=ById(["c1", "c2", "c3"], item),
        seq=Seq(3, Num(5.0)),
        seq_rec=Seq(2, Rec(who=Seat(n), what=Flag())),
        dice=Dice(n, 4),
        own_dice=Dice(1, 4),
        sentence=Sentence(r"(?P<who>\w+) gave (?P<what>\w+) to (?P<whom>\w+)", who=Seat(n), whom=Seat(n)),
        seat_or=SeatOr(n, Rec(tied=Seats(n))),
        bits=Bits(6),
        workers=Workers(n, faces=6, scale=3.0),
        nested=Rec(inner=Rec(deep=Num(4.0), one=OneOf([True, "z"]))),
    )


SEATS = ("p1", "p2", "p3")


def _random_value(field: Field, rng: random.Random) -> Any:
    """A value for ``field``, awkward where the view allows it (``None`` one time in ten)."""
    if rng.random() < 0.1:
        return None
    if isinstance(field, Num | Flag | OneOf | Members | Seat | Seats):
        return _random_leaf(field, rng)
    if isinstance(field, Rec):
        return {key: _random_value(f, rng) for key, f in field.fields.items() if rng.random() < 0.8}
    if isinstance(field, Opt):
        return _random_value(field.inner, rng)
    if isinstance(field, BySeat | ById):
        return _random_blocks(field, rng)
    if isinstance(field, Seq):
        return [_random_value(field.item, rng) for _ in range(rng.randint(0, 5))]
    return _random_text(field, rng)


def _random_leaf(field: Field, rng: random.Random) -> Any:
    if isinstance(field, Num):
        return rng.choice([rng.randint(-5, 30), rng.random() * 10, True, False, "2.5", 10**12, 0])
    if isinstance(field, Flag):
        return rng.choice([True, False, 0, 1, "", "x", [], [0], 2.0])
    if isinstance(field, OneOf):
        return rng.choice([v for v in [*field.domain, 1.0, True, 0] if v in field.index])
    if isinstance(field, Members):
        return [rng.choice(field.domain) for _ in range(rng.randint(0, 4))]
    if isinstance(field, Seat):
        return rng.choice([*SEATS, *field.extra])
    return [rng.choice(SEATS) for _ in range(rng.randint(0, 4))]  # Seats


def _random_blocks(field: BySeat | ById, rng: random.Random) -> Any:
    """A dict by seat or id, or a list of items naming theirs (ids beyond the declared ones too)."""
    key = "seat" if isinstance(field, BySeat) else "id"
    names = SEATS if isinstance(field, BySeat) else ("c1", "c2", "c3", "c9", "zz")
    picked = rng.sample(names, rng.randint(0, len(names) - 1))
    if rng.random() < 0.5:
        return {name: _random_value(field.item, rng) or {} for name in picked}
    return [{**(_random_value(field.item, rng) or {}), key: name} for name in picked]


def _random_text(field: Field, rng: random.Random) -> Any:
    """A value of the fields read from strings and pairs: dice, sentences, seat-or, bits, workers."""
    if isinstance(field, Dice):
        who = SEATS if field.n > 1 else ("p1",)
        return [f"{rng.choice(who)}.{rng.randint(0, field.k - 1)}" for _ in range(rng.randint(0, 4))]
    if isinstance(field, Sentence):
        return f"{rng.choice(SEATS)} gave gold to {rng.choice(SEATS)}"
    if isinstance(field, SeatOr):
        return rng.choice(SEATS) if rng.random() < 0.5 else {"tied": rng.sample(SEATS, 2)}
    if isinstance(field, Bits):
        return " ".join("".join(rng.choice("01+-") for _ in range(3)) for _ in range(2))
    if isinstance(field, Workers):
        return [[rng.choice(SEATS), rng.choice([1, 2, 6, "3", 4.0])] for _ in range(rng.randint(0, 5))]
    return None


@needs_c
def test_every_field_kind_with_awkward_values() -> None:
    """A schema of every kind the C encoder knows: random views
    with numbers as bools and strings, True for 1, repeats, lists longer than declared, ids
    beyond the declared ones, lists and dicts keyed by seat or id."""
    schema = Schema(SEATS, SEATS, _every_kind())
    assert schema._c is not None and schema._c.delegates == 0
    rng = random.Random(7)
    for _ in range(3000):
        view = _random_value(schema.view, rng) or {}
        seat = rng.choice([*SEATS, None])
        pending = rng.sample(SEATS, rng.randint(0, 2))
        try:
            expected = _python(schema, seat, view, pending)
        except (SchemaError, ValueError, TypeError) as exc:
            with pytest.raises(type(exc)) as caught:
                schema.encode(seat, view, pending)
            assert str(caught.value) == str(exc)
            continue
        out = array("f", schema._zeros)
        schema._c.encode(out, view, schema.ctx(seat), schema.seats, seat, pending)  # C alone, no fallback
        assert bytes(out) == expected.tobytes() == schema.encode(seat, view, pending).tobytes(), view


BAD = [
    ("one", "b", SchemaError, "one: 'b' is not one of the declared"),
    ("one", [1], TypeError, "unhashable type"),
    ("num", "many", ValueError, "could not convert string to float"),
    ("seat", "p9", SchemaError, "seat: 'p9' is neither a seat nor one of (None,)"),
    ("seats", ["p1", "nobody"], SchemaError, "seats: 'nobody' is not a seat"),
    ("many", ["w"], SchemaError, "many: 'w' is not one of the declared"),
    ("by_seat", {"gm": {}}, SchemaError, "by_seat: 'gm' is not one of the 3 seats"),
    ("by_id", [{"id": ""}], SchemaError, "by_id: '' is beyond the declared ids c1..c3"),
    ("dice", ["p1.9"], SchemaError, "dice: die 'p1.9' is beyond the declared 3 seats x 4 dice"),
    ("dice", ["p1.x"], SchemaError, "dice: die 'p1.x' is beyond"),
    ("sentence", "p1 took it", SchemaError, "sentence: 'p1 took it' does not read as"),
    ("bits", "0101", SchemaError, "bits: '0101' is not 6 binary digits"),
    ("bits", "01010x", SchemaError, "bits: '01010x' is not 6 binary digits"),
    ("workers", [["p1", 7]], SchemaError, "workers: worker 'p1' showing 7 is not"),
    ("workers", [["p1"]], ValueError, "not enough values to unpack"),
    ("nested", {"inner": {"one": "y"}}, SchemaError, "nested: inner: one: 'y' is not one of"),
    ("seq", 5, TypeError, "object of type 'int' has no len()"),
    ("seq_rec", [{"who": "p7"}], SchemaError, "seq_rec: who: 'p7' is neither a seat"),
    ("seat_or", "p8", SchemaError, "seat_or: 'p8' is neither a seat nor one of ()"),
]


@needs_c
@pytest.mark.parametrize(("key", "value", "kind", "message"), BAD)
def test_gaps_give_the_python_errors(key: str, value: Any, kind: type, message: str) -> None:
    """A view with a gap: the C encoder refuses it too, and encode raises the Python encoder's
    exact error (its class and message, with the "key: " prefixes of the records around it)."""
    schema = Schema(SEATS, SEATS, _every_kind())
    view = {"num": 1, key: value}
    with pytest.raises(kind) as python:
        _python(schema, "p1", view)
    assert str(python.value).startswith(message)
    with pytest.raises(Exception):  # noqa: B017 - any error: encode then asks Python for the exact one
        schema._c.encode(array("f", schema._zeros), view, schema.ctx("p1"), schema.seats, "p1", ())
    with pytest.raises(kind) as c:
        schema.encode("p1", view)
    assert str(c.value) == str(python.value)
    assert c.value.__cause__ is None and c.value.__suppress_context__ == python.value.__suppress_context__
    assert type(c.value.__context__) is type(python.value.__context__)  # nothing of C's chained


def _halves(out: array[float], at: int, value: Any, ctx: Ctx) -> None:
    """A field's put the C encoder does not know (kind 17: a Field subclass of its own)."""
    out[at] += 0.1  # read back as a Python float, increased in double, stored as float32
    out[at] += float(value) / 3
    out[at + 1] = len(ctx.order)


@needs_c
def test_a_field_of_its_own_is_laid_out_by_its_put() -> None:
    """C calls the put of a field it does not know with the array('f') itself and the Ctx (in the
    compiled build only a compiled Field subclass gets there; the plan is written out here)."""
    schema = Schema(SEATS, SEATS, Rec(n=Num(2.0)))
    plan = tensor._C.Plan((0, (("h", 0, (17, _halves)), ("n", 2, (1, 0.0, 2.0)), ("s", 3, (8, (17, _halves))))), 6)
    assert plan.delegates == 2
    for value in (1, 2.5, True, "7"):
        out = array("f", bytes(4 * 12))
        plan.encode(out, {"h": value, "n": value, "s": value}, schema.ctx("p2"), SEATS, "p2", ["p1"])
        expected = array("f", bytes(4 * 12))
        expected[1] = expected[3 + 2] = 1.0
        _halves(expected, 6, value, schema.ctx("p2"))
        expected[8] = (float(value) + 0.0) / 2.0
        expected[9] = 1.0
        _halves(expected, 10, value, schema.ctx("p2"))
        assert bytes(out) == bytes(expected)


@needs_c
def test_what_c_leaves_to_python() -> None:
    """Die numbers in other scripts' digits (``str.isdigit``) are encoded by Python, from encode."""
    schema = Schema(SEATS, SEATS, Rec(dice=Dice(1, 4)))
    view = {"dice": ["p1.\u0663"]}  # ARABIC-INDIC DIGIT THREE: int() reads 3
    with pytest.raises(ValueError):
        schema._c.encode(array("f", schema._zeros), view, schema.ctx("p1"), schema.seats, "p1", ())
    assert schema.encode("p1", view).tobytes() == _python(schema, "p1", view).tobytes()
    assert schema.encode("p1", view)[2 * 3 + 3] == 1.0


def test_the_c_source_is_stamped(tmp_path: Path) -> None:
    """The build's stamp fingerprints the C source: an edited one makes the build stale."""
    package = tmp_path / "ludica"
    (package / "env").mkdir(parents=True)
    source = package / "env" / "_tensorc.c"
    source.write_text("/* one */\n")
    _build.write_stamp(package / _build.STAMP, _build.fingerprints(tmp_path))
    modules = json.loads((package / _build.STAMP).read_text())["modules"]
    assert modules["ludica.env._tensorc"]["file"] == "env/_tensorc.c"
    assert list(_build._changed(package, modules)) == []
    source.write_text("/* two */\n")
    assert list(_build._changed(package, modules)) == ["env/_tensorc.c"]
    repo = Path(__file__).resolve().parents[2]
    assert "ludica.env._tensorc" in _build.fingerprints(repo)
