"""deploy/compose.yaml, Dockerfile and .dockerignore: there is no Docker engine here, so
the files are parsed and checked for what a deployment relies on; the smoke test
(test_smoke.py) starts the same commands without Docker."""

from __future__ import annotations

import re

import pytest

from tests.deploy.compose import ROOT, command, compose, env_file, service

LONG_RUNNING = ("postgres", "redis", "web", "worker")


def test_the_compose_file_has_the_services_of_a_deployment() -> None:
    assert set(compose()["services"]) == {"postgres", "redis", "migrate", "web", "worker"}


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_every_long_running_service_has_a_health_check_and_restarts(name: str) -> None:
    svc = service(name)
    check = svc["healthcheck"]
    assert check["test"][0] in ("CMD", "CMD-SHELL") and len(check["test"]) >= 2
    assert {"interval", "timeout", "retries"} <= set(check)
    assert svc["restart"] == "unless-stopped"


def test_the_web_health_check_asks_healthz_and_the_worker_check_pings_celery() -> None:
    assert "http://127.0.0.1:8000/healthz" in " ".join(service("web")["healthcheck"]["test"])
    assert "inspect ping" in " ".join(service("worker")["healthcheck"]["test"])
    assert "pg_isready" in " ".join(service("postgres")["healthcheck"]["test"])
    assert service("redis")["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]


def test_migrate_runs_once_and_web_and_worker_wait_for_it() -> None:
    migrate = service("migrate")
    assert command("migrate") == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for name in ("web", "worker"):
        assert service(name)["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }
        assert "migrate" not in command(name)


def test_web_is_gunicorn_on_the_wsgi_app_and_worker_is_celery_on_the_config_app() -> None:
    web = command("web")
    assert web[:2] == ["gunicorn", "config.wsgi"]
    assert web[web.index("--bind") + 1] == "0.0.0.0:8000"
    assert command("worker")[:4] == ["celery", "-A", "config", "worker"]


def test_data_lives_in_named_volumes_and_web_and_worker_share_the_media() -> None:
    volumes = compose()["volumes"]
    assert set(volumes) == {"pgdata", "redisdata", "media"}
    assert "pgdata:/var/lib/postgresql/data" in service("postgres")["volumes"]
    assert "redisdata:/data" in service("redis")["volumes"]
    for name in ("web", "worker"):
        assert service(name)["volumes"] == ["media:/var/lib/botifarra/media"]
    example = env_file()
    assert example["MEDIA_ROOT"] == "/var/lib/botifarra/media"


def test_settings_come_from_the_env_file_whose_example_is_committed() -> None:
    for name in ("postgres", "migrate", "web", "worker"):
        assert service(name)["env_file"] == "production.env"
    example = env_file()
    # The app reaches the other services by their compose names.
    assert "@postgres:5432/" in example["DATABASE_URL"]
    assert example["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    assert example["REDIS_URL"].startswith("redis://redis:6379/")
    assert example["REDIS_URL"] != example["CELERY_BROKER_URL"]
    assert example["POSTGRES_PASSWORD"] in example["DATABASE_URL"]


def test_web_and_worker_run_the_image_the_dockerfile_builds() -> None:
    for name in ("migrate", "web", "worker"):
        svc = service(name)
        assert svc["build"] == {"context": "..", "dockerfile": "Dockerfile"}
        assert svc["image"] == "botifarra-duplicate:latest"
    assert (ROOT / "Dockerfile").is_file()


def test_the_dockerfile_collects_static_files_at_build_time_and_runs_unprivileged() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    text = "\n".join(lines)
    assert "python manage.py collectstatic --noinput" in text
    assert any(line.startswith("USER ") and "root" not in line for line in lines)
    assert lines.index(next(line for line in lines if "collectstatic" in line)) < lines.index(
        next(line for line in lines if line.startswith("USER "))
    )
    for folder in ("config", "engine", "scoring", "tournaments", "templates", "static",
                   "locale"):
        assert f"COPY {folder} {folder}" in text
        assert (ROOT / folder).is_dir()
    assert 'CMD ["gunicorn", "config.wsgi"' in text


def test_the_image_builds_the_compiled_double_dummy_core() -> None:
    # Without a compiler the install succeeds with the pure-Python solver only (minutes a
    # board): the image copies setup.py, installs gcc for the build, and checks the core.
    text = (ROOT / "Dockerfile").read_text()
    copied = next(line for line in text.splitlines() if line.startswith("COPY manage.py"))
    assert "setup.py" in copied.split() and (ROOT / "setup.py").is_file()
    install = text[text.index("apt-get install"):text.index("collectstatic")]
    assert "gcc" in install and "pip install --no-deps -e ." in install
    assert "dd.core_available()" in install and "sys.exit" in install
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert "engine/*.so" in ignored  # a core built on the host is not copied in


def test_the_build_context_leaves_out_secrets_and_local_state() -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".git", ".venv", "var", "deploy/production.env", "*.env"} <= ignored


def test_no_deploy_file_tells_a_proxy_to_serve_the_media_folder() -> None:
    for path in [*(ROOT / "deploy").iterdir(), ROOT / "Dockerfile", ROOT / "README.md"]:
        if path.is_file():
            text = path.read_text()
            assert "location /media" not in text and "alias /var/lib/botifarra" not in text
            assert not re.search(r"/media/?`? (from|to)", text), path
    # The compose file publishes only the web port, on loopback, for the proxy.
    assert service("web")["ports"] == ["127.0.0.1:8000:8000"]
    for name in ("postgres", "redis", "migrate", "worker"):
        assert "ports" not in service(name)


def test_the_deploy_readme_covers_backups_restore_scaling_and_measured() -> None:
    text = (ROOT / "deploy" / "README.md").read_text()
    for needle in ("## Production checklist", "pg_dump", "pg_restore",
                   "manage.py export_championship", "import_championship",
                   "## Scaling out", "WEB_CONCURRENCY", "## Measured", "docs/performance.md"):
        assert needle in text, needle


def test_the_systemd_units_take_their_sizes_from_the_env_file_and_start_only_the_app() -> None:
    web = (ROOT / "deploy" / "botifarra-web.service").read_text()
    worker = (ROOT / "deploy" / "botifarra-worker.service").read_text()
    assert "EnvironmentFile=/etc/botifarra/env" in web and "EnvironmentFile" in worker
    # WEB_CONCURRENCY and CELERY_WORKER_CONCURRENCY come from the env file: a size on the
    # command line would override them; collectstatic and migrate run once per deployment.
    commands = [line for line in (web + worker).splitlines() if line.startswith("Exec")]
    assert [line.split("=", 1)[0] for line in commands] == ["ExecStart", "ExecStart"]
    assert not any(word in line for line in commands
                   for word in ("--workers", "--concurrency", "migrate", "collectstatic"))
    env = (ROOT / "deploy" / "production.env.example").read_text()
    assert "WEB_CONCURRENCY=" in env and "CELERY_WORKER_CONCURRENCY=" in env
