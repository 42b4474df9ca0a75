"""Sant Vicenç follows the doubling when a championship does not say (docs/decisions.md
"Sant Vicenç by default"): not allowed under duplicate doubling, as the official
duplicate championships play, allowed under classic; the organiser may allow it. The
referee's warning says what the rule in force does with it."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

from engine import sant_vicenc_default
from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import entry_url, form_data
from tournaments import services
from tournaments.models import Championship, Result, Seating
from tournaments.referee_checks import unusual

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)
RULE = "regla «Sant Vicenç permès»: no"
SANT_VICENC = {"contro": True, "recontro": True, "sant_vicenc": True}


def test_the_engine_default_follows_the_doubling() -> None:
    assert (sant_vicenc_default("duplicate"), sant_vicenc_default("classic")) == (False, True)
    assert sant_vicenc_default(Championship.Doubling.CLASSIC) is True
    with pytest.raises(ValueError, match="doubling"):
        sant_vicenc_default("triple")


@pytest.mark.parametrize(("doubling", "allowed"), [("duplicate", False), ("classic", True)])
def test_a_new_championship_takes_the_default_of_its_doubling(doubling: str,
                                                              allowed: bool) -> None:
    c = services.championship_create(name=f"Obert {doubling}", date=DAY, doubling=doubling)
    assert c.sant_vicenc is allowed
    assert Championship.objects.get(pk=c.pk).engine_rules().sant_vicenc is allowed


@pytest.mark.parametrize("doubling", ["duplicate", "classic"])
def test_the_organiser_may_say_otherwise(doubling: str) -> None:
    given = not sant_vicenc_default(doubling)
    c = services.championship_create(name="Obert", date=DAY, doubling=doubling,
                                     sant_vicenc=given)
    assert c.sant_vicenc is given


def _creator(client: Any) -> None:
    user = UserFactory(username="creadora")
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    client.force_login(user)


def _create_form(doubling: str, sant_vicenc: str) -> dict[str, str]:
    return {"name": f"Obert {doubling} {sant_vicenc}", "date": "2026-12-05", "venue": "Vic",
            "variant": "obligada", "doubling": doubling, "method": "proportional",
            "scale_bottom": "1", "scale_top": "2", "rounding": "none",
            "infraction_score": "0", "sant_vicenc": sant_vicenc,
            "carregar_scope": "void_only"}


@pytest.mark.parametrize(("doubling", "sant_vicenc", "allowed"), [
    ("duplicate", "", False), ("classic", "", True),
    ("duplicate", "True", True), ("classic", "False", False),
])
def test_the_web_form_left_blank_follows_the_doubling(client: Any, doubling: str,
                                                      sant_vicenc: str, allowed: bool) -> None:
    _creator(client)
    response = client.post(reverse("championship_create"), _create_form(doubling, sant_vicenc))
    assert response.status_code == 302
    assert Championship.objects.get().sant_vicenc is allowed


def test_the_rules_form_shows_the_stored_setting_and_blank_follows_the_new_doubling(
    client: Any, small: Small
) -> None:
    small.organiser.save()  # type: ignore[attr-defined]  # the factory's password
    client.force_login(small.organiser)
    url = reverse("rules_edit", args=[small.championship.slug])
    assert client.get(url).context["form"]["sant_vicenc"].value() is False
    data = _create_form("classic", "")
    for name in ("name", "date", "venue"):
        data.pop(name)
    assert client.post(url, data).status_code == 302
    assert Championship.objects.get(pk=small.championship.pk).sant_vicenc is True


def test_the_demo_s_championship_takes_the_duplicate_default() -> None:
    # The demo builds through championship_create with duplicate doubling, as here.
    c = build_championship(pairs=4, rounds=1, drawn_rounds=0, generate=False)
    assert (c.doubling, c.sant_vicenc) == ("duplicate", False)


def _exported(doubling: str, with_sant_vicenc: bool) -> dict[str, Any]:
    c = build_championship(pairs=4, rounds=1, boards_per_round=1, drawn_rounds=1,
                           doubling=doubling, sant_vicenc=True)
    if with_sant_vicenc:
        seating = Seating.objects.filter(round__championship=c).order_by("table__number").first()
        services.result_record(
            seating=seating, board=c.boards.get(), trump="O", ns_points_taken=40,
            expected_version=None, acting_user=None, **SANT_VICENC,
        )
    data = services.championship_export(c)
    data["championship"]["slug"] = f"copia-{doubling}-{with_sant_vicenc}"
    data["rules"].pop("sant_vicenc")
    return data


@pytest.mark.parametrize(("doubling", "with_sant_vicenc", "allowed"), [
    ("duplicate", False, False), ("classic", False, True), ("duplicate", True, True),
])
def test_an_import_without_the_key_follows_the_doubling_unless_the_file_played_it(
    doubling: str, with_sant_vicenc: bool, allowed: bool
) -> None:
    data = _exported(doubling, with_sant_vicenc)
    imported = services.championship_import(data=data, acting_user=None).championship
    assert imported.sant_vicenc is allowed


def test_an_import_keeps_the_key_when_given() -> None:
    data = _exported("duplicate", False)
    data["rules"]["sant_vicenc"] = True
    imported = services.championship_import(data=data, acting_user=None).championship
    assert imported.sant_vicenc is True


def test_with_default_rules_the_result_form_refuses_a_sant_vicenc_naming_the_rule(
    client: Any, small: Small
) -> None:
    small.referee.save()  # type: ignore[attr-defined]
    client.force_login(small.referee)
    seating, board = small.seatings[0], small.boards[0]
    response = client.post(entry_url(small, seating, board), form_data(
        contro="on", recontro="on", sant_vicenc="on", confirm_unusual="1"))
    assert response.status_code == 200
    assert RULE in response.context["form"].errors["sant_vicenc"][0]
    assert not Result.objects.filter(seating=seating, board=board).exists()


def _warning(doubling: str, trump: str) -> str:
    found = dict(unusual(trump=trump, ns_points_taken=40, sant_vicenc=True, infraction=None,
                         adjusted=None, others=[], doubling=doubling))
    return found["sant_vicenc"]


def test_the_warning_says_what_the_rule_in_force_does() -> None:
    with translation.override("ca"):
        assert "8 vegades" in _warning("classic", "O")
        assert "16 vegades" in _warning("classic", "botifarra")
        duplicate = _warning("duplicate", "O")
    assert "no canvia la puntuació" in duplicate and "vegades" not in duplicate
    with translation.override("en"):
        assert "16" in _warning("classic", "botifarra")
        assert "changes nothing" in _warning("duplicate", "O")


def test_the_result_form_warns_with_the_championship_s_doubling(client: Any,
                                                               small: Small) -> None:
    Championship.objects.filter(pk=small.championship.pk).update(sant_vicenc=True)
    small.referee.save()  # type: ignore[attr-defined]
    client.force_login(small.referee)
    url = entry_url(small, small.seatings[0], small.boards[0])
    asked = client.post(url, form_data(contro="on", recontro="on", sant_vicenc="on"))
    messages = dict(asked.context["unusual"])
    assert "no canvia la puntuació" in messages["sant_vicenc"]
    Championship.objects.filter(pk=small.championship.pk).update(doubling="classic")
    asked = client.post(url, form_data(contro="on", recontro="on", sant_vicenc="on"))
    assert "8 vegades" in dict(asked.context["unusual"])["sant_vicenc"]
