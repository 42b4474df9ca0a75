"""Taking a role away (``services.membership_revoke``): by an organiser of that
championship or the system, audited, and never the championship's last organiser."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import AuditEntry, Membership
from tournaments.permissions import roles_of

pytestmark = pytest.mark.django_db


def test_an_organiser_takes_a_referees_role_away_and_the_log_says_so(small: Small) -> None:
    membership = Membership.objects.get(championship=small.championship, user=small.referee)
    services.membership_revoke(membership=membership, acting_user=small.organiser)
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert roles_of(small.referee, small.championship) == frozenset()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ROLE_REVOKE)
    assert entry.acting_user == small.organiser
    assert entry.before == {"user": "arbitre-prova", "role": "referee"}
    # Gone already: nothing more to write.
    services.membership_revoke(membership=membership, acting_user=small.organiser)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ROLE_REVOKE).count() == 1


def test_a_referee_may_not_take_roles_away(small: Small) -> None:
    membership = Membership.objects.get(championship=small.championship,
                                        user=small.organiser)
    with pytest.raises(services.NotAllowedError):
        services.membership_revoke(membership=membership, acting_user=small.referee)
    assert Membership.objects.filter(pk=membership.pk).exists()


def test_the_last_organiser_keeps_the_role_and_a_second_one_may_go(small: Small) -> None:
    first = Membership.objects.get(championship=small.championship, user=small.organiser)
    assert services.membership_revoke_refusal(first) is not None
    with pytest.raises(services.ChampionshipStateError, match="últim organitzador"):
        services.membership_revoke(membership=first, acting_user=None)
    second = services.membership_grant(
        championship=small.championship, user=UserFactory(username="org-2"),
        role=Membership.Role.ORGANISER, acting_user=small.organiser,
    )
    assert services.membership_revoke_refusal(first) is None
    services.membership_revoke(membership=first, acting_user=second.user)
    assert services.membership_revoke_refusal(second) is not None
