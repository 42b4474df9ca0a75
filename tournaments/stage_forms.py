"""The organiser's form of a championship's stages (on the rounds page): a classic
championship in groups then a knockout, a duplicate one in a qualifying stage then
finals. It turns the fields into the specs ``services.stages_setup`` takes, and puts
the service's refusals (``stages.1.groups``...) at the field they name."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import add_service_error
from tournaments.models import Stage
from tournaments.selectors.stage_setup import StageLine

#: A final as typed: a name (letters, digits) and its pairs, ``A:16``.
_FINAL = re.compile(r"\s*([^\s:,]{1,10})\s*:\s*([0-9]{1,4})\s*")

#: The service's field (``stages.<n>.<name>``) -> the form's field, by format.
_CLASSIC_FIELDS = {
    "stages.1.groups": "groups", "stages.1.split": "split",
    "stages.1.per_group": "per_group", "stages.1.second_chance": "second_chance",
    "stages.1.rest_rule": "rest_rule", "stages.1.rounds": "groups",
    "stages.2.third_place": "third_place", "stages.2.pairs": "knockout",
}
_DUPLICATE_FIELDS = {
    "stages.1.rounds": "qualifying_rounds", "stages.2.finals": "finals",
    "stages.2.carry_over": "carry_over", "stages.2.carry_over_percent": "carry_over_percent",
    "stages.2.rounds": "finals_rounds", "boards_per_round": "boards_per_round",
}


def parse_finals(text: str) -> list[list[Any]]:
    """``"A:16, B:16"`` as ``[["A", 16], ["B", 16]]``; ``ValueError`` (in Catalan)
    naming the part it cannot read."""
    finals: list[list[Any]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        match = _FINAL.fullmatch(part)
        if match is None:
            raise ValueError(str(_("No s'entén «%(part)s»: escriviu cada final com a "
                                   "nom:parelles, p. ex. A:16,B:16.") % {"part": part.strip()}))
        finals.append([match.group(1), int(match.group(2))])
    if not finals:
        raise ValueError(str(_("Indiqueu les finals, p. ex. A:16,B:16.")))
    names = [name for name, _size in finals]
    if len(set(names)) != len(names):
        raise ValueError(str(_("Cada final ha de tenir un nom diferent.")))
    return finals


def finals_text(finals: Any) -> str:
    """``[["A", 16], ["B", 16]]`` as the form writes it: ``A:16,B:16``."""
    return ",".join(f"{name}:{size}" for name, size in finals or [])


class StagesSetupForm(forms.Form):
    """Groups then a knockout (``classic``), or a qualifying stage then finals."""

    # Classic: groups, then a knockout.
    groups = forms.IntegerField(label=_("Nombre de grups"), min_value=1, max_value=64)
    split = forms.ChoiceField(label=_("Com es reparteixen les parelles"),
                              choices=Stage.Split.choices)
    per_group = forms.IntegerField(label=_("Classificades per grup"), min_value=0,
                                   max_value=64)
    second_chance = forms.IntegerField(
        label=_("Repesca"), min_value=0, max_value=256,
        help_text=_("Quantes parelles més passen entre les no classificades (0: cap)."))
    rest_rule = forms.ChoiceField(label=_("Regla de la repesca"),
                                  choices=Stage.RestRule.choices)
    exclude_zero_wins = forms.BooleanField(
        label=_("Sense repesca per a qui no ha guanyat cap partida"), required=False)
    knockout = forms.BooleanField(label=_("Eliminatòria després dels grups"),
                                  required=False)
    third_place = forms.BooleanField(label=_("Partida pel tercer lloc"), required=False)
    # Duplicate: a qualifying stage, then finals.
    qualifying_rounds = forms.IntegerField(label=_("Rondes de classificació"), min_value=1,
                                           max_value=100)
    finals = forms.CharField(
        label=_("Finals"), max_length=200,
        help_text=_("El nom i les parelles de cada final, de la millor a la pitjor: "
                    "A:16,B:16."))
    carry_over = forms.ChoiceField(label=_("Arrossegament a les finals"),
                                   choices=Stage.CarryOver.choices)
    carry_over_percent = forms.IntegerField(
        label=_("Percentatge arrossegat"), min_value=0, max_value=100, required=False,
        help_text=_("Només amb «Un percentatge»."))
    finals_rounds = forms.IntegerField(label=_("Rondes de les finals"), min_value=1,
                                       max_value=100)
    boards_per_round = forms.IntegerField(label=_("Taulers per ronda"), min_value=1,
                                          max_value=36)

    CLASSIC = ("groups", "split", "per_group", "second_chance", "rest_rule",
               "exclude_zero_wins", "knockout", "third_place")
    DUPLICATE = ("qualifying_rounds", "finals", "carry_over", "carry_over_percent",
                 "finals_rounds", "boards_per_round")

    def __init__(self, *args: Any, classic: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classic = classic
        for name in self.DUPLICATE if classic else self.CLASSIC:
            del self.fields[name]
        for field in self.fields.values():
            if isinstance(field.widget, forms.NumberInput):
                field.widget.attrs.setdefault("inputmode", "numeric")

    def clean_finals(self) -> list[list[Any]]:
        try:
            return parse_finals(self.cleaned_data.get("finals") or "")
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.classic and data.get("carry_over") == Stage.CarryOver.PERCENT \
                and not data.get("carry_over_percent"):
            self.add_error("carry_over_percent",
                           _("Indiqueu el percentatge que s'arrossega (1 a 100)."))
        if self.classic and data.get("third_place") and not data.get("knockout"):
            self.add_error("third_place",
                           _("La partida pel tercer lloc és de l'eliminatòria: marqueu-la."))
        return data

    def specs(self) -> tuple[list[dict[str, Any]], int]:
        """The stages (``services.stages_setup``'s specs) and the boards per round."""
        data = self.cleaned_data
        if self.classic:
            stages: list[dict[str, Any]] = [{
                "kind": Stage.Kind.GROUPS.value, "groups": data["groups"],
                "split": data["split"], "per_group": data["per_group"],
                "second_chance": data["second_chance"], "rest_rule": data["rest_rule"],
                "exclude_zero_wins": data["exclude_zero_wins"],
            }]
            if data["knockout"]:
                stages.append({"kind": Stage.Kind.KNOCKOUT.value,
                               "third_place": data["third_place"]})
            return stages, 0
        carry = data["carry_over"]
        return [
            {"kind": Stage.Kind.SWISS.value, "rounds": data["qualifying_rounds"]},
            {"kind": Stage.Kind.FINALS.value, "finals": data["finals"],
             "carry_over": carry,
             "carry_over_percent": (data.get("carry_over_percent") or 0)
             if carry == Stage.CarryOver.PERCENT else 0,
             "rounds": data["finals_rounds"]},
        ], data["boards_per_round"]

    def add_service_error(self, exc: Exception) -> None:
        """The service's refusal at the form's field its ``field`` names (else the
        form's own error)."""
        fields = _CLASSIC_FIELDS if self.classic else _DUPLICATE_FIELDS
        field = getattr(exc, "field", None)
        name = fields.get(field) if isinstance(field, str) else None
        if name is not None and name in self.fields:
            self.add_error(name, str(exc))
            return
        add_service_error(self, exc)


def stages_initial(lines: list[StageLine], *, classic: bool,
                   boards_per_round: int) -> dict[str, Any]:
    """The form's values: the stages as set up, else a usual setup (four groups, the
    first of each through, a knockout; 2 finals of half the field)."""
    if classic:
        initial: dict[str, Any] = {
            "groups": 4, "split": Stage.Split.SNAKE.value, "per_group": 2,
            "second_chance": 0, "rest_rule": Stage.RestRule.BEST_PLACED.value,
            "exclude_zero_wins": True, "knockout": True, "third_place": False,
        }
        for line in lines:
            if line.kind == Stage.Kind.GROUPS:
                initial.update(line.settings)
                initial["knockout"] = False
            elif line.kind == Stage.Kind.KNOCKOUT:
                initial["knockout"] = True
                initial["third_place"] = line.settings["third_place"]
        return initial
    initial = {"qualifying_rounds": 4, "finals": "A:8,B:8",
               "carry_over": Stage.CarryOver.NONE.value, "carry_over_percent": 0,
               "finals_rounds": 3, "boards_per_round": boards_per_round or 6}
    for line in lines:
        if line.kind == Stage.Kind.SWISS:
            initial["qualifying_rounds"] = len(line.rounds) or initial["qualifying_rounds"]
        elif line.kind == Stage.Kind.FINALS:
            initial.update(line.settings)
            initial["finals"] = finals_text(line.settings["finals"])
            initial["finals_rounds"] = len(line.rounds) or initial["finals_rounds"]
    return initial
