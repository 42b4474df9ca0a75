"""Shared fixtures. Service-dependent fixtures live next to the tests that use them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from tests.services import IN_CI, require, xdist_worker

# Deadlines flake on a loaded 2-core CI machine; derandomize in CI so a run is repeatable.
hypothesis_settings.register_profile("default", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if IN_CI else "default")


@pytest.fixture(scope="session", autouse=True)
def _files_and_cache_keys_of_this_worker(tmp_path_factory):
    """Each pytest-xdist worker writes its files (print jobs, reports) under a folder of
    its own, not the shared var/media: two workers' databases number their rows alike,
    so their files would have the same names. A Redis cache given in the environment
    gets a key prefix per worker (the default local-memory cache is per process)."""
    from django.test import override_settings

    caches = {
        name: ({**conf, "KEY_PREFIX": f"test-{xdist_worker() or 'main'}"}
               if "locmem" not in str(conf.get("BACKEND", "")) else conf)
        for name, conf in settings.CACHES.items()
    }
    own = override_settings(MEDIA_ROOT=str(tmp_path_factory.mktemp("media")), CACHES=caches)
    own.enable()
    yield
    own.disable()


@pytest.fixture
def on_postgres() -> None:
    """For tests that only mean something on PostgreSQL (row locks, concurrency)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    require(engine.endswith("postgresql"), "needs PostgreSQL: set DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def _live_pages_show_changes_at_once(settings):
    """Tests read a live page right after a change: no row kept per process, no fragment
    served while a newer version exists. The tests of that staleness rule (and the
    browser test of the two seconds) set the production values themselves."""
    settings.LIVE_VERSION_MEMO_SECONDS = 0
    settings.LIVE_STALE_SECONDS = 0


@pytest.fixture(autouse=True)
def _plans_kept(settings):
    """A result save discards its connection's plans every few seconds in production;
    tests count a save's statements, so only the tests of that rule turn it on
    (tests/tournaments/api/test_replanning.py)."""
    settings.DATABASE_REPLAN_SECONDS = 0


@pytest.fixture(autouse=True)
def _no_analysis_on_close(settings):
    """Closing a round computes its boards' double-dummy tables (on by default): in the
    tests, most of which close rounds, only the tests of that rule turn it on
    (tests/tournaments/services/test_analysis.py, test_background_analysis.py)."""
    settings.BOARD_ANALYSIS_ON_CLOSE = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """A cheap hasher: every ``UserFactory`` user has a password, and production's hasher
    takes about half a second a hash on the CI machine, on nearly every test. Passwords
    still check (login, token, lockout tests); only their storage is weaker."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """A request leaves its language active on the thread (``LocaleMiddleware``
    activates it and nothing deactivates it): each test starts in the site's language,
    so a test that renders without a request does not inherit the previous test's."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


#: A test that runs longer than this says in its docstring why it must be slow.
SLOW_SECONDS = 10.0
_SLOW_UNEXPLAINED: list[tuple[str, float]] = []
_SPENT: dict[str, float] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Tells, on each report, whether the test's docstring explains a slow run: under
    pytest-xdist the summary below is written by the controller, which has the reports
    (and their ``user_properties``) but not the tests' functions."""
    outcome = yield
    report = outcome.get_result()
    doc = getattr(getattr(item, "function", None), "__doc__", None) or ""
    report.user_properties.append(("says_slow", "slow" in doc.lower()))


def pytest_runtest_logreport(report):
    # Set-up counts: a fixture that starts processes is paid by the test that needs it.
    spent = _SPENT.get(report.nodeid, 0.0) + report.duration
    _SPENT[report.nodeid] = spent
    says_slow = dict(report.user_properties).get("says_slow")
    if report.when == "teardown" and spent > SLOW_SECONDS and not says_slow:
        _SLOW_UNEXPLAINED.append((report.nodeid, spent))


def pytest_terminal_summary(terminalreporter):
    """Names the tests over ``SLOW_SECONDS`` whose docstring does not say why they are
    slow (a warning: a loaded machine can push a quick test over, so it does not fail)."""
    if _SLOW_UNEXPLAINED:
        terminalreporter.section(f"tests over {SLOW_SECONDS:.0f} s that do not say why")
        for nodeid, seconds in _SLOW_UNEXPLAINED:
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")
