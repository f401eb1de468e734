"""How the bot receives updates: long polling with getUpdates, or a webhook it registers."""

from __future__ import annotations

import asyncio
import time

from fakeapi.errors import E_POLL_CONFLICT, E_WEBHOOK_CONFLICT, TelegramAPIError, bad

# What Telegram sends when allowed_updates is not given: everything except chat_member,
# message_reaction and message_reaction_count.
DEFAULT_UPDATE_TYPES = {
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "business_connection",
    "business_message",
    "edited_business_message",
    "deleted_business_messages",
    "inline_query",
    "chosen_inline_result",
    "callback_query",
    "shipping_query",
    "pre_checkout_query",
    "purchased_paid_media",
    "poll",
    "poll_answer",
    "my_chat_member",
    "chat_join_request",
    "chat_boost",
    "removed_chat_boost",
}


class UpdateMethods:
    async def _m_getupdates(self, p: dict) -> list[dict]:
        if self.webhook.get("url"):
            raise TelegramAPIError(409, E_WEBHOOK_CONFLICT)
        offset = p.get("offset")
        limit = max(1, min(100, int(p.get("limit") or 100)))
        timeout = max(0.0, float(p.get("timeout") or 0))
        if p.get("allowed_updates") is not None:
            self.allowed_updates = list(p["allowed_updates"]) or None
        if offset:
            offset = int(offset)
            if offset > 0:
                self._pending = [u for u in self._pending if u["update_id"] >= offset]
            else:
                self._pending = self._pending[offset:]
        # A newer getUpdates ends this one with 409, as on Telegram.
        self._poll_gen += 1
        gen = self._poll_gen
        deadline = time.monotonic() + timeout
        while True:
            avail = self._available()
            if avail or self._stopping:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                await asyncio.wait_for(self._pulse.wait(), remaining)
            except asyncio.TimeoutError:
                pass
            if self._poll_gen != gen:
                raise TelegramAPIError(409, E_POLL_CONFLICT)
        result = avail[:limit]
        if result:
            self._delivered_upto = max(self._delivered_upto, result[-1]["update_id"])
            now = self.clock()
            for update in result:
                query = self.queries.get((update.get("callback_query") or {}).get("id"))
                if query is not None and query.fetched_at is None:
                    query.fetched_at = now
        return result

    def _available(self) -> list[dict]:
        allowed = set(self.allowed_updates) if self.allowed_updates else DEFAULT_UPDATE_TYPES
        # Telegram drops queued updates of types that are not allowed.
        self._pending = [u for u in self._pending if next(k for k in u if k != "update_id") in allowed]
        return self._pending

    async def _m_setwebhook(self, p: dict) -> bool:
        url = p.get("url") or ""
        if url and not url.startswith("https://"):
            raise bad("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = {"url": url, **{k: v for k, v in p.items() if k != "url"}}
        if p.get("drop_pending_updates"):
            self._pending.clear()
        if "allowed_updates" in p:
            self.allowed_updates = list(p["allowed_updates"]) or None
        return True

    async def _m_deletewebhook(self, p: dict) -> bool:
        self.webhook = {}
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def _m_getwebhookinfo(self, p: dict) -> dict:
        url = self.webhook.get("url") or ""
        return {
            "url": url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._available()) if url else 0,
        }
