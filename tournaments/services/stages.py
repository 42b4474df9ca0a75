"""Stages: set a championship up as a sequence of groups, a knockout (classic) or a
qualifying stage and finals (duplicate); start each stage; seat its rounds
(docs/rules.md "Stages"; the pure rules are ``scoring.stages``).

- :func:`stages_setup` replaces the championship's rounds by the stages' rounds (before
  any table is drawn), each round tagged with its stage and its place in it.
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

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
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
from tournaments.services.common import Capability, User, audit, require
from tournaments.services.errors import DrawError, ResultError

#: The most stages a championship takes.
STAGES_MAX = 5

#: What each stage kind takes, with its default.
_KIND_FIELDS: dict[str, dict[str, Any]] = {
    Stage.Kind.SWISS: {"rounds": None},
    Stage.Kind.GROUPS: {
        "groups": None, "split": Stage.Split.SNAKE.value, "per_group": 1,
        "second_chance": 0, "rest_rule": Stage.RestRule.BEST_PLACED.value,
        "exclude_zero_wins": True, "rounds": None,
    },
    Stage.Kind.KNOCKOUT: {"third_place": False, "avoid_same_group": True, "pairs": None},
    Stage.Kind.FINALS: {
        "finals": None, "carry_over": Stage.CarryOver.NONE.value, "carry_over_percent": 0,
        "rounds": None,
    },
}

_FORMAT_KINDS = {
    Championship.Format.CLASSIC: (Stage.Kind.SWISS, Stage.Kind.GROUPS, Stage.Kind.KNOCKOUT),
    Championship.Format.DUPLICATE: (Stage.Kind.SWISS, Stage.Kind.FINALS),
}


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DrawError(
            _("«%(value)s» ha de ser un enter entre %(low)s i %(high)s.")
            % {"value": value, "low": low, "high": high},
            field=field,
        )
    return int(value)


def _choice(value: Any, field: str, choices: type[Any]) -> str:
    allowed = [c.value for c in choices]
    if value not in allowed:
        raise DrawError(
            _("«%(value)s» no és cap de: %(list)s.") % {"value": value, "list": ", ".join(allowed)},
            field=field,
        )
    return str(value)


def _group_rounds(pairs: int, groups: int) -> int:
    """Rounds of an all-play-all of the largest group when ``pairs`` split in ``groups``."""
    largest = -(-pairs // groups)
    return movement.round_robin_rounds(largest)


def _knockout_rounds(pairs: int) -> int:
    return (pure.bracket_size(pairs) - 1).bit_length()


def _clean_stages(
    championship: Championship, stages: Sequence[Mapping[str, Any]], pair_count: int
) -> list[dict[str, Any]]:
    """The stages checked and completed (rounds computed where left out), or
    :class:`DrawError` naming the stage and the field."""
    if not isinstance(stages, Sequence) or isinstance(stages, str | bytes) or not stages:
        raise DrawError(_("Cal com a mínim una fase."), field="stages")
    if len(stages) > STAGES_MAX:
        raise DrawError(_("Com a màxim %(n)s fases.") % {"n": STAGES_MAX}, field="stages")
    kinds = _FORMAT_KINDS[Championship.Format(championship.format)]
    out: list[dict[str, Any]] = []
    field_size = pair_count
    for k, spec in enumerate(stages, start=1):
        where = f"stages.{k}"
        if not isinstance(spec, Mapping):
            raise DrawError(_("La fase %(k)s no és un objecte.") % {"k": k}, field=where)
        kind = spec.get("kind")
        if kind not in [x.value for x in kinds]:
            raise DrawError(
                _("Fase %(k)s: el tipus «%(kind)s» no és cap de: %(list)s.")
                % {"k": k, "kind": kind, "list": ", ".join(x.value for x in kinds)},
                field=f"{where}.kind",
            )
        unknown = sorted(set(spec) - {"kind", "name", *_KIND_FIELDS[kind]})
        if unknown:
            raise DrawError(
                _("Fase %(k)s: camps desconeguts: %(list)s.")
                % {"k": k, "list": ", ".join(unknown)},
                field=where,
            )
        clean: dict[str, Any] = {"kind": kind, "name": str(spec.get("name") or "")[:60]}
        clean.update({name: spec.get(name, default) for name, default
                      in _KIND_FIELDS[kind].items()})
        if kind == Stage.Kind.SWISS:
            clean["rounds"] = _int(clean["rounds"], f"{where}.rounds", 1, 100)
        elif kind == Stage.Kind.GROUPS:
            groups = _int(clean["groups"], f"{where}.groups", 1, 64)
            if field_size < 2 * groups:
                raise DrawError(
                    _("Fase %(k)s: %(pairs)s parelles no fan %(groups)s grups d'almenys 2.")
                    % {"k": k, "pairs": field_size, "groups": groups},
                    field=f"{where}.groups",
                )
            clean["split"] = _choice(clean["split"], f"{where}.split", Stage.Split)
            clean["rest_rule"] = _choice(clean["rest_rule"], f"{where}.rest_rule",
                                         Stage.RestRule)
            per_group = _int(clean["per_group"], f"{where}.per_group", 0, 64)
            second = _int(clean["second_chance"], f"{where}.second_chance", 0, 256)
            if per_group + second == 0:
                raise DrawError(_("Fase %(k)s: no s'hi classifica ningú.") % {"k": k},
                                field=f"{where}.per_group")
            if per_group > field_size // groups:
                raise DrawError(
                    _("Fase %(k)s: el grup més petit té %(n)s parelles, menys de "
                      "%(per)s classificades.")
                    % {"k": k, "n": field_size // groups, "per": per_group},
                    field=f"{where}.per_group",
                )
            clean["exclude_zero_wins"] = bool(clean["exclude_zero_wins"])
            needed = _group_rounds(field_size, groups)
            clean["rounds"] = needed if clean["rounds"] is None else _int(
                clean["rounds"], f"{where}.rounds", needed, 100)
            field_size = min(field_size, per_group * groups + second)
        elif kind == Stage.Kind.KNOCKOUT:
            pairs = clean.pop("pairs")
            if pairs is None:
                pairs = field_size
            pairs = _int(pairs, f"{where}.pairs", 2, 256)
            clean["third_place"] = bool(clean["third_place"])
            if clean["third_place"] and pairs < 4:
                raise DrawError(_("Fase %(k)s: la partida pel tercer lloc necessita 4 "
                                  "parelles o més.") % {"k": k},
                                field=f"{where}.third_place")
            clean["avoid_same_group"] = bool(clean["avoid_same_group"])
            clean["rounds"] = _knockout_rounds(pairs)
            field_size = 2
        else:  # finals
            finals = clean["finals"]
            if not isinstance(finals, Sequence) or isinstance(finals, str) or not finals:
                raise DrawError(_("Fase %(k)s: indiqueu les finals, p. ex. A:16,B:16.")
                                % {"k": k}, field=f"{where}.finals")
            sized: list[list[Any]] = []
            total = 0
            for entry in finals:
                if not (isinstance(entry, Sequence) and not isinstance(entry, str)
                        and len(entry) == 2):
                    raise DrawError(_("Fase %(k)s: cada final és un nom i una mida.")
                                    % {"k": k}, field=f"{where}.finals")
                size = _int(entry[1], f"{where}.finals", 2, 256)
                total += size
                sized.append([str(entry[0])[:10], size])
            if total > field_size:
                raise DrawError(
                    _("Fase %(k)s: les finals sumen %(sum)s parelles i n'hi ha %(n)s.")
                    % {"k": k, "sum": total, "n": field_size},
                    field=f"{where}.finals",
                )
            clean["finals"] = sized
            clean["carry_over"] = _choice(clean["carry_over"], f"{where}.carry_over",
                                          Stage.CarryOver)
            clean["carry_over_percent"] = _int(clean["carry_over_percent"],
                                               f"{where}.carry_over_percent", 0, 100)
            clean["rounds"] = _int(clean["rounds"], f"{where}.rounds", 1, 100)
        if k > 1 and kind in (Stage.Kind.GROUPS, Stage.Kind.SWISS) and \
                out[-1]["kind"] == Stage.Kind.KNOCKOUT:
            raise DrawError(_("Fase %(k)s: després d'una eliminatòria no hi pot haver cap "
                              "altra fase.") % {"k": k}, field=where)
        if kind == Stage.Kind.KNOCKOUT and k != len(stages):
            raise DrawError(_("L'eliminatòria ha de ser l'última fase."), field=where)
        if kind == Stage.Kind.FINALS and k == 1:
            raise DrawError(_("Les finals necessiten una fase de classificació abans."),
                            field=where)
        out.append(clean)
    return out


@transaction.atomic
def stages_setup(
    *, championship: Championship, stages: Sequence[Mapping[str, Any]],
    boards_per_round: int = 0, acting_user: User | None,
) -> list[Stage]:
    """Set ``championship`` up as ``stages`` (each a mapping: ``kind`` and its settings,
    see ``_KIND_FIELDS``), replacing its rounds (``services.rounds_setup``, same
    conditions: before any table is drawn). A groups stage's rounds default to the
    largest group's all-play-all at today's number of pairs; a knockout's to the
    bracket's rounds. Audited. Raises :class:`DrawError` naming the stage and field."""
    from tournaments.services.rounds import rounds_setup

    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.SET_UP_ROUNDS)
    pair_count = Pair.objects.filter(championship=championship,
                                     withdrawn_after_round__isnull=True).count()
    clean = _clean_stages(championship, stages, pair_count)
    total = sum(s["rounds"] for s in clean)
    if total > 100:
        raise DrawError(_("Les fases sumen %(n)s rondes: com a màxim 100.") % {"n": total},
                        field="stages")
    Round.objects.filter(championship=championship).update(stage=None, stage_round=None)
    Stage.objects.filter(championship=championship).delete()
    rounds = rounds_setup(championship=championship, rounds=total,
                          boards_per_round=boards_per_round, acting_user=acting_user)
    created = []
    first = 0
    for number, spec in enumerate(clean, start=1):
        fields = {k: v for k, v in spec.items() if k not in ("rounds", "groups")}
        if spec["kind"] == Stage.Kind.GROUPS:
            fields["group_count"] = spec["groups"]
        stage = Stage.objects.create(championship=championship, number=number, **fields)
        for k, rnd in enumerate(rounds[first:first + spec["rounds"]], start=1):
            rnd.stage = stage
            rnd.stage_round = k
        first += spec["rounds"]
        created.append(stage)
    Round.objects.bulk_update(rounds, ["stage", "stage_round"])
    audit(championship, AuditEntry.Action.STAGES_SETUP, acting_user,
          target=_("%(n)s fases") % {"n": len(created)}, before=None, after={"stages": clean})
    return created


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
    from tournaments.services.rounds import _ranks_before

    ranks = _ranks_before(stage.championship, first.number)
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
    method = stage.split
    if method == Stage.Split.RANDOM:
        stage.seed = seed if seed is not None else secrets.randbits(62)
        ranking = None
    try:
        groups = pure.split_groups(pairs, stage.group_count, method=method, seed=stage.seed,
                                   ranking=ranking)
    except pure.GroupSplitError as exc:
        raise DrawError(
            _("No es poden fer %(g)s grups amb %(n)s parelles: %(detail)s")
            % {"g": stage.group_count, "n": len(pairs), "detail": exc},
            field="stages",
        ) from None
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
        view = read.groups_view(stage.championship, before)
        if view is None or view.games_in < view.games_due:
            done = 0 if view is None else view.games_in
            due = 0 if view is None else view.games_due
            raise DrawError(
                _("Falten partides dels grups (%(done)s de %(due)s): l'eliminatòria "
                  "comença quan hi són totes.") % {"done": done, "due": due},
                field="stages",
            )
        try:
            qualified = read.qualification(before, read.group_standings(before))
        except pure.QualifyError as exc:
            raise DrawError(
                _("No es pot fer la classificació dels grups: %(detail)s") % {"detail": exc},
                field="stages",
            ) from None
        before.qualified = [
            {"pair": q.pair, "group": q.group, "place_in_group": q.place_in_group,
             "how": q.how} for q in qualified
        ]
        before.save(update_fields=["qualified"])
    else:
        first = Round.objects.filter(stage=stage).order_by("number").first()
        assert first is not None
        ranking = _ranking_before(stage) or _field(stage, first.number)
        qualified = ranking[: 2 ** Round.objects.filter(stage=stage).count()]
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


def knockout_level_check(seating: Seating, ns_points: int, ew_points: int) -> None:
    """A knockout game needs a winner: a level score is refused (the extra deals are
    played and the final entered)."""
    if seating.round.stage_id is None or ns_points != ew_points:
        return
    stage = Stage.objects.filter(pk=seating.round.stage_id).only("kind").first()
    if stage is not None and stage.kind == Stage.Kind.KNOCKOUT:
        raise ResultError(
            _("Una partida d'eliminatòria no pot acabar empatada (%(a)s a %(b)s): jugueu "
              "les mans de desempat i entreu el resultat final.")
            % {"a": ns_points, "b": ew_points},
            field="ew_points",
        )
