"""A real PostgreSQL server for the tests: Debian's binaries (the `postgresql` package), a cluster
in a temporary folder on a free local port, started once per test session (per xdist worker) and
stopped at its end; every test gets a fresh database on it.

PostgreSQL refuses to run as root: where the tests run as root (CI), the cluster belongs to
`nobody` and its commands run through `runuser`. Where no server can be had, `unavailable` says
why and the PostgreSQL tests skip saying so.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "karata"
# Newest first: Debian installs each major version under its own folder.
BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda path: int(Path(path).parent.name), reverse=True)
RUN_AS = "nobody"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self) -> None:
        self.folder: Path | None = None
        self.port = 0
        self._names = itertools.count(1)
        self.unavailable = self._why_not()

    @staticmethod
    def _why_not() -> str | None:
        if not BINARIES or not Path(BINARIES[0], "initdb").exists():
            return "PostgreSQL's server is not installed (Debian: apt-get install postgresql)"
        if os.geteuid() == 0 and not shutil.which("runuser"):
            return "running as root without runuser: PostgreSQL's server refuses to run as root"
        return None

    def _command(self, *arguments: str) -> list[str]:
        binary = str(Path(BINARIES[0], arguments[0]))
        if os.geteuid() == 0:
            return ["runuser", "-u", RUN_AS, "--", binary, *arguments[1:]]
        return [binary, *arguments[1:]]

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="karata-pg-"))
        if os.geteuid() == 0:
            account = pwd.getpwnam(RUN_AS)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        data, log = self.folder / "data", self.folder / "server.log"
        try:
            subprocess.run(
                self._command("initdb", "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"),
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
            self.port = _free_port()
            # Durability is the server's business, not the tests': fsync off keeps them quick.
            options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
            subprocess.run(
                self._command("pg_ctl", "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "120", "start"),
                check=True, capture_output=True, timeout=150,
            )  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
            output = getattr(error, "stderr", b"") or b""
            self.unavailable = f"the PostgreSQL server did not start: {error} {output.decode(errors='replace')[-300:]}"

    def stop(self) -> None:
        if self.folder is None:
            return
        if self.unavailable is None:
            subprocess.run(
                self._command("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"),
                capture_output=True, timeout=60,
            )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, template: str | None = None) -> str:
        """A fresh database's URL: empty, or a copy of the one at the URL `template` (which no
        one may be connected to)."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        copied = ["-T", template.rsplit("/", 1)[1]] if template else []
        subprocess.run(
            [str(Path(BINARIES[0], "createdb")), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, *copied, name],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        return self.url(name)
