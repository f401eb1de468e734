"""Signed Mini App initData, as Telegram makes it when a user opens the app: for the demo (a
browser without Telegram) and for tests. It is signed with the bot's token exactly as
handlers/webapp/auth.py checks it."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import urlencode


def sign_init_data(
    token: str,
    user: dict[str, object],
    auth_date: int | None = None,
    start_param: str | None = None,
    query_id: str = "AAF-karata-demo",
) -> str:
    """The raw initData string (a query string) for `user` ({"id", "first_name", ...})."""
    fields = {
        "query_id": query_id,
        "user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
    }
    if start_param:
        fields["start_param"] = start_param
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)
