"""Referee pages: pick a table, see the boards with their dealer, enter and correct a
result (audited), refusals next to the field, conflicts between two referees."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import entry_url, form_data, record
from tournaments.models import AuditEntry, Membership, Result

pytestmark = pytest.mark.django_db


def test_referee_picks_a_table_of_the_current_round(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.get(reverse("referee_tables", args=[web.championship.slug]))
    assert response.status_code == 200
    assert response.context["round"].number == 1
    assert [s.seating.table.number for s in response.context["sheets"]] == [1, 2]


def test_table_page_lists_the_round_boards_with_their_dealer(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.get(
        reverse("referee_table", args=[web.championship.slug, 1, web.seatings[0].table.number])
    )
    slots = response.context["sheet"].boards
    # Boards 1 and 2: dealers N and W (docs/rules.md); W shows as O in Catalan.
    assert [(s.board.number, s.dealer.value) for s in slots] == [(1, "N"), (2, "W")]
    page = response.content.decode()
    assert "Reparteix: N" in page and "Reparteix: O" in page


def test_saving_opens_the_next_board_with_its_points_focused_and_says_the_score(
    client, web: Small
) -> None:
    client.force_login(web.referee)
    seating, board = web.seatings[0], web.boards[0]
    url = entry_url(web, seating, board)
    response = client.post(url, form_data(ns_points_taken="44", contro="on"), follow=True)
    result = Result.objects.get(seating=seating, board=board)
    assert (result.trump, result.ns_points_taken, result.contro, result.version) == (
        "O", 44, True, 1
    )
    assert result.entered_by == web.referee
    # On to board 2 of the same table, which has no result yet, its points field focused.
    assert response.redirect_chain == [(entry_url(web, seating, web.boards[1]), 302)]
    assert response.context["board"] == web.boards[1] and response.context["current"] is None
    page = response.content.decode()
    assert re.search(r'<input[^>]*name="ns_points_taken"[^>]*autofocus', page), page
    # Dealer N (NS chose oros), EW called contro: NS +8, EW -8 x 2 = -16, said on arrival.
    assert "Tauler 1 desat: NS +8 · EO -16." in page
    # A board that has its result opens without the focus (the referee reads it first).
    again = client.get(url).content.decode()
    assert not re.search(r'<input[^>]*name="ns_points_taken"[^>]*autofocus', again)


def test_saving_the_tables_last_empty_board_goes_back_to_the_tables(
    client, web: Small
) -> None:
    seating = web.seatings[0]
    record(seating, web.boards[1], 40)  # board 2 already in
    client.force_login(web.referee)
    response = client.post(entry_url(web, seating, web.boards[0]), form_data(), follow=True)
    assert response.redirect_chain == [
        (reverse("referee_tables", args=[web.championship.slug]) + "?round=1", 302)]
    assert "Tauler 1 desat: NS +4 · EO -4." in response.content.decode()
    # The other table's boards are not this table's: they do not keep it open.
    assert not Result.objects.filter(seating=web.seatings[1]).exists()


def test_saving_goes_back_to_a_board_skipped_before(client, web: Small) -> None:
    seating = web.seatings[0]
    client.force_login(web.referee)
    response = client.post(entry_url(web, seating, web.boards[1]), form_data())
    assert response.url == entry_url(web, seating, web.boards[0])


def test_correcting_a_result_also_moves_on_to_the_next_empty_board(client, web: Small) -> None:
    seating = web.seatings[0]
    record(seating, web.boards[0], 40)
    client.force_login(web.referee)
    response = client.post(entry_url(web, seating, web.boards[0]),
                           form_data(ns_points_taken="41", version="1"), follow=True)
    assert response.redirect_chain[-1][0] == entry_url(web, seating, web.boards[1])
    assert "Tauler 1 desat: NS +5 · EO -5." in response.content.decode()


def _points_label(page: str) -> str:
    found = re.search(r'id="points-label"[^>]*>([^<]*)</label>', page)
    assert found, page
    return found.group(1)


def test_an_infraction_needs_no_points_and_its_points_do_not_count(client, web: Small) -> None:
    client.force_login(web.referee)
    seating, board = web.seatings[0], web.boards[0]
    url = entry_url(web, seating, board)
    plain = client.get(url).content.decode()
    assert _points_label(plain) == "Punts NS"
    assert re.search(r'id="points-infraction-help"[^>]*hidden', plain)
    # Without an infraction the points stay required.
    refused = client.post(url, form_data(ns_points_taken=""))
    assert refused.context["form"].errors["ns_points_taken"] == [
        "Cal saber els punts que ha fet NS (0 a 72)."]
    # Chosen without JS, the server says it the same way the script does.
    assert _points_label(refused.content.decode()) == "Punts NS"
    shown = client.post(url, form_data(ns_points_taken="", trump="", infraction="NS"))
    assert _points_label(shown.content.decode()) == "Punts NS (opcionals: no compten)"
    assert not re.search(r'id="points-infraction-help"[^>]*hidden', shown.content.decode())
    assert "la parella infractora rep 0 punts" in shown.content.decode()
    assert "ns_points_taken" not in shown.context["form"].errors  # only the trump
    response = client.post(url, form_data(ns_points_taken="", infraction="NS"), follow=True)
    result = Result.objects.get(seating=seating, board=board)
    assert (result.infraction, result.ns_points_taken, result.trump) == ("NS", None, "O")
    assert "Tauler 1 desat." in response.content.decode()
    # The table's sheet shows it without a "None".
    sheet = client.get(reverse("referee_table", args=[web.championship.slug, 1, 1]))
    assert "None" not in sheet.content.decode()
    assert "Infracció NS" in sheet.content.decode()


def test_saving_a_result_updates_the_public_standings(client, web: Small) -> None:
    standings = reverse("standings", args=[web.championship.slug])
    assert client.get(standings).context["standings"].progress.results_in == 0
    client.force_login(web.referee)
    client.post(entry_url(web, web.seatings[0], web.boards[0]), form_data())
    client.logout()
    view = client.get(standings).context["standings"]
    assert view.progress.results_in == 1
    assert view.rows == ()  # the board stays hidden (and out of the totals) until table 2
    record(web.seatings[1], web.boards[0], 30)
    view = client.get(standings).context["standings"]
    assert {row.number for row in view.rows} == {
        s.ns_pair.number for s in web.seatings} | {s.ew_pair.number for s in web.seatings}


def test_points_out_of_range_are_refused_next_to_the_field(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]), form_data(ns_points_taken="73")
    )
    assert response.status_code == 200
    message = "Els punts de NS han de ser un enter de 0 a 72, no «73»."
    assert response.context["form"].errors["ns_points_taken"] == [message]
    assert message in response.content.decode()
    assert not Result.objects.exists()


def test_recontro_without_contro_is_refused_next_to_recontro(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]), form_data(recontro="on")
    )
    assert "recontro" in response.context["form"].errors
    assert not Result.objects.exists()


def test_sant_vicenc_on_botifarra_is_refused_by_default(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]),
        form_data(trump="botifarra", contro="on", recontro="on", sant_vicenc="on"),
    )
    assert "sant_vicenc" in response.context["form"].errors
    assert not Result.objects.exists()


def test_sant_vicenc_is_refused_when_the_rules_ban_it(client) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, sant_vicenc=False)
    referee = UserFactory(username="arbitre-sv")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    client.force_login(referee)
    url = reverse("result_entry", args=[championship.slug, 1, 1, 1])
    response = client.post(
        url, form_data(trump="O", contro="on", recontro="on", sant_vicenc="on")
    )
    # Refused next to the field, never stored without it.
    assert response.status_code == 200
    assert "Sant Vicenç" in response.context["form"].errors["sant_vicenc"][0]
    assert not Result.objects.exists()


def test_a_service_refusal_becomes_a_form_error_not_a_500(client, web: Small) -> None:
    """A delegated hand is fine; a closed round refuses a plain referee (service error)."""
    from tournaments import services

    for seating in web.seatings:
        for board in web.boards:
            record(seating, board, 36)
    services.round_close(round=web.round1, acting_user=None)
    client.force_login(web.referee)
    url = entry_url(web, web.seatings[0], web.boards[0])
    response = client.post(url, form_data(version="1"))
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert Result.objects.get(seating=web.seatings[0], board=web.boards[0]).version == 1


def test_correcting_a_result_bumps_the_version_and_is_audited(client, web: Small) -> None:
    seating, board = web.seatings[0], web.boards[0]
    record(seating, board, 40)
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    form = client.get(url).context["form"]
    assert form["version"].value() == 1
    response = client.post(url, form_data(ns_points_taken="50", version="1"))
    assert response.status_code == 302
    result = Result.objects.get(seating=seating, board=board)
    assert (result.ns_points_taken, result.version) == (50, 2)
    audit = AuditEntry.objects.filter(result=result).order_by("at", "id").last()
    assert audit.action == "result.update" and audit.acting_user == web.referee
    assert (audit.before["ns_points_taken"], audit.after["ns_points_taken"]) == (40, 50)


def test_two_referees_entering_the_same_result_the_second_gets_a_conflict(
    client, web: Small
) -> None:
    seating, board = web.seatings[0], web.boards[0]
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    assert client.get(url).context["form"]["version"].value() is None  # both load the form
    record(seating, board, 52, trump="C")  # the other referee saves first
    response = client.post(url, form_data(ns_points_taken="20"))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="conflict"' in page
    assert response.context["conflict"].ns_points_taken == 52
    assert "Copes" in page and "52" in page
    assert "un altre àrbitre" in " ".join(response.context["form"].non_field_errors())
    stored = Result.objects.get(seating=seating, board=board)
    assert (stored.ns_points_taken, stored.version) == (52, 1)
    # The form is re-based on the stored version: saving again is a deliberate correction.
    assert response.context["form"]["version"].value() == "1"
    again = client.post(url, form_data(ns_points_taken="20", version="1"))
    assert again.status_code == 302
    assert Result.objects.get(pk=stored.pk).ns_points_taken == 20


def test_the_history_names_every_value_of_each_version(client, web: Small) -> None:
    """A correction that only adds a contro must show in the history: each line says the
    trump, the doubles, NS's points and an infraction, as the conflict panel does."""
    seating, board = web.seatings[0], web.boards[0]
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    client.post(url, form_data(ns_points_taken="40"))
    client.post(url, form_data(ns_points_taken="40", contro="on", version="1"))
    client.post(url, form_data(ns_points_taken="40", contro="on", recontro="on",
                               infraction="EW", version="2"))
    page = client.get(url).content.decode()
    history = page.split("Historial", 1)[1].split("</ul>", 1)[0]
    lines = [re.sub(r"<[^>]+>", "", line).split(" · ", 3)[-1].strip()
             for line in history.split("<li>")[1:]]
    assert lines == [
        "Oros · Punts NS 40",
        "Oros · Contro · Punts NS 40",
        "Oros · Recontro · Punts NS 40 · Infracció EO",
    ], history


def test_the_same_referee_in_two_tabs_is_told_it_was_their_own_save(
    client, web: Small
) -> None:
    seating, board = web.seatings[0], web.boards[0]
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    client.get(url)  # two tabs open the blank form; the first saves
    client.post(url, form_data(ns_points_taken="52", trump="C"))
    response = client.post(url, form_data(ns_points_taken="20"))  # the second tab
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ja ho havíeu desat en una altra pestanya" in page
    assert "Ho vau desar vós (versió 1)" in page and "desar tu" not in page
    assert "Un altre àrbitre" not in page and "un altre àrbitre" not in page
    errors = " ".join(response.context["form"].non_field_errors())
    assert "ja ho havíeu desat en una altra pestanya (versió 1)" in errors
    # The values saved, as for another referee's save.
    assert 'id="conflict"' in page and "Copes" in page and "52" in page
    assert Result.objects.get(seating=seating, board=board).ns_points_taken == 52


def test_another_referees_save_after_mine_is_another_referees(client, web: Small) -> None:
    seating, board = web.seatings[0], web.boards[0]
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    client.post(url, form_data(ns_points_taken="52"))
    other = UserFactory(username="arbitre-dos")
    other.save()
    Membership.objects.create(championship=web.championship, user=other, role="referee")
    from tournaments import services

    stored = Result.objects.get(seating=seating, board=board)
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=30,
                           expected_version=1, acting_user=other)
    response = client.post(url, form_data(ns_points_taken="20", version=str(stored.version)))
    page = response.content.decode()
    assert "Un altre àrbitre ja ha desat aquest resultat" in page
    assert "altra pestanya" not in page
    assert "Desat per arbitre-dos" in page


def test_a_stale_correction_gets_a_conflict_and_loses_nothing(client, web: Small) -> None:
    seating, board = web.seatings[0], web.boards[0]
    result = record(seating, board, 40)
    record(seating, board, 45, expected_version=1)  # another referee corrected: version 2
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, seating, board), form_data(ns_points_taken="30", version="1")
    )
    assert response.status_code == 200
    assert response.context["conflict"].version == 2
    result.refresh_from_db()
    assert (result.ns_points_taken, result.version) == (45, 2)


def test_anonymous_is_sent_to_login_from_referee_pages(client, web: Small) -> None:
    url = entry_url(web, web.seatings[0], web.boards[0])
    for target in (url, reverse("referee_tables", args=[web.championship.slug])):
        response = client.get(target)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert client.post(url, form_data()).status_code == 302
    assert not Result.objects.exists()


def test_a_referee_of_another_championship_gets_403(client, web: Small) -> None:
    other = build_championship(pairs=4, rounds=1, drawn_rounds=0)
    stranger = UserFactory(username="arbitre-altre")
    stranger.save()
    Membership.objects.create(championship=other, user=stranger, role="referee")
    client.force_login(stranger)
    url = entry_url(web, web.seatings[0], web.boards[0])
    assert client.get(reverse("referee_tables", args=[web.championship.slug])).status_code == 403
    assert client.get(url).status_code == 403
    assert client.post(url, form_data()).status_code == 403
    assert not Result.objects.filter(seating__round__championship=web.championship).exists()


def test_a_user_with_no_role_gets_403(client, web: Small) -> None:
    nobody = UserFactory(username="ningu")
    nobody.save()
    client.force_login(nobody)
    assert client.get(reverse("referee_tables", args=[web.championship.slug])).status_code == 403


def test_a_board_of_another_round_is_404(client, web: Small) -> None:
    client.force_login(web.referee)
    url = reverse("result_entry", args=[web.championship.slug, 1, 1, 3])  # board 3: round 2
    assert client.get(url).status_code == 404


def test_a_missing_trump_is_refused_next_to_the_trump(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]), form_data(trump="", ns_points_taken="")
    )
    errors = response.context["form"].errors
    assert errors["trump"] == ["Cal el trumfo (o botifarra)."]
    assert "ns_points_taken" in errors
    assert not Result.objects.exists()


def test_the_organiser_can_set_an_adjusted_score_without_cards(client, web: Small) -> None:
    client.force_login(web.organiser)
    seating, board = web.seatings[0], web.boards[0]
    response = client.post(
        entry_url(web, seating, board),
        form_data(trump="", ns_points_taken="", adjusted_ns="average_plus",
                  adjusted_ew="average_minus"),
        follow=True,
    )
    result = Result.objects.get(seating=seating, board=board)
    assert (result.adjusted_ns, result.adjusted_ew, result.ns_points_taken) == (
        "average_plus", "average_minus", None
    )
    assert response.redirect_chain[-1][0] == entry_url(web, seating, web.boards[1])
    assert "Tauler 1 desat." in response.content.decode()  # no hand score to say
    page = client.get(entry_url(web, seating, board))
    assert page.context["score"] is None
    assert 'id="hand-score"' in page.content.decode()
    assert "Puntuació arbitral" in page.content.decode().split('id="hand-score"')[1][:200]


def test_an_adjusted_score_needs_both_lines(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]),
        form_data(trump="", ns_points_taken="", adjusted_ns="average"),
    )
    assert "adjusted_ew" in response.context["form"].errors
    assert not Result.objects.exists()


def test_a_plain_referee_cannot_adjust_a_score(client, web: Small) -> None:
    client.force_login(web.referee)
    url = entry_url(web, web.seatings[0], web.boards[0])
    assert "adjusted_ns" not in client.get(url).context["form"].fields
    response = client.post(
        url, form_data(trump="", ns_points_taken="", adjusted_ns="average",
                       adjusted_ew="average"),
    )
    assert "trump" in response.context["form"].errors
    assert not Result.objects.exists()


@pytest.mark.parametrize("raw", ["²", "abc"])
def test_a_malformed_round_on_the_referee_page_falls_back_to_the_current_round(
    client, web: Small, raw
) -> None:
    client.force_login(web.referee)
    response = client.get(reverse("referee_tables", args=[web.championship.slug]), {"round": raw})
    assert response.status_code == 200
    assert response.context["round"].number == 1


def test_a_round_the_championship_lacks_is_404_on_the_referee_page(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.get(reverse("referee_tables", args=[web.championship.slug]), {"round": "9"})
    assert response.status_code == 404


def _close_round_one(web: Small) -> None:
    from tournaments import services

    for seating in web.seatings:
        for board in web.boards:
            record(seating, board, 36)
    services.round_close(round=web.round1, acting_user=None)


def test_a_plain_referee_sees_a_closed_round_read_only(client, web: Small) -> None:
    _close_round_one(web)
    client.force_login(web.referee)
    table = client.get(reverse("referee_table", args=[web.championship.slug, 1, 1]))
    assert 'id="round-closed"' in table.content.decode()
    response = client.get(entry_url(web, web.seatings[0], web.boards[0]))
    page = response.content.decode()
    assert response.context["can_save"] is False
    assert 'id="round-closed"' in page and "Ronda tancada" in page
    assert "Corregir el resultat" not in page
    assert '<fieldset class="plain" disabled>' in page


@pytest.mark.parametrize("who", ["organiser", "head_referee"])
def test_the_head_referee_and_organiser_may_still_correct_a_closed_round(
    client, web: Small, who
) -> None:
    _close_round_one(web)
    if who == "organiser":
        user = web.organiser
    else:
        user = UserFactory(username="principal")
        user.save()
        Membership.objects.create(championship=web.championship, user=user, role=who)
    client.force_login(user)
    url = entry_url(web, web.seatings[0], web.boards[0])
    page = client.get(url).content.decode()
    assert "Ronda tancada" in page and "Corregir el resultat" in page
    assert client.post(url, form_data(ns_points_taken="50", version="1")).status_code == 302
    assert Result.objects.get(seating=web.seatings[0], board=web.boards[0]).ns_points_taken == 50


def test_an_open_round_shows_no_closed_notice(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.get(entry_url(web, web.seatings[0], web.boards[0]))
    assert response.context["can_save"] is True
    assert 'id="round-closed"' not in response.content.decode()


@pytest.mark.parametrize("version", ["abc", "0", "-3"])
def test_an_invalid_hidden_version_is_shown_as_a_message_and_nothing_is_saved(
    client, web: Small, version
) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]), form_data(version=version)
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="form-errors"' in page
    assert "versió del resultat que no és vàlida" in page
    assert not Result.objects.exists()


def test_the_head_referee_closes_a_round_from_the_referee_page(client, web: Small) -> None:
    close = reverse("round_close", args=[web.championship.slug, 1])
    client.force_login(web.referee)
    assert close not in client.get(
        reverse("referee_tables", args=[web.championship.slug])
    ).content.decode()
    head = UserFactory(username="cap-de-sala")
    head.save()
    Membership.objects.create(championship=web.championship, user=head, role="head_referee")
    client.force_login(head)
    page = client.get(reverse("referee_tables", args=[web.championship.slug])).content.decode()
    assert f'href="{close}"' in page


def test_a_missing_trump_with_points_is_said_once_on_the_page(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(
        entry_url(web, web.seatings[0], web.boards[0]), form_data(trump="", ns_points_taken="80")
    )
    page = response.content.decode()
    assert page.count("Cal el trumfo (o botifarra).") == 1, page
    assert not Result.objects.exists()
