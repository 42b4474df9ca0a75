"""Stages: set a championship up as a sequence of groups, a knockout (classic) or a
qualifying stage and finals (duplicate); start each stage; seat its rounds
(docs/rules.md "Stages"; the pure rules are ``scoring.stages``).

- ``services.stage_setup.stages_setup`` sets the stages up (its own module: it replaces
  the rounds through ``services.rounds``, which draws through this one).
- :func:`stage_start` fixes what the stage starts from: a groups stage its groups, a
  knockout the qualified pairs (stored on the groups stage) and the bracket. Drawing a
  stage's first round starts it.
- :func:`stage_draw` gives a stage round's tables (``services.round_draw`` stores them):
  a group round every group's all-play-all round; a knockout round its matches whose
  two pairs are known.
- :func:`knockout_seat` seats every knockout match that became ready as soon as the
  games that feed it are in (``services.game_record`` calls it), and refuses a
  correction that would change a winner whose next match is already played.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import movement
from scoring import stages as pure
from tournaments.models import (
    AuditEntry,
    Championship,
    Pair,
    Round,
    RoundPair,
    Seating,
    Stage,
    Table,
)
from tournaments.selectors import stages as read
from tournaments.selectors.ranks import ranks_before
from tournaments.services.common import Capability, User, audit, require
from tournaments.services.errors import DrawError, ResultError


def previous_stage(stage: Stage) -> Stage | None:
    return (Stage.objects.filter(championship_id=stage.championship_id, number__lt=stage.number)
            .order_by("-number").first())


def _field(stage: Stage, round_number: int) -> list[int]:
    from tournaments.services.movements import field_of

    return [p.number for p in field_of(stage.championship, round_number)]


def _ranking_before(stage: Stage) -> list[int] | None:
    """Pair numbers best first by the standings before ``stage`` (``None`` for the
    first stage)."""
    first = Round.objects.filter(stage=stage).order_by("number").first()
    if first is None or first.number <= 1:
        return None
    ranks = ranks_before(stage.championship, first.number)
    return sorted(ranks, key=lambda p: (ranks[p], p))


def stage_start(*, stage: Stage, acting_user: User | None, seed: int | None = None) -> Stage:
    """Fix what ``stage`` starts from (run inside the draw of its first round, or on its
    own by the organiser): a groups stage splits its field into groups; a knockout
    takes the qualified pairs from the stage before it (every group game must be in)
    and seeds the bracket; finals cut the standings before them into the finals.
    A stage already started is left as it is. Audited. Raises :class:`DrawError`."""
    stage = Stage.objects.select_for_update().select_related("championship").get(pk=stage.pk)
    if stage.is_started:
        return stage
    require(acting_user, stage.championship, Capability.DRAW)
    first = Round.objects.filter(stage=stage).order_by("number").first()
    if first is None:
        raise DrawError(_("La fase %(n)s no té rondes.") % {"n": stage.number}, field="stages")
    if stage.kind == Stage.Kind.GROUPS:
        _start_groups(stage, first, seed)
    elif stage.kind == Stage.Kind.KNOCKOUT:
        _start_knockout(stage)
    elif stage.kind == Stage.Kind.FINALS:
        _start_finals(stage)
    stage.started_at = timezone.now()
    stage.save()
    audit(stage.championship, AuditEntry.Action.STAGE_START, acting_user,
          target=stage.label, round_number=first.number, before=None,
          after={"groups": stage.groups, "qualified": _qualified_of_previous(stage),
                 "bracket": stage.bracket, "seed": stage.seed})
    return stage


def _qualified_of_previous(stage: Stage) -> Any:
    before = previous_stage(stage)
    return before.qualified if before is not None else None


def _start_groups(stage: Stage, first: Round, seed: int | None) -> None:
    import secrets

    pairs = _field(stage, first.number)
    ranking = _ranking_before(stage)
    if ranking is not None:
        # A pair that joined at this stage has no standing before it: it ranks last.
        ranked = set(ranking)
        ranking = [*ranking, *sorted(p for p in pairs if p not in ranked)]
    method = stage.split
    if method == Stage.Split.RANDOM:
        stage.seed = seed if seed is not None else secrets.randbits(62)
        ranking = None
    try:
        groups = pure.split_groups(pairs, stage.group_count, method=method, seed=stage.seed,
                                   ranking=ranking)
    except pure.GroupSplitError as exc:
        few = len(pairs) < 2 * stage.group_count
        raise DrawError(
            _("No es poden fer %(g)s grups amb %(n)s parelles: cada grup en necessita "
              "almenys 2.") % {"g": stage.group_count, "n": len(pairs)} if few else
            _("No es poden fer %(g)s grups amb %(n)s parelles.")
            % {"g": stage.group_count, "n": len(pairs)},
            field="stages",
        ) from exc
    needed = pure.stage_rounds(groups)
    have = Round.objects.filter(stage=stage).count()
    if needed > have:
        raise DrawError(
            _("Els grups necessiten %(need)s rondes i la fase en té %(have)s: torneu a "
              "preparar les fases.") % {"need": needed, "have": have},
            field="stages",
        )
    stage.groups = [{"name": g.name, "pairs": list(g.pairs)} for g in groups]


def _start_knockout(stage: Stage) -> None:
    before = previous_stage(stage)
    qualified: list[pure.Qualified] | list[int]
    if before is not None and before.kind == Stage.Kind.GROUPS:
        if not before.groups:
            first = Round.objects.filter(stage=before).order_by("number").first()
            raise DrawError(
                _("Els grups encara no estan formats: sortegeu primer la ronda %(n)s, la "
                  "primera dels grups.") % {"n": first.number if first else 1},
                field="stages",
            )
        view = read.groups_view(stage.championship, before)
        if view is None or view.games_in < view.games_due:
            done = 0 if view is None else view.games_in
            due = 0 if view is None else view.games_due
            raise DrawError(
                _("Falten partides dels grups (%(done)s de %(due)s): l'eliminatòria "
                  "comença quan hi són totes.") % {"done": done, "due": due},
                field="stages",
            )
        standings = read.group_standings(before)
        try:
            qualified = read.qualification(before, standings)
        except pure.QualifyError:
            raise DrawError(_qualify_refusal(before, standings), field="stages") from None
        before.qualified = [
            {"pair": q.pair, "group": q.group, "place_in_group": q.place_in_group,
             "how": q.how} for q in qualified
        ]
        before.save(update_fields=["qualified"])
    else:
        first = Round.objects.filter(stage=stage).order_by("number").first()
        assert first is not None
        present = _field(stage, first.number)
        ranking = _ranking_before(stage) or present
        here = set(present)  # a pair withdrawn since is not seeded
        qualified = [p for p in ranking if p in here][
            : 2 ** Round.objects.filter(stage=stage).count()]
    try:
        bracket = pure.seed_bracket(
            qualified, third_place=stage.third_place,
            avoid_same_group=stage.avoid_same_group and bool(qualified)
            and isinstance(qualified[0], pure.Qualified),
        )
    except pure.BracketError as exc:
        raise DrawError(_("No es pot fer el quadre: %(detail)s") % {"detail": exc},
                        field="stages") from None
    if bracket.round_count > Round.objects.filter(stage=stage).count():
        raise DrawError(
            _("El quadre de %(n)s parelles necessita %(need)s rondes: torneu a preparar les "
              "fases.") % {"n": len(qualified), "need": bracket.round_count},
            field="stages",
        )
    stage.bracket = {"positions": list(bracket.positions), "third_place": bracket.third_place}


def _qualify_refusal(stage: Stage, standings: list[pure.GroupStanding]) -> str:
    """Why ``stage``'s qualification cannot be made, in the user's language."""
    for s in standings:
        if sum(1 for r in s.rows if r.placed) < stage.per_group:
            return _("No es pot fer la classificació dels grups: el grup %(group)s té menys "
                     "de %(n)s parelles amb lloc (una parella retirada o sense cap partida "
                     "no en té).") % {"group": s.group.name, "n": stage.per_group}
    return _("No es pot fer la classificació dels grups: no hi ha %(n)s parelles amb dret "
             "a la repesca (una parella retirada, sense cap partida o, si ho diu la "
             "regla, sense cap victòria, no en té).") % {"n": stage.second_chance}


def _start_finals(stage: Stage) -> None:
    first = Round.objects.filter(stage=stage).order_by("number").first()
    assert first is not None
    ranking = _ranking_before(stage) or _field(stage, first.number)
    sizes = [int(n) for _name, n in stage.finals]
    present = set(_field(stage, first.number))
    ranked = [p for p in ranking if p in present][: sum(sizes)]
    if len(ranked) < sum(sizes):
        raise DrawError(
            _("Les finals necessiten %(need)s parelles classificades i n'hi ha %(n)s.")
            % {"need": sum(sizes), "n": len(ranked)},
            field="stages",
        )
    finals = pure.split_finals(ranked, sizes)
    names = [str(name) for name, _n in stage.finals]
    stage.groups = [{"name": names[k], "pairs": list(g.pairs)} for k, g in enumerate(finals)]


def stage_draw(
    *, championship: Championship, round: Round, stage: Stage, seed: int,
    acting_user: User | None,
) -> movement.Draw:
    """The tables of ``round`` of ``stage`` (starting the stage at its first round)."""
    stage.championship = championship
    stage = stage_start(stage=stage, acting_user=acting_user, seed=seed)
    stage.championship = championship
    k = round.stage_round or 1
    if stage.kind == Stage.Kind.GROUPS:
        groups = [pure.Group(str(g["name"]), tuple(int(p) for p in g["pairs"]))
                  for g in stage.group_list()]
        if k > pure.stage_rounds(groups):
            return movement.Draw(round.number, (), (), (), movement.Movement.ROUND_ROBIN, None)
        present = set(_field(stage, round.number))
        absent = [p for g in groups for p in g.pairs if p not in present]
        drawn = pure.stage_round(groups, k, absent=absent)
        return movement.Draw(round.number, drawn.tables, drawn.byes, (),
                             movement.Movement.ROUND_ROBIN, None)
    if stage.kind == Stage.Kind.KNOCKOUT:
        bracket, _played, _rounds = read.bracket_with_winners(stage)
        tables = [
            movement.Table(m.number, m.top, m.bottom)
            for m in bracket.rounds[k - 1] if m.ready and m.top is not None
            and m.bottom is not None
        ]
        return movement.Draw(round.number, tuple(tables), (), (), movement.Movement.RANDOM, None)
    if stage.kind == Stage.Kind.FINALS:
        return finals_draw(stage=stage, round=round, seed=seed)
    raise DrawError(_("Aquesta fase es sorteja com les rondes normals."))


def finals_draw(*, stage: Stage, round: Round, seed: int) -> movement.Draw:
    """Each final's tables drawn among its own pairs (at random, avoiding rematches, in
    the stage's first round; Swiss by the final's own standings, carry-over included,
    after: ``selectors.finals``), numbered through the hall: final A's tables first.
    The pairs of no final play no finals round."""
    from tournaments.selectors.finals import finals_scored
    from tournaments.selectors.results import scored_championship
    from tournaments.services.movements import history_before

    history = history_before(round)
    ranks: dict[str, dict[int, int]] = {}
    if (round.stage_round or 1) > 1:
        scored = scored_championship(stage.championship, public_only=False)
        for final in finals_scored(stage.championship, stage, scored)[0]:
            ranks[final.name] = {r.pair: r.rank for r in final.rows if not r.withdrawn}
    tables: list[movement.Table] = []
    byes: list[int] = []
    rematches: list[tuple[int, int]] = []
    present = set(_field(stage, round.number))
    for g in stage.group_list():
        pairs = [int(p) for p in g["pairs"] if int(p) in present]
        method = movement.Movement.SWISS if ranks else movement.Movement.RANDOM
        drawn = movement.draw(method, pairs, round=round.number, seed=seed, history=history,
                              ranks=ranks.get(str(g["name"]), {}))
        for t in drawn.tables:
            tables.append(movement.Table(len(tables) + 1, t.ns, t.ew))
        byes.extend(drawn.byes)
        rematches.extend(drawn.rematches)
    return movement.Draw(round.number, tuple(tables), tuple(sorted(byes)), tuple(rematches),
                         movement.Movement.SWISS if ranks else movement.Movement.RANDOM,
                         None)


def knockout_seat(stage: Stage, *, acting_user: User | None) -> list[Seating]:
    """Seat every knockout match whose two pairs are now known and that has no table
    yet, in its round (match k at table k, the upper pair NS); drop a seated match that
    a corrected game made stale, while it has no game. Runs in the caller's
    transaction; locks the stage row first, so two games entered at once that feed one
    match seat it once. Raises :class:`ResultError` when a correction would change a
    winner whose next match is already played."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if not stage.bracket:
        return []
    bracket, _played, rounds = read.bracket_with_winners(stage)
    wanted: dict[int, dict[frozenset[int], tuple[int, int, int]]] = {}
    for k, matches in enumerate(bracket.rounds, start=1):
        for m in matches:
            if m.top is not None and m.bottom is not None:
                wanted.setdefault(k, {})[frozenset((m.top, m.bottom))] = (m.number, m.top,
                                                                          m.bottom)
    created: list[Seating] = []
    for k, rnd in sorted(rounds.items()):
        seated = list(Seating.objects.filter(round=rnd).select_related(
            "ns_pair", "ew_pair", "table"))
        want = wanted.get(k, {})
        for s in seated:
            key = frozenset((s.ns_pair.number, s.ew_pair.number))
            if key in want:
                continue
            if hasattr(s, "game"):
                raise ResultError(
                    _("Aquesta correcció canvia qui passa a la ronda %(r)s, on la partida "
                      "de la taula %(t)s ja s'ha jugat: esborreu-la primer.")
                    % {"r": rnd.number, "t": s.table.number},
                    field="ns_points",
                )
            RoundPair.objects.filter(seating=s).delete()
            s.delete()
        have = {frozenset((s.ns_pair.number, s.ew_pair.number)) for s in seated}
        missing = [v for key, v in want.items() if key not in have]
        if not missing or rnd.is_closed:
            continue
        pairs = {p.number: p for p in Pair.objects.filter(
            championship_id=stage.championship_id,
            number__in=[n for _m, a, b in missing for n in (a, b)])}
        tables = {t.number: t for t in Table.objects.filter(championship_id=stage.championship_id)}
        used = set(Seating.objects.filter(round=rnd).values_list("table__number", flat=True))
        for number, top, bottom in sorted(missing):
            table_number = number
            while table_number in used:
                table_number += 1
            used.add(table_number)
            table = tables.get(table_number) or Table.objects.create(
                championship_id=stage.championship_id, number=table_number)
            tables[table_number] = table
            seating = Seating.objects.create(round=rnd, table=table, ns_pair=pairs[top],
                                             ew_pair=pairs[bottom])
            RoundPair.objects.bulk_create([
                RoundPair(round=rnd, pair=pairs[top], seating=seating),
                RoundPair(round=rnd, pair=pairs[bottom], seating=seating),
            ])
            created.append(seating)
        if missing:
            audit(stage.championship_id, AuditEntry.Action.ROUND_DRAW, acting_user,
                  target=_("ronda %(n)s") % {"n": rnd.number}, round_number=rnd.number,
                  before=None,
                  after={"tables": [[s.table.number, s.ns_pair.number, s.ew_pair.number]
                                    for s in created if s.round_id == rnd.pk],
                         "byes": [], "knockout": True})
    return created


def knockout_level_check(seating: Seating, ns_points: int, ew_points: int,
                         deals: int | None = None, max_deals: int | None = None,
                         *, adjusted: bool = False) -> None:
    """A knockout game needs a winner: a level score is refused (the extra deals are
    played and the final entered; still level after them, the referee decides and
    enters the game as adjusted)."""
    if seating.round.stage_id is None or ns_points != ew_points:
        return
    stage = Stage.objects.filter(pk=seating.round.stage_id).only("kind").first()
    if stage is None or stage.kind != Stage.Kind.KNOCKOUT:
        return
    if adjusted:
        raise ResultError(
            _("Una partida d'eliminatòria no pot acabar empatada (%(a)s a %(b)s): la "
              "decisió arbitral ha de donar més punts a la parella que passa.")
            % {"a": ns_points, "b": ew_points},
            field="ew_points",
        )
    if deals is not None and max_deals is not None and deals > max_deals:
        raise ResultError(
            _("Una partida d'eliminatòria no pot acabar empatada (%(a)s a %(b)s): si "
              "encara ho està després de les mans de desempat, decideix l'àrbitre "
              "principal i l'entra com a decisió arbitral.")
            % {"a": ns_points, "b": ew_points},
            field="ew_points",
        )
    raise ResultError(
        _("Una partida d'eliminatòria no pot acabar empatada (%(a)s a %(b)s): jugueu "
          "les mans de desempat i entreu el resultat final.")
        % {"a": ns_points, "b": ew_points},
        field="ew_points",
    )
