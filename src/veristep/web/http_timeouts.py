"""uvicorn's HTTP/1.1 protocol with a deadline on request headers.

uvicorn times out an idle keep-alive connection, but not one whose request headers stop halfway:
such a connection stays open for as long as the client likes, and enough of them exhaust the
server's sockets. This protocol closes a connection whose next request's headers are not
complete within ``HEADER_TIMEOUT_S`` of the connection opening or of the previous response.
(A body that stalls is the ASGI middleware's business: ``web.limits.BodyLimit`` answers 408.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0


class HeaderTimeoutProtocol(H11Protocol):
    """:class:`H11Protocol` that drops a connection whose request headers stall."""

    header_timeout_s = HEADER_TIMEOUT_S
    _timer: asyncio.TimerHandle | None = None
    _armed_cycle: Any = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        # A new request cycle means its headers arrived complete: the deadline is met.
        if self._timer is not None and self.cycle is not self._armed_cycle:
            self._disarm()

    def on_response_complete(self) -> None:
        # Armed before the parent runs pipelined requests, so that one already there disarms it.
        self._arm()
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._armed_cycle = self.cycle
        self._timer = self.loop.call_later(self.header_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self) -> None:
        self._timer = None
        if self.cycle is self._armed_cycle and not self.transport.is_closing():
            self.transport.close()
