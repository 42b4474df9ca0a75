"""The organiser's checklist on the championship page: each step's state at every stage
of a championship (fresh, pairs in, boards generated, round drawn, round closed,
finished, seed published), the next step standing out, finish and delete apart; players
and referees see the public page as before; the interchange file once the seed is out."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments import selectors, services
from tournaments.models import Championship, Membership, Round
from tournaments.selectors import StepState

pytestmark = pytest.mark.django_db

DONE, NEXT, TODO, BLOCKED = StepState.DONE, StepState.NEXT, StepState.TODO, StepState.BLOCKED


@pytest.fixture
def organiser():
    user = UserFactory(username="secretaria")
    user.save()
    return user


def _own(championship: Championship, user) -> Championship:
    services.membership_grant(championship=championship, user=user,
                              role=Membership.Role.ORGANISER, acting_user=None)
    return championship


def _page(client, championship: Championship):
    response = client.get(reverse("championship", args=[championship.slug]))
    assert response.status_code == 200
    return response


def _states(client, championship: Championship) -> dict[str, StepState]:
    checklist = _page(client, championship).context["checklist"]
    return {s.anchor.removeprefix("step-"): s.state for s in checklist.steps}


def _next(client, championship: Championship) -> str | None:
    step = _page(client, championship).context["checklist"].next
    return None if step is None else step.anchor


def test_fresh_championship_asks_for_pairs_first(client, organiser) -> None:
    championship = _own(services.championship_create(
        name="Festa Major", date=None, venue="", acting_user=None), organiser)
    client.force_login(organiser)
    states = _states(client, championship)
    assert states == {
        "rules": DONE, "pairs": NEXT, "referees": TODO, "rounds": TODO,
        "boards": BLOCKED, "print": BLOCKED, "finish": TODO, "publish": BLOCKED,
    }
    page = _page(client, championship).content.decode()
    assert 'id="next-step"' in page and reverse("pairs_register", args=[championship.slug]) in page
    step = selectors.checklist(championship).step("boards")
    assert step.why == "Primer cal preparar les rondes."
    # Finish and delete sit apart from the checklist, in their own panel.
    checklist_html = page[page.index('id="checklist"'):page.index('id="danger-zone"')]
    assert "championship_delete" not in checklist_html
    assert reverse("championship_delete", args=[championship.slug]) not in checklist_html
    assert reverse("championship_delete", args=[championship.slug]) in page


def test_pairs_in_then_referees_then_rounds(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=0, generate=False),
                        organiser)
    Round.objects.filter(championship=championship).delete()
    Championship.objects.filter(pk=championship.pk).update(boards_per_round=0)
    client.force_login(organiser)
    states = _states(client, championship)
    assert states["pairs"] == DONE and states["referees"] == NEXT
    assert states["rounds"] == TODO and states["boards"] == BLOCKED
    services.membership_grant(championship=championship, user=UserFactory(username="ref"),
                              role=Membership.Role.REFEREE, acting_user=None)
    assert _next(client, championship) == "step-rounds"


def test_boards_generated_offer_printing_then_the_draw(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=0), organiser)
    client.force_login(organiser)
    states = _states(client, championship)
    assert states["rounds"] == DONE and states["boards"] == DONE
    assert states["print"] == NEXT
    assert states["draw-1"] == TODO and states["draw-2"] == TODO
    assert states["results-1"] == BLOCKED and states["close-1"] == BLOCKED


def test_round_drawn_points_at_its_results(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=1), organiser)
    client.force_login(organiser)
    checklist = _page(client, championship).context["checklist"]
    assert checklist.step("draw", 1).state == DONE
    assert checklist.step("print").state == TODO  # optional, skipped once a round is drawn
    results = checklist.step("results", 1)
    assert results.state == NEXT
    assert results.detail == "0 de 4 resultats"
    assert results.url == reverse("referee_tables", args=[championship.slug])


def test_round_closed_points_at_the_next_draw(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=1, played_rounds=1),
                        organiser)
    round1 = Round.objects.get(championship=championship, number=1)
    client.force_login(organiser)
    states = _states(client, championship)
    assert states["results-1"] == DONE and states["close-1"] == NEXT
    services.round_close(round=round1, acting_user=None)
    states = _states(client, championship)
    assert states["close-1"] == DONE and states["draw-2"] == NEXT
    assert states["rules"] == DONE  # and no longer editable: no link
    assert selectors.checklist(championship).step("rules").url == ""


def test_finished_then_seed_published(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=1, played_rounds=1),
                        organiser)
    services.championship_finish(championship=championship, acting_user=None)
    client.force_login(organiser)
    states = _states(client, championship)
    assert states["finish"] == DONE and states["publish"] == NEXT
    assert states["draw-2"] == BLOCKED
    page = _page(client, championship).content.decode()
    assert reverse("deal_secret_publish", args=[championship.slug]) in page
    assert 'id="interchange-file"' not in page
    services.deal_secret_publish(championship=championship, acting_user=None)
    states = _states(client, championship)
    assert states["publish"] == DONE
    assert _next(client, championship) is None


def test_players_and_referees_see_the_public_page(client, web: Small) -> None:
    for user in (None, web.referee):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        response = _page(client, web.championship)
        assert response.context["checklist"] is None
        page = response.content.decode()
        assert 'id="checklist"' not in page and 'id="danger-zone"' not in page


def test_the_interchange_file_is_offered_once_the_seed_is_public(client, organiser) -> None:
    championship = _own(build_championship(pairs=4, rounds=2, drawn_rounds=1, played_rounds=1),
                        organiser)
    url = reverse("interchange_file", args=[championship.slug])
    assert client.get(url).status_code == 404
    services.championship_finish(championship=championship, acting_user=None)
    assert client.get(url).status_code == 404
    services.deal_secret_publish(championship=championship, acting_user=None)
    page = _page(client, championship).content.decode()  # anyone, not logged in
    assert f'href="{url}"' in page
    assert "verify_deals" in page and "qualsevol còpia del programa" in page
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{championship.slug}.json"'
    data = json.loads(response.content)
    championship.refresh_from_db()
    assert data["championship"]["deal_secret"] == championship.public_deal_secret
    assert data["championship"]["deal_commitment"] == championship.deal_commitment
    assert len(data["boards"]) == 4


def test_the_public_interchange_file_leaves_out_reasons_and_referees_notes(
    client, organiser
) -> None:
    """A withdrawal's reason and a referee's note are written for the organiser and the
    referees and shown on no public page: the public file leaves them out, while the
    organiser's own export (the command) keeps them."""
    from tests.tournaments.views.helpers import record

    championship = build_championship(pairs=4, rounds=2, boards_per_round=2,
                                      drawn_rounds=1)
    seating = championship.rounds.get(number=1).seatings.order_by("table__number").first()
    for board in championship.boards.filter(round__number=1):
        record(seating, board, note="Renunci de N: ha tingut un mareig")
    services.pair_withdraw(pair=championship.pairs.get(number=2), after_round=1,
                           reason="Ingressat a l'hospital", acting_user=None)
    services.championship_finish(championship=championship, acting_user=None)
    services.deal_secret_publish(championship=championship, acting_user=None)
    response = client.get(reverse("interchange_file", args=[championship.slug]))
    text = response.content.decode()
    assert response.status_code == 200
    assert "hospital" not in text and "mareig" not in text
    pair = next(p for p in json.loads(text)["pairs"] if p["number"] == 2)
    assert pair["withdrawn_after_round"] == 1 and "withdrawal_reason" not in pair
    full = json.dumps(services.championship_export(championship))
    assert "hospital" in full and "mareig" in full


def test_the_organisers_page_title_is_the_championships_name(client, web: Small) -> None:
    client.force_login(web.organiser)
    html = _page(client, web.championship).content.decode()
    title = html[html.index("<title>") + 7:html.index("</title>")]
    assert web.championship.name in title
    assert "<" not in title and "danger-zone" not in title
