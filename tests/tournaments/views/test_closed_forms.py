"""Organiser forms that can no longer be used show read-only with the service's reason
(disabled fields, no submit button); a POST is still refused by the service."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Championship, Membership, Pair, Round, Seating

pytestmark = pytest.mark.django_db


def _submit_buttons(html: str) -> list[str]:
    return re.findall(r"<button[^>]*type=\"submit\"[^>]*>", html)


def _enabled_inputs(html: str) -> int:
    """Inputs outside a disabled fieldset (the csrf token excepted)."""
    open_parts = re.split(r"<fieldset disabled[^>]*>.*?</fieldset>", html, flags=re.S)
    return sum(
        len(re.findall(r"<(?:input|select|textarea)(?![^>]*type=\"hidden\")", part))
        for part in open_parts
    )


@pytest.fixture
def played(db: None) -> tuple[Championship, object]:
    """4 pairs, 2 rounds both drawn and played, and its organiser logged in later."""
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                                      played_rounds=2)
    organiser = UserFactory(username="org-tancat")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    return championship, organiser


def _main(html: str) -> str:
    """The page's own content (the layout's forms, e.g. the language switch, left out)."""
    return html[html.index("<h1>"):html.index("</main>")]


def test_rounds_setup_after_a_draw_is_read_only_with_the_reason(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.get(reverse("rounds_setup", args=[web.championship.slug]))
    assert response.status_code == 200
    html = _main(response.content.decode())
    reason = str(services.rounds_setup_refusal(web.championship))
    assert reason == "Ja s'han sortejat taules: les rondes ja no es poden canviar."
    assert 'id="form-closed"' in html and reason.replace("'", "&#x27;") in html
    assert _submit_buttons(html) == []
    assert _enabled_inputs(html) == 0
    assert all(f.disabled for f in response.context["form"].fields.values())


def test_rounds_setup_post_after_a_draw_is_still_refused(client, web: Small) -> None:
    client.force_login(web.organiser)
    response = client.post(reverse("rounds_setup", args=[web.championship.slug]),
                           {"rounds": "5", "boards_per_round": "3"})
    assert response.status_code == 200
    assert "sortejat" in response.context["form"].errors["rounds"][0]
    assert Round.objects.filter(championship=web.championship).count() == 2


def test_rounds_setup_before_a_draw_is_open(client, web: Small) -> None:
    Seating.objects.filter(round__championship=web.championship).delete()
    assert services.rounds_setup_refusal(web.championship) is None
    client.force_login(web.organiser)
    response = client.get(reverse("rounds_setup", args=[web.championship.slug]))
    html = _main(response.content.decode())
    assert 'id="form-closed"' not in html
    # The rounds' form and the stages' form.
    assert len(_submit_buttons(html)) == 2
    assert _enabled_inputs(html) == 2 + len(response.context["stages_form"].fields)


def test_rules_edit_with_results_is_read_only_and_a_post_is_refused(client, played) -> None:  # type: ignore[no-untyped-def]
    championship, organiser = played
    client.force_login(organiser)
    url = reverse("rules_edit", args=[championship.slug])
    response = client.get(url)
    html = _main(response.content.decode())
    assert "Ja hi ha resultats: les regles ja no es poden canviar." in html
    assert _submit_buttons(html) == []
    assert _enabled_inputs(html) == 0
    form = response.context["form"]
    data = {name: value for name, value in form.initial.items()
            if name in form.fields and value not in (None, False)}
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    method = "matchpoints" if championship.method != "matchpoints" else "proportional"
    data.update(method=method, scale_bottom="0", scale_top="100")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Ja hi ha resultats" in response.content.decode()
    championship.refresh_from_db()
    assert championship.method != method


def test_rules_edit_without_results_is_open(client, web: Small) -> None:
    client.force_login(web.organiser)
    html = _main(client.get(reverse("rules_edit", args=[web.championship.slug]))
                 .content.decode())
    assert 'id="form-closed"' not in html
    assert len(_submit_buttons(html)) == 1


def test_pairs_register_after_the_last_draw_is_read_only_and_posts_are_refused(
    client, played
) -> None:  # type: ignore[no-untyped-def]
    championship, organiser = played
    client.force_login(organiser)
    url = reverse("pairs_register", args=[championship.slug])
    html = _main(client.get(url).content.decode())
    assert "La darrera ronda (2) ja està sortejada" in html
    # The remaining buttons are the pairs list's own (withdraw links are not buttons).
    assert not [b for b in _submit_buttons(html) if "pair-submit" in b or "csv-submit" in b]
    assert _enabled_inputs(html) == 0
    response = client.post(url, {"pair-number": "9", "pair-player1": "Laia Bosch",
                                 "pair-player2": "Pau Roca", "pair-submit": "1"})
    assert response.status_code == 200
    assert "La darrera ronda (2) ja està sortejada" in response.content.decode()
    response = client.post(url, {"csv-text": "10;Anna Puig;Jordi Vila", "csv-submit": "1"})
    assert response.status_code == 200
    assert not Pair.objects.filter(championship=championship, number__in=(9, 10)).exists()


def test_pairs_register_with_a_round_left_to_draw_is_open(client, web: Small) -> None:
    """Late pairs are allowed: round 1 drawn, round 2 not yet."""
    assert services.registration_refusal(web.championship) is None
    client.force_login(web.organiser)
    html = _main(client.get(reverse("pairs_register", args=[web.championship.slug]))
                 .content.decode())
    assert 'id="form-closed"' not in html
    assert len([b for b in _submit_buttons(html)
                if "pair-submit" in b or "csv-submit" in b]) == 2
