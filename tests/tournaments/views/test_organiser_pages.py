"""Organiser pages: create a championship, register pairs (form and CSV), set rounds,
draw, generate boards, close a round, finish, publish the secret; and who may not."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import record
from tournaments.models import Championship, Membership, Pair, Round, Seating

pytestmark = pytest.mark.django_db


def _user(name: str):
    user = UserFactory(username=name)
    user.save()
    return user


def _creator(name: str):
    """A user allowed to create championships (``tournaments.add_championship``)."""
    user = _user(name)
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


@pytest.fixture
def undrawn(web: Small) -> Small:
    """``web`` before its first draw (round 1's tables removed): pairs still register."""
    Seating.objects.filter(round__championship=web.championship).delete()
    return web


def test_create_form_starts_with_the_spec_defaults(client) -> None:
    client.force_login(_creator("nou"))
    form = client.get(reverse("championship_create")).context["form"]
    assert form["variant"].value() == "obligada"
    assert form["doubling"].value() == "duplicate"
    assert form["method"].value() == "proportional"
    assert float(form["scale_bottom"].value()) == 1
    assert float(form["scale_top"].value()) == 2
    assert form["rounding"].value() == "none"
    # Blank: Sant Vicenç follows the doubling (not allowed under duplicate).
    assert form["sant_vicenc"].value() is None


def test_creating_a_championship_makes_the_creator_its_organiser(client) -> None:
    user = _creator("creadora")
    client.force_login(user)
    response = client.post(
        reverse("championship_create"),
        {"name": "Open de Vic", "slug": "open-vic", "date": "2026-12-05", "venue": "Vic",
         "variant": "obligada", "doubling": "duplicate", "method": "matchpoints",
         "scale_bottom": "0", "scale_top": "100", "rounding": "floor",
         "infraction_score": "0", "sant_vicenc": "True", "carregar_scope": "void_only"},
    )
    assert response.status_code == 302
    championship = Championship.objects.get(slug="open-vic")
    assert championship.method == "matchpoints" and championship.rounding == "floor"
    assert championship.sant_vicenc  # allowed by the organiser although duplicate
    assert Membership.objects.filter(
        championship=championship, user=user, role=Membership.Role.ORGANISER
    ).exists()


def test_a_taken_slug_is_refused_next_to_the_slug_field(client, web: Small) -> None:
    client.force_login(_creator("altra"))
    response = client.post(
        reverse("championship_create"),
        {"name": "Un altre", "slug": web.championship.slug, "date": "2026-12-05",
         "variant": "obligada", "doubling": "duplicate", "method": "proportional",
         "scale_bottom": "1", "scale_top": "2", "rounding": "none", "infraction_score": "0",
         "carregar_scope": "void_only"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["slug"]


def test_a_scale_upside_down_is_refused_next_to_scale_top(client) -> None:
    client.force_login(_creator("escala"))
    response = client.post(
        reverse("championship_create"),
        {"name": "Al revés", "date": "2026-12-05", "variant": "obligada",
         "doubling": "duplicate", "method": "proportional", "scale_bottom": "2",
         "scale_top": "1", "rounding": "none", "infraction_score": "0",
         "carregar_scope": "void_only"},
    )
    assert "scale_top" in response.context["form"].errors


@pytest.mark.usefixtures("undrawn")
def test_register_one_pair(client, web: Small) -> None:
    client.force_login(web.organiser)
    url = reverse("pairs_register", args=[web.championship.slug])
    response = client.post(
        url, {"pair-number": "9", "pair-player1": "Laia Bosch", "pair-player2": "Pau Roca",
              "pair-submit": "1"},
    )
    assert response.status_code == 302
    pair = Pair.objects.get(championship=web.championship, number=9)
    assert pair.names == "Laia Bosch – Pau Roca"


@pytest.mark.usefixtures("undrawn")
def test_a_pair_number_taken_is_refused_next_to_the_number(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("pairs_register", args=[web.championship.slug]),
        {"pair-number": "1", "pair-player1": "A", "pair-player2": "B", "pair-submit": "1"},
    )
    assert response.status_code == 200
    assert "1" in response.context["pair_form"].errors["number"][0]


@pytest.mark.usefixtures("undrawn")
def test_csv_paste_registers_every_pair(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("pairs_register", args=[web.championship.slug]),
        {"csv-text": "10;Anna Puig;Jordi Vila\n11;Marta Soler;Joan Font", "csv-submit": "1"},
    )
    assert response.status_code == 302
    assert set(
        Pair.objects.filter(championship=web.championship, number__gte=10)
        .values_list("number", flat=True)
    ) == {10, 11}


@pytest.mark.usefixtures("undrawn")
def test_csv_upload_registers_every_pair(client, web: Small) -> None:
    client.force_login(web.organiser)
    upload = SimpleUploadedFile("parelles.csv", "12;Núria Pujol;Pere Serra\n".encode())
    response = client.post(
        reverse("pairs_register", args=[web.championship.slug]),
        {"csv-file": upload, "csv-submit": "1"},
    )
    assert response.status_code == 302
    assert Pair.objects.get(championship=web.championship, number=12).player1.name == (
        "Núria Pujol"
    )


@pytest.mark.usefixtures("undrawn")
def test_a_bad_csv_line_is_named_next_to_the_text(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("pairs_register", args=[web.championship.slug]),
        {"csv-text": "20;Anna;Jordi\nvint;Marta;Joan", "csv-submit": "1"},
    )
    assert response.status_code == 200
    errors = response.context["csv_form"].errors["text"]
    assert "línia 2" in errors[0]
    assert not Pair.objects.filter(championship=web.championship, number=20).exists()


def test_rounds_setup_creates_rounds_and_boards(client) -> None:
    championship = build_championship(pairs=4, rounds=1, drawn_rounds=0)
    organiser = _user("org-rondes")
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    client.force_login(organiser)
    response = client.post(
        reverse("rounds_setup", args=[championship.slug]),
        {"rounds": "3", "boards_per_round": "4"},
    )
    assert response.status_code == 302
    assert Round.objects.filter(championship=championship).count() == 3
    assert championship.boards.count() == 12


def test_rounds_setup_after_a_draw_is_refused_next_to_the_field(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("rounds_setup", args=[web.championship.slug]),
        {"rounds": "3", "boards_per_round": "4"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["rounds"]


def test_draw_a_round_with_a_seed_is_repeatable(client, web: Small) -> None:
    client.force_login(web.organiser)
    url = reverse("round_draw", args=[web.championship.slug, 2])
    assert client.post(url, {"seed": "123"}).status_code == 302
    first = list(Seating.objects.filter(round=web.round2).values_list("ns_pair", "ew_pair"))
    assert len(first) == 2
    client.post(url, {"seed": "123"})
    again = list(Seating.objects.filter(round=web.round2).values_list("ns_pair", "ew_pair"))
    assert again == first
    assert Round.objects.get(pk=web.round2.pk).draw_seed == 123


def test_generate_boards_changes_the_commitment(client, web: Small) -> None:
    client.force_login(web.organiser)
    before = web.championship.deal_commitment
    response = client.post(
        reverse("boards_generate", args=[web.championship.slug]), {"confirm": "on"}
    )
    assert response.status_code == 302
    web.championship.refresh_from_db()
    assert web.championship.deal_commitment != before
    assert len(web.championship.deal_commitment) == 64


def test_closing_a_round_with_missing_results_shows_the_refusal(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("round_close", args=[web.championship.slug, 1]), {"confirm": "on"},
        follow=True,
    )
    assert response.status_code == 200
    text = " ".join(str(m) for m in response.context["messages"])
    assert "Falten 4 resultats" in text
    assert not Round.objects.get(pk=web.round1.pk).is_closed


def test_finish_then_publish_the_secret(client, web: Small) -> None:
    client.force_login(web.organiser)
    slug = web.championship.slug
    client.post(reverse("championship_finish", args=[slug]), {"confirm": "on"})
    response = client.post(reverse("deal_secret_publish", args=[slug]), follow=True)
    web.championship.refresh_from_db()
    assert web.championship.status == "finished"
    assert web.championship.deal_secret_published
    assert web.championship.deal_secret in response.content.decode()


def test_publishing_before_the_end_is_refused_with_a_message(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(
        reverse("deal_secret_publish", args=[web.championship.slug]), follow=True
    )
    text = " ".join(str(m) for m in response.context["messages"])
    assert "quan el campionat s'ha acabat" in text
    web.championship.refresh_from_db()
    assert not web.championship.deal_secret_published


ORGANISER_GETS = ["pairs_register", "rounds_setup"]
ORGANISER_POSTS = ["boards_generate", "championship_finish", "deal_secret_publish"]


@pytest.mark.parametrize("name", ORGANISER_GETS + ORGANISER_POSTS)
def test_anonymous_is_sent_to_login_from_organiser_pages(client, web: Small, name) -> None:
    url = reverse(name, args=[web.championship.slug])
    response = client.post(url) if name in ORGANISER_POSTS else client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("name", ORGANISER_GETS + ORGANISER_POSTS)
def test_a_referee_cannot_use_organiser_pages(client, web: Small, name) -> None:
    client.force_login(web.referee)
    url = reverse(name, args=[web.championship.slug])
    response = client.post(url) if name in ORGANISER_POSTS else client.get(url)
    assert response.status_code == 403
    web.championship.refresh_from_db()
    assert web.championship.status != "finished"


def test_an_organiser_of_another_championship_gets_403(client, web: Small) -> None:
    other = build_championship(pairs=4, rounds=1, drawn_rounds=0)
    stranger = _user("org-altre")
    Membership.objects.create(championship=other, user=stranger, role="organiser")
    client.force_login(stranger)
    assert client.get(reverse("pairs_register", args=[web.championship.slug])).status_code == 403
    assert client.post(
        reverse("round_draw", args=[web.championship.slug, 2]), {"seed": "1"}
    ).status_code == 403
    assert client.get(reverse("pairs_register", args=[other.slug])).status_code == 200


def test_draw_and_close_need_post_rights_too(client, web: Small) -> None:
    client.force_login(web.referee)
    assert client.post(
        reverse("round_draw", args=[web.championship.slug, 2]), {"seed": "1"}
    ).status_code == 403
    assert client.post(reverse("round_close", args=[web.championship.slug, 1])).status_code == 403
    assert not Seating.objects.filter(round=web.round2).exists()


def test_a_blank_slug_is_made_from_the_name(client) -> None:
    client.force_login(_creator("sense-slug"))
    response = client.post(
        reverse("championship_create"),
        {"name": "Torneig de Nadal", "slug": "", "date": "2026-12-20", "variant": "obligada",
         "doubling": "duplicate", "method": "proportional", "scale_bottom": "1",
         "scale_top": "2", "rounding": "none", "infraction_score": "0",
         "carregar_scope": "void_only"},
    )
    assert response.status_code == 302
    assert Championship.objects.filter(slug="torneig-de-nadal").exists()


RULES = {"variant": "lliure", "doubling": "classic", "method": "matchpoints",
         "scale_bottom": "0", "scale_top": "100", "rounding": "floor",
         "infraction_score": "0", "carregar_scope": "void_only"}


def test_the_organiser_changes_the_rules_before_any_result(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(reverse("rules_edit", args=[web.championship.slug]), RULES)
    assert response.status_code == 302
    web.championship.refresh_from_db()
    assert (web.championship.method, web.championship.rounding, web.championship.variant) == (
        "matchpoints", "floor", "lliure"
    )


def test_rules_cannot_change_once_a_result_exists(client, web: Small) -> None:
    from tests.tournaments.views.helpers import record

    record(web.seatings[0], web.boards[0], 40)
    client.force_login(web.organiser)
    response = client.post(reverse("rules_edit", args=[web.championship.slug]), RULES)
    assert response.status_code == 200
    assert "Ja hi ha resultats" in response.context["form"].non_field_errors()[0]
    web.championship.refresh_from_db()
    assert web.championship.method == "proportional"


def test_a_referee_cannot_change_the_rules(client, web: Small) -> None:
    client.force_login(web.referee)
    assert client.post(
        reverse("rules_edit", args=[web.championship.slug]), RULES
    ).status_code == 403


# ------------------------------------------------- actions that cannot be undone (confirm)


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_finishing_without_the_confirm_box_changes_nothing_and_says_why(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    response = client.post(reverse("championship_finish", args=[web.championship.slug]))
    assert response.status_code == 200
    assert "Ho confirmo" in _messages(response)
    assert response.context["form"].errors["confirm"]
    web.championship.refresh_from_db()
    assert web.championship.status != "finished"
    assert not Round.objects.get(pk=web.round1.pk).is_closed


def test_the_confirmation_page_carries_a_confirm_box_that_works_without_js(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    url = reverse("championship_finish", args=[web.championship.slug])
    page = client.get(url).content.decode()
    assert 'name="confirm"' in page and 'type="checkbox"' in page
    assert "Ho confirmo" in page
    response = client.post(url, {"confirm": "on"}, follow=True)
    assert "Campionat acabat." in _messages(response)
    web.championship.refresh_from_db()
    assert web.championship.status == "finished"


def test_the_championship_page_links_to_confirmation_pages_not_one_click_posts(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    slug = web.championship.slug
    page = client.get(reverse("championship", args=[slug])).content.decode()
    for name, args in (("championship_finish", [slug]), ("round_close", [slug, 1]),
                       ("boards_generate", [slug])):
        url = reverse(name, args=args)
        assert f'href="{url}"' in page
        assert f'action="{url}"' not in page


def test_closing_a_round_without_the_confirm_box_changes_nothing(client, web: Small) -> None:
    from tests.tournaments.views.helpers import record

    for seating in web.seatings:
        for board in web.boards:
            record(seating, board, 36)
    client.force_login(web.organiser)
    url = reverse("round_close", args=[web.championship.slug, 1])
    response = client.post(url)
    assert response.status_code == 200
    assert "Ho confirmo" in _messages(response)
    assert not Round.objects.get(pk=web.round1.pk).is_closed
    page = client.get(url).content.decode()
    assert "Resultats: 4 de 4" in page
    client.post(url, {"confirm": "on"})
    assert Round.objects.get(pk=web.round1.pk).is_closed


def test_the_organiser_may_close_a_round_with_results_missing_when_told(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    url = reverse("round_close", args=[web.championship.slug, 1])
    page = client.get(url).content.decode()
    assert "Resultats: 0 de 4" in page and 'name="allow_missing"' in page
    client.post(url, {"confirm": "on", "allow_missing": "on"})
    assert Round.objects.get(pk=web.round1.pk).is_closed


def test_a_head_referee_cannot_close_a_round_with_results_missing(client, web: Small) -> None:
    head = _user("arbitre-principal")
    Membership.objects.create(championship=web.championship, user=head, role="head_referee")
    client.force_login(head)
    url = reverse("round_close", args=[web.championship.slug, 1])
    assert 'name="allow_missing"' not in client.get(url).content.decode()
    response = client.post(url, {"confirm": "on", "allow_missing": "on"}, follow=True)
    assert "Falten 4 resultats" in _messages(response)
    assert not Round.objects.get(pk=web.round1.pk).is_closed


def test_dealing_the_boards_again_without_the_confirm_box_keeps_the_commitment(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    before = web.championship.deal_commitment
    response = client.post(reverse("boards_generate", args=[web.championship.slug]))
    assert response.status_code == 200
    assert "Ho confirmo" in _messages(response)
    web.championship.refresh_from_db()
    assert web.championship.deal_commitment == before


def test_the_first_deal_of_the_boards_needs_no_confirmation(client) -> None:
    championship = build_championship(pairs=4, rounds=1, drawn_rounds=0, generate=False)
    organiser = _user("org-primer")
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    client.force_login(organiser)
    response = client.post(reverse("boards_generate", args=[championship.slug]))
    assert response.status_code == 302
    championship.refresh_from_db()
    assert len(championship.deal_commitment) == 64


def test_the_first_deal_has_no_confirmation_page(client) -> None:
    championship = build_championship(pairs=4, rounds=1, drawn_rounds=0, generate=False)
    organiser = _user("org-sense-taulers")
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    client.force_login(organiser)
    response = client.get(reverse("boards_generate", args=[championship.slug]))
    assert response.status_code == 302
    assert response.url == reverse("championship", args=[championship.slug])
    championship.refresh_from_db()
    assert championship.deal_commitment == ""


def test_dealing_again_after_a_result_shows_the_reason_instead_of_a_confirmation(
    client,
) -> None:
    championship = build_championship(pairs=4, rounds=1, played_rounds=1)
    organiser = _user("org-amb-resultats")
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    client.force_login(organiser)
    before = championship.deal_commitment
    response = client.get(reverse("boards_generate", args=[championship.slug]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("championship", args=[championship.slug])
    assert "Ja hi ha resultats: els taulers no es poden regenerar." in _messages(response)
    assert "Ho confirmo" not in response.content.decode()
    # A POST all the same is refused by the service, and changes nothing.
    response = client.post(reverse("boards_generate", args=[championship.slug]),
                           {"confirm": "on"}, follow=True)
    assert "Ja hi ha resultats" in _messages(response)
    championship.refresh_from_db()
    assert championship.deal_commitment == before


def test_the_championship_page_counts_each_rounds_results_as_the_standings(
    client, web: Small
) -> None:
    """Round 1 (2 tables x 2 boards) shows 0/4, then 1/4 after a save, and the redraw
    link goes once a result is in; round 2, not drawn, counts nothing."""
    client.force_login(web.organiser)
    url = reverse("championship", args=[web.championship.slug])
    draw = reverse("round_draw", args=[web.championship.slug, 1])
    page = client.get(url).content.decode()
    assert '<span class="muted">0/4</span>' in page and draw in page
    record(web.seatings[0], web.boards[0], 40)
    page = client.get(url).content.decode()
    assert '<span class="muted">1/4</span>' in page and draw not in page
    assert reverse("round_draw", args=[web.championship.slug, 2]) in page
