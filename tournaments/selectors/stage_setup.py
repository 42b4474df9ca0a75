"""A championship's stages as set up (``services.stages_setup``): each stage's kind,
settings, rounds and whether it started. The one read model the organiser's rounds page
and the API's ``stages/`` render."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import Championship, Round, Stage


@dataclass(frozen=True, slots=True)
class StageLine:
    """One stage as set up: ``settings`` holds the fields of its kind, named as
    ``services.stages_setup`` takes them (``groups``, ``per_group``, ``finals``...)."""

    number: int
    kind: str
    kind_label: str
    name: str
    label: str
    settings: dict[str, Any]
    rounds: tuple[int, ...]
    started: bool

    @property
    def first_round(self) -> int | None:
        return self.rounds[0] if self.rounds else None

    @property
    def last_round(self) -> int | None:
        return self.rounds[-1] if self.rounds else None


def stage_settings(stage: Stage) -> dict[str, Any]:
    """The settings of ``stage``'s kind, as ``services.stages_setup`` takes them."""
    if stage.kind == Stage.Kind.GROUPS:
        return {"groups": stage.group_count, "split": stage.split,
                "per_group": stage.per_group, "second_chance": stage.second_chance,
                "rest_rule": stage.rest_rule, "exclude_zero_wins": stage.exclude_zero_wins}
    if stage.kind == Stage.Kind.KNOCKOUT:
        return {"third_place": stage.third_place, "avoid_same_group": stage.avoid_same_group}
    if stage.kind == Stage.Kind.FINALS:
        return {"finals": [[str(name), int(size)] for name, size in stage.finals or []],
                "carry_over": stage.carry_over,
                "carry_over_percent": stage.carry_over_percent}
    return {}


def stage_lines(championship: Championship) -> list[StageLine]:
    """The championship's stages in playing order with their rounds (two queries)."""
    stages = list(Stage.objects.filter(championship=championship).order_by("number"))
    rounds: dict[int, list[int]] = {}
    for stage_id, number in (Round.objects.filter(championship=championship,
                                                  stage__isnull=False)
                             .order_by("number").values_list("stage_id", "number")):
        rounds.setdefault(stage_id, []).append(number)
    return [
        StageLine(
            number=s.number, kind=s.kind, kind_label=str(s.get_kind_display()),
            name=s.name, label=s.label, settings=stage_settings(s),
            rounds=tuple(rounds.get(s.pk, [])), started=s.is_started,
        )
        for s in stages
    ]
