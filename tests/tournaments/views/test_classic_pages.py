"""The organiser's and the referee's pages of a classic championship: creating one with
the format, its rules, its rounds, the checklist, every page without a 500, and the
referee's game form (the final or the score sheet deal by deal, conflicts, double taps,
who may adjust)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import Championship, Game, Membership, Round, Seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn() -> Classic:
    """5 pairs, 3 rounds, round 1 drawn: tables 1 and 2, a bye."""
    c = make_classic()
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    return c


def _tables(c: Classic) -> list[Seating]:
    return list(Seating.objects.filter(round=c.rounds[0]).select_related("table", "round")
                .order_by("table__number"))


def _game_url(c: Classic, table: int = 1, round: int = 1) -> str:
    return reverse("game_entry", args=[c.championship.slug, round, table])


def _final(**overrides: Any) -> dict[str, Any]:
    data = {"mode": "final", "ns_points": "101", "ew_points": "64", "deals": "9",
            "ended_by": "target", "note": ""}
    data.update(overrides)
    return data


def _sheet(*lines: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    """The score sheet form: ``lines`` as ``h0-...``, ``h1-...``; 14 lines sent."""
    data: dict[str, Any] = {"mode": "sheet", "lines": "14", "ended_by": "", "note": ""}
    for k, line in enumerate(lines):
        data.update({f"h{k}-{name}": value for name, value in line.items()})
    data.update(overrides)
    return data


# ------------------------------------------------------------------------ organiser


def test_the_creation_page_offers_the_two_formats_with_a_sentence_each(client) -> None:
    user = UserFactory(username="creadora-classic")
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    client.force_login(user)
    page = client.get(reverse("championship_create")).content.decode()
    assert 'value="duplicate"' in page and 'value="classic"' in page
    assert "Predonats" in page and "Clàssic" in page
    assert "compta les partides guanyades" in page


def test_a_classic_championship_is_created_through_the_form(client) -> None:
    user = UserFactory(username="creador-classic")
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    client.force_login(user)
    # The duplicate rules sent with it (the page posts them hidden) are left out.
    response = client.post(reverse("championship_create"), {
        "name": "Clàssic de Vic", "date": "2026-12-05", "venue": "Vic",
        "format": "classic", "method": "matchpoints", "scale_bottom": "x",
    })
    championship = Championship.objects.get(name="Clàssic de Vic")
    assert response.status_code == 302
    assert response["Location"] == reverse("rules_edit", args=[championship.slug])
    assert championship.is_classic and championship.variant == "lliure"
    assert championship.method == "proportional"  # the default, not what was sent
    assert Membership.objects.filter(championship=championship, user=user,
                                     role="organiser").exists()


def test_the_rules_page_of_a_classic_championship_shows_its_own_rules(client) -> None:
    c = make_classic()
    client.force_login(c.organiser)
    page = client.get(reverse("rules_edit", args=[c.championship.slug])).content.decode()
    for name in ("game_target", "max_deals", "time_limit_minutes", "score_cap",
                 "level_game", "extra_deals", "tiebreak_1", "tiebreak_5", "bye_wins",
                 "contro_allowed", "recontro_allowed", "sant_vicenc", "variant"):
        assert f'name="{name}"' in page, name
    for name in ("method", "scale_bottom", "rounding", "infraction_score",
                 "missed_boards", "doubling", "carregar"):
        assert f'name="{name}"' not in page, name
    assert '<option value="51">' in page  # a suggested target


def _rules(**overrides: Any) -> dict[str, Any]:
    data = {"game_target": "51", "max_deals": "", "time_limit_minutes": "45",
            "score_cap": "", "level_game": "extra_deals", "extra_deals": "2",
            "tiebreak_1": "wins", "tiebreak_2": "head_to_head", "tiebreak_3": "buchholz",
            "tiebreak_4": "", "tiebreak_5": "", "bye_wins": "0.5", "bye_points_for": "0",
            "bye_points_against": "0", "contro_allowed": "on", "recontro_allowed": "on",
            "sant_vicenc": "on", "variant": "obligada", "movement": "swiss"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_the_classic_rules_are_saved_from_the_form(client) -> None:
    c = make_classic()
    client.force_login(c.organiser)
    response = client.post(reverse("rules_edit", args=[c.championship.slug]), _rules())
    assert response.status_code == 302
    c.championship.refresh_from_db()
    rules = c.championship.classic_rules()
    assert (rules.game_target, rules.max_deals, rules.time_limit_minutes,
            rules.score_cap) == (51, None, 45, None)
    assert [t.value for t in rules.tiebreaks] == ["wins", "head_to_head", "buchholz"]
    assert rules.bye_wins == 0.5 and rules.sant_vicenc and c.championship.variant == "obligada"


def test_a_bad_classic_rule_is_refused_in_catalan_at_its_field(client) -> None:
    c = make_classic()
    client.force_login(c.organiser)
    url = reverse("rules_edit", args=[c.championship.slug])
    response = client.post(url, _rules(game_target="101", score_cap="90"))
    assert response.status_code == 200
    assert "no poden ser menys que els punts per guanyar" in " ".join(
        response.context["form"].errors["score_cap"])
    response = client.post(url, _rules(tiebreak_2="wins"))
    assert "ja és més amunt" in " ".join(response.context["form"].errors["tiebreak_2"])
    response = client.post(url, _rules(recontro_allowed=None, contro_allowed=None))
    assert "recontro" in " ".join(response.context["form"].errors["sant_vicenc"])
    c.championship.refresh_from_db()
    assert c.championship.game_target == 101 and c.championship.score_cap == 121


def test_the_rounds_of_a_classic_championship_ask_no_boards(client) -> None:
    c = make_classic()
    client.force_login(c.organiser)
    url = reverse("rounds_setup", args=[c.championship.slug])
    assert 'name="boards_per_round"' not in client.get(url).content.decode()
    assert client.post(url, {"rounds": "5"}).status_code == 302
    assert Round.objects.filter(championship=c.championship).count() == 5
    assert not c.championship.boards.exists()


def test_the_checklist_of_a_classic_championship_counts_games(client, drawn: Classic) -> None:
    table = _tables(drawn)[0]
    services.game_record(seating=table, ns_points=101, ew_points=64, deals=9,
                         ended_by="target", expected_version=None, acting_user=None)
    client.force_login(drawn.organiser)
    checklist = client.get(
        reverse("championship", args=[drawn.championship.slug])).context["checklist"]
    keys = [s.key for s in checklist.steps]
    assert "boards" not in keys and "publish" not in keys
    assert checklist.step("rounds").state == "done"
    assert checklist.step("results", 1).detail == "1 de 2 partides"
    assert checklist.step("draw", 2).state == "todo"  # no boards to wait for
    assert checklist.step("print", 1).label == "Imprimir la ronda 1"


def test_a_classic_rounds_printing_comes_after_its_draw(client, drawn: Classic) -> None:
    """The round's documents need its draw: printing is a step of each round, the next
    one once the round is drawn, skipped once a game is in or done once asked for."""
    from tournaments.models import PrintJob

    client.force_login(drawn.organiser)
    url = reverse("championship", args=[drawn.championship.slug])

    def checklist() -> Any:
        return client.get(url).context["checklist"]

    assert checklist().step("rules").detail == (
        "Es poden canviar fins a la primera partida entrada.")
    keys = [(s.key, s.round) for s in checklist().steps]
    assert keys.index(("draw", 1)) < keys.index(("print", 1)) < keys.index(("results", 1))
    assert checklist().next.anchor == "step-print-1"
    assert checklist().step("print", 1).url.endswith("/rounds/1/seating/#print-round")
    assert checklist().step("print", 2).state == "blocked"
    services.game_record(seating=_tables(drawn)[0], ns_points=101, ew_points=64, deals=9,
                         ended_by="target", expected_version=None, acting_user=None)
    assert checklist().step("print", 1).state == "todo"
    assert checklist().next.anchor == "step-results-1"
    PrintJob.objects.create(championship=drawn.championship, kind="round-pack",
                            round_number=1)
    assert checklist().step("print", 1).state == "done"
    assert checklist().step("print", 2).state == "blocked"


def test_no_organiser_or_referee_page_fails_for_a_classic_championship(
        client, drawn: Classic) -> None:
    c = drawn
    slug = c.championship.slug
    head = UserFactory(username="principal-classic")
    services.membership_grant(championship=c.championship, user=head,
                              role="head_referee", acting_user=c.organiser)
    services.game_record(seating=_tables(c)[0], ns_points=101, ew_points=64, deals=9,
                         ended_by="target", expected_version=None, acting_user=None)
    pages = [
        ("championship", []), ("rules_edit", []), ("pairs_register", []),
        ("rounds_setup", []), ("round_draw", [2]), ("round_seating", [1]),
        ("round_close", [1]), ("championship_finish", []), ("people", []),
        ("audit_log", []), ("referee_tables", []), ("referee_table", [1, 1]),
        ("game_entry", [1, 1]), ("game_entry", [1, 2]), ("game_sheet", [1, 1]),
        ("print_jobs", []), ("standings", []),
    ]

    referee_pages = {"referee_tables", "referee_table", "game_entry", "game_sheet"}

    def walk() -> None:
        for user in (c.organiser, c.referee, head):
            client.force_login(user)
            for name, args in pages:
                if user != c.organiser and name not in referee_pages:
                    continue
                status = client.get(reverse(name, args=[slug, *args])).status_code
                assert status in (200, 302), (name, user, status)
        assert client.get(_game_url(c) + "?mode=sheet").status_code == 200
    walk()
    services.round_close(round=c.rounds[0], acting_user=c.organiser, allow_missing=True)
    walk()
    services.championship_finish(championship=c.championship, acting_user=c.organiser)
    walk()


# -------------------------------------------------------------------------- referee


def test_the_referees_tables_show_each_tables_pairs_and_game(client, drawn: Classic) -> None:
    first, second = _tables(drawn)
    services.game_record(seating=first, ns_points=101, ew_points=64, deals=9,
                         ended_by="target", expected_version=None, acting_user=None)
    client.force_login(drawn.referee)
    page = client.get(reverse("referee_tables", args=[drawn.championship.slug])
                      ).content.decode()
    assert "101 – 64" in page and "en joc" in page
    assert _game_url(drawn, 2) in page
    assert f"NS {second.ns_pair.number}" in page
    # A classic table's page is its game.
    response = client.get(reverse("referee_table", args=[drawn.championship.slug, 1, 1]))
    assert response["Location"] == _game_url(drawn, 1)


def test_a_final_is_saved_and_the_next_table_opens(client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    response = client.post(_game_url(drawn, 1), _final())
    assert response.status_code == 302 and response["Location"] == _game_url(drawn, 2)
    game = Game.objects.get(seating=_tables(drawn)[0])
    assert (game.ns_points, game.ew_points, game.deals, game.ended_by) == (
        101, 64, 9, "target")
    # The last table without a game: back to the round's tables.
    response = client.post(_game_url(drawn, 2), _final(ns_points="40", ew_points="101"))
    assert response["Location"].startswith(
        reverse("referee_tables", args=[drawn.championship.slug]))


def test_a_wrong_final_shows_each_problem_at_its_field(client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    response = client.post(_game_url(drawn), _final(ns_points="90"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "101" in " ".join(errors["ns_points"])
    response = client.post(_game_url(drawn), _final(deals="", ns_points="abc"))
    errors = response.context["form"].errors
    assert "ns_points" in errors
    assert not Game.objects.exists()


def test_a_double_tap_saves_once(client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    client.post(_game_url(drawn), _final())
    response = client.post(_game_url(drawn), _final(), follow=True)
    assert "ja estava desada" in response.content.decode()
    assert Game.objects.get().version == 1


def test_a_conflict_shows_the_stored_game_and_keeps_what_was_typed(
        client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    client.post(_game_url(drawn), _final())
    # Another referee corrects it meanwhile (version 2).
    services.game_record(seating=_tables(drawn)[0], ns_points=101, ew_points=80, deals=10,
                         ended_by="target", expected_version=1, acting_user=None)
    response = client.post(_game_url(drawn), _final(ew_points="70", version="1"))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="conflict"' in page and "<strong>80</strong>" in page
    form = response.context["form"]
    assert form["ew_points"].value() == "70" and form["version"].value() == "2"
    # Saving again is a deliberate correction.
    response = client.post(_game_url(drawn), _final(ew_points="70", version="2"))
    assert response.status_code == 302
    assert Game.objects.get().ew_points == 70


def test_a_sheet_entered_deal_by_deal_scores_the_botifarra_with_contro_36(
        client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    botifarra_contro = {"chooser": "EW", "trump": "botifarra", "contro": "on",
                        "points": "45", "revoke": ""}
    # The running totals, as the page asks them while the referee types.
    sheet_url = reverse("game_sheet", args=[drawn.championship.slug, 1, 1])
    fragment = client.get(sheet_url, _sheet(botifarra_contro)).content.decode()
    assert "EO 36" in fragment and 'hx-swap-oob="true"' in fragment
    assert "En joc després d'1 mà" in fragment
    # A second deal: a botifarra with recontro won 45 to 27 (9 x 8) ends it at 108.
    recontro = {**botifarra_contro, "recontro": "on"}
    fragment = client.get(sheet_url, _sheet(botifarra_contro, recontro)).content.decode()
    assert "Partida acabada a la mà 2" in fragment and "<strong>108</strong>" in fragment
    response = client.post(_game_url(drawn), _sheet(botifarra_contro, recontro))
    assert response.status_code == 302, response.context["form"].errors
    # The next table opens on its score sheet too.
    assert response["Location"] == _game_url(drawn, 2) + "?mode=sheet"
    game = Game.objects.get()
    assert (game.ns_points, game.ew_points, game.deals, game.ended_by) == (
        0, 108, 2, "target")
    assert game.hands[0]["contro"] and game.hands[0]["points"] == 45
    # Opened again, the game shows its sheet with each line's totals.
    page = client.get(_game_url(drawn)).content.decode()
    assert 'name="h1-recontro"' in page and "(total 0 – 108)" in page


def test_a_sheets_problems_show_at_their_line(client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    response = client.post(_game_url(drawn), _sheet(
        {"chooser": "NS", "trump": "O", "points": "50"},
        {},  # a blank line is left out
        {"chooser": "EW", "trump": "C", "points": "80"},
    ))
    assert response.status_code == 200
    lines = response.context["form"].line_forms
    assert "0 a 72" in " ".join(lines[2].errors["points"])
    # A deal after the game's end (108 at deal 2) is refused at its line.
    botifarra = {"chooser": "EW", "trump": "botifarra", "contro": "on", "points": "45"}
    response = client.post(_game_url(drawn), _sheet(
        botifarra, {**botifarra, "recontro": "on"}, {"chooser": "NS", "trump": "O",
                                                     "points": "40"}))
    lines = response.context["form"].line_forms
    assert "sobra" in " ".join(lines[2].non_field_errors())
    assert not lines[0].errors and not lines[1].errors
    # One more line on request, what was typed kept, nothing saved.
    response = client.post(_game_url(drawn), _sheet(botifarra, add_line="1"))
    form = response.context["form"]
    assert len(form.line_forms) == 15 and form.line_forms[0]["points"].value() == "45"
    assert not Game.objects.exists()
    # Not finished and no time called: said at the end's choice.
    response = client.post(_game_url(drawn), _sheet(
        {"chooser": "NS", "trump": "O", "points": "50"}))
    assert "temps" in " ".join(response.context["form"].errors["ended_by"])
    # Time called: saved as the sheet says.
    response = client.post(_game_url(drawn), _sheet(
        {"chooser": "NS", "trump": "O", "points": "50"}, ended_by="time"))
    assert response.status_code == 302
    assert Game.objects.get().ended_by == "time"


def test_a_disallowed_double_is_not_offered_on_the_sheet(client) -> None:
    c = make_classic(recontro_allowed=False)
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    client.force_login(c.referee)
    page = client.get(_game_url(c) + "?mode=sheet").content.decode()
    assert 'name="h0-contro"' in page
    assert 'name="h0-recontro"' not in page and 'name="h0-sant_vicenc"' not in page


def test_only_the_head_referee_adjusts_a_game(client, drawn: Classic) -> None:
    client.force_login(drawn.referee)
    page = client.get(_game_url(drawn)).content.decode()
    assert 'value="adjusted"' not in page
    response = client.post(_game_url(drawn), _final(ended_by="adjusted"))
    assert "principal" in " ".join(response.context["form"].errors["ended_by"])
    assert not Game.objects.exists()
    head = UserFactory(username="principal-ajusta")
    services.membership_grant(championship=drawn.championship, user=head,
                              role="head_referee", acting_user=drawn.organiser)
    client.force_login(head)
    assert 'value="adjusted"' in client.get(_game_url(drawn)).content.decode()
    response = client.post(_game_url(drawn), _final(ns_points="0", ew_points="50",
                                                    deals="3", ended_by="adjusted"))
    assert response.status_code == 302
    assert Game.objects.get().ended_by == "adjusted"


def test_a_referee_of_another_championship_gets_403(client, drawn: Classic) -> None:
    stranger = UserFactory(username="arbitre-dun-altre")
    services.membership_grant(
        championship=services.championship_create(
            name="Un altre", date=drawn.championship.date, acting_user=None),
        user=stranger, role="referee", acting_user=None)
    client.force_login(stranger)
    assert client.get(_game_url(drawn)).status_code == 403
    assert client.post(_game_url(drawn), _final()).status_code == 403
    sheet_url = reverse("game_sheet", args=[drawn.championship.slug, 1, 1])
    assert client.get(sheet_url).status_code == 403
    assert not Game.objects.exists()


def test_closing_a_classic_round_with_games_missing_says_games(client, drawn: Classic) -> None:
    client.force_login(drawn.organiser)
    page = client.get(reverse("round_close", args=[drawn.championship.slug, 1])
                      ).content.decode()
    assert "Tancar-la encara que hi faltin partides" in page and "resultats</label>" not in page


def test_the_championship_page_says_a_classic_ranking_order_and_draw(client) -> None:
    c = make_classic()
    page = client.get(reverse("championship", args=[c.championship.slug])).content.decode()
    assert 'id="classic-ranking-order">Ordenat per partides guanyades' in page
    assert "Moviment: Sistema suís" in page


def test_the_log_names_a_games_fields_and_how_it_ended(client, drawn: Classic) -> None:
    client.force_login(drawn.organiser)
    client.post(_game_url(drawn), _sheet(
        {"chooser": "NS", "trump": "botifarra", "contro": "on", "points": "60"},
        {"chooser": "NS", "trump": "O", "points": "50"},
    ))
    assert Game.objects.get().ns_points == 110
    page = client.get(reverse("audit_log", args=[drawn.championship.slug])).content.decode()
    assert "punts EO" in page and "mans jugades" in page and "com s&#x27;ha acabat" in page
    assert "Punts assolits" in page and "2 mans" in page
    assert "ew_points" not in page and '"chooser"' not in page


def test_a_finished_championships_done_steps_give_no_reason(client, drawn: Classic) -> None:
    services.championship_finish(championship=drawn.championship, acting_user=drawn.organiser)
    client.force_login(drawn.organiser)
    page = client.get(reverse("championship", args=[drawn.championship.slug])).content.decode()
    done = page.split('id="step-pairs"')[1].split("</li>")[0]
    assert 'data-state="done"' in done and "s&#x27;ha acabat" not in done
