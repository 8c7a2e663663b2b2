"""A process pool that Ctrl-C stops at once: the lab's and the tournaments' worker processes.

A terminal's Ctrl-C reaches every process of the foreground group, the workers included. The
workers ignore it (their parent decides); the parent, interrupted, cancels what has not started,
ends the workers and goes on with what was finished — no worker is left running, no worker prints
a traceback.

A leaf module (it imports nothing of Ludica's), outside the rules kernels: it is never compiled.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

STOP_WAIT = 1.0
"""Seconds a worker is given to end after it is told to, before it is killed."""


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` worker processes, shut down normally, or stopped at once on an error or
    Ctrl-C (which goes on to the caller)."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupt)
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)


def in_order(pool: ProcessPoolExecutor, fn: Callable[[T], R], items: Iterable[T], ahead: int) -> Iterator[R]:
    """``fn`` of each item, run in ``pool``, yielded in the items' order, with at most ``ahead``
    items handed out at a time.

    ``ProcessPoolExecutor.map`` hands out every item before it yields the first result: for a
    200,000-game tournament that is 200,000 futures made at the start, and 200,000 to cancel at
    Ctrl-C (seconds on a busy machine). Here the items are taken one by one as results come back.
    """
    pending: deque[Future[R]] = deque()
    for item in items:
        pending.append(pool.submit(fn, item))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued tasks and end the workers now (the executor has no public way to)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(STOP_WAIT)
        if process.is_alive():
            process.kill()
            process.join(STOP_WAIT)
    if manager is not None:
        # the executor's own thread closes its wake-up pipe as it ends; Python's exit hook writes to
        # that pipe, and if the two meet, prints "OSError: Bad file descriptor" (CPython 3.11)
        manager.join(STOP_WAIT)
