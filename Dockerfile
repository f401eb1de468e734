# Karata bot image. Build and run step by step: docs/OPERATIONS.md ("Docker").
#   docker build -t karata .
#   docker run -e BOT_TOKEN=... -v karata-data:/data -p 127.0.0.1:8080:8080 karata
# tools/check_dockerfile.py checks the rules below without a Docker daemon.

# An exact version: the same image on every build until someone chooses to move it.
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# Dependencies first, from pyproject.toml alone: a change to the code reuses this layer.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The bot itself (its dependencies are already in).
COPY README.md ./
COPY engine ./engine
COPY tables ./tables
COPY handlers ./handlers
COPY bot ./bot
# Only for `karata` without BOT_TOKEN, which plays the offline demo against the fake Bot API.
COPY fakeapi ./fakeapi
# The games' guides that /guide sends in chat.
COPY docs/games ./docs/games
RUN pip install --no-cache-dir --no-deps .

# A user of its own, without a login, owning the database's volume.
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin karata \
    && mkdir -p /data \
    && chown karata:karata /data
# The bot's own default address is loopback, which nothing outside the container reaches (the
# proxy's container, a published port): here it listens on the container's network.
ENV KARATA_DB=/data/karata.db \
    KARATA_GUIDES_DIR=/app/docs/games \
    KARATA_HTTP_LISTEN=0.0.0.0 \
    KARATA_HTTP_PORT=8080
VOLUME ["/data"]
# By number: a host (or Kubernetes' runAsNonRoot) can tell it is not root without the image's passwd.
USER 10001:10001

# The bot's one HTTP server: the webhook, /healthz, /metrics and the Mini App (/app/).
EXPOSE 8080
# /healthz answers 200 while the database answers and updates arrive (python: slim has no curl).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot.healthcheck"]
# SIGTERM stops the bot gracefully: it flushes what players were about to see for up to 10 s
# (bot/app.py STOP_DELIVERY_SECONDS). Give it longer before SIGKILL: `docker stop -t 30`, or
# compose.yaml's stop_grace_period: 30s (Docker's default, 10 s, could cut the flush short).
STOPSIGNAL SIGTERM
CMD ["karata", "run"]
