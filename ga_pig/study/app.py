"""The study's web server: a Starlette application over a [`Study`][ga_pig.study.flow.Study].

Pages are rendered on the server (Jinja2, every value escaped); the game page's script only shows
states and events and sends "roll", "hold" or "next" with the state's token. Every participant URL
carries their link key (``/p/<key>``), so a reload or a second tab opens where they are. A refused
request gets a 4xx and one line (JSON for the game's requests, a page otherwise), never a traceback;
bodies over [`MAX_BODY`][ga_pig.study.app.MAX_BODY] bytes are refused before they are read whole.
``/admin`` asks for the admin password (HTTP Basic; any user name)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import logging
import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from ga_pig.study.config import CONSENT, PASSWORD_ENV
from ga_pig.study.flow import Refused, Study
from ga_pig.study.text import example, question_forms, rules_lines

__all__ = ["make_app", "MAX_BODY", "hash_password", "check_password"]

#: The largest request body read, in bytes (a move is about 60).
MAX_BODY = 16 * 1024
HERE = Path(__file__).parent
log = logging.getLogger("ga_pig.study")


def hash_password(password: str, salt: bytes | None = None, iterations: int = 200_000) -> str:
    """``pbkdf2_sha256$<iterations>$<salt>$<hash>`` of ``password`` (config key admin_password_hash)."""
    salt = salt or os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_password(password: str, hashed: str) -> bool:
    _, iterations, salt, digest = hashed.split("$")
    given = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(iterations))
    return hmac.compare_digest(given.hex(), digest)


class BodyLimit:
    """Refuse a request whose body is over ``limit`` bytes, by its Content-Length or as it streams in."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await _too_large(scope, receive, send, self.limit)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(413, f"the request body is over {self.limit} bytes")
            return message

        return await self.app(scope, limited, send)


async def _too_large(scope, receive, send, limit: int) -> None:
    response = PlainTextResponse(f"refused: the request body is over {limit} bytes\n", status_code=413)
    await response(scope, receive, send)


def make_app(study: Study) -> Starlette:
    """The server of ``study``."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    cfg = study.plan.cfg

    def page(request: Request, name: str, status: int = 200, **values) -> Response:
        return templates.TemplateResponse(request, name, {"title": "Pig study", **values}, status_code=status)

    def refused(request: Request, status: int, message: str) -> Response:
        if request.url.path.endswith(("/move", "/game", "/hint")):
            return JSONResponse({"error": message}, status_code=status)
        return page(request, "message.html", status, heading="Sorry", message=message)

    async def entry(request: Request) -> Response:
        query = request.query_params
        pid, source = query.get("PROLIFIC_PID"), "prolific"
        if pid is None:
            pid, source = query.get("participant"), "participant"
        if pid is None and not query:
            return page(request, "entry.html")
        key = await run_in_threadpool(study.enter, pid, source, query.get("STUDY_ID"), query.get("SESSION_ID"))
        return RedirectResponse(f"/p/{key}", status_code=303)

    async def show(request: Request) -> Response:
        key = request.path_params["key"]
        p = await run_in_threadpool(study.view, key)
        stage = p["stage"]
        if stage == "consent":
            return page(request, "consent.html", key=key, consent=cfg.consent or CONSENT,
                        version=cfg.consent_version)
        if stage == "rules":
            return page(request, "rules.html", key=key, rules=rules_lines(study.plan.game, p["hints"]),
                        example=example(study.plan.game))
        if stage == "questions":
            return page(request, "questions.html", key=key, questions=question_forms())
        if stage == "games":
            return page(request, "game.html", key=key, delay_ms=int(cfg.delay_ms),
                        game=study._game_view(p), goal=study.plan.game.goal)
        return page(request, "done.html", key=key, code=cfg.completion_code, url=_completion(cfg))

    async def form(request: Request) -> dict:
        try:
            return dict(await request.form())
        except HTTPException:
            raise
        except Exception:  # a body the form parser cannot read
            raise Refused(400, "the form could not be read: send it from the study's page") from None

    async def consent(request: Request) -> Response:
        key = request.path_params["key"]
        choice = (await form(request)).get("choice")
        if choice not in ("agree", "decline"):
            raise Refused(400, f"choice {str(choice)[:20]!r}: expected agree or decline")
        await run_in_threadpool(study.consent, key, choice == "agree")
        if choice == "decline":
            return page(request, "message.html", heading="Thank you",
                        message="You declined to take part. Nothing about you is stored except that you declined. "
                                "You can close this page.")
        return RedirectResponse(f"/p/{key}", status_code=303)

    async def rules(request: Request) -> Response:
        await run_in_threadpool(study.rules_read, request.path_params["key"])
        return RedirectResponse(f"/p/{request.path_params['key']}", status_code=303)

    async def questions(request: Request) -> Response:
        await run_in_threadpool(study.answer, request.path_params["key"], await form(request))
        return RedirectResponse(f"/p/{request.path_params['key']}", status_code=303)

    async def withdraw(request: Request) -> Response:
        if (await form(request)).get("confirm") != "yes":
            raise Refused(400, "withdrawing needs the confirmation box ticked")
        await run_in_threadpool(study.withdraw, request.path_params["key"])
        return page(request, "message.html", heading="You have withdrawn",
                    message="Everything recorded about you in this study has been deleted. You can close this page.")

    async def body(request: Request) -> dict:
        try:
            values = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the request body is not JSON: expected {\"token\": ..., \"action\": ...}") from None
        if not isinstance(values, dict):
            raise Refused(400, "the request body is not a JSON object: expected {\"token\": ..., \"action\": ...}")
        return values

    async def move(request: Request) -> Response:
        values = await body(request)
        return JSONResponse(await run_in_threadpool(study.move, request.path_params["key"], values.get("token"),
                                                       values.get("action")))

    async def hint(request: Request) -> Response:
        values = await body(request)
        return JSONResponse(await run_in_threadpool(study.hint, request.path_params["key"], values.get("token")))

    async def game(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(study.game, request.path_params["key"]))

    def admin_only(request: Request) -> None:
        hashed = cfg.admin_password_hash
        plain = os.environ.get(PASSWORD_ENV)
        if not hashed and not plain:
            raise Refused(403, f"the admin pages are off: set ${PASSWORD_ENV} or admin_password_hash to open them")
        scheme, _, encoded = request.headers.get("authorization", "").partition(" ")
        password = None
        if scheme.lower() == "basic":
            try:
                password = base64.b64decode(encoded).decode().partition(":")[2]
            except (ValueError, UnicodeDecodeError):
                password = None
        ok = password is not None and (check_password(password, hashed) if hashed else
                                       hmac.compare_digest(password.encode(), plain.encode()))
        if not ok:
            raise HTTPException(401, "the admin pages need the admin password",
                                headers={"WWW-Authenticate": 'Basic realm="ga_pig study admin"'})

    async def admin(request: Request) -> Response:
        from ga_pig.study.export import overview

        admin_only(request)
        return page(request, "admin.html", **await run_in_threadpool(overview, study.store, int(cfg.idle_minutes)),
                    name=cfg.name)

    async def download(request: Request) -> Response:
        from ga_pig.study.export import TABLES, tables

        admin_only(request)
        name, suffix = request.path_params["name"], request.path_params["suffix"]
        if name not in TABLES or suffix not in ("csv", "parquet"):
            raise Refused(404, f"no download {name}.{suffix}: expected one of "
                               f"{', '.join(f'{t}.csv' for t in TABLES)} or .parquet")
        frame = (await run_in_threadpool(tables, study.store))[name]
        if suffix == "csv":
            return Response(frame.to_csv(index=False), media_type="text/csv",
                            headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        return Response(buffer.getvalue(), media_type="application/vnd.apache.parquet",
                        headers={"Content-Disposition": f'attachment; filename="{name}.parquet"'})

    async def on_refused(request: Request, error: Refused) -> Response:
        return refused(request, error.status, error.message)

    async def on_http(request: Request, error: HTTPException) -> Response:
        if error.status_code == 401:
            return PlainTextResponse(f"{error.detail}\n", 401, headers=error.headers)
        message = {404: "no such page", 405: "this page does not take that request"}.get(error.status_code,
                                                                                        str(error.detail))
        return refused(request, error.status_code, message)

    async def on_error(request: Request, error: Exception) -> Response:
        log.exception("request %s %s failed", request.method, request.url.path)
        return refused(request, 500, "something went wrong on the server; your last move was not recorded: "
                                     "reload the page")

    routes = [
        Route("/", entry),
        Route("/p/{key}", show),
        Route("/p/{key}/consent", consent, methods=["POST"]),
        Route("/p/{key}/rules", rules, methods=["POST"]),
        Route("/p/{key}/questions", questions, methods=["POST"]),
        Route("/p/{key}/withdraw", withdraw, methods=["POST"]),
        Route("/p/{key}/game", game),
        Route("/p/{key}/move", move, methods=["POST"]),
        Route("/p/{key}/hint", hint, methods=["POST"]),
        Route("/admin", admin),
        Route("/admin/{name}.{suffix}", download),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={Refused: on_refused, HTTPException: on_http,
                                                       Exception: on_error})
    app.add_middleware(BodyLimit)
    return app


def _completion(cfg) -> str | None:
    url = cfg.completion_url
    return None if url is None else str(url).replace("{code}", str(cfg.completion_code))
