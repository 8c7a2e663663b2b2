"""The table's bot workers: a few long-lived processes, each replaced when it runs past its bound.

A :class:`Worker` is one spawned process that answers one question at a time over a pipe (a
bot's decision, :func:`ludica.table.bots.think`). :meth:`Worker.ask` waits at most the bound;
past it the process is killed (the pool makes a fresh one), so a bot that thinks too long never
keeps a worker. A worker dies with the server even when the server is killed with ``kill -9``:
it asks Linux to send it ``SIGKILL`` when its parent dies (``PR_SET_PDEATHSIG``) and, on any
system, a watchdog thread ends it as soon as its parent is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

WATCH_SECONDS = 0.5
"""How often a worker looks whether its parent (the server) is still alive."""
PR_SET_PDEATHSIG = 1


class WorkerTimeout(Exception):
    """The worker did not answer within its bound (it has been killed)."""


class WorkerFailed(Exception):
    """The worker's task raised, or the worker died; the name of the error is kept, not its text."""


def _die_with(parent: int) -> None:
    """In the worker: end as soon as ``parent`` is gone (kill -9 included)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(WATCH_SECONDS)

    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=watch, name="ludica-watchdog", daemon=True).start()


def _serve(conn: Connection, parent: int) -> None:
    """The worker's loop: receive ``(fn, args)``, send back ``("ok", value)`` or ``("error", name)``."""
    _die_with(parent)
    with contextlib.suppress(Exception):  # warm: a room's first decision does not pay the imports
        import importlib

        importlib.import_module("ludica.table.bots")
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", fn(*args)))
        except Exception as exc:  # the table logs the error's name, never its text (it may hold a secret)
            conn.send(("error", type(exc).__name__))


class Worker:
    """One bot worker process and its pipe (used by one caller at a time)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, os.getpid()), name="ludica-bot", daemon=True)
        self.process.start()
        child.close()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()

    def ask(self, fn: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        """``fn(*args)`` in the worker, waiting at most ``seconds`` (blocking: call it off the loop).

        Raises :class:`WorkerTimeout` (and kills the worker) past the bound, :class:`WorkerFailed`
        when the task raised or the worker died.
        """
        try:
            self.conn.send((fn, args))
            if not self.conn.poll(seconds):
                self.stop()
                raise WorkerTimeout(f"no answer within {seconds} s")
            status, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self.stop()
            raise WorkerFailed("the worker died") from None
        if status != "ok":
            raise WorkerFailed(str(value))
        return value

    def stop(self) -> None:
        """Kill the process at once (a worker holds nothing that needs a clean exit)."""
        with contextlib.suppress(Exception):
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()
