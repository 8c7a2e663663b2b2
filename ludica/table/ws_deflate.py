"""The table's WebSocket protocol: uvicorn's own, compressing with a faster zlib level (issue 24).

Browsers and uvicorn agree on per-message deflate, and uvicorn compresses at zlib's default level
(6). A Euphoria view is about 88 KB of JSON: level 6 spends about 1.2 ms of CPU on each message
(about 5 ms for the four seats of one action), level 1 about 0.35 ms for a message some 35%
larger (11 KB instead of 8 KB on the wire). The table sends many large, similar messages, so it
takes level 1. Everything else — window sizes, memory level, limits — is uvicorn's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

LEVEL = 1


def protocol() -> str:
    """What ``uvicorn.run(ws=...)`` is given: this module's protocol, or uvicorn's own choice if
    its sans-I/O protocol is not there (another uvicorn)."""
    try:
        _protocol_class()
    except (ImportError, AttributeError):
        return "auto"
    return "ludica.table.ws_deflate:TableWebSocketProtocol"


@cache
def _protocol_class() -> type:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.server import ServerProtocol

    class Protocol(WebSocketsSansIOProtocol):  # type: ignore[misc]
        """uvicorn's sans-I/O WebSocket protocol with deflate at :data:`LEVEL`."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                deflate = ServerPerMessageDeflateFactory(
                    server_max_window_bits=12,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": LEVEL},
                )
                self.conn = ServerProtocol(extensions=[deflate], max_size=self.config.ws_max_size, logger=self.logger)

    return Protocol


def __getattr__(name: str) -> Any:
    """``TableWebSocketProtocol``: built on first use (uvicorn imports it by name)."""
    if name == "TableWebSocketProtocol":
        return _protocol_class()
    raise AttributeError(name)
