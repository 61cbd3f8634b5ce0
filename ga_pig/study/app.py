"""The study's web server: a Starlette application over a [`Study`][ga_pig.study.flow.Study].

Pages are rendered on the server ([`ga_pig.study.pages`][ga_pig.study.pages]); the game page's script
only shows states and events and sends "roll", "hold" or "next" with the state's token. Every
participant URL carries their link key (``/p/<key>``), so a reload or a second tab opens where they
are. A refused request gets a 4xx and one line, never a traceback; bodies over
[`MAX_BODY`][ga_pig.study.app.MAX_BODY] bytes are refused before they are read whole. The study's
calls to the database run in Starlette's thread pool, so a request waiting for the database never
holds up the others. ``/admin``: [`ga_pig.study.admin`][ga_pig.study.admin]."""

from __future__ import annotations

import json
import logging

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ga_pig.study import admin
from ga_pig.study.config import CONSENT
from ga_pig.study.flow import Refused, Study
from ga_pig.study.pages import HERE, page, refused
from ga_pig.study.text import example, question_forms, rules_page

__all__ = ["make_app", "MAX_BODY"]

#: Seconds the completion page shows the code before it goes to the completion URL.
REDIRECT_S = 5
#: The largest request body read, in bytes (a move is about 60).
MAX_BODY = 16 * 1024
log = logging.getLogger("ga_pig.study")


class BodyLimit:
    """Refuse a request whose body is over ``limit`` bytes, by its Content-Length or as it streams in."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            response = PlainTextResponse(f"refused: the request body is over {self.limit} bytes\n", 413)
            return await response(scope, receive, send)
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


def _study(request: Request) -> Study:
    return request.app.state.study


def _key(request: Request) -> str:
    return request.path_params["key"]


def _back(request: Request) -> Response:
    """To the participant's page, which shows where they are now."""
    return RedirectResponse(f"/p/{_key(request)}", status_code=303)


async def _form(request: Request) -> dict:
    try:
        return dict(await request.form())
    except HTTPException:
        raise
    except Exception:  # whatever the form parser cannot read
        raise Refused(400, "the form could not be read: send it from the study's page") from None


async def _json(request: Request) -> dict:
    try:
        values = json.loads(await request.body())
    except ClientDisconnect:
        raise Refused(400, "the request was cut off: send it again") from None
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError), or nested too deep
        raise Refused(400, 'the request body is not JSON: expected {"token": ..., "action": ...}') from None
    if not isinstance(values, dict):
        raise Refused(400, 'the request body is not a JSON object: expected {"token": ..., "action": ...}')
    return values


async def entry(request: Request) -> Response:
    """The study's link: ``?participant=ID`` or Prolific's ``?PROLIFIC_PID=ID&STUDY_ID=..&SESSION_ID=..``."""
    query = request.query_params
    pid, source = query.get("PROLIFIC_PID"), "prolific"
    if pid is None:
        pid, source = query.get("participant"), "participant"
    if pid is None and not query:
        return page(request, "entry.html")
    key = await run_in_threadpool(_study(request).enter, pid, source, query.get("STUDY_ID"), query.get("SESSION_ID"))
    return RedirectResponse(f"/p/{key}", status_code=303)


async def show(request: Request) -> Response:
    """The participant's page: the one their stage is at."""
    study, key = _study(request), _key(request)
    cfg = study.plan.cfg
    p = await run_in_threadpool(study.view, key)
    stage = p["stage"]
    if stage == "consent":
        return page(request, "consent.html", key=key, consent=cfg.consent or CONSENT, version=cfg.consent_version)
    if stage == "rules":
        return page(request, "rules.html", key=key, example=example(study.plan.game),
                    **rules_page(study.plan.game, p["hints"]))
    if stage == "questions":
        return page(request, "questions.html", key=key, questions=question_forms())
    if stage == "games":
        return page(request, "game.html", key=key, delay_ms=int(cfg.delay_ms), game=study.game_view(p),
                    goal=study.plan.game.goal)
    url = None if cfg.completion_url is None else str(cfg.completion_url).replace("{code}", str(cfg.completion_code))
    return page(request, "done.html", key=key, code=cfg.completion_code, url=url, redirect_s=REDIRECT_S)


async def consent(request: Request) -> Response:
    choice = (await _form(request)).get("choice")
    if choice not in ("agree", "decline"):
        raise Refused(400, f"choice {str(choice)[:20]!r}: expected agree or decline")
    await run_in_threadpool(_study(request).consent, _key(request), choice == "agree")
    if choice == "agree":
        return _back(request)
    return page(request, "message.html", heading="Thank you",
                message="You declined to take part. Nothing about you is stored except that you declined. "
                        "You can close this page.")


async def rules(request: Request) -> Response:
    await run_in_threadpool(_study(request).rules_read, _key(request))
    return _back(request)


async def questions(request: Request) -> Response:
    await run_in_threadpool(_study(request).answer, _key(request), await _form(request))
    return _back(request)


async def withdraw(request: Request) -> Response:
    if (await _form(request)).get("confirm") != "yes":
        raise Refused(400, "withdrawing needs the confirmation box ticked")
    await run_in_threadpool(_study(request).withdraw, _key(request))
    return page(request, "message.html", heading="You have withdrawn",
                message="Everything recorded about you in this study has been deleted. You can close this page.")


async def move(request: Request) -> Response:
    values = await _json(request)
    answer = await run_in_threadpool(_study(request).move, _key(request), values.get("token"), values.get("action"))
    return JSONResponse(answer)


async def hint(request: Request) -> Response:
    values = await _json(request)
    return JSONResponse(await run_in_threadpool(_study(request).hint, _key(request), values.get("token")))


async def game(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(_study(request).game, _key(request)))


async def _on_refused(request: Request, error: Refused) -> Response:
    return refused(request, error.status, error.message)


async def _on_http(request: Request, error: HTTPException) -> Response:
    if error.status_code == 401:
        return PlainTextResponse(f"{error.detail}\n", 401, headers=error.headers)
    message = {404: "no such page", 405: "this page does not take that request"}.get(error.status_code,
                                                                                    str(error.detail))
    return refused(request, error.status_code, message)


async def _on_error(request: Request, error: Exception) -> Response:
    log.exception("request %s %s failed", request.method, request.url.path)
    return refused(request, 500, "something went wrong on the server; your last move was not recorded: reload the page")


ROUTES = [
    Route("/", entry),
    Route("/p/{key}", show),
    Route("/p/{key}/consent", consent, methods=["POST"]),
    Route("/p/{key}/rules", rules, methods=["POST"]),
    Route("/p/{key}/questions", questions, methods=["POST"]),
    Route("/p/{key}/withdraw", withdraw, methods=["POST"]),
    Route("/p/{key}/game", game),
    Route("/p/{key}/move", move, methods=["POST"]),
    Route("/p/{key}/hint", hint, methods=["POST"]),
    Route("/admin", admin.admin),
    Route("/admin/{name}.{suffix}", admin.download),
    Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
]


def make_app(study: Study) -> Starlette:
    """The server of ``study``."""
    app = Starlette(routes=ROUTES, exception_handlers={Refused: _on_refused, HTTPException: _on_http,
                                                       Exception: _on_error})
    app.state.study = study
    app.add_middleware(BodyLimit)
    return app
