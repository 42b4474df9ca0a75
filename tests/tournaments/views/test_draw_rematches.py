"""A draw that asks the organiser to accept rematches stores, once accepted, the very
draw whose rematches the page listed (the draw travels signed in the form)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tournaments import services
from tournaments.forms import DRAW_SALT
from tournaments.models import Championship, Membership, Round, Seating

pytestmark = pytest.mark.django_db

LAST = 6


def _met_everyone() -> tuple[Championship, Any]:
    """6 pairs after a full round-robin: every pair met every other, so any draw of
    round 6 holds three rematches, and a fresh seed picks which (among the six
    matchings that balance directions)."""
    c = build_championship(pairs=6, rounds=6, boards_per_round=1, drawn_rounds=0,
                           movement="round-robin")
    for rnd in Round.objects.filter(championship=c, number__lte=5).order_by("number"):
        services.round_draw(round=rnd, seed=1, acting_user=None)
    organiser = UserFactory(username="organitzadora-sorteig")
    organiser.save()
    services.membership_grant(championship=c, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    return c, organiser


def _stored(c: Championship) -> list[tuple[int, int]]:
    return sorted(
        tuple(sorted(pair)) for pair in Seating.objects.filter(
            round__championship=c, round__number=LAST
        ).values_list("ns_pair__number", "ew_pair__number")
    )


def _shown(response: Any) -> dict[str, Any]:
    token = response.context["form"]["shown"].value()
    shown: dict[str, Any] = signing.loads(token, salt=DRAW_SALT)
    return shown


def test_accepting_stores_the_draw_whose_rematches_were_listed(client: Any) -> None:
    c, organiser = _met_everyone()
    client.force_login(organiser)
    url = reverse("round_draw", args=[c.slug, LAST])
    seen: set[tuple[tuple[int, int], ...]] = set()
    for _attempt in range(4):
        before = _stored(c)  # the draw accepted last time (none at first)
        asked = client.post(url, {"seed": "", "movement": "random"})
        assert asked.status_code == 200
        assert _stored(c) == before
        shown = _shown(asked)
        listed = sorted(tuple(pair) for pair in shown["rematches"])
        # The message lists the same meetings as the signed draw.
        message = " ".join(asked.context["form"].errors["accept_rematches"])
        assert all(f"{a}-{b}" in message for a, b in listed)
        # Accepting: the form the page rendered, with the box ticked.
        form = asked.context["form"]
        data = {name: form[name].value() or "" for name in ("seed", "movement", "shown")}
        done = client.post(url, {**data, "accept_rematches": "on"})
        assert done.status_code == 302, done.context["form"].errors
        assert _stored(c) == listed
        assert Round.objects.get(championship=c, number=LAST).draw_seed == shown["seed"]
        seen.add(tuple(listed))
    # Fresh seeds drew different rematches: without the signed draw an accept would
    # have stored another draw than the one shown.
    assert len(seen) > 1


def test_a_tampered_or_foreign_draw_is_refused_and_nothing_is_stored(client: Any) -> None:
    c, organiser = _met_everyone()
    client.force_login(organiser)
    url = reverse("round_draw", args=[c.slug, LAST])
    asked = client.post(url, {"seed": "", "movement": "random"})
    shown = _shown(asked)
    forged = signing.dumps({**shown, "seed": shown["seed"] + 1}, salt="another salt")
    refused = client.post(url, {"seed": str(shown["seed"]), "movement": "random",
                                "shown": forged, "accept_rematches": "on"})
    assert refused.status_code == 200
    assert "shown" in refused.context["form"].errors or refused.context["form"].non_field_errors()
    other_round = signing.dumps(
        {**shown, "round": Round.objects.get(championship=c, number=LAST - 1).pk}, salt=DRAW_SALT
    )
    refused = client.post(url, {"seed": str(shown["seed"]), "movement": "random",
                                "shown": other_round, "accept_rematches": "on"})
    assert refused.status_code == 200
    assert not Seating.objects.filter(round__championship=c, round__number=LAST).exists()


def test_the_service_refuses_a_draw_holding_rematches_not_shown() -> None:
    c, _organiser = _met_everyone()
    rnd = Round.objects.get(championship=c, number=LAST)
    with pytest.raises(services.RematchError) as caught:
        services.round_draw(round=rnd, seed=5, acting_user=None, movement_name="random")
    first = caught.value
    assert (first.seed, first.movement) == (5, "random") and len(first.rematches) == 3
    others = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)
              if (a, b) not in first.rematches]
    with pytest.raises(services.RematchError) as again:
        services.round_draw(round=rnd, seed=5, acting_user=None, movement_name="random",
                            accept_rematches=True, shown_rematches=others[:1])
    assert again.value.rematches == first.rematches
    assert not Seating.objects.filter(round=rnd).exists()
    stored = services.round_draw(round=rnd, seed=5, acting_user=None,
                                 movement_name="random", accept_rematches=True,
                                 shown_rematches=first.rematches)
    assert sorted(tuple(sorted((s.ns_pair.number, s.ew_pair.number))) for s in stored) \
        == sorted(first.rematches)
