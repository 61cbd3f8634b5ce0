"""The study's admin pages: ``/admin`` (counts, participants, progress, dropouts, time per page) and
``/admin/<table>.csv|.parquet`` downloads, behind the admin password (HTTP Basic; any user name).

The password is ``$GA_PIG_STUDY_ADMIN_PASSWORD``, or the config's ``admin_password_hash`` (PBKDF2-SHA256,
made by ``python -m ga_pig.study.password``). With neither, the admin pages are off (403).

A hash is checked in a worker thread (at most [`HASHING`][ga_pig.study.admin.HASHING] at once), so wrong passwords
never hold up participants. A client address with [`FAILURES`][ga_pig.study.admin.FAILURES] wrong passwords within
[`WINDOW_S`][ga_pig.study.admin.WINDOW_S] seconds is refused (429) until the window has passed."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import time
from collections import deque

import anyio.to_thread
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ga_pig.study.config import PASSWORD_ENV, admin_password
from ga_pig.study.export import TABLES, overview, tables
from ga_pig.study.flow import Refused
from ga_pig.study.pages import page

__all__ = ["hash_password", "check_password", "admin", "download", "Gate", "FAILURES", "WINDOW_S", "HASHING"]

log = logging.getLogger("ga_pig.study")
#: Wrong admin passwords a client may send within WINDOW_S seconds before it is refused (429).
FAILURES = 5
#: The window, in seconds, over which a client's wrong admin passwords are counted.
WINDOW_S = 60.0
#: Password hashes checked at once, each in a worker thread of its own.
HASHING = 2


def hash_password(password: str, salt: bytes | None = None, iterations: int = 200_000) -> str:
    """``pbkdf2_sha256$<iterations>$<salt>$<hash>`` of ``password`` (config key admin_password_hash)."""
    salt = salt or os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_password(password: str, hashed: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from (about 50 ms: run it off the event loop)."""
    _, iterations, salt, digest = hashed.split("$")
    given = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(given.hex(), digest)


def _given_password(request: Request) -> str | None:
    scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        return base64.b64decode(encoded, validate=True).decode().partition(":")[2]
    except (ValueError, UnicodeDecodeError):
        return None


class Gate:
    """The admin password's check: per client, the times of its recent wrong passwords."""

    def __init__(self) -> None:
        self.recent: dict[str, deque] = {}
        self._limiter: anyio.CapacityLimiter | None = None

    def _wait_s(self, client: str, now: float) -> float:
        """Seconds until ``client`` may try again (0: now); forgets failures older than the window."""
        for address in [a for a, times in self.recent.items() if now - times[-1] > WINDOW_S]:
            del self.recent[address]
        times = self.recent.get(client)
        if times is None or len(times) < FAILURES:
            return 0.0
        return max(0.0, times[-FAILURES] + WINDOW_S - now)

    async def check(self, request: Request) -> None:
        """Refuse the request unless it carries the admin password: 403 when the admin pages are off,
        429 for a client locked out, 401 for a wrong password."""
        hashed, plain = admin_password(request.app.state.study.plan.cfg)
        if not hashed and not plain:
            raise Refused(403, f"the admin pages are off: set ${PASSWORD_ENV} or admin_password_hash to open them")
        client = request.client.host if request.client else "unknown"
        wait = self._wait_s(client, time.monotonic())
        if wait:
            raise HTTPException(429, f"too many wrong admin passwords from {client}: try again in {wait:.0f} s",
                                headers={"Retry-After": str(int(wait) + 1)})
        password = _given_password(request)
        if password is not None and hashed:
            if self._limiter is None:
                self._limiter = anyio.CapacityLimiter(HASHING)
            ok = await anyio.to_thread.run_sync(check_password, password, hashed, limiter=self._limiter)
        else:
            ok = password is not None and hmac.compare_digest(password.encode(), plain.encode())
        if ok:
            return
        if password is not None:  # a browser's first request, without a password, is no failure
            times = self.recent.setdefault(client, deque(maxlen=FAILURES))
            times.append(time.monotonic())
            locked = len(times) == FAILURES and times[-1] - times[0] <= WINDOW_S
            log.warning("a wrong admin password from %s (%d within %.0f s)%s", client, len(times), WINDOW_S,
                        f": it is refused for {WINDOW_S:.0f} s" if locked else "")
        raise HTTPException(401, "the admin pages need the admin password",
                            headers={"WWW-Authenticate": 'Basic realm="ga_pig study admin"'})


async def admin(request: Request) -> Response:
    await request.app.state.admin.check(request)
    study = request.app.state.study
    shown = await run_in_threadpool(overview, study.store, int(study.plan.cfg.idle_minutes))
    return page(request, "admin.html", **shown, study_name=study.plan.cfg.name)


async def download(request: Request) -> Response:
    await request.app.state.admin.check(request)
    name, suffix = request.path_params["name"], request.path_params["suffix"]
    if name not in TABLES or suffix not in ("csv", "parquet"):
        raise Refused(404, f"no download {name}.{suffix}: expected one of "
                           f"{', '.join(f'{t}.csv' for t in TABLES)} or .parquet")
    frame = (await run_in_threadpool(tables, request.app.state.study.store))[name]
    attachment = {"Content-Disposition": f'attachment; filename="{name}.{suffix}"'}
    if suffix == "csv":
        return Response(frame.to_csv(index=False), media_type="text/csv", headers=attachment)
    return Response(frame.to_parquet(index=False), media_type="application/vnd.apache.parquet", headers=attachment)
