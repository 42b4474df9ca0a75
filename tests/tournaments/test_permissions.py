"""tournaments.permissions: the capability table (docs/decisions.md 16, 17, 20), roles
read once per user object and championship, and the refusal services raise."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments import permissions, services
from tournaments.errors import NotAllowedError
from tournaments.models import Membership
from tournaments.permissions import (
    CAPABILITY_ROLES,
    LABELS,
    Capability,
    allows,
    capabilities_of,
    has,
    require,
    roles_of,
)

ORG, HEAD, REF, DOOR = "organiser", "head_referee", "referee", "check_in"

#: The whole table as the rules say it, written out: a changed row must change here too.
EXPECTED = {
    Capability.EDIT_RULES: {ORG},
    Capability.GRANT_ROLE: {ORG},
    Capability.REGISTER_PAIRS: {ORG},
    Capability.REMOVE_PAIR: {ORG},
    Capability.WITHDRAW_PAIR: {ORG},
    Capability.SET_UP_ROUNDS: {ORG},
    Capability.DRAW: {ORG},
    Capability.SEAT_BY_HAND: {ORG},
    Capability.GENERATE_BOARDS: {ORG},
    Capability.FINISH: {ORG},
    Capability.PUBLISH_SECRET: {ORG},
    Capability.DELETE_CHAMPIONSHIP: {ORG},
    Capability.CLOSE_ROUND_WITH_MISSING: {ORG},
    Capability.MANAGE_PRINT_JOBS: {ORG},
    Capability.MANAGE_TABLE_ENTRY: {ORG},
    Capability.MANAGE_SIGNUP: {ORG},
    Capability.CHECK_IN: {ORG, DOOR},
    Capability.ENTER_RESULT: {ORG, HEAD, REF},
    Capability.CHANGE_CLOSED_ROUND: {ORG, HEAD},
    Capability.ADJUST_SCORE: {ORG, HEAD},
    Capability.DELETE_RESULT: {ORG, HEAD},
    Capability.CLOSE_ROUND: {ORG, HEAD},
    Capability.REOPEN_ROUND: {ORG, HEAD},
    Capability.SEE_HIDDEN_BOARDS: {ORG, HEAD},
    Capability.PRINT_BOARD_SHEETS: {ORG, HEAD},
    Capability.SEE_ALL_PRINT_JOBS: {ORG, HEAD},
    Capability.VIEW_AUDIT_LOG: {ORG, HEAD},
}


def test_the_table_gives_each_capability_the_roles_of_the_rules() -> None:
    assert {cap: set(roles) for cap, roles in CAPABILITY_ROLES.items()} == EXPECTED
    assert set(CAPABILITY_ROLES) == set(Capability) == set(LABELS)


def test_the_organiser_may_do_everything_a_referee_may() -> None:
    assert capabilities_of({REF}) <= capabilities_of({HEAD}) <= capabilities_of({ORG})
    assert capabilities_of({ORG}) == frozenset(Capability)


def test_a_plain_referee_only_enters_results_in_open_rounds() -> None:
    assert capabilities_of({REF}) == {Capability.ENTER_RESULT}
    assert not allows({REF}, Capability.CHANGE_CLOSED_ROUND)
    assert not allows({REF}, Capability.SEE_HIDDEN_BOARDS)


def test_a_door_helper_only_checks_pairs_in() -> None:
    assert capabilities_of({DOOR}) == {Capability.CHECK_IN}
    assert not allows({DOOR}, Capability.MANAGE_SIGNUP)
    assert not allows({REF}, Capability.CHECK_IN) and not allows({HEAD}, Capability.CHECK_IN)


def test_only_the_organiser_closes_a_round_with_results_missing() -> None:
    assert allows({HEAD}, Capability.CLOSE_ROUND)
    assert not allows({HEAD}, Capability.CLOSE_ROUND_WITH_MISSING)
    assert allows({ORG}, Capability.CLOSE_ROUND_WITH_MISSING)


def test_an_unknown_capability_is_refused() -> None:
    with pytest.raises(ValueError):
        permissions.roles_for("fly")


@pytest.mark.django_db
def test_roles_are_per_championship_and_a_superuser_holds_all(small: Small) -> None:
    other = services.championship_create(name="Altre", date=small.championship.date,
                                         acting_user=None)
    assert roles_of(small.referee, small.championship) == {REF}
    assert roles_of(small.referee, other) == frozenset()
    assert not has(small.referee, other, Capability.ENTER_RESULT)
    boss = UserFactory(username="super", is_superuser=True)
    assert roles_of(boss, other) == {ORG, HEAD, REF, DOOR}
    assert has(boss, other, Capability.DELETE_CHAMPIONSHIP)


@pytest.mark.django_db
def test_the_public_and_the_system(small: Small) -> None:
    from django.contrib.auth.models import AnonymousUser

    assert roles_of(AnonymousUser(), small.championship) == frozenset()
    assert roles_of(None, small.championship) == frozenset()
    assert not has(AnonymousUser(), small.championship, Capability.ENTER_RESULT)
    # user=None is the system (commands, import): it may do anything.
    assert has(None, small.championship, Capability.DELETE_CHAMPIONSHIP)
    require(None, small.championship, Capability.FINISH)


@pytest.mark.django_db
def test_roles_are_read_once_per_user_object(small: Small, django_assert_num_queries) -> None:
    user = small.referee
    with django_assert_num_queries(1):
        for _ in range(3):
            assert roles_of(user, small.championship) == {REF}
            assert has(user, small.championship, Capability.ENTER_RESULT)
            assert roles_of(user, small.championship.pk) == {REF}


@pytest.mark.django_db
def test_a_role_granted_or_removed_counts_at_once(small: Small) -> None:
    user = small.referee
    assert not has(user, small.championship, Capability.CLOSE_ROUND)  # remembered now
    services.membership_grant(championship=small.championship, user=user,
                              role=Membership.Role.HEAD_REFEREE, acting_user=None)
    assert has(user, small.championship, Capability.CLOSE_ROUND)
    Membership.objects.filter(user=user).delete()
    assert roles_of(user, small.championship) == frozenset()


@pytest.mark.django_db
def test_require_raises_the_services_not_allowed_error_naming_action_and_championship(
    small: Small,
) -> None:
    with pytest.raises(services.NotAllowedError) as exc:
        require(small.referee, small.championship, Capability.DRAW)
    assert exc.value.__class__ is NotAllowedError
    assert isinstance(exc.value, services.TournamentError)
    assert str(exc.value) == (
        f"No teniu permís per a: sortejar taules (campionat {small.championship.name})."
    )
