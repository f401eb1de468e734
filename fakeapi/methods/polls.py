"""Bot API methods for polls (sendPoll, stopPoll) and the Poll object users' votes are counted in."""

from __future__ import annotations

from fakeapi.errors import E_POLL_CLOSED, E_POLL_STOP_NOT_FOUND, bad


class PollMethods:
    async def _m_sendpoll(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        question = p.get("question")
        if not question or len(question) > 300:
            raise bad("POLL_QUESTION_INVALID")
        opts = p.get("options")
        if not isinstance(opts, list):
            raise bad("can't parse options JSON object")
        options = [o["text"] if isinstance(o, dict) else str(o) for o in opts]
        if len(options) < 2:
            raise bad("poll must have at least 2 option")
        if len(options) > 12:
            raise bad("poll can't have more than 12 options")
        if any(not o or len(o) > 100 for o in options):
            raise bad("POLL_OPTION_INVALID")
        markup = self._validate_markup(p.get("reply_markup"))
        self._check_can_write(chat_id)
        poll_id = str(self._next_poll)
        self._next_poll += 1
        anonymous = p.get("is_anonymous")
        self.polls[poll_id] = {
            "question": question,
            "options": options,
            "votes": {},
            "is_closed": bool(p.get("is_closed", False)),
            "is_anonymous": True if anonymous is None else bool(anonymous),
            "type": p.get("type") or "regular",
            "allows_multiple_answers": bool(p.get("allows_multiple_answers", False)),
            "chat_id": chat_id,
            "message_id": None,
        }
        rec = self._bot_record(
            chat_id, p, text=None, parse_mode=None, plain=None, entities=[], reply_markup=markup, poll_id=poll_id
        )
        self.polls[poll_id]["message_id"] = rec.message_id
        return self.message_dict(rec)

    async def _m_stoppoll(self, p: dict) -> dict:
        chat_id = self._resolve_chat(p.get("chat_id"))
        self._check_in_group(chat_id)
        rec = self._get_msg(chat_id, int(p.get("message_id") or 0))
        if rec is None or rec.poll_id is None:
            raise bad(E_POLL_STOP_NOT_FOUND)
        poll = self.polls[rec.poll_id]
        if poll["is_closed"]:
            raise bad(E_POLL_CLOSED)
        markup = self._validate_markup(p.get("reply_markup"))
        poll["is_closed"] = True
        if markup != rec.reply_markup:
            rec.reply_markup = markup
            rec.snapshot(self.clock())
        return self._poll_dict(rec.poll_id)

    def _poll_dict(self, poll_id: str) -> dict:
        p = self.polls[poll_id]
        counts = [0] * len(p["options"])
        for ids in p["votes"].values():
            for i in ids:
                counts[i] += 1
        return {
            "id": poll_id,
            "question": p["question"],
            "options": [
                {"text": t, "voter_count": counts[i], "persistent_id": str(i)} for i, t in enumerate(p["options"])
            ],
            "total_voter_count": len(p["votes"]),
            "is_closed": p["is_closed"],
            "is_anonymous": p["is_anonymous"],
            "type": p["type"],
            "allows_multiple_answers": p["allows_multiple_answers"],
            "allows_revoting": True,
            "members_only": False,
        }
