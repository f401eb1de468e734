"""Decoding Bot API request parameters into Python values, the way Telegram's server reads them.

Parameter encoding (python-telegram-bot 22.x, ``HTTPXRequest``): every request is a POST with an
``application/x-www-form-urlencoded`` body (``multipart/form-data`` when files are uploaded).
String values are sent as-is, everything else is ``json.dumps``-ed: ints arrive as ``"123"``,
bools as ``"true"``, ``TelegramObject``s and lists (reply_markup, entities, allowed_updates,
commands, scope, options, reply_parameters, link_preview_options...) as JSON strings, and
``timedelta``s as integer seconds.  ``None`` values are dropped.  So known JSON fields are
decoded, known integer fields and ``"true"``/``"false"`` strings coerced, and free-text fields
(text, data, question, ...) left untouched.  An uploaded file becomes an :class:`Upload`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from fakeapi.errors import bad

# Fields that PTB (and other clients) JSON-encode inside form bodies.
JSON_FIELDS = {
    "reply_markup",
    "entities",
    "caption_entities",
    "allowed_updates",
    "commands",
    "scope",
    "link_preview_options",
    "reply_parameters",
    "options",
    "question_entities",
    "explanation_entities",
    "message_ids",
    "menu_button",
}
# Free-text fields: never coerced or JSON-decoded.
TEXT_FIELDS = {
    "text",
    "caption",
    "question",
    "explanation",
    "title",
    "description",
    "data",
    "url",
    "callback_data",
    "query",
    "name",
    "short_description",
    "parse_mode",
    "question_parse_mode",
    "explanation_parse_mode",
    "callback_query_id",
    "inline_message_id",
    "language_code",
    "secret_token",
    "action",
    "document",
}
INT_FIELDS = {
    "chat_id",
    "message_id",
    "user_id",
    "message_thread_id",
    "offset",
    "limit",
    "timeout",
    "cache_time",
    "reply_to_message_id",
    "open_period",
    "close_date",
    "max_connections",
}


@dataclass(frozen=True)
class Upload:
    """A file sent as a multipart/form-data part."""

    filename: str | None
    content: bytes
    content_type: str | None


async def read_params(request: web.Request) -> dict:
    """The request's parameters (query string and body), decoded."""
    params: dict[str, Any] = dict(request.query)
    if request.method == "POST" and request.can_read_body:
        ctype = request.content_type
        if ctype == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                params.update(body)
        elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for k, v in form.items():
                if isinstance(v, web.FileField):
                    params[k] = Upload(v.filename, v.file.read(), v.content_type)
                else:
                    params[k] = v
    return decode(params)


def decode(params: dict) -> dict:
    out = {}
    for k, v in params.items():
        if isinstance(v, str) and k not in TEXT_FIELDS:
            s = v.strip()
            if k in JSON_FIELDS or (s[:1] in "[{" and s):
                try:
                    v = json.loads(s)
                except ValueError:
                    if k in JSON_FIELDS:
                        raise bad(f"can't parse {k} JSON object") from None
            elif k in INT_FIELDS and re.fullmatch(r"-?\d+", s):
                v = int(s)
            elif s in ("true", "false"):
                v = s == "true"
            elif k in INT_FIELDS and re.fullmatch(r"-?\d+\.\d*", s):
                v = float(s)
        elif isinstance(v, float) and k in INT_FIELDS and v.is_integer():
            v = int(v)
        out[k] = v
    return out
