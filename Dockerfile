# Karata bot image: `docker build -t karata .` then
# `docker run -e BOT_TOKEN=... -v karata-data:/data karata`
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY tables ./tables
COPY handlers ./handlers
# The games' guides that /guide sends in chat.
COPY docs/games ./docs/games
ENV KARATA_GUIDES_DIR=/app/docs/games
# Only for `karata` without BOT_TOKEN, which plays the offline demo against the fake Bot API.
COPY fakeapi ./fakeapi
RUN pip install --no-cache-dir .
ENV KARATA_DB=/data/karata.db
RUN mkdir -p /data && chown nobody /data
VOLUME ["/data"]
USER nobody
CMD ["karata", "run"]
