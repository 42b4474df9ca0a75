# The application image: gunicorn serves the site (whitenoise serves the static files
# collected here at build time); the same image runs the Celery worker and the one-off
# migration (deploy/compose.yaml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MEDIA_ROOT=/var/lib/botifarra/media

WORKDIR /app

# Dependencies first, in their own layer: rebuilt only when pyproject.toml changes.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY manage.py setup.py ./
COPY config config
COPY engine engine
COPY scoring scoring
COPY tournaments tournaments
COPY templates templates
COPY static static
COPY locale locale
# Editable: the code runs from /app, where the settings find templates/, static/, locale/.
# The install compiles the double-dummy solver's core (engine/_ddcore.c, setup.py), which
# needs a C compiler at build time only: without it the install would still succeed and
# the analysis fall back to the pure-Python solver, minutes a board instead of a second.
# The build stops if the core did not build; the compiler is removed afterwards.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-deps -e . \
    && python -c "import sys, engine.dd as dd; sys.exit(0 if dd.core_available() else 'the compiled double-dummy core did not build')" \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* build

# Static files with hashed names and compressed copies, served by whitenoise. The key
# only lets the settings load for this command; the real one comes from the env file.
RUN DEBUG=0 DJANGO_SECRET_KEY=collectstatic-only-not-a-secret ALLOWED_HOSTS=localhost \
    python manage.py collectstatic --noinput

RUN useradd --system --uid 1000 --home-dir /app botifarra \
    && mkdir -p /var/lib/botifarra/media \
    && chown -R botifarra /var/lib/botifarra /app/var
USER botifarra

EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
