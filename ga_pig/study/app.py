"""The study's web server: a Starlette application over a [`Study`][ga_pig.study.flow.Study].

Pages are rendered on the server ([`ga_pig.study.pages`][ga_pig.study.pages]); the game page's static script
only shows states and sends "roll", "hold" or "next" with the state's token as JSON. A refused request gets a
4xx and one line; bodies over [`MAX_BODY`][ga_pig.study.app.MAX_BODY] bytes are refused before they are read.
Database calls run in Starlette's thread pool; a database file gone or replaced gets 503
([`Unavailable`][ga_pig.study.store.Unavailable]).

Only the POST behind the study's link makes a participant, and its answer sets the participant's key in a cookie
([`COOKIE`][ga_pig.study.app.COOKIE]: HttpOnly, SameSite=Strict, Secure behind TLS) that every ``/p/<key>``
must carry, so a participant goes on only in the browser they began in. Every POST must come from the study's own
pages (``Sec-Fetch-Site`` and ``Origin``); only the configured hosts are answered; every answer carries
[`SecurityHeaders`][ga_pig.study.app.SecurityHeaders]."""

from __future__ import annotations

import hmac
import json
import logging
from urllib.parse import quote, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ga_pig.study import admin
from ga_pig.study.config import CONSENT, trusted_hosts
from ga_pig.study.flow import UNKNOWN_LINK, Refused, Study, check_ids
from ga_pig.study.pages import HERE, page, refused
from ga_pig.study.store import Unavailable
from ga_pig.study.text import example, question_forms, rules_page

__all__ = ["make_app", "MAX_BODY", "COOKIE", "CSP", "SecurityHeaders", "SameOrigin"]

#: Seconds the completion page shows the code before it goes to the completion URL.
REDIRECT_S = 5
#: The largest request body read, in bytes (a move is about 60).
MAX_BODY = 16 * 1024
log = logging.getLogger("ga_pig.study")
#: The cookie that binds a participant's link key to the browser that entered.
COOKIE = "ga_pig_participant"
#: Seconds the participant cookie lasts (a study may be left and taken up again within this time).
COOKIE_S = 30 * 24 * 3600
#: The pages' Content-Security-Policy: scripts, styles and requests from the study's own address only,
#: no inline script, never inside another site's frame.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
#: HTTP methods that change nothing (the others must come from the study's own pages).
SAFE = ("GET", "HEAD", "OPTIONS")


class SecurityHeaders:
    """Every answer's security headers: the CSP, no framing, no referrer (participant URLs hold their
    link key), no MIME sniffing, ``no-store`` on all but ``/static``, and HSTS when ``tls`` (a proxy
    in front terminates TLS)."""

    def __init__(self, app, tls: bool = False) -> None:
        self.app, self.tls = app, tls

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        dynamic = not scope["path"].startswith("/static/")

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.update({"Content-Security-Policy": CSP, "X-Frame-Options": "DENY",
                                "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
                                "Cross-Origin-Opener-Policy": "same-origin"})
                if dynamic:
                    headers["Cache-Control"] = "no-store"
                if self.tls:
                    headers["Strict-Transport-Security"] = "max-age=31536000"
            await send(message)

        return await self.app(scope, receive, with_headers)


class SameOrigin:
    """Refuse (403) a request that changes something (not GET, HEAD or OPTIONS) unless it comes from
    the study's own pages: a browser's ``Sec-Fetch-Site`` must be ``same-origin`` (or ``none``, the
    user's own action); a browser too old to send it must send an ``Origin`` that is the address the
    request was sent to (or ``public``, the public_url). Under ``Referrer-Policy: no-referrer`` browsers
    send ``Origin: null`` with every POST, so ``Sec-Fetch-Site`` is the check that counts. A request with
    neither header is no browser's, and so carries no participant's cookie but its own sender's."""

    def __init__(self, app, public: str | None = None) -> None:
        self.app = app
        self.public = None if public is None else public.rstrip("/").lower()

    def _allowed(self, headers: Headers) -> bool:
        site, origin = headers.get("sec-fetch-site"), headers.get("origin")
        if site is not None:
            return site in ("same-origin", "none")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        return origin == self.public or urlsplit(origin).netloc == headers.get("host", "").lower()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] not in SAFE and not self._allowed(Headers(scope=scope)):
            response = refused(Request(scope), 403, "refused: this request did not come from the study's own pages")
            return await response(scope, receive, send)
        return await self.app(scope, receive, send)


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


async def _key(request: Request) -> str:
    """The URL's link key if this browser's cookie holds it; else 404 (no participant's) or 403 (another's)."""
    key = request.path_params["key"]
    held = request.cookies.get(COOKIE)
    if held is not None and hmac.compare_digest(held.encode(), key.encode()):
        return key
    if not await run_in_threadpool(_study(request).known, key):
        raise Refused(404, UNKNOWN_LINK)
    raise Refused(403, "this participant's pages are open only in the browser that entered the study: go on "
                       "there")


def _back(key: str) -> Response:
    """To the participant's page, which shows where they are now."""
    return RedirectResponse(f"/p/{key}", status_code=303)


async def _form(request: Request) -> dict:
    try:
        return dict(await request.form())
    except HTTPException:
        raise
    except Exception:  # whatever the form parser cannot read
        raise Refused(400, "the form could not be read: send it from the study's page") from None


async def _json(request: Request) -> dict:
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, f"the request body's type is {kind[:40] or 'not given'!r}: expected application/json")
    try:
        values = json.loads(await request.body())
    except ClientDisconnect:
        raise Refused(400, "the request was cut off: send it again") from None
    except (ValueError, RecursionError):  # not JSON (UnicodeDecodeError is a ValueError), or nested too deep
        raise Refused(400, 'the request body is not JSON: expected {"token": ..., "action": ...}') from None
    if not isinstance(values, dict):
        raise Refused(400, 'the request body is not a JSON object: expected {"token": ..., "action": ...}')
    return values


def _entered(values) -> tuple[str | None, str, str | None, str | None]:
    """(ID, source, STUDY_ID, SESSION_ID) of a link's query or the entry form."""
    pid, source = values.get("PROLIFIC_PID"), "prolific"
    if pid is None:
        pid, source = values.get("participant"), "participant"
    return pid, source, values.get("STUDY_ID"), values.get("SESSION_ID")


async def entry(request: Request) -> Response:
    """The study's link: ``?participant=ID`` or Prolific's ``?PROLIFIC_PID=ID&STUDY_ID=..&SESSION_ID=..``
    shows the ID and a Start button (a GET makes no participant); without an ID, a form asking for one."""
    query = request.query_params
    pid, source, study_id, session_id = _entered(query)
    if pid is None and not query:
        return page(request, "entry.html", fields=None)
    check_ids(pid, study_id, session_id)
    fields = {"PROLIFIC_PID" if source == "prolific" else "participant": pid, "STUDY_ID": study_id,
              "SESSION_ID": session_id}
    return page(request, "entry.html", fields={k: v for k, v in fields.items() if v is not None}, pid=pid)


async def enter(request: Request) -> Response:
    """The entry form's POST: the participant (new, or theirs if this browser holds their key) and
    the cookie that binds their link key to this browser."""
    pid, source, study_id, session_id = _entered(await _form(request))
    key = await run_in_threadpool(_study(request).enter, pid, source, study_id, session_id,
                                  request.cookies.get(COOKIE))
    response = _back(key)
    response.set_cookie(COOKIE, key, max_age=COOKIE_S, path="/", httponly=True, samesite="strict",
                        secure=request.app.state.tls)
    return response


async def show(request: Request) -> Response:
    """The participant's page: the one their stage is at."""
    study, key = _study(request), await _key(request)
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
    code = quote(str(cfg.completion_code), safe="")
    url = None if cfg.completion_url is None else str(cfg.completion_url).replace("{code}", code)
    return page(request, "done.html", key=key, code=cfg.completion_code, url=url, redirect_s=REDIRECT_S)


async def consent(request: Request) -> Response:
    choice = (await _form(request)).get("choice")
    if choice not in ("agree", "decline"):
        raise Refused(400, f"choice {str(choice)[:20]!r}: expected agree or decline")
    key = await _key(request)
    await run_in_threadpool(_study(request).consent, key, choice == "agree")
    if choice == "agree":
        return _back(key)
    return page(request, "message.html", heading="Thank you",
                message="You declined to take part. Nothing about you is stored except that you declined. "
                        "You can close this page.")


async def rules(request: Request) -> Response:
    key = await _key(request)
    await run_in_threadpool(_study(request).rules_read, key)
    return _back(key)


async def questions(request: Request) -> Response:
    key = await _key(request)
    await run_in_threadpool(_study(request).answer, key, await _form(request))
    return _back(key)


async def withdraw(request: Request) -> Response:
    key = await _key(request)
    if (await _form(request)).get("confirm") != "yes":
        raise Refused(400, "withdrawing needs the confirmation box ticked")
    await run_in_threadpool(_study(request).withdraw, key)
    return page(request, "message.html", heading="You have withdrawn",
                message="Everything recorded about you in this study has been deleted. You can close this page.")


async def move(request: Request) -> Response:
    key = await _key(request)
    values = await _json(request)
    return JSONResponse(await run_in_threadpool(_study(request).move, key, values.get("token"), values.get("action")))


async def hint(request: Request) -> Response:
    key = await _key(request)
    values = await _json(request)
    return JSONResponse(await run_in_threadpool(_study(request).hint, key, values.get("token")))


async def game(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(_study(request).game, await _key(request)))


async def _on_refused(request: Request, error: Refused) -> Response:
    return refused(request, error.status, error.message)


async def _on_unavailable(request: Request, error: Unavailable) -> Response:
    return refused(request, 503, str(error))


async def _on_http(request: Request, error: HTTPException) -> Response:
    if error.status_code in (401, 429):  # with their WWW-Authenticate / Retry-After
        return PlainTextResponse(f"{error.detail}\n", error.status_code, headers=error.headers)
    message = {404: "no such page", 405: "this page does not take that request"}.get(error.status_code,
                                                                                    str(error.detail))
    return refused(request, error.status_code, message)


async def _on_error(request: Request, error: Exception) -> Response:
    log.exception("request %s %s failed", request.method, request.url.path)
    return refused(request, 500, "something went wrong on the server; your last move was not recorded: reload the page")


ROUTES = [
    Route("/", entry),
    Route("/", enter, methods=["POST"]),
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


class _Guarded(Starlette):
    """Starlette with [`SecurityHeaders`][ga_pig.study.app.SecurityHeaders] outside its whole stack: the 500
    that its outermost layer (ServerErrorMiddleware) sends for a failed request carries them too."""

    def build_middleware_stack(self):
        return SecurityHeaders(super().build_middleware_stack(), tls=self.state.tls)


def make_app(study: Study) -> Starlette:
    """The server of ``study``: security headers on every answer, errors included; Host headers other
    than its own refused (400), POSTs from other sites refused, bodies limited."""
    cfg = study.plan.cfg
    tls = cfg.public_url is not None
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=trusted_hosts(cfg), www_redirect=False),
                  Middleware(SameOrigin, public=cfg.public_url), Middleware(BodyLimit)]
    app = _Guarded(routes=ROUTES, middleware=middleware,
                    exception_handlers={Refused: _on_refused, Unavailable: _on_unavailable, HTTPException: _on_http,
                                        Exception: _on_error})
    app.state.study = study
    app.state.tls = tls
    app.state.admin = admin.Gate()
    return app
