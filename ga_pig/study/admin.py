"""The study's admin pages: ``/admin`` (counts, participants, progress, dropouts, time per page) and
``/admin/<table>.csv|.parquet`` downloads, behind the admin password (HTTP Basic; any user name).

The password is ``$GA_PIG_STUDY_ADMIN_PASSWORD``, or the config's ``admin_password_hash`` (PBKDF2-SHA256,
made by ``python -m ga_pig.study.password``). With neither, the admin pages are off (403)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import os

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ga_pig.study.config import PASSWORD_ENV
from ga_pig.study.export import TABLES, overview, tables
from ga_pig.study.flow import Refused
from ga_pig.study.pages import page

__all__ = ["hash_password", "check_password", "admin", "download"]


def hash_password(password: str, salt: bytes | None = None, iterations: int = 200_000) -> str:
    """``pbkdf2_sha256$<iterations>$<salt>$<hash>`` of ``password`` (config key admin_password_hash)."""
    salt = salt or os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_password(password: str, hashed: str) -> bool:
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


def _admin_only(request: Request) -> None:
    """Refuse the request unless it carries the admin password (403 when the admin pages are off)."""
    hashed = request.app.state.study.plan.cfg.admin_password_hash
    plain = os.environ.get(PASSWORD_ENV)
    if not hashed and not plain:
        raise Refused(403, f"the admin pages are off: set ${PASSWORD_ENV} or admin_password_hash to open them")
    password = _given_password(request)
    ok = password is not None and (check_password(password, hashed) if hashed else
                                   hmac.compare_digest(password.encode(), plain.encode()))
    if not ok:
        raise HTTPException(401, "the admin pages need the admin password",
                            headers={"WWW-Authenticate": 'Basic realm="ga_pig study admin"'})


async def admin(request: Request) -> Response:
    _admin_only(request)
    study = request.app.state.study
    shown = await run_in_threadpool(overview, study.store, int(study.plan.cfg.idle_minutes))
    return page(request, "admin.html", **shown, study_name=study.plan.cfg.name)


async def download(request: Request) -> Response:
    _admin_only(request)
    name, suffix = request.path_params["name"], request.path_params["suffix"]
    if name not in TABLES or suffix not in ("csv", "parquet"):
        raise Refused(404, f"no download {name}.{suffix}: expected one of "
                           f"{', '.join(f'{t}.csv' for t in TABLES)} or .parquet")
    frame = (await run_in_threadpool(tables, request.app.state.study.store))[name]
    attachment = {"Content-Disposition": f'attachment; filename="{name}.{suffix}"'}
    if suffix == "csv":
        return Response(frame.to_csv(index=False), media_type="text/csv", headers=attachment)
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return Response(buffer.getvalue(), media_type="application/vnd.apache.parquet", headers=attachment)
