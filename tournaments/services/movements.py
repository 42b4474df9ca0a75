"""The rows a draw needs, as ``scoring.movement`` values, and the check of a round's
seating before it starts (drawn, typed in, or edited by hand in the admin).

The rules themselves (who may meet, who sits out, NS/EW) are ``scoring.movement``; this
module only reads rows and turns the movement's findings into Catalan messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring import movement
from tournaments.models import Bye, Championship, Pair, Round, Seating
from tournaments.selectors.presence import absent_pairs
from tournaments.services.errors import DrawError


class RematchError(DrawError):
    """No draw of the round avoids pairs meeting again: ``rematches`` lists them (pair
    numbers, lower first); ``seed`` and ``movement`` are those of the draw that holds
    them, so the organiser who accepts them can have that very draw stored
    (``round_draw(seed=..., movement_name=..., accept_rematches=True,
    shown_rematches=rematches)``)."""

    def __init__(self, message: str, *, rematches: Sequence[tuple[int, int]],
                 seed: int | None = None, movement: str | None = None) -> None:
        super().__init__(message, field="accept_rematches")
        self.rematches = tuple(tuple(pair) for pair in rematches)
        self.seed = seed
        self.movement = movement


def field_of(championship: Championship, round_number: int) -> list[Pair]:
    """The pairs that play round ``round_number``: registered for it (a late pair joins
    from its ``joined_round``), present (with the check-in on, checked in:
    ``selectors.signup.absent_pairs``) and not withdrawn before it, by number (one
    query)."""
    pairs = (Pair.objects.filter(championship=championship)
             .exclude(absent_pairs(championship)).order_by("number"))
    return [p for p in pairs if p.plays_round(round_number)]


def draws_of(rounds: QuerySet[Round] | Iterable[Round]) -> list[movement.Draw]:
    """The seatings and byes of ``rounds`` as ``movement.Draw`` values (two queries)."""
    tables: dict[int, list[movement.Table]] = {}
    byes: dict[int, list[int]] = {}
    for round_number, table, ns, ew in (
        Seating.objects.filter(round__in=rounds)
        .order_by("round__number", "table__number")
        .values_list("round__number", "table__number", "ns_pair__number", "ew_pair__number")
    ):
        tables.setdefault(round_number, []).append(movement.Table(table, ns, ew))
    for round_number, pair in Bye.objects.filter(round__in=rounds).values_list(
        "round__number", "pair__number"
    ):
        byes.setdefault(round_number, []).append(pair)
    return [
        movement.Draw(n, tuple(tables.get(n, ())), tuple(sorted(byes.get(n, ()))))
        for n in sorted(set(tables) | set(byes))
    ]


def history_before(round: Round) -> movement.History:
    """What every other drawn round of the championship did (meetings, byes, NS/EW)."""
    others = Round.objects.filter(championship_id=round.championship_id).exclude(pk=round.pk)
    return movement.History.of(draws_of(others))


@dataclass(frozen=True)
class SeatingCheck:
    """A round's seating checked: ``problems`` (Catalan messages; any makes the seating
    invalid), ``rematches`` (pair numbers that met before), ``byes`` (pairs of the field
    sitting out), ``tables`` (how many)."""

    problems: list[str]
    rematches: list[tuple[int, int]]
    byes: list[int]
    tables: int

    @property
    def ok(self) -> bool:
        return not self.problems


def round_check(round: Round) -> SeatingCheck:
    """Check ``round``'s seating as it is stored now (``movement.check_draw``): no pair
    twice, two different pairs at each table, only pairs of the round's field seated;
    list rematches and byes. A few queries, whatever the size."""
    draws = draws_of(Round.objects.filter(pk=round.pk))
    this = draws[0] if draws else movement.Draw(round.number, ())
    members = [p.number for p in field_of(round.championship, round.number)]
    checked = movement.check_draw(
        this.tables, field=members, byes=this.byes, history=history_before(round)
    )
    messages = {
        movement.Problem.SAME_PAIR: _("La taula %(n)s té la mateixa parella a NS i a EO."),
        movement.Problem.PAIR_TWICE: _("La parella %(n)s seu dues vegades en aquesta ronda."),
        movement.Problem.TABLE_TWICE: _("La taula %(n)s surt dues vegades."),
        movement.Problem.NOT_IN_FIELD: _(
            "La parella %(n)s no juga aquesta ronda (retirada o encara no inscrita)."
        ),
    }
    problems = [messages[code] % {"n": n} for code, n in checked.problems]
    return SeatingCheck(problems, list(checked.rematches), list(checked.byes), len(this.tables))


def rematch_list(rematches: Iterable[tuple[int, int]]) -> str:
    """"1-5, 2-8": the meetings as the messages show them."""
    return ", ".join(f"{a}-{b}" for a, b in rematches)
