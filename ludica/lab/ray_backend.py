"""Playing a batch on a Ray cluster (the ``ray`` extra: ``pip install 'ludica[ray]'``).

Each Ray task plays a chunk of games with :func:`ludica.lab.batch.play_chunk`, so the per-game
records are exactly those of one process: a game's result depends on its index and the batch's
seed, never on where it ran.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from .batch import Advance, Batch, Interrupted, chunks, play_chunk

LOCAL = "local"
"""The address of plain ``--ray``: the cluster in ``RAY_ADDRESS`` when it is set (as Ray's own
tools do), else a new local Ray with the given number of CPUs."""


def require_ray() -> Any:
    use_token_if_any()  # before Ray reads its configuration (at import)
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
        connect(ray, address, cpus)
        started = True
    try:
        task = ray.remote(play_chunk)
        parts = chunks(batch.games, max(1, min(25, batch.games // (cpus * 4) or 1)))
        refs = {task.remote(batch, part): k for k, part in enumerate(parts)}
        results: dict[int, list[dict[str, Any]]] = {}
        waiting = list(refs)
        try:
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                for ref in done:
                    k = refs[ref]
                    results[k] = ray.get(ref)
                    advance(len(parts[k]))
        except KeyboardInterrupt:  # Ctrl-C: cancel what runs on the cluster, keep what finished
            for ref in waiting:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            raise Interrupted([r for k in sorted(results) for r in results[k]], batch.games) from None
        return [record for k in range(len(parts)) for record in results[k]]
    finally:
        if started:
            ray.shutdown()


def connect(ray: Any, address: str, cpus: int) -> None:
    """``ray.init`` as Ray documents it: an address (``--ray ADDRESS``, or ``RAY_ADDRESS`` for
    plain ``--ray``) joins that cluster, with token authentication when this machine has a token;
    otherwise a new local Ray starts (never a cluster that happens to run here)."""
    target = os.environ.get("RAY_ADDRESS") if address == LOCAL else address
    quiet: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
    try:
        if not target:
            # The local Ray's processes inherit an ignored Ctrl-C (a terminal's Ctrl-C reaches the
            # whole group): the driver alone stops, then ``ray.shutdown`` ends them.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                ray.init(address="local", num_cpus=cpus, include_dashboard=False, **quiet)
            finally:
                signal.signal(signal.SIGINT, previous)
            return
        reachable(target)
        ray.init(address=target, **quiet)
    except ConfigError:
        raise
    except Exception as exc:  # Ray's errors are many and deep: one line, naming the cluster
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        hint = (
            " (a cluster with token authentication needs RAY_AUTH_MODE=token and its token: "
            "RAY_AUTH_TOKEN or ~/.ray/auth_token)"
            if "auth" in str(exc).lower()
            else ""
        )
        where = target or "this machine"
        raise ConfigError(f"cannot use the Ray cluster at {where}: {first}{hint}", rule="lab") from None


def reachable(address: str, *, timeout: float = 3.0) -> None:
    """Refuse at once, in one line, a cluster address where nothing answers (Ray itself would
    retry for a minute or more, logging as it goes). ``auto`` and addresses without a port are
    left to Ray; ``ray://HOST:PORT`` (Ray Client) is probed at its port."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise ConfigError(
            f"cannot use the Ray cluster at {address}: nothing answers there ({why}); is 'ray start --head' "
            "running on it, at that port?",
            rule="lab",
        ) from None


def use_token_if_any() -> None:
    """Join with token authentication when a token is at hand and ``RAY_AUTH_MODE`` is unset:
    what ``ray start --head`` itself does on this machine (Ray turns token authentication on for
    a cluster it starts whenever a token exists, but not for a client given an address)."""
    if os.environ.get("RAY_AUTH_MODE") is not None:
        return
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH") or _token_file().exists():
        os.environ["RAY_AUTH_MODE"] = "token"
        if "ray" in sys.modules:  # Ray already read its configuration: have it read it again
            try:
                from ray._raylet import Config  # type: ignore[attr-defined]  # (Ray's private module, untyped)

                Config.initialize("")
            except (ImportError, AttributeError):
                pass


def _token_file() -> Path:
    return Path.home() / ".ray" / "auth_token"
