"""answerCallbackQuery: the toast or alert a user sees after pressing a button, and when it came."""

from __future__ import annotations

from fakeapi.errors import E_QUERY_OLD, bad


class QueryMethods:
    async def _m_answercallbackquery(self, p: dict) -> bool:
        q = self.queries.get(str(p.get("callback_query_id", "")))
        if q is None or q.answer is not None:
            raise bad(E_QUERY_OLD)
        text = p.get("text")
        if text is not None and len(text) > 200:
            raise bad("MESSAGE_TOO_LONG")
        q.answered_at = self.clock()
        q.answer = {
            "text": text,
            "show_alert": bool(p.get("show_alert", False)),
            "url": p.get("url"),
            "cache_time": p.get("cache_time"),
        }
        return True
