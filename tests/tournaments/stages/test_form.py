"""The organiser's stages form on the rounds page: groups then a knockout (classic), a
qualifying stage then finals (duplicate); a bad value is shown at its field with
nothing stored; read-only once a table is drawn; the stages set up listed."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.stages.conftest import make_staged, play_round
from tournaments import services
from tournaments.models import Championship, Membership, Round, Stage
from tournaments.stage_forms import parse_finals

pytestmark = pytest.mark.django_db


def organised(client: Any, pairs: int, *, classic: bool) -> Championship:
    championship = build_championship(
        pairs=pairs, rounds=1, drawn_rounds=0, generate=False,
        format="classic" if classic else "duplicate")
    organiser = UserFactory(username="org-fases-form")
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(organiser)
    return championship


def classic_post(**changes: Any) -> dict[str, Any]:
    data = {"groups": "3", "split": "snake", "per_group": "2", "second_chance": "2",
            "rest_rule": "best_record", "exclude_zero_wins": "on", "knockout": "on",
            "third_place": "on"}
    data.update(changes)
    out = {f"stages-{k}": v for k, v in data.items() if v is not None}
    out["stages-submit"] = "1"
    return out


def duplicate_post(**changes: Any) -> dict[str, Any]:
    data = {"qualifying_rounds": "3", "finals": "A:8, B:8", "carry_over": "percent",
            "carry_over_percent": "50", "finals_rounds": "2", "boards_per_round": "4"}
    data.update(changes)
    out = {f"stages-{k}": v for k, v in data.items() if v is not None}
    out["stages-submit"] = "1"
    return out


def stages_of(championship: Championship) -> list[tuple[Any, ...]]:
    return list(Stage.objects.filter(championship=championship).order_by("number")
                .values_list("kind", "group_count", "per_group", "second_chance",
                             "third_place", "finals", "carry_over", "carry_over_percent"))


def test_groups_then_a_knockout_are_set_up_and_listed(client: Any) -> None:
    championship = organised(client, 12, classic=True)
    url = reverse("rounds_setup", args=[championship.slug])
    response = client.post(url, classic_post())
    assert response.status_code == 302 and response.url == url
    stages = list(Stage.objects.filter(championship=championship).order_by("number"))
    assert [(s.kind, s.group_count, s.split, s.per_group, s.second_chance, s.rest_rule,
             s.exclude_zero_wins) for s in stages[:1]] == [
        ("groups", 3, "snake", 2, 2, "best_record", True)]
    assert stages[1].kind == "knockout" and stages[1].third_place
    rounds = list(Round.objects.filter(championship=championship).order_by("number")
                  .values_list("stage__kind", flat=True))
    # Groups of 4: 3 rounds; 8 through: quarter-finals, semi-finals, final.
    assert rounds == ["groups"] * 3 + ["knockout"] * 3
    page = client.get(url)
    html = page.content.decode()
    assert "rondes 1 a 3" in html and "rondes 4 a 6" in html
    assert "repesca 2" in html
    # The form shows the stages as set up.
    assert page.context["stages_form"]["groups"].value() == 3
    assert page.context["stages_form"]["rest_rule"].value() == "best_record"


def test_groups_alone_without_a_knockout(client: Any) -> None:
    championship = organised(client, 8, classic=True)
    response = client.post(reverse("rounds_setup", args=[championship.slug]),
                           classic_post(groups="2", knockout=None, third_place=None,
                                        second_chance="0"))
    assert response.status_code == 302
    assert [s[0] for s in stages_of(championship)] == ["groups"]


def test_qualifying_rounds_then_finals_are_set_up(client: Any) -> None:
    championship = organised(client, 16, classic=False)
    response = client.post(reverse("rounds_setup", args=[championship.slug]),
                           duplicate_post())
    assert response.status_code == 302
    assert stages_of(championship) == [
        ("swiss", 0, 0, 0, False, [], "none", 0),
        ("finals", 0, 0, 0, False, [["A", 8], ["B", 8]], "percent", 50),
    ]
    assert Round.objects.filter(championship=championship).count() == 5
    championship.refresh_from_db()
    assert championship.boards_per_round == 4


@pytest.mark.parametrize(("changes", "field"), [
    ({"groups": "7"}, "groups"),           # 12 pairs make no 7 groups of 2 or more
    ({"per_group": "5"}, "per_group"),     # groups of 4
    ({"per_group": "0", "second_chance": "0"}, "per_group"),  # nobody through
    ({"groups": "abc"}, "groups"),
    ({"split": "alphabet"}, "split"),
    ({"knockout": None}, "third_place"),   # a third place with no knockout
])
def test_a_bad_classic_value_is_shown_at_its_field_and_nothing_stored(
        client: Any, changes: dict[str, Any], field: str) -> None:
    championship = organised(client, 12, classic=True)
    rounds_before = list(Round.objects.filter(championship=championship)
                         .values_list("pk", flat=True))
    response = client.post(reverse("rounds_setup", args=[championship.slug]),
                           classic_post(**changes))
    assert response.status_code == 200
    form = response.context["stages_form"]
    assert list(form.errors) == [field], form.errors
    assert stages_of(championship) == []
    assert list(Round.objects.filter(championship=championship)
                .values_list("pk", flat=True)) == rounds_before


@pytest.mark.parametrize(("changes", "field"), [
    ({"finals": "A-8"}, "finals"),
    ({"finals": "A:8,A:8"}, "finals"),
    ({"finals": "A:10,B:10"}, "finals"),   # 20 pairs in finals, 16 in the field
    ({"carry_over_percent": ""}, "carry_over_percent"),
    ({"finals_rounds": "0"}, "finals_rounds"),
])
def test_a_bad_duplicate_value_is_shown_at_its_field_and_nothing_stored(
        client: Any, changes: dict[str, Any], field: str) -> None:
    championship = organised(client, 16, classic=False)
    response = client.post(reverse("rounds_setup", args=[championship.slug]),
                           duplicate_post(**changes))
    assert response.status_code == 200
    assert list(response.context["stages_form"].errors) == [field]
    assert stages_of(championship) == []


def test_the_form_is_read_only_once_a_table_is_drawn(client: Any) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=1)
    client.force_login(staged.organiser)
    url = reverse("rounds_setup", args=[staged.championship.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert all(f.disabled for f in page.context["stages_form"].fields.values())
    assert b"stages-submit" not in page.content
    assert "començada".encode() in page.content  # the groups stage started
    before = stages_of(staged.championship)
    refused = client.post(url, classic_post(groups="4", per_group="1"))
    assert refused.status_code == 200
    assert stages_of(staged.championship) == before


def test_the_plain_rounds_form_still_works_beside_it(client: Any) -> None:
    championship = organised(client, 8, classic=True)
    response = client.post(reverse("rounds_setup", args=[championship.slug]),
                           {"rounds": "5"})
    assert response.status_code == 302
    assert Round.objects.filter(championship=championship).count() == 5


def test_finals_text_is_read_name_by_name() -> None:
    assert parse_finals("A:16, B:16 ,C:8") == [["A", 16], ["B", 16], ["C", 8]]
    for bad in ("", "A16", "A:x", ":4", "A:4,A:4"):
        with pytest.raises(ValueError, match="final"):
            parse_finals(bad)
