"""How ``copy``, ``copy.deepcopy`` and ``pickle`` rebuild the kernels' objects, in both builds.

Python rebuilds an object by making a blank instance (``cls.__new__(cls)``) and setting its
attributes. The compiled build (mypyc) cannot do that: a compiled class's ``__new__`` runs its
``__init__`` (so a blank instance needs the constructor's arguments), and a frozen dataclass
refuses the attribute assignments. Both builds therefore rebuild every such object the same way,
through its constructor (DESIGN.md principle 13: copying and pickling behave alike):

* a frozen dataclass inherits from :class:`Value`: rebuilt from its fields;
* a class whose ``__init__`` takes arguments defines ``__reduce__`` with :func:`rebuilt`, giving
  the arguments its constructor needs; every attribute is then restored as it was.

>>> import copy, pickle
>>> from ludica.core import Config
>>> config = Config(("Ann", "Bo"), {"x": 1}, seed=7)
>>> pickle.loads(pickle.dumps(config)) == config == copy.deepcopy(config)
True

``tests/core/test_core_values.py`` checks every game's states and configs, and that every class
of the kernels follows these two rules.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class Value:
    """Base of the kernels' frozen dataclasses: copies and pickles rebuild one from its fields."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        held: Any = self
        return (type(self), tuple(getattr(self, f.name) for f in fields(held)))


def rebuilt(obj: Any, *args: Any) -> tuple[Any, ...]:
    """What ``obj.__reduce__`` returns: call its class with ``args`` (what its ``__init__``
    requires), then restore every attribute (``__getstate__``) as it was."""
    return (type(obj), args, obj.__getstate__())
