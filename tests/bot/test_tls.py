"""Telegram's own API is reached over checked TLS; only a plain-HTTP local Bot API skips it."""

import ssl

from bot.app import tls_for


def test_an_https_bot_api_gets_certificate_and_host_checks():
    context = tls_for("https://api.telegram.org/bot")
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def test_a_plain_http_local_bot_api_has_no_certificate_to_check():
    assert tls_for("http://127.0.0.1:8081/bot") is False
