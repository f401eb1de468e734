"""`python -m bot.healthcheck`: the image's HEALTHCHECK. Exit 0 when the bot's /healthz answers
200, 1 otherwise, printing its reason (Docker keeps it: `docker inspect --format '{{json .State.Health}}'`).

Standard library only, and nothing of the bot is imported: a check runs every 30 s.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    port = os.environ.get("KARATA_HTTP_PORT") or "8080"
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=8) as response:
            print(response.read().decode().strip())
            return 0
    except urllib.error.HTTPError as error:
        print(error.read().decode().strip() or f"HTTP {error.code}")
    except OSError as error:
        print(f"the bot's HTTP server does not answer on port {port} ({error})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
