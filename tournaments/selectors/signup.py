"""Reads of the public sign-up and the check-in on the day: who is present (the one rule
the draw and the standings follow), the list's counts, the places left, the check-in
page's rows.

The contact of a registration (e-mail, phone) is the organiser's only: no read model of
this module that a public page or the check-in page renders carries it
(:class:`CheckInRow`, :class:`SignupPlaces`); :func:`registrations` is the organiser's
list.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.models import Championship, Pair, Registration, Round
from tournaments.selectors.presence import absent_pairs
from tournaments.selectors.standings import PAIR_NAME_COLUMNS, PAIR_NAME_FIELDS, PairName

__all__ = ["absent_pairs"]

#: The statuses that hold a place (under the cap).
HOLDING = (Registration.Status.REGISTERED, Registration.Status.CONFIRMED)
#: Every status of a registration still in the list (not cancelled).
ACTIVE = (*HOLDING, Registration.Status.WAITING)


def first_round_drawn(championship: Championship) -> bool:
    """Whether round 1 has a draw (a table or a bye). One query."""
    return Round.objects.filter(championship=championship, number=1).filter(
        Q(seatings__isnull=False) | Q(byes__isnull=False)).exists()


@dataclass(frozen=True, slots=True)
class SignupCounts:
    """The sign-up list's counts: ``registered`` (holding a place, not yet confirmed),
    ``waiting``, ``confirmed``, ``paid`` (of those not cancelled), ``cancelled``;
    ``cap``: the places (``None``: no cap)."""

    registered: int
    waiting: int
    confirmed: int
    paid: int
    cancelled: int
    cap: int | None

    @property
    def holding(self) -> int:
        """Registrations holding a place (registered or confirmed)."""
        return self.registered + self.confirmed

    @property
    def free(self) -> int | None:
        """Places left (0 at least; ``None`` without a cap)."""
        return None if self.cap is None else max(self.cap - self.holding, 0)


def signup_counts(championship: Championship) -> SignupCounts:
    """The counts of ``championship``'s sign-up list (one query)."""
    S = Registration.Status
    counts = Registration.objects.filter(championship=championship).aggregate(
        registered=Count("id", filter=Q(status=S.REGISTERED)),
        waiting=Count("id", filter=Q(status=S.WAITING)),
        confirmed=Count("id", filter=Q(status=S.CONFIRMED)),
        paid=Count("id", filter=Q(paid=True) & ~Q(status=S.CANCELLED)),
        cancelled=Count("id", filter=Q(status=S.CANCELLED)),
    )
    return SignupCounts(cap=championship.signup_cap, **counts)


@dataclass(frozen=True, slots=True)
class SignupPlaces:
    """What the public championship page says of the sign-up: open or not, and the
    places left (``None``: no cap) and the pairs waiting. No name, no contact."""

    open: bool
    free: int | None
    waiting: int


def signup_places(championship: Championship) -> SignupPlaces:
    """The public line of the sign-up (one query when it is open, none otherwise)."""
    if not championship.signup_open:
        return SignupPlaces(False, None, 0)
    counts = signup_counts(championship)
    return SignupPlaces(True, counts.free, counts.waiting)


def registrations(championship: Championship, *, cancelled: bool = True) -> list[Registration]:
    """The organiser's list, in order (``position``), the cancelled ones last (when
    ``cancelled``), with the pair each one became. One query."""
    rows = list(Registration.objects.filter(championship=championship)
                .select_related("pair").order_by("position", "id"))
    active = [r for r in rows if r.status != Registration.Status.CANCELLED]
    return active + ([r for r in rows if r.status == Registration.Status.CANCELLED]
                     if cancelled else [])


def waiting_place(registration: Registration) -> int | None:
    """A waiting registration's place in the waiting list (1: the next to move up);
    ``None`` when it is not waiting. One query."""
    if registration.status != Registration.Status.WAITING:
        return None
    ahead = Registration.objects.filter(
        championship_id=registration.championship_id, status=Registration.Status.WAITING,
    ).filter(Q(position__lt=registration.position)
             | Q(position=registration.position, id__lt=registration.pk)).count()
    return ahead + 1


# --------------------------------------------------------------------------- check-in


@dataclass(frozen=True, slots=True)
class CheckInRow:
    """One pair on the check-in page: its name (no contact), whether it is present, and
    the round it joins (``joins``: above 1 for a pair checked in after round 1 was
    drawn)."""

    name: PairName
    present: bool
    joins: int

    @property
    def number(self) -> int:
        return self.name.number


@dataclass(frozen=True, slots=True)
class CheckIn:
    """The check-in page: the rows shown (every pair, or those ``find`` matches), how
    many are ``present`` of the ``expected`` (every pair not withdrawn), and whether
    round 1 is drawn already (a pair ticked now joins later)."""

    rows: tuple[CheckInRow, ...]
    present: int
    expected: int
    drawn: bool
    find: str = ""


def check_in(championship: Championship, *, find: str = "") -> CheckIn:
    """The check-in page's value: every pair by number, or those ``find`` finds ("find
    my pair": a number, or words of either player's name, accents and case ignored,
    ``PairName.matches``). Two queries."""
    rows = Pair.objects.filter(championship=championship).order_by("number").values_list(
        *PAIR_NAME_COLUMNS, "checked_in_at", "joined_round")
    # The names as entered (the helpers at the door need them), not the public alias
    # of a person who asked not to be named: the person's columns are left out.
    every = [
        CheckInRow(PairName(*row[:PAIR_NAME_FIELDS]), row[-2] is not None, row[-1])
        for row in rows
    ]
    expected = [r for r in every if r.name.withdrawn_after_round is None]
    query = find.strip()
    shown = [r for r in every if r.name.matches(query)] if query else every
    return CheckIn(
        rows=tuple(shown), present=sum(1 for r in expected if r.present),
        expected=len(expected), drawn=first_round_drawn(championship), find=query,
    )


def present_count(championship: Championship) -> tuple[int, int]:
    """``(present, expected)``: the pairs checked in and every pair not withdrawn (one
    query), for the draw page."""
    counts = Pair.objects.filter(championship=championship,
                                 withdrawn_after_round__isnull=True).aggregate(
        expected=Count("id"), present=Count("id", filter=Q(checked_in_at__isnull=False)))
    return counts["present"], counts["expected"]
