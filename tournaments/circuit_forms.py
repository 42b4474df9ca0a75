"""The organiser's forms of a circuit: its rules (create and edit), a championship to
add, an organiser to add. They pass the text as typed to ``services.circuits``, which
checks it and names the field it refuses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.circuits import DEFAULT_TABLE, Tiebreak
from tournaments.fields import NFCFormField
from tournaments.forms import add_service_error
from tournaments.models import Circuit

TIEBREAK_CHOICES = [
    ("", _("(cap)")),
    (Tiebreak.MORE_EVENTS.value, _("Més proves jugades")),
    (Tiebreak.BEST_RESULT.value, _("Millor resultat")),
    (Tiebreak.BEST_PLACE.value, _("Millor lloc")),
    (Tiebreak.LAST_EVENT.value, _("Més punts a la darrera prova")),
]


class CircuitForm(forms.Form):
    """A circuit's name and rules. The points table is typed as numbers separated by
    commas ("100, 85, 75"); the tiebreaks are three choices in order."""

    name = NFCFormField(label=_("Nom"), max_length=200)
    slug = forms.SlugField(label=_("Identificador (a l'adreça)"), max_length=100,
                           required=False,
                           help_text=_("Buit: es fa del nom."))
    season = NFCFormField(label=_("Temporada"), max_length=60, required=False)
    description = NFCFormField(label=_("Descripció"), max_length=1000, required=False,
                               multiline=True, widget=forms.Textarea(attrs={"rows": 3}))
    points = forms.ChoiceField(label=_("Punts"), choices=Circuit.Points.choices)
    points_table = NFCFormField(
        label=_("Taula de punts per lloc"), max_length=3000, required=False,
        help_text=_("Els punts del 1r, 2n, 3r... separats per comes; més enllà, 0."),
        initial=", ".join(str(p) for p in DEFAULT_TABLE))
    best_of = forms.CharField(label=_("Millors resultats que compten"), max_length=5,
                              required=False, help_text=_("Buit: compten tots."))
    min_events = forms.CharField(label=_("Proves mínimes per entrar al rànquing"),
                                 max_length=5, initial="1")
    tiebreak_1 = forms.ChoiceField(label=_("Primer desempat"), choices=TIEBREAK_CHOICES,
                                   required=False, initial=Tiebreak.MORE_EVENTS.value)
    tiebreak_2 = forms.ChoiceField(label=_("Segon desempat"), choices=TIEBREAK_CHOICES,
                                   required=False, initial=Tiebreak.BEST_RESULT.value)
    tiebreak_3 = forms.ChoiceField(label=_("Tercer desempat"), choices=TIEBREAK_CHOICES,
                                   required=False)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["slug"]

    @staticmethod
    def initial_of(circuit: Circuit) -> dict[str, Any]:
        order = [*(circuit.tiebreaks or []), "", "", ""]
        return {
            "name": circuit.name, "season": circuit.season,
            "description": circuit.description, "points": circuit.points,
            "points_table": ", ".join(str(p) for p in circuit.points_table or []),
            "best_of": "" if circuit.best_of is None else str(circuit.best_of),
            "min_events": str(circuit.min_events),
            "tiebreak_1": order[0], "tiebreak_2": order[1], "tiebreak_3": order[2],
        }

    def rules(self) -> dict[str, Any]:
        """The cleaned values as the services take them."""
        data = self.cleaned_data
        return {
            "name": data["name"], "season": data.get("season", ""),
            "description": data.get("description", ""), "points": data["points"],
            "points_table": data.get("points_table", ""), "best_of": data.get("best_of", ""),
            "min_events": data.get("min_events", ""),
            "tiebreaks": [t for t in (data.get("tiebreak_1"), data.get("tiebreak_2"),
                                      data.get("tiebreak_3")) if t],
        }

    def add_service_error(self, exc: Exception) -> None:
        if getattr(exc, "field", None) == "tiebreaks":
            self.add_error("tiebreak_1", str(exc))
            return
        add_service_error(self, exc)


class EventAddForm(forms.Form):
    """A championship to add, by its identifier (the search lists them)."""

    championship = forms.SlugField(label=_("Campionat"), max_length=100)


class OrganiserForm(forms.Form):
    """An account to make an organiser of the circuit, by its user name."""

    username = NFCFormField(label=_("Nom d'usuari"), max_length=150)
