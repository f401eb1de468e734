"""The image's rules, checked without a Docker daemon (tools/check_dockerfile.py): the repository's
Dockerfile and compose.yaml pass, and each rule catches the mistake it is there for."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("check_dockerfile", ROOT / "tools" / "check_dockerfile.py")
check = importlib.util.module_from_spec(spec)
sys.modules["check_dockerfile"] = check
spec.loader.exec_module(check)

DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")


def test_the_repositorys_dockerfile_and_compose_file_pass_every_rule_and_hadolint(capsys):
    assert check.main([str(ROOT / "Dockerfile"), str(ROOT / "compose.yaml")]) == 0, capsys.readouterr().out


def test_the_flush_the_grace_period_must_outlast_is_the_bots():
    from bot.app import STOP_DELIVERY_SECONDS

    assert check.FLUSH_SECONDS == STOP_DELIVERY_SECONDS


@pytest.mark.parametrize(
    "change, complaint",
    [
        (("FROM python:3.11.11-slim-bookworm", "FROM python:3.11-slim"), "not pinned"),
        (("FROM python:3.11.11-slim-bookworm", "FROM python:latest"), "not pinned"),
        (("COPY pyproject.toml ./", "COPY pyproject.toml ./\nCOPY bot ./bot"), "copied before the dependencies"),
        (("COPY pyproject.toml ./", "COPY . ."), "copied before the dependencies"),
        (("USER 10001:10001", "USER root"), "is root"),
        (("USER 10001:10001", ""), "no USER"),
        (("    && chown karata:karata /data", "    && true"), "/data"),
        (("EXPOSE 8080", "EXPOSE 9000"), "EXPOSE 8080"),
        ((re.search(r"HEALTHCHECK.*", DOCKERFILE).group(0), ""), "HEALTHCHECK"),
        (("STOPSIGNAL SIGTERM", "STOPSIGNAL SIGKILL"), "STOPSIGNAL"),
        (("    KARATA_HTTP_LISTEN=0.0.0.0 \\\n", ""), "KARATA_HTTP_LISTEN=0.0.0.0"),
    ],
)
def test_each_rule_catches_its_mistake(change, complaint):
    old, new = change
    assert old in DOCKERFILE
    problems = check.dockerfile_problems(DOCKERFILE.replace(old, new))
    assert any(complaint in problem for problem in problems), problems


def test_a_grace_period_no_longer_than_the_flush_or_no_volume_is_caught():
    assert check.compose_problems(COMPOSE) == []
    short = check.compose_problems(COMPOSE.replace("stop_grace_period: 30s", "stop_grace_period: 10s"))
    assert any("not longer than the bot's flush" in problem for problem in short)
    assert any(
        "no stop_grace_period" in problem
        for problem in check.compose_problems(COMPOSE.replace("stop_grace_period: 30s", ""))
    )
    assert any("/data" in problem for problem in check.compose_problems(COMPOSE.replace("karata-data:/data", "")))


def test_compose_without_an_address_caddy_can_reach_is_caught():
    """The bot listens on loopback by default: Caddy's container would find nothing."""
    problems = check.compose_problems(COMPOSE.replace("KARATA_HTTP_LISTEN: 0.0.0.0", ""))
    assert any("KARATA_HTTP_LISTEN" in problem for problem in problems)


def test_the_build_context_leaves_out_the_virtualenv_and_the_history():
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8")
    assert check.dockerignore_problems(ignore) == []
    without = "\n".join(line for line in ignore.splitlines() if line.strip() != ".venv")
    assert any(".venv" in problem for problem in check.dockerignore_problems(without))
    assert check.dockerignore_problems(".venv*/\n**/.git\n") == []
