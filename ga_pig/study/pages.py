"""Rendering the study's pages: Jinja2 templates (``templates/``, every value escaped) and the one
way a refused request is answered — JSON ``{"error": ...}`` for the game page's requests, a page
saying why for the others."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.templating import Jinja2Templates

__all__ = ["page", "refused", "HERE"]

HERE = Path(__file__).parent
_templates = Jinja2Templates(directory=str(HERE / "templates"))
#: The requests the game page's script sends, answered in JSON.
_SCRIPTED = ("/move", "/game", "/hint")


def page(request: Request, name: str, status: int = 200, **values) -> Response:
    """Template ``name`` with ``values``."""
    return _templates.TemplateResponse(request, name, {"title": "Pig study", **values}, status_code=status)


def refused(request: Request, status: int, message: str) -> Response:
    """A refused request: ``status`` and one line."""
    if request.url.path.endswith(_SCRIPTED):
        return JSONResponse({"error": message}, status_code=status)
    return page(request, "message.html", status, heading="Sorry", message=message)
