# The two commands of the README: `make demo` (the main job) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest install clean worker

$(BIN)/python:
	$(PYTHON) deploy/mkvenv.py $(VENV)

$(STAMP): $(BIN)/python pyproject.toml setup.py engine/_ddcore.c
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The double-dummy tables of the demo's boards are computed in the background while the
# site is already served (some seconds of CPU); the travellers show each as it lands.
# Stopping the server (Ctrl-C) stops that computation too.
demo: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --analysis-budget 0
	$(BIN)/python manage.py demo --format classic
	$(BIN)/python manage.py demo --format classic --pairs 64 --groups 16 --qualify 1 \
		--knockout --deals-per-game 8
	$(BIN)/python manage.py demo --pairs 40 --finals A:16,B:16 --analysis-budget 0
	$(BIN)/python manage.py demo --circuit circuit-demo --events 3
	mkdir -p var
	$(BIN)/python manage.py analyse_boards demo > var/analyse_boards.log 2>&1 & \
	analysis=$$!; trap 'kill $$analysis 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:8000

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine scoring tournaments config

# Two pytest-xdist workers (one on a one-CPU machine), each test module whole on one
# worker (--dist loadfile: a module's fixtures, e.g. a Celery worker or the smoke test's
# gunicorns, are started once). PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= $(shell $(BIN)/python -c 'import os; print(min(2, os.cpu_count() or 1))')

pytest: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

test: lint typecheck pytest

worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) var/*.sqlite3
