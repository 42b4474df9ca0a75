"""The services send the tasks by name (``tournaments/enqueue.py``): the names are the
tasks' own, and without a broker a send runs the task in-process, even in a process
that has not imported ``tournaments.tasks`` (a web process: only a worker imports the
task modules when it starts). Through a broker, the worker tests of this folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tournaments import enqueue, tasks

ROOT = Path(__file__).resolve().parents[3]


def test_the_names_sent_are_the_names_the_tasks_are_registered_under() -> None:
    assert tasks.print_job_task.name == enqueue.PRINT_JOB
    assert tasks.board_analysis_task.name == enqueue.BOARD_ANALYSIS
    assert tasks.circuit_places_task.name == enqueue.CIRCUIT_PLACES


#: Run in a fresh process: this one imported ``tournaments.tasks`` long ago.
FRESH_PROCESS = """
import sys
import django

django.setup()
from tournaments import enqueue
from tournaments.reports import services

runs = []
services.print_job_run = lambda *, job_id: runs.append(job_id)  # None: "skipped"
imported = "tournaments.tasks" in sys.modules
result = enqueue.print_job(41)
print(imported, type(result).__name__, result.get(), runs)
"""


def test_without_a_broker_a_send_runs_the_task_in_process_in_a_fresh_process() -> None:
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    # Not imported before the send; an EagerResult (run here, not sent) with the task's
    # own return value, after the service ran for job 41.
    assert done.stdout.split("\n")[-2] == "False EagerResult skipped [41]"
