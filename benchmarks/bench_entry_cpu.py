"""CPU of one result PUT, in process: the application's own (``time.process_time``) and
its PostgreSQL backend's (``/proc/<backend pid>/stat``), with no load generator and no
network, so that two versions of the code can be compared on a busy machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_perf \\
        .venv/bin/python benchmarks/bench_entry_cpu.py [--puts 400] [--rounds 3]

Builds a championship as ``bench_load.py`` does (200 pairs at 100 tables, one round, 32
referees with API tokens; ``VACUUM ANALYZE`` after it), then calls ``config.wsgi``'s
application directly with the PUTs locust sends (a new result each, a referee's token,
JSON), under the benchmark server's settings (``DEBUG=0``, a kept connection, server-side
binding, the Redis cache). ``--warmup`` PUTs first (prepared statements, caches), then
``--rounds`` batches of ``--puts`` PUTs; each batch prints the milliseconds of CPU per
PUT in this process and in its backend. Every answer must be a 201.

``--root DIR`` imports the project from another checkout (``git worktree add``) against
the same database. ``--compare DIR_A DIR_B`` compares two checkouts on a machine whose
speed drifts: it starts one such process for each (each with its own championship) and
has them run their batches in turn, A B, B A, A B..., ``--rounds`` each, then prints the
medians and the median of the B/A ratios of the batches run side by side. ``--env-a`` /
``--env-b NAME=VALUE`` set a variable for one side only (a setting on against off).
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--puts", type=int, default=400, help="PUTs per batch (400)")
parser.add_argument("--rounds", type=int, default=3, help="batches (3)")
parser.add_argument("--warmup", type=int, default=100, help="PUTs before timing (100)")
parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the checkout to import the project from (this one)")
parser.add_argument("--profile", type=Path, help="write a cProfile of the timed PUTs here")
parser.add_argument("--sample", type=int, metavar="N",
                    help="sample the timed PUTs' stacks every 0.5 ms of CPU; print the N "
                         "functions most often on the stack (a profile without cProfile's "
                         "cost per call)")
parser.add_argument("--compare", type=Path, nargs=2, metavar=("DIR_A", "DIR_B"),
                    help="two checkouts to compare, batch by batch")
parser.add_argument("--env-a", action="append", default=[], metavar="NAME=VALUE",
                    help="with --compare: an environment variable of A's process only")
parser.add_argument("--env-b", action="append", default=[], metavar="NAME=VALUE",
                    help="with --compare: an environment variable of B's process only "
                         "(e.g. DATABASE_REPLAN_SECONDS=0 against the same checkout)")
parser.add_argument("--plans", action="store_true",
                    help="list this connection's prepared statements and their plans")
parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
args = parser.parse_args()

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(args.root.resolve()))
sys.path.insert(0, str(BENCH))
os.chdir(args.root)
# As bench_load.py starts gunicorn, but for the connection's age.
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
    DJANGO_SECRET_KEY="bench-" + "k" * 50, ALLOWED_HOSTS="127.0.0.1,localhost",
    # Kept for the whole run (gunicorn's 60 s would change the backend between batches).
    DATABASE_CONN_MAX_AGE="36000", REDIS_URL=args.redis, LOG_LEVEL="WARNING",
    SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0",
)
os.environ.setdefault("DATABASE_SERVER_SIDE_BINDING", "1")

from bench_load import PAIRS, cpu_seconds, setup  # noqa: E402
from common import machine  # noqa: E402

# bench_load puts its own checkout first on the path when imported: without this, both
# processes of --compare ran the checkout this script is in, whatever --root said.
sys.path.insert(0, str(args.root.resolve()))

TRUMPS = ["O", "C", "E", "B", "botifarra"]


def main() -> None:
    from django.db import connection

    import config
    from config.wsgi import application  # django.setup(), the URL patterns, gc.freeze

    imported = Path(config.__file__).resolve().parent.parent
    if imported != args.root.resolve():
        sys.exit(f"the project came from {imported}, not from --root {args.root}")
    if connection.vendor != "postgresql":
        sys.exit("bench_entry_cpu needs PostgreSQL: set DATABASE_URL=postgres://...")
    tables = PAIRS // 2
    total = args.warmup + args.puts * args.rounds
    plan = setup(total // tables + 1)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    connection.close()
    if not args.serve:
        print(f"{machine()}; load average {os.getloadavg()[0]:.1f}; root {args.root}")
    slots = iter([(t, b) for b in range(1, total // tables + 2) for t in range(1, tables + 1)])
    tokens = plan["tokens"]

    def put(n: int) -> None:
        table, board = next(slots)
        body = json.dumps({"trump": TRUMPS[n % 5], "ns_points_taken": (7 * n) % 73}).encode()
        environ = {
            "REQUEST_METHOD": "PUT", "SCRIPT_NAME": "", "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
            "PATH_INFO": f"/api/v1/c/{plan['slug']}/rounds/1/tables/{table}/boards/{board}/result/",
            "QUERY_STRING": "", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000",
            "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
            "HTTP_AUTHORIZATION": f"Token {tokens[table % len(tokens)]}",
            "HTTP_ACCEPT": "*/*", "HTTP_USER_AGENT": "bench_entry_cpu",
            "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
            "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
            "wsgi.version": (1, 0),
        }
        answer: list[str] = []
        chunks = application(environ, lambda status, headers, exc=None: answer.append(status))
        b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()
        if not answer[0].startswith("201"):
            sys.exit(f"PUT {table}/{board}: {answer[0]}")

    n = 0
    for _ in range(args.warmup):
        put(n)
        n += 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    if args.serve:
        print("ready", flush=True)
    profile = None
    if args.profile:
        import cProfile
        profile = cProfile.Profile(time.process_time)  # CPU, not the waits
    samples: collections.Counter[str] = collections.Counter()
    if args.sample:
        def sample(_signum: int, frame: Any) -> None:
            seen = set()
            while frame is not None:
                code = frame.f_code
                name = f"{code.co_filename.split('site-packages/')[-1]}:{code.co_name}"
                if name not in seen:
                    seen.add(name)
                    samples[name] += 1
                frame = frame.f_back
            samples["(all)"] += 1

        signal.signal(signal.SIGPROF, sample)
        signal.setitimer(signal.ITIMER_PROF, 0.0005, 0.0005)
    app_ms, db_ms = [], []
    for _ in range(args.rounds):
        if args.serve:  # the comparing process says when
            sys.stdin.readline()
        cpu, db, wall = time.process_time(), cpu_seconds([backend]), time.perf_counter()
        if profile:
            profile.enable()
        for _ in range(args.puts):
            put(n)
            n += 1
        if profile:
            profile.disable()
        app_ms.append((time.process_time() - cpu) * 1000 / args.puts)
        db_ms.append((cpu_seconds([backend]) - db) * 1000 / args.puts)
        if args.serve:
            print(f"batch {app_ms[-1]} {db_ms[-1]}", flush=True)
            continue
        print(f"  {args.puts} PUTs: CPU per PUT {app_ms[-1]:.2f} ms here + "
              f"{db_ms[-1]:.2f} ms PostgreSQL; wall "
              f"{(time.perf_counter() - wall) * 1000 / args.puts:.2f} ms")
    if not args.serve:
        print(f"median of {args.rounds}: {statistics.median(app_ms):.2f} + "
              f"{statistics.median(db_ms):.2f} ms CPU per PUT")
    if profile:
        profile.dump_stats(args.profile)
    if args.sample:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        total = samples["(all)"]
        for name, count in samples.most_common(args.sample):
            print(f"  {100 * count / total:5.1f} %  {name}")
    if args.plans:
        with connection.cursor() as cursor:
            cursor.execute("SELECT generic_plans, custom_plans, left(statement, 110)"
                           " FROM pg_prepared_statements ORDER BY custom_plans DESC")
            for row in cursor.fetchall():
                print(f"  prepared: {row[0]:5d} generic, {row[1]:5d} custom plans: {row[2]}")


def compare(roots: list[Path]) -> None:
    """Batches of two checkouts in turn (see the module's docstring)."""
    import subprocess

    print(f"{machine()}; load average {os.getloadavg()[0]:.1f}")
    command = [sys.executable, __file__, "--serve", "--puts", str(args.puts),
               "--rounds", str(args.rounds), "--warmup", str(args.warmup),
               "--redis", args.redis]
    children = []
    envs = [dict(item.split("=", 1) for item in side) for side in (args.env_a, args.env_b)]
    for root, env in zip(roots, envs, strict=True):
        # One after the other: each names its championship by the second.
        child = subprocess.Popen([*command, "--root", str(root.resolve())],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 env=dict(os.environ, **env))
        assert child.stdout is not None
        line = child.stdout.readline()  # built and warmed up
        if not line.startswith("ready"):
            sys.exit(f"a process did not start: {line!r}")
        children.append(child)
        time.sleep(1)
    figures: list[list[tuple[float, float]]] = [[], []]
    for turn in range(args.rounds):
        # A first, then B first, and so on (A B B A A B ...): the batch run second
        # of a pair measured 2-5 % more CPU on a busy machine, whichever code it ran.
        pairs = list(zip(children, figures, strict=True))
        for child, rows in (pairs if turn % 2 == 0 else pairs[::-1]):
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write("go\n")
            child.stdin.flush()
            _word, app, db = child.stdout.readline().split()
            rows.append((float(app), float(db)))
    for child in children:
        child.wait()
    for name, root, env, rows in zip("AB", roots, envs, figures, strict=True):
        settings = "".join(f" {k}={v}" for k, v in env.items())
        print(f"{name} {root}{settings}: CPU per PUT, median of {args.rounds} batches of "
              f"{args.puts}: "
              f"{statistics.median(r[0] for r in rows):.2f} ms here (batches "
              f"{' '.join(f'{r[0]:.2f}' for r in rows)}) + "
              f"{statistics.median(r[1] for r in rows):.2f} ms PostgreSQL (batches "
              f"{' '.join(f'{r[1]:.2f}' for r in rows)})")
    for index, what in ((0, "here"), (1, "PostgreSQL")):
        ratios = [b[index] / a[index] for a, b in zip(*figures, strict=True) if a[index]]
        print(f"B/A {what}: median {statistics.median(ratios):.3f} "
              f"(range {min(ratios):.3f}-{max(ratios):.3f})")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    if args.compare:
        compare(list(args.compare))
    else:
        main()
