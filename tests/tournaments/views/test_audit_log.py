"""The championship's log page (/c/<slug>/log/): organiser and head referee only, newest
first, paginated, filtered by kind; who, when, what, before -> after, reason."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import record
from tournaments import services
from tournaments.models import AuditEntry, Membership
from tournaments.web.audit import AUDIT_PAGE_SIZE

pytestmark = pytest.mark.django_db


def _url(small: Small, **query: object) -> str:
    url = reverse("audit_log", args=[small.championship.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_organiser_sees_the_log_newest_first_with_who_what_and_before_after(
    client, web: Small
) -> None:
    first = services.result_record(
        seating=web.seatings[0], board=web.boards[0], trump="O", ns_points_taken=40,
        expected_version=None, acting_user=web.referee,
    ).result
    services.result_record(
        seating=web.seatings[0], board=web.boards[0], trump="O", ns_points_taken=50,
        expected_version=first.version, acting_user=web.organiser,
    )
    client.force_login(web.organiser)
    page = client.get(_url(web))
    assert page.status_code == 200
    rows = page.context["rows"]
    newest, previous = rows[0][0], rows[1][0]
    assert (newest.action, newest.acting_user) == ("result.update", web.organiser)
    assert (previous.action, previous.acting_user) == ("result.create", web.referee)
    # before -> after lists only what changed on a correction
    assert ("punts NS", "40", "50") in rows[0][2]
    assert ("versió", "1", "2") in rows[0][2]
    html = page.content.decode()
    assert "Resultat corregit" in html and "organitzador-prova" in html
    assert "40 → 50" in html
    # The build of the fixture (by the system) is in the log too, oldest last.
    assert rows[-1][0].acting_user is None
    assert "el sistema" in html


def test_the_head_referee_sees_the_log_and_the_link_on_the_championship_page(
    client, web: Small
) -> None:
    head = UserFactory(username="principal")
    head.save()
    services.membership_grant(championship=web.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=web.organiser)
    client.force_login(head)
    assert client.get(_url(web)).status_code == 200
    detail = client.get(reverse("championship", args=[web.championship.slug]))
    assert _url(web) in detail.content.decode()


def test_a_referee_gets_403_and_no_link(client, web: Small) -> None:
    client.force_login(web.referee)
    assert client.get(_url(web)).status_code == 403
    detail = client.get(reverse("championship", args=[web.championship.slug]))
    assert 'id="audit-log-link"' not in detail.content.decode()


def test_an_organiser_of_another_championship_gets_403(client, web: Small) -> None:
    other = UserFactory(username="altre-org")
    other.save()
    elsewhere = services.championship_create(name="Altre", date=web.championship.date,
                                             acting_user=None)
    services.membership_grant(championship=elsewhere, user=other,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(other)
    assert client.get(_url(web)).status_code == 403


def test_anonymous_is_sent_to_the_login_page(client, web: Small) -> None:
    response = client.get(_url(web))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_filter_shows_one_kind_of_action(client, web: Small) -> None:
    record(web.seatings[0], web.boards[0], 40)
    client.force_login(web.organiser)
    page = client.get(_url(web, kind="result"))
    actions = {entry.action for entry, _summary, _changes in page.context["rows"]}
    assert actions == {"result.create"}
    pairs = client.get(_url(web, kind="pair"))
    assert {e.action for e, _s, _c in pairs.context["rows"]} == {"pair.import"}
    # An unknown kind shows everything (never a 500).
    everything = client.get(_url(web, kind="<nope>"))
    assert everything.status_code == 200
    assert len(everything.context["rows"]) == AuditEntry.objects.filter(
        championship=web.championship).count()


def test_the_log_is_paginated_newest_first(client, web: Small) -> None:
    # The users in one insert, with no password to hash (each hash took half a second);
    # the grants through the service, so the log rows are the real ones.
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"arbitre{n}") for n in range(AUDIT_PAGE_SIZE + 5)])
    for user in users:
        services.membership_grant(
            championship=web.championship, user=user,
            role=Membership.Role.REFEREE, acting_user=web.organiser,
        )
    client.force_login(web.organiser)
    first = client.get(_url(web, kind="role"))
    assert first.context["page"].paginator.num_pages == 2
    assert len(first.context["rows"]) == AUDIT_PAGE_SIZE
    assert first.context["rows"][0][0].target.startswith(f"arbitre{AUDIT_PAGE_SIZE + 4}:")
    second = client.get(_url(web, kind="role", page=2))
    # The fixture's two grants (by the system) and the first five of this test.
    assert len(second.context["rows"]) == 7
    assert second.context["rows"][-1][0].acting_user is None
    # A page past the end shows the last one.
    assert client.get(_url(web, kind="role", page=99)).context["page"].number == 2


def test_the_log_page_reads_the_roles_once(client, web: Small, django_assert_num_queries
                                           ) -> None:
    record(web.seatings[0], web.boards[0], 40)
    client.force_login(web.organiser)
    url = _url(web)
    client.get(url)  # the session's own queries settle
    # session, user, championship, roles (once), count, page
    with django_assert_num_queries(6):
        client.get(url)


def test_a_results_place_is_shown_in_the_readers_language(client, web: Small) -> None:
    # Written while the interface speaks Catalan, read in English and Spanish.
    services.result_record(
        seating=web.seatings[0], board=web.boards[0], trump="O", ns_points_taken=40,
        expected_version=None, acting_user=web.referee,
    )
    entry = AuditEntry.objects.filter(action="result.create").latest("id")
    assert entry.target.startswith("ronda ")
    where = (entry.round_number, entry.table_number, entry.board_number)
    client.force_login(web.organiser)
    with translation.override("ca"):  # the requests' languages do not outlive the test
        english = client.get(_url(web), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        spanish = client.get(_url(web), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "round {}, table {}, board {}".format(*where) in english
    assert entry.target not in english
    assert "ronda {}, mesa {}, tablero {}".format(*where) in spanish


def test_roles_are_shown_by_their_name_in_the_readers_language(client, web: Small) -> None:
    head = UserFactory(username="cap-de-sala")
    head.save()
    services.membership_grant(championship=web.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=web.organiser)
    client.force_login(web.organiser)
    with translation.override("ca"):
        catalan = client.get(_url(web, kind="role"))
        english = client.get(_url(web, kind="role"), HTTP_ACCEPT_LANGUAGE="en")
    assert ("rol", "—", "Àrbitre principal") in catalan.context["rows"][0][2]
    assert "head_referee" not in catalan.content.decode()
    assert "Head referee" in english.content.decode()
    assert "head_referee" not in english.content.decode()


def test_each_entry_is_a_card_with_its_changes_below_it(client, web: Small) -> None:
    record(web.seatings[0], web.boards[0], 40)
    client.force_login(web.organiser)
    html = client.get(_url(web, kind="result")).content.decode()
    assert "<table" not in html
    card = html.split('<li class="panel log-entry log-result">', 1)[1].split("</li>\n", 1)[0]
    assert card.index('class="log-when"') < card.index('class="log-what"') < card.index(
        'class="log-changes"')
    assert "punts NS</strong>: — → 40" in card
    # Codes read as the interface names them: the trump, and the draw's movement.
    assert "trumfo</strong>: — → Oros" in card
    draw = client.get(_url(web, kind="round")).content.decode()
    assert "Sorteig a l&#x27;atzar" in draw or "Sorteig a l'atzar" in draw


def test_round_and_pair_entries_read_in_the_readers_language(client, web: Small) -> None:
    """The stored target is Catalan ("ronda 1", "parella 2"); the log renders it from the
    row's numbers at display time, without rewriting the row."""
    services.pair_withdraw(pair=web.championship.pairs.get(number=2), after_round=1,
                           reason="Malalt", acting_user=web.organiser)
    withdrawal = AuditEntry.objects.get(action="pair.withdraw")
    assert withdrawal.target == "parella 2"
    client.force_login(web.organiser)
    with translation.override("ca"):
        english = client.get(_url(web, kind="pair"), HTTP_ACCEPT_LANGUAGE="en")
        spanish = client.get(_url(web, kind="pair"), HTTP_ACCEPT_LANGUAGE="es")
    summaries = {e.action: s for e, s, _c in english.context["rows"]}
    assert summaries["pair.withdraw"] == "pair 2"
    assert "· parella 2" not in english.content.decode()
    assert {e.action: s for e, s, _c in spanish.context["rows"]}["pair.withdraw"] == "pareja 2"
    assert AuditEntry.objects.get(pk=withdrawal.pk).target == "parella 2"


def test_a_round_close_reads_round_n_in_english(client, web: Small) -> None:
    entry = AuditEntry.objects.create(
        championship=web.championship, action="round.close", target="ronda 3",
        round_number=3, before={"closed_at": None},
        after={"closed_at": "2026-12-02T16:11:20.182Z", "missing": []},
    )
    client.force_login(web.organiser)
    with translation.override("ca"):
        english = client.get(_url(web, kind="round"), HTTP_ACCEPT_LANGUAGE="en")
    row = next(r for r in english.context["rows"] if r[0].pk == entry.pk)
    assert row[1] == "round 3"
    html = english.content.decode()
    assert "Round closed</strong> <span class=\"muted\">· round 3</span>" in html
    # The stored UTC moment is shown in the championship's time (Madrid: UTC+1).
    assert ("closed", "—", "02/12/2026 17:11:20") in row[2]
    assert "2026-12-02T16:11:20" not in html


def test_the_published_moment_is_shown_as_the_logs_own_times(client, web: Small) -> None:
    services.championship_finish(championship=web.championship, acting_user=web.organiser)
    services.deal_secret_publish(championship=web.championship, acting_user=web.organiser)
    entry = AuditEntry.objects.get(action="championship.publish_secret")
    assert "T" in entry.after["published_at"]  # stored as ISO 8601
    client.force_login(web.organiser)
    page = client.get(_url(web, kind="championship"))
    row = next(r for r in page.context["rows"] if r[0].pk == entry.pk)
    published = next(after for label, _before, after in row[2] if label == "publicada")
    from django.utils import dateformat, timezone
    from django.utils.dateparse import parse_datetime
    moment = parse_datetime(entry.after["published_at"].replace("Z", "+00:00"))
    assert moment is not None
    assert published == dateformat.format(timezone.localtime(moment), "d/m/Y H:i:s")
    assert entry.after["published_at"] not in page.content.decode()


def test_counts_and_rules_in_the_log_are_plural_aware_and_labelled() -> None:
    from tournaments.web.audit import audit_summary
    one = AuditEntry(action="pair.import", target="1 parelles",
                     after={"pairs": [{"number": 1}]})
    setup = AuditEntry(action="round.setup", target="1 rondes de 12 taulers",
                       after={"rounds": 1, "boards_per_round": 12})
    rules = AuditEntry(action="championship.rules", target="scale_top",
                       after={"scale_top": 10})
    with translation.override("ca"):
        assert audit_summary(one) == "1 parella"
        assert audit_summary(setup) == "1 ronda de 12 taulers"
        assert "scale_top" not in audit_summary(rules)
    with translation.override("en"):
        assert audit_summary(setup) == "1 round of 12 boards"
