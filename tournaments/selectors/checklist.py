"""The organiser's checklist: every step of running a championship, in order, each with
its state (done, the next one, still to do, or not yet possible and why) and where it is
done. The championship's page renders this value and decides nothing itself
(docs/decisions.md 53).

The steps: rules, pairs, the public sign-up (optional, once set up), referees, rounds
and boards, generate the boards, print, the check-in (when pairs check in on the day);
for each round: draw it, its results, close it; finish; publish the deal secret. A classic
championship deals no boards: rounds; for each round: draw it, print its documents
(pairings, table cards, score sheets: they need the draw), its games, close it; finish.
The next step is the first one neither done nor blocked, skipping the optional steps
(referees, printing) once a later step is done or, for a classic round's printing, once
its first game is in (a club that needs no referee or no paper skipped them on
purpose). Seven queries whatever the size of the championship.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import (
    Championship,
    Membership,
    Pair,
    PrintJob,
    Round,
)
from tournaments.selectors.standings import round_progress


class StepState(StrEnum):
    """Where a step stands."""

    DONE = "done"
    NEXT = "next"  # the one step to do now
    TODO = "todo"  # possible, but not the next one (or optional and skipped)
    BLOCKED = "blocked"  # not yet possible: ``Step.why`` says why


@dataclass(frozen=True, slots=True)
class Step:
    """One step: ``key`` names it (``rules``, ``pairs``, ``signup``, ``referees``,
    ``rounds``, ``boards``, ``print``, ``check_in``, ``draw``, ``results``, ``close``,
    ``finish``, ``publish``),
    ``round`` its round (per-round steps), ``label`` and ``detail`` (e.g. "3/8 results")
    what the page shows, ``why`` the reason of a blocked step, ``url`` where it is done
    (``post``: a button sending a POST there, not a link; ``""``: no link)."""

    key: str
    label: str
    state: StepState
    round: int | None = None
    detail: str = ""
    why: str = ""
    url: str = ""
    post: bool = False
    optional: bool = False

    @property
    def anchor(self) -> str:
        """The step's id in the page (``step-draw-2``)."""
        return f"step-{self.key}" + (f"-{self.round}" if self.round is not None else "")


@dataclass(frozen=True, slots=True)
class Checklist:
    """Every step in order; :attr:`next` is the one to do now (``None``: all done)."""

    steps: tuple[Step, ...]

    @property
    def next(self) -> Step | None:
        return next((s for s in self.steps if s.state is StepState.NEXT), None)

    def step(self, key: str, round: int | None = None) -> Step:
        """The step ``key`` (of round ``round``). Raises ``KeyError``."""
        for s in self.steps:
            if s.key == key and s.round == round:
                return s
        raise KeyError((key, round))


def _state(done: bool, why: str = "") -> StepState:
    if done:
        return StepState.DONE
    return StepState.BLOCKED if why else StepState.TODO


def checklist(championship: Championship) -> Checklist:
    """The organiser's steps for ``championship`` with their states (module docstring).

    Seven queries: the pairs, the referees, the rounds with their tables and byes, the
    board sheets asked for, and :func:`round_progress` (three).
    """
    slug = championship.slug
    finished = championship.status == Championship.Status.FINISHED
    over = _("El campionat s'ha acabat.") if finished else ""
    # Registered pairs (as the pair list beside the checklist counts them) and those
    # withdrawn; the steps need the pairs still in play.
    counts = Pair.objects.filter(championship=championship).aggregate(
        registered=Count("id"),
        withdrawn=Count("id", filter=Q(withdrawn_after_round__isnull=False)),
        present=Count("id", filter=Q(checked_in_at__isnull=False,
                                     withdrawn_after_round__isnull=True)),
    )
    registered, withdrawn = counts["registered"], counts["withdrawn"]
    pair_count = registered - withdrawn
    referees = Membership.objects.filter(
        championship=championship,
        role__in=[Membership.Role.REFEREE, Membership.Role.HEAD_REFEREE],
    ).count()
    rounds = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings", distinct=True), sitting_out=Count("byes", distinct=True))
        .order_by("number")
    )
    classic = championship.is_classic
    # The round pack holds the board sheets too; a classic championship prints only
    # its own documents (table cards, score sheets...).
    jobs = PrintJob.objects.filter(championship=championship)
    if not classic:
        jobs = jobs.filter(kind__in=[PrintJob.Kind.BOARD_SHEETS, PrintJob.Kind.ROUND_PACK])
    # A classic round's documents: any document asked for that round counts.
    printed_rounds = set(jobs.values_list("round_number", flat=True).distinct())
    printed = bool(printed_rounds)
    # Results in / expected: a classic championship's games in / tables seated.
    progress = round_progress(championship)
    has_results = any(p.results_in for p in progress.values())
    set_up = bool(rounds) and (classic or championship.boards_per_round > 0)
    # A classic championship deals no boards in advance: nothing waits for them.
    dealt = classic or bool(championship.deal_commitment)

    steps: list[Step] = [
        Step(
            "rules", _("Regles"), StepState.DONE,
            detail="" if has_results
            else _("Es poden canviar fins a la primera partida entrada.") if classic
            else _("Es poden canviar fins al primer resultat."),
            url=reverse("rules_edit", args=[slug]) if not has_results and not finished else "",
        ),
        Step(
            "pairs", _("Parelles"),
            _state(pair_count >= 2, over),
            detail=_pairs_detail(registered, withdrawn),
            why=over, url="" if finished else reverse("pairs_register", args=[slug]),
        ),
        Step(
            "referees", _("Àrbitres"), _state(referees > 0),
            detail=ngettext("%(n)s àrbitre", "%(n)s àrbitres", referees) % {"n": referees}
            if referees else _("Opcional: l'organitzador també pot entrar resultats."),
            url=reverse("people", args=[slug]), optional=True,
        ),
        Step(
            "rounds", _("Rondes") if classic else _("Rondes i taulers"), _state(set_up, over),
            detail=(
                "" if not set_up
                else ngettext("%(n)s ronda", "%(n)s rondes", len(rounds)) % {"n": len(rounds)}
                if classic
                else ngettext("%(rounds)s ronda de %(boards)s", "%(rounds)s rondes de %(boards)s",
                              len(rounds))
                % {"rounds": len(rounds), "boards": ngettext(
                    "%(n)s tauler", "%(n)s taulers", championship.boards_per_round)
                   % {"n": championship.boards_per_round}}
            ),
            why=over, url="" if finished else reverse("rounds_setup", args=[slug]),
        ),
    ]
    if championship.signup_open or championship.signup_cap is not None:
        # The public sign-up, once the organiser set it up (optional): never the next
        # step, the pairs' step before it is.
        steps.insert(2, Step(
            "signup", _("Inscripció pública"),
            StepState.DONE if pair_count >= 2 or finished else StepState.TODO,
            detail=_("Oberta") if championship.signup_open else _("Tancada"),
            url="" if finished else reverse("signup_list", args=[slug]), optional=True,
        ))
    skipped: set[int] = set()  # optional steps never the next one
    if not classic:
        steps += _board_steps(slug, set_up=set_up, dealt=dealt, has_results=has_results,
                              finished=finished, over=over, printed=printed)
    first_drawn = any(r.tables or r.sitting_out for r in rounds if r.number == 1)
    if championship.check_in:
        # Round 1 draws the pairs present only: the check-in comes first.
        steps.append(Step(
            "check_in", _("Passar llista"), _state(first_drawn or finished),
            detail=ngettext("%(n)s present de %(m)s", "%(n)s presents de %(m)s",
                            counts["present"]) % {"n": counts["present"], "m": pair_count},
            url="" if finished else reverse("check_in", args=[slug]),
        ))
    for rnd in rounds:
        n = rnd.number
        drawn = bool(rnd.tables or rnd.sitting_out)
        counted = progress.get(n)
        results_in = counted.results_in if counted else 0
        expected = counted.results_expected if counted else 0
        if drawn:
            draw_why = ""
        elif finished:
            draw_why = over
        elif rnd.is_closed:
            draw_why = _("La ronda està tancada.")
        elif pair_count < 2 and not drawn:
            draw_why = _("Cal com a mínim 2 parelles.")
        elif not dealt:
            draw_why = _("Primer cal generar els taulers.")
        else:
            draw_why = ""
        not_drawn = "" if drawn else _("La ronda encara no està sortejada.")
        steps.append(Step(
            "draw", _("Sortejar la ronda %(n)s") % {"n": n},
            _state(drawn, draw_why), round=n, why=draw_why,
            url=reverse("round_seating", args=[slug, n]) if drawn
            else ("" if draw_why else reverse("round_draw", args=[slug, n])),
        ))
        if classic:
            round_printed = n in printed_rounds
            if results_in and not round_printed:
                skipped.add(len(steps))
            steps.append(Step(
                "print", _("Imprimir la ronda %(n)s") % {"n": n},
                _state(round_printed, not_drawn), round=n, why=not_drawn,
                detail="" if not drawn else _(
                    "Aparellaments, rètols de taula i fulls d'anotació."),
                url=reverse("round_seating", args=[slug, n]) + "#print-round"
                if drawn else "",
                optional=True,
            ))
        steps += [
            Step(
                "results", (_("Partides de la ronda %(n)s") if classic
                            else _("Resultats de la ronda %(n)s")) % {"n": n},
                _state(drawn and (rnd.is_closed or 0 < expected <= results_in),
                       not_drawn or ("" if rnd.is_closed else over)),
                round=n, why=not_drawn or ("" if rnd.is_closed else over),
                detail=(
                    "" if not drawn
                    else ngettext("%(in)s de %(due)s partida", "%(in)s de %(due)s partides",
                                  expected) % {"in": results_in, "due": expected}
                    if classic
                    else ngettext("%(in)s de %(due)s resultat", "%(in)s de %(due)s resultats",
                                  expected) % {"in": results_in, "due": expected}),
                url=reverse("referee_tables", args=[slug]) if drawn else "",
            ),
            Step(
                "close", _("Tancar la ronda %(n)s") % {"n": n},
                _state(rnd.is_closed, not_drawn), round=n, why=not_drawn,
                url="" if rnd.is_closed or not drawn
                else reverse("round_close", args=[slug, n]),
            ),
        ]
    steps += [
        Step(
            "finish", _("Acabar el campionat"), _state(finished),
            detail="" if finished else _("Tanca les rondes obertes i no es pot desfer."),
            url="" if finished else reverse("championship_finish", args=[slug]),
        ),
    ]
    if classic:  # no boards dealt in advance: no secret to publish
        return Checklist(_with_next(steps, skipped))
    publish_why = (
        "" if championship.deal_secret_published
        else _("Primer cal acabar el campionat.") if not finished
        else "" if dealt else _("No s'hi van generar taulers.")
    )
    steps.append(Step(
        "publish", _("Publicar la llavor"),
        _state(bool(championship.deal_secret_published), publish_why), why=publish_why,
        url="" if championship.deal_secret_published or publish_why
        else reverse("deal_secret_publish", args=[slug]),
        post=True,
    ))
    return Checklist(_with_next(steps))


def _board_steps(slug: str, *, set_up: bool, dealt: bool, has_results: bool,
                 finished: bool, over: str, printed: bool) -> list[Step]:
    """A duplicate championship's steps between the rounds and the first draw: deal
    the boards, print their sheets."""
    not_set_up = "" if set_up else _("Primer cal preparar les rondes.")
    return [
        Step(
            "boards", _("Generar els taulers"),
            _state(dealt, over or not_set_up),
            why=over or not_set_up,
            detail=(_("Es poden tornar a generar fins al primer resultat.")
                    if dealt and not has_results and not finished else ""),
            url="" if finished or (dealt and has_results)
            else reverse("boards_generate", args=[slug]),
            post=not dealt,
        ),
        Step(
            "print", _("Imprimir els fulls dels taulers"),
            _state(printed, "" if dealt else _("Primer cal generar els taulers.")),
            why="" if dealt else _("Primer cal generar els taulers."),
            url=reverse("print_jobs", args=[slug]), optional=True,
        ),
    ]


def _pairs_detail(registered: int, withdrawn: int) -> str:
    """"9 parelles inscrites (1 retirada)": every registered pair, as the pair list
    beside the checklist counts them, and how many of them withdrew."""
    text = ngettext("%(n)s parella inscrita", "%(n)s parelles inscrites",
                    registered) % {"n": registered}
    if not withdrawn:
        return text
    return _("%(pairs)s (%(withdrawn)s)") % {
        "pairs": text,
        "withdrawn": ngettext("%(n)s retirada", "%(n)s retirades", withdrawn) % {"n": withdrawn},
    }


def _with_next(steps: list[Step], skipped: set[int] | None = None) -> tuple[Step, ...]:
    """Mark the next step: the first one that is to do, skipping an optional step when a
    later step is done, and the steps at the indexes ``skipped``."""
    last_done = max((i for i, s in enumerate(steps) if s.state is StepState.DONE), default=-1)
    for i, s in enumerate(steps):
        if s.state is not StepState.TODO or (s.optional and i < last_done):
            continue
        if skipped and i in skipped:
            continue
        steps[i] = replace(s, state=StepState.NEXT)
        break
    return tuple(steps)
