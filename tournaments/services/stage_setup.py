"""Set a championship up as stages (``services.stages`` starts and seats them).

:func:`stages_setup` replaces the championship's rounds by the stages' rounds (before
any table is drawn), each round tagged with its stage and its place in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring import movement
from scoring import stages as pure
from tournaments.models import AuditEntry, Championship, Pair, Round, Stage
from tournaments.services.common import Capability, User, audit, require
from tournaments.services.errors import DrawError
from tournaments.services.rounds import rounds_setup, rounds_setup_refusal

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


def _bool(value: Any, field: str, default: bool) -> bool:
    """A yes/no setting: JSON true or false (null: ``default``); the text "false" is not
    a yes."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise DrawError(_("«%(value)s» ha de ser true o false.") % {"value": value},
                        field=field)
    return value


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
        if k > 1 and kind != Stage.Kind.KNOCKOUT and out[-1]["kind"] == Stage.Kind.GROUPS:
            raise DrawError(_("Fase %(k)s: després dels grups només hi pot haver "
                              "l'eliminatòria de les classificades.") % {"k": k},
                            field=f"{where}.kind")
        unknown = sorted(set(spec) - {"kind", "name", *_KIND_FIELDS[kind]})
        if unknown:
            raise DrawError(
                _("Fase %(k)s: camps desconeguts: %(list)s.")
                % {"k": k, "list": ", ".join(unknown)},
                field=where,
            )
        name = spec.get("name") or ""
        if not isinstance(name, str):
            raise DrawError(_("Fase %(k)s: el nom ha de ser un text.") % {"k": k},
                            field=f"{where}.name")
        clean: dict[str, Any] = {"kind": kind, "name": name[:60]}
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
            rest = field_size - per_group * groups
            if second > rest:
                raise DrawError(
                    _("Fase %(k)s: després de les %(through)s classificades per grup en "
                      "queden %(rest)s, menys de %(second)s per a la repesca.")
                    % {"k": k, "through": per_group * groups, "rest": rest,
                       "second": second},
                    field=f"{where}.second_chance",
                )
            clean["exclude_zero_wins"] = _bool(clean["exclude_zero_wins"],
                                               f"{where}.exclude_zero_wins", True)
            needed = _group_rounds(field_size, groups)
            clean["rounds"] = needed if clean["rounds"] is None else _int(
                clean["rounds"], f"{where}.rounds", needed, 100)
            field_size = min(field_size, per_group * groups + second)
        elif kind == Stage.Kind.KNOCKOUT:
            pairs = clean.pop("pairs")
            if pairs is None:
                pairs = field_size
                if pairs < 2:
                    raise DrawError(
                        _("Fase %(k)s: només hi passa %(n)s parella i una eliminatòria "
                          "en necessita almenys 2.") % {"k": k, "n": pairs},
                        field=f"{where}.pairs",
                    )
            pairs = _int(pairs, f"{where}.pairs", 2, 256)
            after_groups = bool(out) and out[-1]["kind"] == Stage.Kind.GROUPS
            if after_groups and pairs != field_size:
                raise DrawError(
                    _("Fase %(k)s: l'eliminatòria després dels grups és de les "
                      "%(n)s parelles classificades, no de %(pairs)s.")
                    % {"k": k, "n": field_size, "pairs": pairs},
                    field=f"{where}.pairs",
                )
            if pairs > field_size or (pairs < field_size and pairs & (pairs - 1)):
                raise DrawError(
                    _("Fase %(k)s: l'eliminatòria és de les %(n)s parelles o de les "
                      "primeres 2, 4, 8, 16... d'elles, no de %(pairs)s.")
                    % {"k": k, "n": field_size, "pairs": pairs},
                    field=f"{where}.pairs",
                )
            clean["third_place"] = _bool(clean["third_place"], f"{where}.third_place", False)
            if clean["third_place"] and pairs < 4:
                raise DrawError(_("Fase %(k)s: la partida pel tercer lloc necessita 4 "
                                  "parelles o més.") % {"k": k},
                                field=f"{where}.third_place")
            clean["avoid_same_group"] = _bool(clean["avoid_same_group"],
                                              f"{where}.avoid_same_group", True)
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
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.SET_UP_ROUNDS)
    refusal = rounds_setup_refusal(championship)
    if isinstance(refusal, DrawError):  # tables drawn: named at the stages, not the rounds
        raise DrawError(str(refusal), field="stages")
    if refusal is not None:
        raise refusal
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
