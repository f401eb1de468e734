"""What Caddy forwards to the bot (deploy/Caddyfile), what compose.yaml configures and what
docs/OPERATIONS.md tells an operator agree: Telegram's webhook posts and the Mini App reach the
bot, on the port it listens on; /healthz and /metrics do not leave the compose network."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from bot.webapp import PREFIX

ROOT = Path(__file__).resolve().parent.parent
CADDYFILE = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
OPERATIONS = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")


def forwarded() -> list[str]:
    """The path matchers of the Caddyfile's `handle` blocks that pass requests to the bot."""
    return re.findall(r"^\s*handle (\S+) \{\s*reverse_proxy ", CADDYFILE, re.MULTILINE)


def caddy_forwards(path: str) -> bool:
    # Caddy's path matcher: a trailing * matches any rest; otherwise the path exactly.
    return any(path.startswith(m[:-1]) if m.endswith("*") else path == m for m in forwarded())


def compose_webhook_path() -> str:
    # ${NAME:?message} stands for a value: any one will do for the path's shape.
    url = re.search(r"KARATA_WEBHOOK_URL: (.+)$", re.sub(r"\$\{[^}]*\}", "x", COMPOSE), re.MULTILINE).group(1)
    return urlsplit(url.strip()).path


def test_telegrams_posts_to_composes_webhook_url_reach_the_bot():
    path = compose_webhook_path()
    assert path.startswith("/telegram/")
    assert caddy_forwards(path)


def test_the_mini_apps_page_api_and_sockets_reach_the_bot():
    for path in (PREFIX, PREFIX.rstrip("/"), PREFIX + "static/app.js", PREFIX + "api/table/7/live"):
        assert caddy_forwards(path), path


def test_the_operators_routes_and_anything_else_stay_inside():
    for path in ("/healthz", "/metrics", "/", "/telegram", "/wp-login.php"):
        assert not caddy_forwards(path), path


def test_caddy_proxies_to_the_port_and_service_the_bot_listens_on():
    targets = set(re.findall(r"reverse_proxy (\S+)", CADDYFILE))
    port = re.search(r"KARATA_HTTP_PORT=(\d+)", DOCKERFILE).group(1)
    assert targets == {f"karata:{port}"}
    assert re.search(r"^  karata:\s*$", COMPOSE, re.MULTILINE), "the bot's compose service is named karata"
    assert re.search(rf'^\s*- "{port}"\s*$', COMPOSE, re.MULTILINE), "compose exposes that port to Caddy"


def test_the_docs_and_composes_comments_name_both_forwarded_paths_and_the_mini_apps_need_for_a_proxy():
    comments = "\n".join(line for line in COMPOSE.splitlines() if line.lstrip().startswith("#"))
    for text in (OPERATIONS, comments):
        assert "/telegram/" in text and "/app/" in text
        assert re.search(r"[Pp]olling", text) and "Mini App" in text
    # Where the docs show a Caddy line for the app, it matches what the Caddyfile forwards.
    for matcher in re.findall(r"reverse_proxy (/\S+) ", OPERATIONS):
        assert matcher in forwarded(), matcher
