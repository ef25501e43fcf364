# A slim image that serves every plate on 0.0.0.0:5006.
#   docker build -t attention-explorable .
#   docker run -p 5006:5006 -e ALLOWED_ORIGINS=course.example.org attention-explorable
# ALLOWED_ORIGINS: comma-separated hosts (host[:port]) whose pages may open sessions; the
# default allows only the server's own localhost address. Never '*' by default.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=5006 \
    ALLOWED_ORIGINS=localhost:5006

WORKDIR /srv/attention-explorable
COPY pyproject.toml README.md ./
COPY attention_core ./attention_core
COPY app ./app
COPY assets ./assets
RUN pip install . && useradd --create-home --uid 10001 explorable

USER explorable
EXPOSE 5006

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD python -c "import os, sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:%s/liveness' % os.environ.get('PORT', '5006'), timeout=4).status == 200 else 1)"

# Sessions a closed tab left behind are destroyed after 15 s (checked every 5 s): see app/delivery/server.py.
CMD ["sh", "-c", "exec attention-explorable serve --address 0.0.0.0 --port \"${PORT:-5006}\" --allow-websocket-origin \"$ALLOWED_ORIGINS\""]
