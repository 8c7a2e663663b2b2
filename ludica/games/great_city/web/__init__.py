"""The Great City's face at the web table (``view.html``) and the printed facts it reads: the
oracle's names of the 64 pairs, given to the template as ``data`` (facts only, never state), so
that the face names the pair the stones show right after a flip, before the oracle says it."""

from __future__ import annotations

from typing import Any

from .. import oracle as O


def face_data() -> dict[str, Any]:
    return {"pair_names": list(O.PAIR_NAMES)}
