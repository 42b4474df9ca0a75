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
from scoring.classic import MAX_SHEET_DEALS
from tournaments.fields import NFCFormField
from tournaments.models import Championship, Game, Result
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


#: What each format means, one sentence each, under its choice on the creation page.
FORMAT_HELP = {
    Championship.Format.DUPLICATE: _(
        "Els taulers es reparteixen per endavant i totes les taules juguen les mateixes "
        "mans: cada resultat es compara amb els de les altres taules."),
    Championship.Format.CLASSIC: _(
        "Cada ronda, cada taula juga una partida a 101 punts i la classificació compta "
        "les partides guanyades (sistema suís)."),
}
#: The fields of a new championship that are not rules (a classic one takes the classic
#: defaults for every rule and changes them on the rules page).
IDENTITY_FIELDS = ("name", "slug", "date", "venue", "format")


class ChampionshipForm(forms.ModelForm):  # type: ignore[type-arg]  # generic in the stubs only
    """A new championship with its rules; every rule starts at the spec's default
    (docs/file-format.md "rules", docs/rules.md). ``sant_vicenc`` left blank follows the
    doubling (``engine.sant_vicenc_default``): a checkbox could not tell "not ticked"
    from "not given".

    ``format``: predonats (duplicate) or classic, chosen here for good. The rules on
    this form are the duplicate ones: with ``classic`` they are not required and
    ``cleaned_data`` keeps only :data:`IDENTITY_FIELDS` (the service gives the classic
    defaults; the organiser changes them on the rules page)."""

    format = forms.ChoiceField(
        label=_("Format"), choices=Championship.Format.choices, required=False,
        initial=Championship.Format.DUPLICATE, widget=forms.RadioSelect,
    )
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
        if self.is_classic_chosen:
            for name, field in self.fields.items():
                if name not in IDENTITY_FIELDS:
                    field.required = False

    @property
    def is_classic_chosen(self) -> bool:
        """Whether the posted format is classic (the duplicate rules then do not apply)."""
        return (
            "format" in self.fields and self.is_bound
            and self.data.get(self.add_prefix("format")) == Championship.Format.CLASSIC
        )

    def identity_fields(self) -> list[forms.BoundField]:
        """The name, identifier, date, venue and format, as the page shows them first."""
        return [self[name] for name in IDENTITY_FIELDS if name in self.fields]

    def rule_fields(self) -> list[forms.BoundField]:
        """The duplicate rules, shown apart (hidden while classic is chosen)."""
        return [self[name] for name in self.fields if name not in IDENTITY_FIELDS]

    def format_choices(self) -> list[tuple[Any, str]]:
        """Each format's radio button with its sentence (:data:`FORMAT_HELP`)."""
        return [(radio, str(FORMAT_HELP[radio.data["value"]])) for radio in self["format"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "format" in self.fields and not data.get("format"):
            data["format"] = Championship.Format.DUPLICATE  # not chosen: predonats
        if self.is_classic_chosen:
            for name in list(self.errors):
                if name not in IDENTITY_FIELDS and name != "__all__":
                    del self.errors[name]  # a rule the classic format does not take
            return {name: data[name] for name in IDENTITY_FIELDS if name in data}
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["format"]  # chosen at creation for good

    class Meta(ChampionshipForm.Meta):
        fields = [f for f in ChampionshipForm.Meta.fields
                  if f not in ("name", "slug", "date", "venue")]


#: The ranking criteria a classic championship may choose, at most this many.
TIEBREAK_SLOTS = 5
#: Games won for a bye, as the rules form offers them.
BYE_WINS_CHOICES = [("1", "1"), ("0.5", "½"), ("0", "0")]
#: A classic rule's whole numbers go up to this (as services.championship_update_rules).
CLASSIC_NUMBER_MAX = 9999


def _optional_number(label: Any, help_text: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=1, max_value=CLASSIC_NUMBER_MAX,
        help_text=help_text, widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class ClassicRulesForm(forms.Form):
    """The rules of a classic championship (``scoring.classic.ClassicRules``, the play
    variant and the doubles allowed), as ``services.championship_update_rules`` takes
    them. ``tiebreak_1``..``tiebreak_5``: the ranking order, "—" for none; their
    ``cleaned_data`` is ``tiebreaks`` (a list), and a service error on ``tiebreaks``
    shows at ``tiebreak_1``. The duplicate rules (method, scale, rounding, infraction,
    missed boards, doubling, carregar, barraca) are not on it."""

    game_target = forms.IntegerField(
        label=_("Punts per guanyar la partida"), min_value=1, max_value=CLASSIC_NUMBER_MAX,
        help_text=_("Habitualment 101; també es juga a 36, 51 o 100."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "list": "target-suggestions"}),
    )
    max_deals = _optional_number(
        _("Mans com a màxim"), _("En blanc: sense límit de mans."))
    time_limit_minutes = _optional_number(
        _("Temps límit (minuts)"), _("En blanc: sense límit de temps."))
    score_cap = _optional_number(
        _("Punts comptats com a màxim"),
        _("Els punts d'una parella en una partida compten fins aquí a la classificació. "
          "En blanc: sense màxim."))
    level_game = forms.ChoiceField(
        label=_("Partida empatada al final"), choices=Championship.LevelGame.choices,
        widget=forms.RadioSelect,
    )
    extra_deals = forms.IntegerField(
        label=_("Mans de desempat"), min_value=0, max_value=CLASSIC_NUMBER_MAX,
        help_text=_("Només si una partida empatada juga mans de més."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    bye_wins = forms.ChoiceField(
        label=_("Victòries per descans"), choices=BYE_WINS_CHOICES, widget=forms.RadioSelect,
    )
    bye_points_for = forms.IntegerField(
        label=_("Punts a favor per descans"), min_value=0, max_value=CLASSIC_NUMBER_MAX,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    bye_points_against = forms.IntegerField(
        label=_("Punts en contra per descans"), min_value=0, max_value=CLASSIC_NUMBER_MAX,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    contro_allowed = forms.BooleanField(label=_("Contro permès"), required=False)
    recontro_allowed = forms.BooleanField(label=_("Recontro permès"), required=False)
    sant_vicenc = forms.BooleanField(label=_("Sant Vicenç permès"), required=False)
    sant_vicenc_on_botifarra = forms.BooleanField(
        label=_("Sant Vicenç també en botifarra"), required=False)
    variant = forms.ChoiceField(
        label=_("Variant"), choices=Championship.Variant.choices, widget=forms.RadioSelect,
    )
    movement = forms.ChoiceField(
        label=_("Moviment"), choices=Championship.Movement.choices,
        help_text=_("Com es sorteja cada ronda (el sistema suís aparella les parelles "
                    "amb les mateixes victòries)."),
    )

    #: The rules of the form, in its order (the tiebreak slots are added in __init__).
    RULES = ("game_target", "max_deals", "time_limit_minutes", "score_cap", "level_game",
             "extra_deals", "bye_wins", "bye_points_for", "bye_points_against",
             "contro_allowed", "recontro_allowed", "sant_vicenc",
             "sant_vicenc_on_botifarra", "variant", "movement")

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        initial = {name: getattr(championship, name) for name in self.RULES}
        initial["bye_wins"] = _bye_wins_text(championship.bye_wins)
        tiebreaks = list(championship.tiebreaks or [])
        for k in range(1, TIEBREAK_SLOTS + 1):
            initial[f"tiebreak_{k}"] = tiebreaks[k - 1] if k <= len(tiebreaks) else ""
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        ordinals = [_("1r criteri"), _("2n criteri"), _("3r criteri"), _("4t criteri"),
                    _("5è criteri")]
        for k in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{k}"] = forms.ChoiceField(
                label=ordinals[k - 1], required=k == 1,
                choices=[("", "—"), *Championship.Tiebreak.choices],
            )

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{k}"] for k in range(1, TIEBREAK_SLOTS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen: list[str] = []
        gap = False
        for k in range(1, TIEBREAK_SLOTS + 1):
            name = f"tiebreak_{k}"
            value = data.pop(name, "") or ""
            if not value:
                gap = True
                continue
            if value in chosen:
                self.add_error(name, _("Aquest criteri ja és més amunt a la llista."))
            elif gap:
                self.add_error(name, _("Ompliu els criteris per ordre, sense deixar-ne "
                                       "cap de buit al mig."))
            chosen.append(value)
        data["tiebreaks"] = chosen
        if data.get("recontro_allowed") and not data.get("contro_allowed"):
            self.add_error("recontro_allowed", _("El recontro només es pot fer després "
                                                 "d'un contro: permeteu també el contro."))
        if data.get("sant_vicenc") and not data.get("recontro_allowed"):
            self.add_error("sant_vicenc", _("El Sant Vicenç només es pot fer després "
                                            "d'un recontro: permeteu també el recontro."))
        if data.get("sant_vicenc_on_botifarra") and not data.get("sant_vicenc"):
            data["sant_vicenc_on_botifarra"] = False  # nothing to allow on botifarra
        return data

    def add_service_error(self, exc: Exception) -> None:
        """:func:`add_service_error`, the ranking order's error at its first slot."""
        if getattr(exc, "field", None) == "tiebreaks":
            self.add_error("tiebreak_1", str(exc))
            return
        add_service_error(self, exc)


def _bye_wins_text(value: Any) -> str:
    """The stored games won for a bye (a decimal) as the form's choice: "1", "0.5", "0"."""
    text = format(value, "f").rstrip("0").rstrip(".") if value is not None else "1"
    return text or "0"


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
    """How many rounds, and how many boards each round plays (``classic``: no boards,
    each table plays one game a round; ``cleaned_data["boards_per_round"]`` is 0)."""

    rounds = forms.IntegerField(label=_("Nombre de rondes"), min_value=1, max_value=30)
    boards_per_round = forms.IntegerField(
        label=_("Taulers per ronda"), min_value=1, max_value=36
    )

    def __init__(self, *args: Any, classic: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classic = classic
        if classic:
            del self.fields["boards_per_round"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.classic:
            data["boards_per_round"] = 0
        return data


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


class ClassicRoundCloseForm(RoundCloseForm):
    """:class:`RoundCloseForm` of a classic round, whose tables have games, not results."""

    allow_missing = forms.BooleanField(
        label=_("Tancar-la encara que hi faltin partides"), required=False
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


# ------------------------------------------------------------------ a classic game

SIDE_CHOICES = [("NS", _("NS")), ("EW", _("EO"))]
HAND_TRUMP_CHOICES = [("", "—"), *TRUMP_CHOICES]
#: The lines of a score sheet with no deal limit, and the most a sheet may have.
SHEET_LINES_NO_LIMIT = 16
SHEET_LINES_MAX = MAX_SHEET_DEALS
#: The doubles of a deal, each with the championship rule that allows it.
DOUBLES = (("contro", "contro_allowed"), ("recontro", "recontro_allowed"),
           ("sant_vicenc", "sant_vicenc"))


class HandLineForm(forms.Form):
    """One deal of a classic game's score sheet (``scoring.classic.Hand``): who chose
    trump and whether delegated, the trump, the doubles the championship allows, the
    points the choosing side took (0..72) and a revoke. A line with nothing typed is
    blank and left out of the game (:attr:`is_blank`)."""

    chooser = forms.ChoiceField(label=_("Qui tria"), choices=SIDE_CHOICES, required=False,
                                widget=forms.RadioSelect)
    delegated = forms.BooleanField(label=_("Delegat"), required=False)
    trump = forms.ChoiceField(label=_("Trumfo"), choices=HAND_TRUMP_CHOICES, required=False)
    contro = forms.BooleanField(label=_("Contro"), required=False)
    recontro = forms.BooleanField(label=_("Recontro"), required=False)
    sant_vicenc = forms.BooleanField(label=_("Sant Vicenç"), required=False)
    # No min/max validators: 0..72 is scoring.classic's rule, with its own message.
    points = forms.IntegerField(
        label=_("Punts de qui tria"), required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 72}),
    )
    revoke = forms.ChoiceField(label=_("Renunci"), choices=INFRACTION_CHOICES, required=False)

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, rule in DOUBLES:
            if not getattr(championship, rule):
                del self.fields[name]  # only the doubles the championship allows

    @property
    def is_blank(self) -> bool:
        """Nothing typed on the line (a sheet has more lines than a game needs)."""
        data = getattr(self, "cleaned_data", {})
        return not any(data.get(name) not in (None, "", False) for name in self.fields) \
            and not any(name in self.errors for name in self.fields)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.is_blank:
            return data
        if not data.get("chooser") and "chooser" not in self.errors:
            self.add_error("chooser", _("Cal saber qui ha triat el trumfo: NS o EO."))
        return data

    def raw(self) -> dict[str, Any]:
        """The deal as ``scoring.classic.validate_hand`` takes it."""
        data = self.cleaned_data
        return {
            "chooser": data.get("chooser") or None,
            "delegated": bool(data.get("delegated")),
            "trump": data.get("trump") or None,
            **{name: bool(data.get(name)) for name, _rule in DOUBLES},
            "points": data.get("points"),
            "revoke": data.get("revoke") or None,
        }


class GameForm(forms.Form):
    """One table's game of a classic championship, as a referee types it on a phone:
    the final (points NS and EO, deals played, how it ended) or, with ``sheet``, the
    score sheet deal by deal (:class:`HandLineForm` lines, prefixed ``h0``, ``h1``...;
    the final is the sheet's). ``version``: the version the referee saw (empty for a
    new game). "adjusted" (the referee's decision) only with ``can_adjust``.

    The rules are ``scoring.classic``'s, applied by ``services.game_record``; its
    problems come back at their fields (:meth:`add_service_error`), a deal's at its
    line."""

    ns_points = forms.IntegerField(
        label=_("Punts NS"), required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}))
    ew_points = forms.IntegerField(
        label=_("Punts EO"), required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}))
    deals = forms.IntegerField(
        label=_("Mans jugades"), required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1}))
    ended_by = forms.ChoiceField(
        label=_("Com s'ha acabat"), choices=Game.EndedBy.choices, required=False,
        widget=forms.RadioSelect)
    note = NFCFormField(label=_("Nota"), max_length=500, required=False)
    version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    # How many lines the page showed: read, and kept to 1..SHEET_LINES_MAX, in __init__
    # (not a field check: an error on a hidden field would refuse the save unseen).
    lines = forms.CharField(required=False, max_length=12, widget=forms.HiddenInput)

    def __init__(self, data: Any = None, *, championship: Championship, sheet: bool,
                 can_adjust: bool, hands: Sequence[dict[str, Any]] = (),
                 more_lines: int = 0, knockout: bool = False, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.championship = championship
        #: A knockout round's game: its level score goes to the extra deals.
        self.knockout = knockout
        self.sheet = sheet
        self.can_adjust = can_adjust
        rules = championship.classic_rules(knockout=knockout)
        allowed = {Game.EndedBy.ADJUSTED: can_adjust,
                   Game.EndedBy.TIME: rules.time_limit_minutes is not None,
                   Game.EndedBy.DEALS: rules.max_deals is not None and not sheet,
                   Game.EndedBy.TARGET: not sheet}
        #: The ends offered (a sheet ends by itself at the target or the deal limit).
        self.ended_choices = [value for value, _label in Game.EndedBy.choices
                              if allowed[Game.EndedBy(value)]]
        self.line_forms: list[HandLineForm] = []
        if not sheet:
            if data is None and not self.initial:
                # A table with no game yet, opened after the one before was saved: the
                # referee types the points at once.
                self.fields["ns_points"].widget.attrs["autofocus"] = True
            return
        for name in ("ns_points", "ew_points", "deals"):
            del self.fields[name]  # the sheet's
        base = rules.most_deals or SHEET_LINES_NO_LIMIT
        typed = max(len(hands), base)  # a sheet as long as the longest game
        if data is not None:
            try:
                typed = int(data.get("lines") or base)
            except (TypeError, ValueError):
                typed = base
        count = max(min(typed + more_lines, SHEET_LINES_MAX), 1)
        self.line_count = count
        self.initial.setdefault("lines", count)
        for k in range(count):
            self.line_forms.append(HandLineForm(
                data, prefix=f"h{k}", championship=championship,
                initial=_hand_initial(hands[k]) if k < len(hands) else None,
            ))

    def typed_raw(self) -> list[tuple[int, dict[str, Any]]]:
        """``(row, deal as scoring.classic takes it)`` of every line not blank."""
        return [(row, line.raw()) for row, line in self.typed_lines()]

    def ended_radios(self) -> list[Any]:
        """The radio buttons of the ends offered (:attr:`ended_choices`)."""
        return [r for r in self["ended_by"] if r.data["value"] in self.ended_choices]

    def is_valid(self) -> bool:
        lines_ok = all([line.is_valid() for line in self.line_forms])
        return super().is_valid() and lines_ok

    def typed_lines(self) -> list[tuple[int, HandLineForm]]:
        """``(row, line)`` of every line not blank (after :meth:`is_valid`)."""
        return [(k, line) for k, line in enumerate(self.line_forms)
                if hasattr(line, "cleaned_data") and not line.is_blank]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ended = data.get("ended_by") or ""
        if ended == Game.EndedBy.ADJUSTED and not self.can_adjust:
            self.add_error("ended_by", _("Només l'àrbitre principal o l'organitzador poden "
                                         "posar una puntuació arbitral."))
        if self.sheet and not any(not line.is_blank for line in self.line_forms
                                  if hasattr(line, "cleaned_data")) \
                and all(line.is_bound and not line.errors for line in self.line_forms):
            self.add_error(None, _("Entreu almenys una mà del full."))
        return data

    def values(self) -> dict[str, Any]:
        """The keywords of ``services.game_record`` (but the version and the user)."""
        data = self.cleaned_data
        out: dict[str, Any] = {"ended_by": data.get("ended_by") or None,
                               "note": data.get("note") or ""}
        if self.sheet:
            out["hands"] = [line.raw() for _row, line in self.typed_lines()]
        else:
            out.update(ns_points=data.get("ns_points"), ew_points=data.get("ew_points"),
                       deals=data.get("deals"))
        return out

    def add_service_error(self, exc: Exception) -> None:
        """A refusal of ``services.game_record`` at its fields: each problem of a
        ``ResultError`` (``hands[k].points`` at line ``k``'s points), else as
        :func:`add_service_error`."""
        problems = getattr(exc, "problems", None)
        if not problems:
            add_service_error(self, exc)
            return
        rows = [row for row, _line in self.typed_lines()]
        for field, message in problems:
            self.add_problem(field, message, rows)

    def add_problem(self, field: str, message: str, rows: Sequence[int] = ()) -> None:
        """``message`` at ``field`` (``hands[k].name``: line ``rows[k]``'s field)."""
        if field.startswith("hands[") and "]" in field and self.line_forms:
            end = field.index("]")
            k = int(field[6:end])
            row = rows[k] if k < len(rows) else k
            name = field[end + 2:] if len(field) > end + 1 else ""
            if row < len(self.line_forms):
                line = self.line_forms[row]
                line.add_error(name if name in line.fields else None, message)
                return
        self.add_error(field if field in self.fields else None, message)

    @property
    def line_errors(self) -> bool:
        return any(line.errors for line in self.line_forms)


def _hand_initial(hand: dict[str, Any]) -> dict[str, Any]:
    """A stored deal (``scoring.classic.Hand.as_json``) as a line's initial values."""
    return {
        "chooser": hand.get("chooser") or "", "delegated": bool(hand.get("delegated")),
        "trump": hand.get("trump") or "", "contro": bool(hand.get("contro")),
        "recontro": bool(hand.get("recontro")), "sant_vicenc": bool(hand.get("sant_vicenc")),
        "points": hand.get("points"), "revoke": hand.get("revoke") or "",
    }


def game_initial(game: Game | None) -> dict[str, Any]:
    """A stored game as the :class:`GameForm`'s initial values."""
    if game is None:
        return {}
    return {"ns_points": game.ns_points, "ew_points": game.ew_points, "deals": game.deals,
            "ended_by": game.ended_by, "note": game.note, "version": game.version}
