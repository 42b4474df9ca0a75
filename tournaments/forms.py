"""Forms of the tournaments pages: they parse and check input, the services write.

UI text is Catalan first (msgids in Catalan, translated to Spanish and English in
``locale/``). A service error that names a field (``exc.field``) is attached to that
field by :func:`add_service_error`, so the message shows next to it, never as a 500.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core import signing
from django.db import models
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from engine import Suit, sant_vicenc_default
from engine.score import classic_multiplier
from tournaments.fields import NFCFormField
from tournaments.models import Championship, Result
from tournaments.result_messages import result_problems

#: CSV import: at most this many bytes from an uploaded file (a championship has ~100 pairs).
CSV_MAX_BYTES = 200_000


def add_service_error(form: forms.BaseForm, exc: Exception) -> None:
    """Attach a service error to ``exc.field`` when the form has that field, else to the
    whole form. Works for any ``ValueError`` subclass raised by ``tournaments.services``."""
    problems = getattr(exc, "problems", None)  # every problem of a result, each by field
    if isinstance(problems, list) and problems and all(
        isinstance(p, tuple) and len(p) == 2 for p in problems
    ):
        for name, text in problems:
            form.add_error(name if name in form.fields else None, text)
        return
    field = getattr(exc, "field", None)
    message = str(exc)
    if isinstance(field, str) and field in form.fields:
        form.add_error(field, message)
    else:
        form.add_error(None, message)


#: The Sant Vicenç setting as the championship form offers it: blank follows the doubling.
SANT_VICENC_CHOICES = [
    ("", _("Segons el doblatge (duplicat: no; clàssic: sí)")),
    ("True", _("Sí")),
    ("False", _("No")),
]


class ChampionshipForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """A new championship with its rules; every rule starts at the spec's default
    (docs/file-format.md "rules", docs/rules.md). ``sant_vicenc`` left blank follows the
    doubling (``engine.sant_vicenc_default``): a checkbox could not tell "not ticked"
    from "not given"."""

    sant_vicenc = forms.TypedChoiceField(
        label=_("Sant Vicenç permès"), choices=SANT_VICENC_CHOICES, required=False,
        coerce=lambda value: value == "True", empty_value=None,
    )

    class Meta:
        model = Championship
        fields = [
            "name",
            "slug",
            "date",
            "venue",
            "variant",
            "doubling",
            "method",
            "scale_bottom",
            "scale_top",
            "rounding",
            "infraction_score",
            "movement",
            "missed_boards",
            "sant_vicenc",
            "sant_vicenc_on_botifarra",
            "carregar",
            "carregar_scope",
            "barraca",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        # The model's names ("escala: mínim") would read "Escala: mínim:" with the label
        # suffix.
        labels = {"scale_bottom": _("Mínim de l'escala"), "scale_top": _("Màxim de l'escala")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "slug" in self.fields:
            self.fields["slug"].required = False
            self.fields["slug"].help_text = _("En blanc, es fa a partir del nom.")
        # Under duplicate doubling a Sant Vicenç changes no score: say so where it is
        # chosen, with the classic multipliers from the engine's one rule.
        times = {trump: classic_multiplier(trump=trump, contro=True, recontro=True,
                                           sant_vicenc=True) for trump in (Suit.O, None)}
        if "sant_vicenc" in self.fields:
            self.fields["sant_vicenc"].help_text = _(
                "Amb el doblatge clàssic, la mà amb Sant Vicenç compta ×%(suit)s (×%(botifarra)s "
                "en botifarra). Amb el doblatge duplicat queda anotat al resultat però no "
                "canvia cap puntuació."
            ) % {"suit": times[Suit.O], "botifarra": times[None]}
        if "sant_vicenc_on_botifarra" in self.fields:
            self.fields["sant_vicenc_on_botifarra"].help_text = _(
                "Si també es pot fer Sant Vicenç quan el trumfo és botifarra (×%(botifarra)s "
                "amb el doblatge clàssic; amb el duplicat, només queda anotat)."
            ) % {"botifarra": times[None]}
        # Left out of a form (or blank): the championship's default.
        for name in ("movement", "missed_boards"):
            if name in self.fields:
                self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("movement", "missed_boards"):
            if name in self.fields and not data.get(name):
                field = Championship._meta.get_field(name)
                assert isinstance(field, models.Field)  # a column, not a relation
                data[name] = field.get_default()
        if data.get("sant_vicenc") is None and data.get("doubling"):
            data["sant_vicenc"] = sant_vicenc_default(data["doubling"])
        bottom, top = data.get("scale_bottom"), data.get("scale_top")
        if bottom is not None and top is not None and top <= bottom:
            self.add_error("scale_top", _("El màxim de l'escala ha de ser més gran que el mínim."))
        return data


class RulesForm(ChampionshipForm):
    """The rules alone, to change them while no result exists."""

    class Meta(ChampionshipForm.Meta):
        fields = [f for f in ChampionshipForm.Meta.fields
                  if f not in ("name", "slug", "date", "venue")]


class PairForm(forms.Form):
    """One pair: its number, its two players' names and, if the default short form
    does not suit, their short names for the boards and screens."""

    number = forms.IntegerField(label=_("Número"), min_value=1, max_value=9999)
    player1 = NFCFormField(label=_("Jugador 1"), max_length=200)
    short1 = NFCFormField(
        label=_("Nom curt del jugador 1"), max_length=60, required=False,
        help_text=_("Opcional: el que es veu a la sala i a les classificacions "
                    "(si no, «J. M. Vilaseca»)."))
    player2 = NFCFormField(label=_("Jugador 2"), max_length=200)
    short2 = NFCFormField(
        label=_("Nom curt del jugador 2"), max_length=60, required=False,
        help_text=_("Opcional, com el del jugador 1."))


class ShortNamesForm(forms.Form):
    """The short names of a registered pair's two players."""

    short1 = NFCFormField(label=_("Nom curt del jugador 1"), max_length=60, required=False)
    short2 = NFCFormField(label=_("Nom curt del jugador 2"), max_length=60, required=False)


class PairsCsvForm(forms.Form):
    """Pairs pasted or uploaded as lines ``number;player 1;player 2`` (or separated by
    tabs or commas, with the two short names after them if wanted)."""

    text = forms.CharField(
        label=_("Parelles (número;jugador 1;jugador 2)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "placeholder": "1;Anna Puig;Jordi Vila"}),
    )
    file = forms.FileField(label=_("O bé un fitxer CSV"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        text = data.get("text") or ""
        if upload is not None:
            raw = upload.read(CSV_MAX_BYTES + 1)
            if len(raw) > CSV_MAX_BYTES:
                self.add_error("file", _(
                    "El fitxer és massa gran: se n'accepten fins a %(size)s."
                ) % {"size": filesizeformat(CSV_MAX_BYTES)})
                return data
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("El fitxer ha de ser text UTF-8."))
                return data
        if not text.strip():
            self.add_error("text", _("Enganxeu almenys una línia o pugeu un fitxer."))
        data["csv_text"] = text
        return data


class RoundsSetupForm(forms.Form):
    """How many rounds, and how many boards each round plays."""

    rounds = forms.IntegerField(label=_("Nombre de rondes"), min_value=1, max_value=30)
    boards_per_round = forms.IntegerField(
        label=_("Taulers per ronda"), min_value=1, max_value=36
    )


#: The signed draw a rematch confirmation carries (``django.core.signing``): which
#: round, seed, method and rematches the organiser was shown.
DRAW_SALT = "tournaments.round_draw.shown"
#: How long a shown draw may wait for its confirmation.
DRAW_MAX_AGE = 6 * 3600


def shown_draw_token(*, round_id: int, seed: int, movement: str,
                     rematches: Sequence[Sequence[int]]) -> str:
    """The tamper-proof hidden value of :class:`DrawForm` naming the draw whose
    rematches the page shows, so the organiser's "accept" stores that draw."""
    return signing.dumps(
        {"round": round_id, "seed": seed, "movement": movement,
         "rematches": [list(pair) for pair in rematches]},
        salt=DRAW_SALT, compress=True,
    )


class DrawForm(forms.Form):
    """The seed of a round's random draw; blank draws a fresh one. After a draw held
    rematches, ``shown`` carries that draw signed (:func:`shown_draw_token`): ticking
    "accept" then stores that very draw, with the rematches the page listed
    (``cleaned_data["shown"]``: ``{"seed", "movement", "rematches"}`` or ``None``).
    ``round_id``: the round drawn, so a draw shown for another round is refused."""

    seed = forms.IntegerField(
        label=_("Llavor del sorteig"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Deixeu-ho en blanc per a una llavor a l'atzar."),
    )
    movement = forms.ChoiceField(
        label=_("Moviment"), choices=Championship.Movement.choices, required=False,
    )
    accept_rematches = forms.BooleanField(
        label=_("Accepto que es tornin a trobar parelles si cap sorteig ho evita"),
        required=False,
    )
    shown = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, round_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round_id = round_id

    def clean_shown(self) -> dict[str, Any] | None:
        token = self.cleaned_data.get("shown") or ""
        if not token:
            return None
        try:
            shown = signing.loads(token, salt=DRAW_SALT, max_age=DRAW_MAX_AGE)
        except signing.BadSignature:  # tampered with, or expired
            shown = None
        if not isinstance(shown, dict) or shown.get("round") != self.round_id:
            raise forms.ValidationError(
                _("El sorteig mostrat ja no és vàlid: torneu a sortejar la ronda.")
            )
        return shown


class ConfirmForm(forms.Form):
    """The confirmation of an action that cannot be undone (finish the championship,
    close a round, deal the boards again): the POST must carry ``confirm`` ticked, so it
    works without JavaScript; a ``confirm()`` dialog is only an enhancement."""

    confirm = forms.BooleanField(
        label=_("Ho confirmo"),
        error_messages={"required": _("Marqueu «Ho confirmo» per continuar.")},
    )


class RoundCloseForm(ConfirmForm):
    """Closing a round; ``allow_missing`` closes it although some tables lack a result
    (docs/decisions.md 17: only when the organiser says so)."""

    allow_missing = forms.BooleanField(
        label=_("Tancar-la encara que hi faltin resultats"), required=False
    )


TRUMP_CHOICES = [
    ("O", _("Oros")),
    ("C", _("Copes")),
    ("E", _("Espases")),
    ("B", _("Bastos")),
    ("botifarra", _("Botifarra")),
]
INFRACTION_CHOICES = [("", _("Cap")), ("NS", _("NS")), ("EW", _("EO"))]
ADJUSTMENT_CHOICES = [("", "—"), *Result.Adjustment.choices]


class ResultForm(forms.Form):
    """One table's result on one board, as a referee types it on a phone.

    Checks the result with :func:`scoring.validate.validate_result` (the one rule: the
    order of the doubles, the championship's ``sant_vicenc`` settings, points 0..72...),
    each problem next to its field in the words of :mod:`tournaments.result_messages`;
    the service checks it again the same way. ``version`` is the version the referee saw
    (optimistic concurrency: empty for a new result). With ``can_adjust`` (organiser,
    head referee) the form also takes a director's adjusted score for each line
    (docs/file-format.md "adjusted"); then the trump and points may stay blank.
    ``cleaned_data["adjusted"]`` is ``None`` or ``{"NS": ..., "EW": ...}`` as
    ``services.result_record`` takes it.
    """

    trump = forms.ChoiceField(
        label=_("Trumfo"), choices=TRUMP_CHOICES, required=False, widget=forms.RadioSelect
    )
    delegated = forms.BooleanField(label=_("Delegat"), required=False)
    contro = forms.BooleanField(label=_("Contro"), required=False)
    recontro = forms.BooleanField(label=_("Recontro"), required=False)
    sant_vicenc = forms.BooleanField(label=_("Sant Vicenç"), required=False)
    # No min/max validators: 0..72 is scoring.validate's rule, with its own message.
    ns_points_taken = forms.IntegerField(
        label=_("Punts NS"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 72}),
    )
    infraction = forms.ChoiceField(
        label=_("Infracció"), choices=INFRACTION_CHOICES, required=False, widget=forms.RadioSelect
    )
    adjusted_ns = forms.ChoiceField(
        label=_("Puntuació arbitral NS"), choices=ADJUSTMENT_CHOICES, required=False
    )
    adjusted_ew = forms.ChoiceField(
        label=_("Puntuació arbitral EO"), choices=ADJUSTMENT_CHOICES, required=False
    )
    note = NFCFormField(label=_("Nota"), max_length=500, required=False)
    version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, championship: Championship, can_adjust: bool = False,
        autofocus_points: bool = False, **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.can_adjust = can_adjust
        if autofocus_points:
            # A board with no result yet, opened after the one before was saved: the
            # referee types the points at once (the trump is one tap on a button).
            self.fields["ns_points_taken"].widget.attrs["autofocus"] = True
        if not championship.sant_vicenc:
            # Greyed out in the browser only: a ``disabled`` form field would drop a
            # posted Sant Vicenç and save the result without it; posted, it is refused
            # next to the field (here and by ``services.validate_result``).
            self.fields["sant_vicenc"].widget.attrs["disabled"] = True
        if not can_adjust:
            # Only the organiser or the head referee (the director) adjusts a score.
            del self.fields["adjusted_ns"], self.fields["adjusted_ew"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ns_adj, ew_adj = data.pop("adjusted_ns", ""), data.pop("adjusted_ew", "")
        data["adjusted"] = {"NS": ns_adj, "EW": ew_adj} if ns_adj or ew_adj else None
        data["trump"] = data.get("trump") or None
        data["infraction"] = data.get("infraction") or None
        # The rule is scoring.validate's, as in services.validate_result: every problem,
        # each next to its field (a field whose input could not be read keeps that error).
        for field, message in result_problems(
            self.championship,
            trump=data["trump"],
            ns_points_taken=data.get("ns_points_taken"),
            delegated=data.get("delegated", False),
            contro=data.get("contro", False),
            recontro=data.get("recontro", False),
            sant_vicenc=data.get("sant_vicenc", False),
            infraction=data["infraction"],
            adjusted=data["adjusted"],
        ):
            if field in self.errors:
                continue
            self.add_error(field if field in self.fields else None, message)
        return data
