"""services.signup: the public sign-up with its cap and waiting list, the organiser's
actions (each audited), the pairs made of the list, and the check-in that decides round
1's field and the late pairs."""

from __future__ import annotations

import datetime

import pytest

from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import (
    AuditEntry,
    Bye,
    Championship,
    Membership,
    Pair,
    Registration,
    Seating,
)
from tournaments.selectors import signup as signup_read
from tournaments.services import signup

pytestmark = pytest.mark.django_db

SITE = "https://botifarra.example"
A = AuditEntry.Action


def open_championship(cap: int | None = None, *, check_in: bool = False,
                      rounds: int = 0) -> tuple[Championship, object]:
    """A championship with its sign-up open (``cap`` places) and an organiser."""
    championship = services.championship_create(
        name="Obert de Vic", date=datetime.date(2026, 12, 12), venue="Vic", acting_user=None)
    organiser = UserFactory()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    signup.signup_settings_set(championship=championship, signup_open=True, signup_cap=cap,
                               check_in=check_in, site_url=SITE, acting_user=organiser)
    if rounds:
        services.rounds_setup(championship=championship, rounds=rounds, boards_per_round=1,
                              acting_user=None)
        services.boards_generate(championship=championship, acting_user=None)
    championship.refresh_from_db()
    return championship, organiser


def sign(championship: Championship, k: int, **extra: str) -> signup.SignedUp:
    fields = {"player1": f"Anna Puig {k}", "player2": f"Pere Vila {k}",
              "email": f"parella{k}@example.org", **extra}
    return signup.signup_submit(championship=championship, site_url=SITE, **fields)


def test_under_the_cap_a_pair_holds_a_place_and_over_it_waits_told_its_place() -> None:
    championship, _ = open_championship(cap=2)
    first, second, third, fourth = (sign(championship, k) for k in range(1, 5))
    assert [s.registration.status for s in (first, second, third, fourth)] == [
        "registered", "registered", "waiting", "waiting"]
    assert (first.place, third.place, fourth.place) == (None, 1, 2)
    counts = signup_read.signup_counts(championship)
    assert (counts.registered, counts.waiting, counts.free) == (2, 2, 0)


def test_a_double_submit_gives_the_same_registration() -> None:
    championship, _ = open_championship()
    first = sign(championship, 1)
    # The same pair typed in the other order, other case and accents: a double tap.
    again = sign(championship, 1, player1="pere vila 1", player2="ANNA PUIG 1")
    assert first.created and not again.created
    assert again.registration.pk == first.registration.pk
    assert Registration.objects.filter(championship=championship).count() == 1
    assert AuditEntry.objects.filter(action=A.SIGNUP_CREATE).count() == 1


@pytest.mark.parametrize("fields, field", [
    ({"email": "", "phone": ""}, "email"),
    ({"email": "no-és-correu"}, "email"),
    ({"email": "", "phone": "abc"}, "phone"),
    ({"player2": " "}, "player2"),
    ({"player2": "anna puig 1"}, "player2"),
])
def test_a_bad_sign_up_names_its_field_and_writes_nothing(fields: dict[str, str],
                                                          field: str) -> None:
    championship, _ = open_championship()
    with pytest.raises(services.RegistrationError) as caught:
        sign(championship, 1, **fields)
    assert caught.value.field == field
    assert not Registration.objects.filter(championship=championship).exists()


def test_cancelling_moves_the_first_waiting_pair_up_and_mails_it_in_its_language(
    mailoutbox, django_capture_on_commit_callbacks,
) -> None:
    championship, _ = open_championship(cap=1)
    with django_capture_on_commit_callbacks(execute=True):
        held = sign(championship, 1)
        waiting = sign(championship, 2, language="es")
        sign(championship, 3)
    assert len(mailoutbox) == 3
    assert held.registration.cancel_token in mailoutbox[0].body
    assert mailoutbox[0].to == ["parella1@example.org"]
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        moved = signup.signup_cancel(registration=held.registration, by_link=True,
                                     site_url=SITE)
    assert [r.pk for r in moved] == [waiting.registration.pk]
    waiting.registration.refresh_from_db()
    assert waiting.registration.status == "registered"
    third = Registration.objects.get(championship=championship, player1_name="Anna Puig 3")
    assert third.status == "waiting" and signup_read.waiting_place(third) == 1
    promoted = [m for m in mailoutbox if m.to == ["parella2@example.org"]]
    assert len(promoted) == 1
    assert f"{SITE}/c/{championship.slug}/signup/cancel/" in promoted[0].body
    # Cancelling again changes nothing, moves nobody.
    assert signup.signup_cancel(registration=held.registration, by_link=True,
                                site_url=SITE) == []
    assert [e.action for e in AuditEntry.objects.filter(
        championship=championship, action__in=[A.SIGNUP_CANCEL, A.SIGNUP_PROMOTE])] == [
        A.SIGNUP_CANCEL, A.SIGNUP_PROMOTE]


def test_every_action_of_the_organiser_is_audited_and_the_contact_stays_out_of_the_log(
) -> None:
    championship, organiser = open_championship(cap=1)
    one, two, three = (sign(championship, k).registration for k in range(1, 4))
    signup.signup_confirm(registration=two, acting_user=organiser)
    signup.signup_paid(registration=one, paid=True, acting_user=organiser)
    signup.signup_move(registration=three, position=1, acting_user=organiser)
    signup.signup_cancel(registration=one, acting_user=organiser, site_url=SITE)
    signup.signup_add(championship=championship, player1="Joan Font", player2="Marta Soler",
                      phone="+34 600 000 000", site_url=SITE, acting_user=organiser)
    signup.signup_settings_set(championship=championship, signup_open=False, signup_cap=5,
                               check_in=True, site_url=SITE, acting_user=organiser)
    entries = AuditEntry.objects.filter(championship=championship, acting_user=organiser)
    actions = [e.action for e in entries]
    for action in (A.SIGNUP_CONFIRM, A.SIGNUP_PAID, A.SIGNUP_MOVE, A.SIGNUP_CANCEL,
                   A.SIGNUP_CREATE, A.SIGNUP_SETTINGS, A.SIGNUP_PROMOTE):
        assert action in actions
    order = [r.player1_name for r in signup_read.registrations(championship,
                                                                      cancelled=False)]
    assert order[:2] == ["Anna Puig 3", "Anna Puig 2"]
    logged = str([(e.before, e.after) for e in AuditEntry.objects.filter(
        championship=championship)])
    assert "example.org" not in logged and "600 000" not in logged


def test_a_referee_cannot_act_on_the_list() -> None:
    championship, _ = open_championship()
    registration = sign(championship, 1).registration
    referee = UserFactory()
    services.membership_grant(championship=championship, user=referee,
                              role=Membership.Role.REFEREE, acting_user=None)
    with pytest.raises(services.NotAllowedError):
        signup.signup_confirm(registration=registration, acting_user=referee)


def test_making_the_pairs_numbers_them_in_order_and_twice_makes_none_again() -> None:
    championship, organiser = open_championship(cap=3)
    regs = [sign(championship, k).registration for k in range(1, 5)]
    signup.signup_move(registration=regs[2], position=1, acting_user=organiser)
    made = signup.pairs_from_signup(championship=championship, acting_user=organiser)
    assert [(p.number, p.player1.name) for p in made] == [
        (1, "Anna Puig 3"), (2, "Anna Puig 1"), (3, "Anna Puig 2")]
    assert signup.pairs_from_signup(championship=championship, acting_user=organiser) == []
    assert Pair.objects.filter(championship=championship).count() == 3
    assert {r.pair_id for r in Registration.objects.filter(pk__in=[r.pk for r in regs[:3]])} \
        == {p.pk for p in made}
    assert AuditEntry.objects.filter(action=A.PAIRS_FROM_SIGNUP).count() == 1


def _drawn_with_checked_in(present: list[int]) -> tuple[Championship, object]:
    championship, organiser = open_championship(check_in=True, rounds=3)
    for k in range(1, 7):
        sign(championship, k)
    signup.pairs_from_signup(championship=championship, acting_user=organiser)
    for number in present:
        signup.pair_check_in(pair=Pair.objects.get(championship=championship, number=number),
                             present=True, acting_user=organiser)
    services.round_draw(round=championship.rounds.get(number=1), seed=5,
                        acting_user=organiser)
    return championship, organiser


def test_with_the_check_in_round_1_draws_the_pairs_present_only() -> None:
    championship, _ = _drawn_with_checked_in([1, 2, 4, 6])
    seated: set[int] = set()
    for ns, ew in Seating.objects.filter(round__championship=championship).values_list(
            "ns_pair__number", "ew_pair__number"):
        seated |= {ns, ew}
    assert seated == {1, 2, 4, 6}
    # A pair never present is not listed in the standings, like a pair that did not play
    # (the standings list the pairs of ``absences``, scoring.Absences.pairs).
    assert set(selectors.absences(championship).pairs) == {1, 2, 4, 6}


def test_a_pair_checked_in_after_round_1_joins_from_round_2() -> None:
    championship, organiser = _drawn_with_checked_in([1, 2, 3, 4])
    late = Pair.objects.get(championship=championship, number=5)
    checked = signup.pair_check_in(pair=late, present=True, acting_user=organiser)
    assert checked.changed and checked.joins == 2
    # A double tap changes nothing and writes nothing.
    again = signup.pair_check_in(pair=late, present=True, acting_user=organiser)
    assert not again.changed
    assert AuditEntry.objects.filter(action=A.PAIR_CHECK_IN, target="parella 5").count() == 1
    round2 = championship.rounds.get(number=2)
    seatings = services.round_draw(round=round2, seed=5, acting_user=organiser)
    drawn = {n for s in seatings for n in (s.ns_pair.number, s.ew_pair.number)}
    drawn |= set(Bye.objects.filter(round=round2).values_list("pair__number", flat=True))
    assert drawn == {1, 2, 3, 4, 5}
    # A late pair: round 1 counts as missed, as for a pair registered after a draw.
    assert 1 in selectors.absences(championship).sat_out[5]
    assert Pair.objects.get(pk=late.pk).joined_round == 2


def test_a_pair_seated_cannot_be_unticked_and_the_check_in_setting_is_fixed_after_round_1(
) -> None:
    championship, organiser = _drawn_with_checked_in([1, 2, 3, 4])
    seated = Pair.objects.get(championship=championship, number=1)
    with pytest.raises(services.ChampionshipStateError):
        signup.pair_check_in(pair=seated, present=False, acting_user=organiser)
    with pytest.raises(services.ChampionshipStateError) as caught:
        signup.signup_settings_set(championship=championship, signup_open=False,
                                   signup_cap=None, check_in=False, site_url=SITE,
                                   acting_user=organiser)
    assert caught.value.field == "check_in"
    # The public sign-up closes with round 1's draw.
    assert signup.signup_refusal(championship) is not None
    with pytest.raises(services.ChampionshipStateError):
        sign(championship, 9)


def test_the_checklist_shows_the_sign_up_and_the_check_in_before_round_1() -> None:
    championship, organiser = open_championship(check_in=True, rounds=2)
    for k in range(1, 4):
        sign(championship, k)
    signup.pairs_from_signup(championship=championship, acting_user=organiser)
    signup.pair_check_in(pair=Pair.objects.get(championship=championship, number=2),
                         present=True, acting_user=organiser)
    checklist = selectors.checklist(championship)
    keys = [s.key for s in checklist.steps]
    assert keys.index("pairs") < keys.index("signup")
    assert keys.index("check_in") < keys.index("draw")
    step = checklist.step("check_in")
    assert step.detail == "1 present de 3" and step.state in ("todo", "next")
    signup.pair_check_in(pair=Pair.objects.get(championship=championship, number=1),
                         present=True, acting_user=organiser)
    services.round_draw(round=championship.rounds.get(number=1), seed=1,
                        acting_user=organiser)
    assert selectors.checklist(championship).step("check_in").state == "done"


def test_the_exported_file_leaves_out_a_pair_never_present_and_its_players() -> None:
    championship, _ = _drawn_with_checked_in([1, 2, 4, 6])
    document = services.championship_export(championship)
    assert [p["number"] for p in document["pairs"]] == [1, 2, 4, 6]
    names = {p["name"] for p in document["players"]}
    assert "Anna Puig 3" not in names and "Anna Puig 4" in names
