"""Playing a batch on a Ray cluster (the ``ray`` extra: ``pip install 'ludica[ray]'``).

Each Ray task plays a chunk of games with :func:`ludica.lab.batch.play_chunk`, so the per-game
records are exactly those of one process: a game's result depends on its index and the batch's
seed, never on where it ran.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import ConfigError
from .batch import Advance, Batch, chunks, play_chunk

LOCAL = "local"
"""The address meaning "start a local Ray with the given number of CPUs"."""


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--ray needs Ray, which is not installed: pip install 'ludica[ray]' (or bash scripts/setup)", rule="lab"
        ) from None
    return ray


def run_on_ray(batch: Batch, *, address: str, cpus: int, advance: Advance) -> list[dict[str, Any]]:
    """Every game's record, in index order, played by Ray tasks at ``address`` (or a local Ray)."""
    ray = require_ray()
    started = False
    if not ray.is_initialized():
        if address == LOCAL:
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        started = True
    try:
        task = ray.remote(play_chunk)
        parts = chunks(batch.games, max(1, min(25, batch.games // (cpus * 4) or 1)))
        refs = {task.remote(batch, part): k for k, part in enumerate(parts)}
        results: dict[int, list[dict[str, Any]]] = {}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                k = refs[ref]
                results[k] = ray.get(ref)
                advance(len(parts[k]))
        return [record for k in range(len(parts)) for record in results[k]]
    finally:
        if started:
            ray.shutdown()
