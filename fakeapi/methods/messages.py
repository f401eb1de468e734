"""Bot API methods that send, edit and delete messages and documents, validated as Telegram does."""

from __future__ import annotations

import re
import time
from typing import Any

from fakeapi.errors import (
    E_BUTTON_DATA,
    E_BUTTON_URL,
    E_CANT_DELETE,
    E_CANT_EDIT,
    E_CAPTION_TOO_LONG,
    E_DELETE_NOT_FOUND,
    E_EDIT_NOT_FOUND,
    E_EMPTY,
    E_EMPTY_FILE,
    E_FILE_ID,
    E_NO_CAPTION,
    E_NO_TEXT,
    E_NOT_MODIFIED,
    E_REPLY_NOT_FOUND,
    E_THREAD_NOT_FOUND,
    E_TOO_LONG,
    bad,
)
from fakeapi.html import format_text
from fakeapi.params import Upload
from fakeapi.records import Document, MessageRecord
from fakeapi.text import utf16_len
from fakeapi.world import ADMIN_STATUSES

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64


class MessageMethods:
    async def _m_sendmessage(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        text, plain, ents = self._format(p.get("text"), p.get("parse_mode"), p.get("entities"))
        markup = self._validate_markup(p.get("reply_markup"))
        self._check_can_write(chat_id)
        rec = self._bot_record(
            chat_id, p, text=text, parse_mode=p.get("parse_mode"), plain=plain, entities=ents, reply_markup=markup
        )
        return self.message_dict(rec)

    async def _m_senddocument(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        document = self._document(p.get("document"))
        caption, plain, ents = self._caption(p)
        markup = self._validate_markup(p.get("reply_markup"))
        self._check_can_write(chat_id)
        rec = self._bot_record(
            chat_id,
            p,
            text=caption,
            parse_mode=p.get("parse_mode") if caption else None,
            plain=plain,
            entities=ents,
            reply_markup=markup,
            document=document,
        )
        return self.message_dict(rec)

    async def _m_editmessagetext(self, p: dict) -> dict:
        rec = self._editable(p)
        if rec.text is None or rec.document is not None:
            raise bad(E_NO_TEXT)
        text, plain, ents = self._format(p.get("text"), p.get("parse_mode"), p.get("entities"))
        markup = self._validate_markup(p.get("reply_markup"))  # absent => keyboard removed
        if plain == rec.plain and ents == rec.entities and markup == rec.reply_markup:
            raise bad(E_NOT_MODIFIED)
        rec.text, rec.plain, rec.entities = text, plain, ents
        rec.parse_mode, rec.reply_markup = p.get("parse_mode"), markup
        return self._edited(rec)

    async def _m_editmessagecaption(self, p: dict) -> dict:
        rec = self._editable(p)
        if rec.document is None:
            raise bad(E_NO_CAPTION)
        caption, plain, ents = self._caption(p)
        markup = self._validate_markup(p.get("reply_markup"))  # absent => keyboard removed
        if plain == rec.plain and ents == rec.entities and markup == rec.reply_markup:
            raise bad(E_NOT_MODIFIED)
        rec.text, rec.plain, rec.entities = caption, plain, ents
        rec.parse_mode, rec.reply_markup = p.get("parse_mode") if caption else None, markup
        return self._edited(rec)

    async def _m_editmessagereplymarkup(self, p: dict) -> dict:
        rec = self._editable(p)
        markup = self._validate_markup(p.get("reply_markup"))
        if markup == rec.reply_markup:
            raise bad(E_NOT_MODIFIED)
        rec.reply_markup = markup
        return self._edited(rec)

    async def _m_deletemessage(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        self._check_in_group(chat_id)
        rec = self._get_msg(chat_id, int(p.get("message_id") or 0))
        if rec is None:
            raise bad(E_DELETE_NOT_FOUND)
        if not rec.from_bot and chat_id in self.chats and self.bot_status.get(chat_id) not in ADMIN_STATUSES:
            raise bad(E_CANT_DELETE)
        self._delete(rec)
        return True

    async def _m_deletemessages(self, p: dict) -> bool:
        chat_id = self._resolve_chat(p.get("chat_id"))
        for mid in p.get("message_ids") or []:
            rec = self._get_msg(chat_id, int(mid))
            if rec is not None:  # missing ones are skipped, as documented
                self._delete(rec)
        return True

    # ----------------------------------------------------------------- helpers
    def _delete(self, rec: MessageRecord) -> None:
        rec.deleted = True
        rec.deleted_at = self.clock()

    def _edited(self, rec: MessageRecord) -> dict:
        rec.edit_count += 1
        rec.edit_date = int(time.time())
        rec.snapshot(self.clock())
        return self.message_dict(rec)

    def _validate_markup(self, markup: Any) -> dict | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            rows = markup["inline_keyboard"]
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise bad("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
            for row in rows:
                for b in row:
                    if not isinstance(b, dict) or "text" not in b:
                        raise bad(
                            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
                        )
                    if "callback_data" in b:
                        data = b["callback_data"]
                        if not isinstance(data, str) or not 0 < len(data.encode("utf-8")) <= MAX_CALLBACK_DATA:
                            raise bad(E_BUTTON_DATA)
                    elif "web_app" in b:
                        # Telegram opens Mini Apps over HTTPS; this machine's plain HTTP is the demo's.
                        url = str((b["web_app"] or {}).get("url", "")) if isinstance(b["web_app"], dict) else ""
                        if not re.match(r"^(https://|http://(127\.0\.0\.1|localhost)[:/])\S+$", url):
                            raise bad(E_BUTTON_URL)
                    elif "url" in b:
                        url = str(b["url"])
                        if not re.match(r"^(https?|tg)://\S+$", url) and not re.match(r"^t\.me/\S+$", url):
                            raise bad(E_BUTTON_URL)
        return markup

    def _format(self, text: Any, parse_mode: Any, entities: Any) -> tuple[str, str, list]:
        if text is None:
            raise bad(E_EMPTY)
        text = str(text)
        plain, ents = format_text(text, parse_mode, entities, self.strict_ampersand)
        if not plain.strip():
            raise bad(E_EMPTY)
        if utf16_len(plain) > MAX_TEXT:
            raise bad(E_TOO_LONG)
        return text, plain, ents

    def _caption(self, p: dict) -> tuple[str | None, str | None, list]:
        """(caption as sent, as shown, entities); an empty caption means none, as on Telegram."""
        caption = p.get("caption")
        if caption is None or caption == "":
            return None, None, []
        plain, ents = format_text(str(caption), p.get("parse_mode"), p.get("caption_entities"), self.strict_ampersand)
        if utf16_len(plain) > MAX_CAPTION:
            raise bad(E_CAPTION_TOO_LONG)
        if not plain.strip():
            return None, None, []
        return str(caption), plain, ents

    def _document(self, value: Any) -> Document:
        if isinstance(value, Upload):
            if not value.content:
                raise bad(E_EMPTY_FILE)
            n = len(self.files) + 1
            doc = Document(
                file_id=f"BQACAgIAAxkBAAI{n:08d}",
                file_unique_id=f"AgAD{n:08d}",
                file_name=value.filename,
                mime_type=value.content_type,
                content=value.content,
            )
            self.files[doc.file_id] = doc
            return doc
        if value is None or value == "":
            raise bad("there is no document in the request")
        if isinstance(value, str) and value in self.files:
            return self.files[value]  # re-sent by file_id
        raise bad(E_FILE_ID)  # the fake cannot fetch URLs, and knows no other file ids

    def _thread_for_send(self, chat_id: int, p: dict) -> int | None:
        tid = p.get("message_thread_id")
        if tid in (None, 0):
            return None
        tid = int(tid)
        chat = self.chats.get(chat_id)
        if chat is None:
            return None
        if chat.is_forum:
            if tid == 1:
                return None  # General topic
            if tid not in chat.topics:
                raise bad(E_THREAD_NOT_FOUND)
            return tid
        if self._get_msg(chat_id, tid) is None:
            raise bad(E_THREAD_NOT_FOUND)
        return tid

    def _reply_target(self, chat_id: int, p: dict) -> int | None:
        rp = p.get("reply_parameters")
        mid, allow = None, bool(p.get("allow_sending_without_reply"))
        if isinstance(rp, dict):
            mid = rp.get("message_id")
            allow = allow or bool(rp.get("allow_sending_without_reply"))
            if rp.get("chat_id") not in (None, chat_id):
                mid = None
        elif p.get("reply_to_message_id") is not None:
            mid = p["reply_to_message_id"]
        if mid is None:
            return None
        if self._get_msg(chat_id, int(mid)) is None:
            if allow:
                return None
            raise bad(E_REPLY_NOT_FOUND)
        return int(mid)

    def _bot_record(self, chat_id: int, p: dict, **kw: Any) -> MessageRecord:
        thread = self._thread_for_send(chat_id, p)
        reply_to = self._reply_target(chat_id, p)
        if thread is None and reply_to is not None:
            target = self._get_msg(chat_id, reply_to)
            thread = target.thread_id if target else None
        rec = MessageRecord(
            chat_id=chat_id,
            message_id=self._new_message_id(chat_id),
            from_bot=True,
            sender_id=self.bot_id,
            date=int(time.time()),
            thread_id=thread,
            reply_to_message_id=reply_to,
            **kw,
        )
        return self._store(rec)

    def _editable(self, p: dict) -> MessageRecord:
        if p.get("inline_message_id"):
            raise bad("inline messages are not supported by FakeBotAPI")
        chat_id = self._resolve_chat(p.get("chat_id"))
        if p.get("message_id") is None:
            raise bad("message identifier is not specified")
        self._check_can_write(chat_id)
        rec = self._get_msg(chat_id, int(p["message_id"]))
        if rec is None:
            raise bad(E_EDIT_NOT_FOUND)
        if not rec.from_bot or rec.service:
            raise bad(E_CANT_EDIT)
        return rec
