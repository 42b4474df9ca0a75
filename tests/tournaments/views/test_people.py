"""The people page (/c/<slug>/organise/people/): roles given and taken from the
championship itself, audited; referee accounts with a one-time sign-in link or a QR code;
the sign-in link's page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import AuditEntry, Membership

pytestmark = pytest.mark.django_db


def _url(small: Small, name: str = "people", *args: object) -> str:
    return reverse(name, args=[small.championship.slug, *args])


def _roles(small: Small, username: str) -> set[str]:
    return set(Membership.objects.filter(
        championship=small.championship, user__username=username).values_list("role", flat=True))


def _audits(small: Small, action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(championship=small.championship, action=action))


def _add(client, small: Small, who: str, role: str = "referee"):
    return client.post(_url(small), {"add-who": who, "add-role": role, "add-submit": "1"},
                       follow=True)


def test_the_page_lists_roles_by_their_names_not_their_codes(client, web: Small) -> None:
    client.force_login(web.organiser)
    page = client.get(_url(web)).content.decode()
    assert "Organitzador" in page and "Àrbitre" in page
    assert ">organiser<" not in page and ">referee<" not in page
    client.post(reverse("set_language"), {"language": "en"})
    assert "Organiser" in client.get(_url(web)).content.decode()


def test_the_organiser_adds_a_referee_by_user_name_and_it_is_audited(client, web: Small) -> None:
    UserFactory(username="marta")
    client.force_login(web.organiser)
    response = _add(client, web, "MARTA")
    assert response.status_code == 200
    assert _roles(web, "marta") == {"referee"}
    (row,) = _audits(web, AuditEntry.Action.ROLE_GRANT.value)[-1:]
    assert row.after == {"user": "marta", "role": "referee"}
    assert row.acting_user_id == web.organiser.pk


def test_the_organiser_adds_a_head_referee_by_e_mail(client, web: Small) -> None:
    UserFactory(username="jordi", email="jordi@example.org")
    client.force_login(web.organiser)
    _add(client, web, "Jordi@Example.org", "head_referee")
    assert _roles(web, "jordi") == {"head_referee"}


def test_an_unknown_user_gets_a_clear_error_next_to_the_field(client, web: Small) -> None:
    client.force_login(web.organiser)
    grants = len(_audits(web, AuditEntry.Action.ROLE_GRANT.value))
    response = _add(client, web, "ningu@example.org")
    assert response.status_code == 200
    errors = response.context["add_form"].errors["who"]
    assert "ningu@example.org" in errors[0] and "No hi ha cap compte" in errors[0]
    assert len(_audits(web, AuditEntry.Action.ROLE_GRANT.value)) == grants


def test_a_role_already_held_is_said_so(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = _add(client, web, web.referee.username)
    assert "ja té aquest rol" in response.context["add_form"].errors["who"][0]


def test_the_organiser_removes_a_referee_and_it_is_audited(client, web: Small) -> None:
    client.force_login(web.organiser)
    membership = Membership.objects.get(championship=web.championship, user=web.referee)
    response = client.post(_url(web, "people_remove", membership.pk), follow=True)
    assert response.status_code == 200
    assert _roles(web, web.referee.username) == set()
    row = _audits(web, AuditEntry.Action.ROLE_REVOKE.value)[-1]
    assert row.before == {"user": web.referee.username, "role": "referee"}
    assert row.acting_user_id == web.organiser.pk
    assert "ja no és" in response.content.decode()


def test_the_last_organiser_is_refused_with_a_message(client, web: Small) -> None:
    client.force_login(web.organiser)
    membership = Membership.objects.get(championship=web.championship, user=web.organiser)
    (row,) = [p for p in client.get(_url(web)).context["people"] if p.role == "organiser"]
    assert row.why_kept.startswith("És l'últim organitzador")
    response = client.post(_url(web, "people_remove", membership.pk), follow=True)
    assert response.status_code == 200
    assert "No es pot treure l&#x27;últim organitzador" in response.content.decode()
    assert _roles(web, web.organiser.username) == {"organiser"}
    assert not _audits(web, AuditEntry.Action.ROLE_REVOKE.value)


def test_a_referee_or_a_stranger_gets_403(client, web: Small) -> None:
    stranger = UserFactory(username="estrany")
    membership = Membership.objects.get(championship=web.championship, user=web.organiser)
    for user in (web.referee, stranger):
        client.force_login(user)
        assert client.get(_url(web)).status_code == 403
        assert client.post(_url(web, "people_remove", membership.pk)).status_code == 403
        assert client.get(_url(web, "people_qr", membership.pk)).status_code == 403
    assert _roles(web, web.organiser.username) == {"organiser"}


def _create(client, small: Small, username: str = "arbitre-nou", email: str = "",
            role: str = "referee"):
    return client.post(_url(small), {"new-username": username, "new-email": email,
                                     "new-role": role, "new-submit": "1"})


def test_a_check_in_helper_gets_an_account_and_lands_on_the_check_in(client,
                                                                     web: Small) -> None:
    client.force_login(web.organiser)
    response = _create(client, web, username="porta-1", role="check_in")
    assert response.status_code == 200
    assert _roles(web, "porta-1") == {"check_in"}
    client.logout()
    landed = client.post(response.context["link"].removeprefix("http://testserver"))
    assert landed["Location"] == reverse("check_in", args=[web.championship.slug])
    assert client.get(landed["Location"]).status_code == 200


def test_a_new_referee_account_signs_in_once_by_its_link(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = _create(client, web, email="nou@example.org")
    assert response.status_code == 200
    link = response.context["link"]
    assert link.startswith("http://testserver/c/")
    user = get_user_model().objects.get(username="arbitre-nou")
    assert not user.has_usable_password()
    assert _roles(web, "arbitre-nou") == {"referee"}
    grant = _audits(web, AuditEntry.Action.ROLE_GRANT.value)[-1]
    assert grant.after == {"user": "arbitre-nou", "role": "referee", "account_created": True}

    client.logout()
    path = link.removeprefix("http://testserver")
    assert "arbitre-nou" in client.get(path).content.decode()  # GET does not spend it
    landed = client.post(path)
    assert landed.status_code == 302
    assert landed["Location"] == reverse("referee_tables", args=[web.championship.slug])
    assert client.get(landed["Location"]).status_code == 200  # signed in as the referee

    client.logout()
    again = client.post(path)
    assert again.status_code == 400
    assert "ja no serveix" in again.content.decode()
    assert client.get(reverse("referee_tables", args=[web.championship.slug])).status_code == 302


def test_a_broken_link_gets_a_clear_page_not_a_500(client, web: Small) -> None:
    for uid, token in (("MQ", "abc-def"), ("!!", "x"), ("OTk5OTk5OTk5OTk5OTk5OTk5OTk5", "a-b")):
        response = client.get(reverse("sign_in", args=[web.championship.slug, uid, token]))
        assert response.status_code == 400
        assert "ja no serveix" in response.content.decode()


def test_a_taken_user_name_is_refused_next_to_the_field(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = _create(client, web, username=web.referee.username)
    assert "Ja hi ha un compte" in response.context["new_form"].errors["username"][0]


def test_no_sign_in_link_for_an_account_with_a_password(client, web: Small) -> None:
    client.force_login(web.organiser)
    membership = Membership.objects.get(championship=web.championship, user=web.referee)
    response = client.post(_url(web, "people_link", membership.pk), follow=True)
    assert "link" not in response.context or not response.context["link"]
    assert "Només es poden fer enllaços" in response.content.decode()
    with pytest.raises(services.AccountError):
        services.sign_in_token(user=web.organiser, acting_user=None)


def test_the_qr_code_is_a_pdf_holding_a_working_link(client, web: Small) -> None:
    client.force_login(web.organiser)
    _create(client, web)
    membership = Membership.objects.get(championship=web.championship,
                                        user__username="arbitre-nou")
    response = client.get(_url(web, "people_qr", membership.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    assert len(response.content) > 1000


def test_a_new_link_replaces_nothing_but_works(client, web: Small) -> None:
    client.force_login(web.organiser)
    _create(client, web)
    membership = Membership.objects.get(championship=web.championship,
                                        user__username="arbitre-nou")
    response = client.post(_url(web, "people_link", membership.pk))
    link = response.context["link"]
    assert re.search(r"/sign-in/[^/]+/[^/]+/$", link)
    client.logout()
    assert client.post(link.removeprefix("http://testserver")).status_code == 302


def test_a_user_name_django_refuses_is_said_next_to_the_field(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = _create(client, web, username="nom amb espais!")
    assert response.context["new_form"].errors["username"]
    assert not get_user_model().objects.filter(username="nom amb espais!").exists()


def test_no_sign_in_link_opens_an_organisers_account(web: Small) -> None:
    user = get_user_model().objects.create(username="sense-contrasenya")
    user.set_unusable_password()
    user.save()
    assert services.sign_in_refusal(user) is None
    services.membership_grant(championship=web.championship, user=user,
                              role=Membership.Role.ORGANISER, acting_user=None)
    assert services.sign_in_refusal(user) is not None


def _other_championship_organised_by(username: str):
    other = build_championship(pairs=4)
    organiser = UserFactory(username=username)
    organiser.save()
    services.membership_grant(championship=other, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    return other, organiser


def test_an_organiser_cannot_open_a_referee_account_of_another_championship(
    client, web: Small
) -> None:
    """Organiser B adds A's passwordless head referee to B by user name: a sign-in link
    made in B would let B's organiser act as head referee in A. Refused, with a message
    naming the account; no link is shown and none is printed."""
    client.force_login(web.organiser)
    _create(client, web, username="cap-arbitre")
    Membership.objects.filter(user__username="cap-arbitre").update(role="head_referee")
    other, organiser_b = _other_championship_organised_by("org-b")
    client.force_login(organiser_b)
    other_url = reverse("people", args=[other.slug])
    client.post(other_url, {"add-who": "cap-arbitre", "add-role": "referee", "add-submit": "1"})
    membership = Membership.objects.get(championship=other, user__username="cap-arbitre")
    response = client.post(reverse("people_link", args=[other.slug, membership.pk]),
                           follow=True)
    assert not response.context.get("link")
    page = response.content.decode()
    assert "cap-arbitre" in page and "un altre campionat" in page
    qr = client.get(reverse("people_qr", args=[other.slug, membership.pk]))
    assert qr.status_code == 302 and qr["Location"] == other_url
    with pytest.raises(services.AccountError):
        services.sign_in_token(user=membership.user, acting_user=organiser_b)
    # The organiser of both championships, or the system, still may.
    services.membership_grant(championship=web.championship, user=organiser_b,
                              role=Membership.Role.ORGANISER, acting_user=None)
    assert services.sign_in_token(user=membership.user, acting_user=organiser_b)
    assert services.sign_in_token(user=membership.user, acting_user=None)


def test_a_link_dies_when_the_accounts_roles_change(client, web: Small) -> None:
    """A link made while the account refereed in A only does not open the role it was
    given in B afterwards."""
    client.force_login(web.organiser)
    link = _create(client, web, username="arbitre-a").context["link"]
    other, organiser_b = _other_championship_organised_by("org-b2")
    user = get_user_model().objects.get(username="arbitre-a")
    services.membership_grant(championship=other, user=user,
                              role=Membership.Role.HEAD_REFEREE, acting_user=organiser_b)
    client.logout()
    response = client.post(link.removeprefix("http://testserver"))
    assert response.status_code == 400
    assert "ja no serveix" in response.content.decode()
    assert client.get(reverse("referee_tables", args=[other.slug])).status_code == 302


def test_a_link_under_another_championships_address_signs_nobody_in(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    link = _create(client, web, username="arbitre-c").context["link"]
    other, _organiser = _other_championship_organised_by("org-c")
    client.logout()
    moved = link.removeprefix("http://testserver").replace(
        f"/c/{web.championship.slug}/", f"/c/{other.slug}/")
    assert client.post(moved).status_code == 400
    # The link itself still works where it was made.
    assert client.post(link.removeprefix("http://testserver")).status_code == 302


def test_the_link_opened_by_someone_signed_in_says_who_it_signs_out(
    client, web: Small
) -> None:
    """The organiser trying a referee's link on their own phone is told, before the
    button, that entering signs them out and spends the link."""
    client.force_login(web.organiser)
    path = _create(client, web, username="arbitre-d").context["link"].removeprefix(
        "http://testserver")
    page = client.get(path).content.decode()
    assert 'id="sign-in-switch"' in page and web.organiser.username in page
    client.post(reverse("set_language"), {"language": "en"})
    assert "signed in as" in client.get(path).content.decode()
    client.logout()
    assert 'id="sign-in-switch"' not in client.get(path).content.decode()


def test_the_same_user_name_made_at_once_elsewhere_is_said_not_a_500(
    client, web: Small, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two organisers (two championships, two locks) make the same user name at the same
    moment: the one who loses the race gets the "taken" message and nothing is written."""
    model = get_user_model()
    unusable = model.set_unusable_password

    def other_organiser_first(user: object) -> None:
        model.objects.create(username="arbitre-x")  # committed by the other request
        unusable(user)

    monkeypatch.setattr(model, "set_unusable_password", other_organiser_first)
    client.force_login(web.organiser)
    grants = len(_audits(web, AuditEntry.Action.ROLE_GRANT.value))
    response = _create(client, web, username="arbitre-x")
    assert response.status_code == 200
    assert "Ja hi ha un compte" in response.context["new_form"].errors["username"][0]
    assert _roles(web, "arbitre-x") == set()
    assert len(_audits(web, AuditEntry.Action.ROLE_GRANT.value)) == grants


def test_an_organiser_who_takes_their_own_role_lands_on_the_championship_not_a_403(
    client, web: Small
) -> None:
    second = UserFactory(username="segona-org")
    services.membership_grant(championship=web.championship, user=second,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(web.organiser)
    own = Membership.objects.get(championship=web.championship, user=web.organiser,
                                 role=Membership.Role.ORGANISER)
    response = client.post(_url(web, "people_remove", own.pk), follow=True)
    assert response.redirect_chain[-1] == (
        reverse("championship", args=[web.championship.slug]), 302)
    assert response.status_code == 200
    assert "ja no és" in response.content.decode()
    assert _roles(web, web.organiser.username) == set()


def test_links_to_this_computer_are_flagged_and_site_url_gives_the_halls_address(
    client, web: Small, settings,
) -> None:
    client.force_login(web.organiser)
    local = client.get(_url(web), HTTP_HOST="127.0.0.1:8000").content.decode()
    assert 'id="unreachable-host"' in local and "127.0.0.1" in local
    assert 'id="unreachable-host"' not in client.get(
        _url(web), HTTP_HOST="testserver").content.decode()

    settings.SITE_URL = "http://192.168.1.20:8000"
    response = client.post(_url(web), {"new-username": "arbitre-sala", "new-email": "",
                                       "new-role": "referee", "new-submit": "1"},
                           HTTP_HOST="127.0.0.1:8000")
    assert response.context["link"].startswith("http://192.168.1.20:8000/c/")
    assert 'id="unreachable-host"' not in response.content.decode()


def test_a_double_tap_on_create_shows_the_link_not_user_name_taken(client, web: Small) -> None:
    """The second of two taps on "Crear el compte" is the page the organiser sees: it
    shows a sign-in link for the account the first tap made, not "Ja hi ha un compte"."""
    client.force_login(web.organiser)
    _create(client, web, username="arbitre-doble")
    response = _create(client, web, username="arbitre-doble")
    assert response.status_code == 200
    assert not response.context["new_form"].errors
    assert "/sign-in/" in response.context["link"]
    assert "ja s&#x27;havia creat" in response.content.decode()
    assert get_user_model().objects.filter(username="arbitre-doble").count() == 1
    grants = [a for a in _audits(web, AuditEntry.Action.ROLE_GRANT.value)
              if a.after["user"] == "arbitre-doble"]
    assert len(grants) == 1
    client.logout()
    assert client.post(response.context["link"].removeprefix("http://testserver")
                       ).status_code == 302
    # Another role, or an account made elsewhere, is still "taken".
    client.force_login(web.organiser)
    other = client.post(_url(web), {"new-username": "arbitre-doble", "new-email": "",
                                     "new-role": "head_referee", "new-submit": "1"})
    assert "Ja hi ha un compte" in other.context["new_form"].errors["username"][0]
