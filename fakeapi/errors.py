"""Error answers of the fake Bot API: the exception the handlers raise and Telegram's own wording."""

from __future__ import annotations

from typing import Any


class TelegramAPIError(Exception):
    """An error response of the fake API: ``{"ok": false, "error_code", "description"}``."""

    def __init__(self, code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict:
        out: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            out["parameters"] = self.parameters
        return out


def bad(desc: str) -> TelegramAPIError:
    """A 400 Bad Request, with Telegram's "Bad Request: " prefix added when missing."""
    return TelegramAPIError(400, desc if desc.startswith("Bad Request") else "Bad Request: " + desc)


def forbidden(desc: str) -> TelegramAPIError:
    return TelegramAPIError(403, desc)


def too_many_requests(retry_after: int) -> TelegramAPIError:
    return TelegramAPIError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})


# Telegram's real error strings (PTB matches some of them, tests match others).
E_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
E_CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
E_BLOCKED = "Forbidden: bot was blocked by the user"
E_KICKED = "Forbidden: bot was kicked from the supergroup chat"
E_NOT_MEMBER = "Forbidden: bot is not a member of the supergroup chat"
E_CHAT_NOT_FOUND = "Bad Request: chat not found"
E_MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"
E_GROUP_DELETED = "Forbidden: the group chat was deleted"
E_NO_RIGHTS = "Bad Request: not enough rights to send text messages to the chat"
E_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
E_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
E_CANT_DELETE = "Bad Request: message can't be deleted"
E_CANT_EDIT = "Bad Request: message can't be edited"
E_NO_TEXT = "Bad Request: there is no text in the message to edit"
E_NO_CAPTION = "Bad Request: there is no caption in the message to edit"
E_TOO_LONG = "Bad Request: message is too long"
E_CAPTION_TOO_LONG = "Bad Request: message caption is too long"
E_EMPTY = "Bad Request: message text is empty"
E_BUTTON_DATA = "Bad Request: BUTTON_DATA_INVALID"
E_BUTTON_URL = "Bad Request: BUTTON_URL_INVALID"
E_QUERY_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
E_REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
E_THREAD_NOT_FOUND = "Bad Request: message thread not found"
E_USER_NOT_FOUND = "Bad Request: user not found"
E_MEMBER_NOT_FOUND = "Bad Request: member not found"
E_POLL_STOP_NOT_FOUND = "Bad Request: message with poll to stop not found"
E_POLL_CLOSED = "Bad Request: poll has already been closed"
E_LANGUAGE_CODE = "Bad Request: invalid language code specified"
E_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
E_EMPTY_FILE = "Bad Request: file must be non-empty"
E_WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
E_POLL_CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
