"""Championships: create, edit the rules, grant and revoke roles, finish, publish the deal
secret."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date as date_type
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import User as Account
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine import sant_vicenc_default
from tournaments.models import (
    AuditEntry,
    Championship,
    Game,
    Membership,
    Result,
    Round,
)
from tournaments.permissions import Role
from tournaments.services.common import Capability, User, audit, lock_championship, require
from tournaments.services.errors import ChampionshipStateError, NotAllowedError, RegistrationError

#: The rules of a classic championship's games (scoring.classic.ClassicRules).
CLASSIC_FIELDS = (
    "game_target", "max_deals", "time_limit_minutes", "score_cap", "level_game",
    "extra_deals", "tiebreaks", "bye_wins", "bye_points_for", "bye_points_against",
    "contro_allowed", "recontro_allowed",
)
RULE_FIELDS = (
    "variant", "doubling", "method", "scale_bottom", "scale_top", "rounding",
    "infraction_score", "carregar", "carregar_scope", "sant_vicenc",
    "sant_vicenc_on_botifarra", "barraca", "movement", "missed_boards",
    *CLASSIC_FIELDS,
)
#: Those that may be left empty ("none": no deal limit, no time limit, no cap).
_OPTIONAL_NUMBERS = ("max_deals", "time_limit_minutes", "score_cap")
_NUMBERS = ("game_target", "extra_deals", "bye_points_for", "bye_points_against")
_NUMBER_MAX = 9999


def _settings_of(championship: Championship, names: Any = None) -> dict[str, Any]:
    """The championship's name, dates, venue and rules (or only ``names``) as JSON-able
    values, for the audit row."""
    names = names or ("name", "slug", "date", "end_date", "venue", "format", *RULE_FIELDS)
    return {name: getattr(championship, name) for name in names}


def _unique_slug(base: str) -> str:
    base = slugify(base)[:90] or "campionat"
    taken = set(
        Championship.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    )
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _clean_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(rules) - set(RULE_FIELDS))
    if unknown:
        raise RegistrationError(
            _("Regles desconegudes: %(names)s.") % {"names": ", ".join(unknown)},
            field=unknown[0],
        )
    clean: dict[str, Any] = {}
    choice_fields = {
        "variant": Championship.Variant,
        "doubling": Championship.Doubling,
        "method": Championship.Method,
        "rounding": Championship.Rounding,
        "carregar_scope": Championship.CarregarScope,
        "movement": Championship.Movement,
        "missed_boards": Championship.MissedBoards,
        "level_game": Championship.LevelGame,
    }
    for name, value in rules.items():
        if name in _OPTIONAL_NUMBERS or name in _NUMBERS:
            clean[name] = _whole_number(name, value, optional=name in _OPTIONAL_NUMBERS)
        elif name == "tiebreaks":
            clean[name] = _tiebreaks(value)
        elif name == "bye_wins":
            text = str(value).replace(",", ".").replace("½", "0.5")
            if text not in ("0", "0.5", "1", "0.0", "1.0"):
                raise RegistrationError(
                    _("Victòries per descans: «%(value)s» ha de ser 1, 0,5 o 0.")
                    % {"value": value}, field=name,
                )
            clean[name] = Decimal(text)
        elif name in choice_fields:
            text = getattr(value, "value", value)
            if text not in choice_fields[name].values:
                raise RegistrationError(
                    _("%(field)s: «%(value)s» no és cap de %(choices)s.")
                    % {"field": name, "value": text,
                       "choices": ", ".join(choice_fields[name].values)},
                    field=name,
                )
            clean[name] = text
        elif name in ("scale_bottom", "scale_top", "infraction_score"):
            try:
                clean[name] = Decimal(str(value))
            except (InvalidOperation, ValueError):
                raise RegistrationError(
                    _("%(field)s: «%(value)s» no és un nombre.")
                    % {"field": name, "value": value},
                    field=name,
                ) from None
        else:
            clean[name] = bool(value)
    return clean


def _whole_number(name: str, value: Any, *, optional: bool) -> int | None:
    """A rule's whole number (``None`` for an empty optional one: no limit)."""
    if value is None or value == "":
        if optional:
            return None
        raise RegistrationError(_("%(field)s: cal un nombre.") % {"field": name}, field=name)
    if isinstance(value, bool):
        value = "x"
    try:
        number = int(str(value).strip())
    except ValueError:
        number = -1
    low = 1 if name in ("game_target", *_OPTIONAL_NUMBERS) else 0
    if not low <= number <= _NUMBER_MAX:
        raise RegistrationError(
            _("%(field)s: «%(value)s» ha de ser un enter de %(low)s a %(high)s.")
            % {"field": name, "value": value, "low": low, "high": _NUMBER_MAX},
            field=name,
        )
    return number


def _tiebreaks(value: Any) -> list[str]:
    """The ranking order: a list (or a comma-separated text) of criteria, each once,
    games won first or not at all."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        items = [items]
    found = [str(getattr(i, "value", i)).strip() for i in items if str(i).strip()]
    choices = Championship.Tiebreak.values
    wrong = [t for t in found if t not in choices]
    if wrong or not found or len(set(found)) != len(found):
        raise RegistrationError(
            _("Ordre de la classificació: «%(value)s» ha de ser una llista de %(choices)s, "
              "cadascun com a molt una vegada.")
            % {"value": ", ".join(found), "choices": ", ".join(choices)},
            field="tiebreaks",
        )
    return found


def _check_classic(values: Mapping[str, Any]) -> None:
    """Whether the classic rules hold together (a cap below the target...)."""
    cap, target = values.get("score_cap"), values.get("game_target")
    if cap is not None and target is not None and cap < target:
        raise RegistrationError(
            _("Els punts comptats com a màxim (%(cap)s) no poden ser menys que els punts "
              "per guanyar (%(target)s).") % {"cap": cap, "target": target},
            field="score_cap",
        )


#: The Django permission a person needs to create a championship (superusers have it;
#: the organiser of the demo is given it; grant it in /admin).
CREATE_PERMISSION = "tournaments.add_championship"

#: How many times a championship with a slug made from its name is tried again when
#: another one took that slug at the same moment (each try takes the next free suffix).
SLUG_TRIES = 20


def _check_length(value: str, model: type[Any], field: str, label: str) -> None:
    limit = model._meta.get_field(field).max_length
    if len(value) > limit:
        raise RegistrationError(
            _("%(label)s: com a molt %(limit)s caràcters (n'hi ha %(n)s).")
            % {"label": label, "limit": limit, "n": len(value)},
            field=field,
        )


@transaction.atomic
def championship_create(
    *,
    name: str,
    date: date_type,
    venue: str = "",
    slug: str | None = None,
    end_date: date_type | None = None,
    acting_user: User | None = None,
    format: str = "duplicate",
    **rules: Any,
) -> Championship:
    """Create a championship in ``draft`` with the given rules (``RULE_FIELDS``; every one
    missing takes the spec's default: obligada, duplicate, proportional, scale 1..2,
    no rounding, infraction score 0; ``sant_vicenc`` follows the doubling,
    ``engine.sant_vicenc_default``: not under duplicate, allowed under classic). The
    acting user becomes its organiser; a person
    (``acting_user`` not ``None``) needs the ``tournaments.add_championship`` permission
    (:data:`CREATE_PERMISSION`).

    ``slug``: defaults to the name slugified, made unique with ``-2``, ``-3``... (tried
    again with the next suffix when another championship takes it at the same moment);
    an explicit slug that is taken, even by a championship created at the same moment, is
    refused. Raises :class:`RegistrationError` (field set), :class:`NotAllowedError`.

    ``format``: ``duplicate`` (boards dealt in advance) or ``classic`` (one game a round,
    ``scoring.classic``), chosen now for good. A classic championship's defaults are
    those most Catalan events play: lliure, contro and recontro allowed, no Sant
    Vicenç, Swiss rounds, classic doubling.
    """
    if (
        acting_user is not None
        and acting_user.is_authenticated
        and not acting_user.has_perm(CREATE_PERMISSION)
    ):
        raise NotAllowedError(_("No teniu permís per crear campionats."))
    name = (name or "").strip()
    if not name:
        raise RegistrationError(_("Cal un nom."), field="name")
    _check_length(name, Championship, "name", _("Nom"))
    venue = (venue or "").strip()
    _check_length(venue, Championship, "venue", _("Lloc"))
    explicit = bool(slug)
    if slug:
        if slugify(slug) != slug:
            raise RegistrationError(
                _("L'identificador «%(slug)s» només pot tenir lletres, xifres i guions.")
                % {"slug": slug},
                field="slug",
            )
        _check_length(slug, Championship, "slug", _("Identificador"))
    format = getattr(format, "value", format)
    if format not in Championship.Format.values:
        raise RegistrationError(
            _("Format «%(value)s» desconegut: ha de ser un de %(choices)s.")
            % {"value": format, "choices": ", ".join(Championship.Format.values)},
            field="format",
        )
    clean = _clean_rules(rules)
    if format == Championship.Format.CLASSIC:
        for key, default in (("variant", Championship.Variant.LLIURE),
                             ("sant_vicenc", False),
                             ("doubling", Championship.Doubling.CLASSIC),
                             ("movement", Championship.Movement.SWISS)):
            clean.setdefault(key, default)
        _check_classic({"score_cap": clean.get("score_cap", 121),
                        "game_target": clean.get("game_target", 101)})
    if "sant_vicenc" not in clean:
        clean["sant_vicenc"] = sant_vicenc_default(
            clean.get("doubling", Championship.Doubling.DUPLICATE)
        )
    bottom = clean.get("scale_bottom", Decimal(1))
    top = clean.get("scale_top", Decimal(2))
    if top <= bottom:
        raise RegistrationError(
            _("L'escala ha d'anar de menys a més: mínim %(bottom)s, màxim %(top)s.")
            % {"bottom": bottom, "top": top},
            field="scale_top",
        )
    taken_message = _("Ja hi ha un campionat amb l'identificador «%(slug)s».")
    for _try in range(SLUG_TRIES):
        candidate = slug if explicit else _unique_slug(name)
        assert candidate is not None
        if explicit and Championship.objects.filter(slug=candidate).exists():
            raise RegistrationError(taken_message % {"slug": candidate}, field="slug")
        try:
            # A savepoint: a slug taken by a championship saved at the same moment is a
            # unique violation (PostgreSQL waits for the other transaction, then refuses).
            with transaction.atomic():
                championship = Championship.objects.create(
                    name=name, slug=candidate, date=date, end_date=end_date, venue=venue,
                    format=format, **clean,
                )
        except IntegrityError:
            if not Championship.objects.filter(slug=candidate).exists():
                raise  # not the slug: a bug, let it show
            if explicit:
                raise RegistrationError(
                    taken_message % {"slug": candidate}, field="slug"
                ) from None
            continue
        break
    else:
        raise RegistrationError(
            _("No s'ha trobat cap identificador lliure per a «%(name)s»: escriviu-ne un.")
            % {"name": name},
            field="slug",
        )
    if acting_user is not None and acting_user.is_authenticated:
        Membership.objects.create(
            championship=championship, user_id=acting_user.pk, role=Role.ORGANISER
        )
    audit(
        championship, AuditEntry.Action.CHAMPIONSHIP_CREATE, acting_user,
        target=championship.name, after=_settings_of(championship),
    )
    return championship


def rules_edit_refusal(championship: Championship) -> ChampionshipStateError | None:
    """Why :func:`championship_update_rules` would refuse any change of ``championship``'s
    rules now, whoever asks, as the error it raises; ``None`` while they can change (no
    result yet: results are scored under the rules they were entered with). The
    organiser's page shows the form read-only with this message. One query."""
    if Result.objects.filter(board__championship=championship).exists() or \
            Game.objects.filter(seating__round__championship=championship).exists():
        return ChampionshipStateError(
            _("Ja hi ha resultats: les regles ja no es poden canviar.")
        )
    return None


@transaction.atomic
def championship_update_rules(
    *, championship: Championship, acting_user: User | None, **rules: Any
) -> Championship:
    """Change rules while no result exists (results are scored under the rules they were
    entered with). Raises :class:`ChampionshipStateError`, :class:`RegistrationError`."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.EDIT_RULES)
    refusal = rules_edit_refusal(championship)
    if refusal is not None:
        raise refusal
    clean = _clean_rules(rules)
    before = _settings_of(championship, clean)
    for name, value in clean.items():
        setattr(championship, name, value)
    if championship.scale_top <= championship.scale_bottom:
        raise RegistrationError(
            _("L'escala ha d'anar de menys a més: mínim %(bottom)s, màxim %(top)s.")
            % {"bottom": championship.scale_bottom, "top": championship.scale_top},
            field="scale_top",
        )
    if championship.is_classic:
        _check_classic({"score_cap": championship.score_cap,
                        "game_target": championship.game_target})
    after = _settings_of(championship, clean)
    changed = [name for name in clean if before[name] != after[name]]
    if not changed:
        return championship  # nothing to write, nothing to audit
    championship.save()
    audit(
        championship, AuditEntry.Action.RULES_EDIT, acting_user,
        target=", ".join(changed),
        before={name: before[name] for name in changed},
        after={name: after[name] for name in changed},
    )
    return championship



@transaction.atomic
def membership_grant(
    *, championship: Championship, user: Account, role: str,
    acting_user: User | None = None, account_created: bool = False,
) -> Membership:
    """Give ``user`` a role (organiser / referee / head_referee) in one championship.
    ``account_created``: the account was made for this role (the audit row says so).

    Only an organiser of that championship (or the system) may grant roles.
    Raises :class:`RegistrationError` for an unknown role, :class:`NotAllowedError`.
    """
    require(acting_user, championship, Capability.GRANT_ROLE)
    if role not in Role.values:
        raise RegistrationError(_("Rol desconegut: %(role)s.") % {"role": role}, field="role")
    membership, created = Membership.objects.get_or_create(
        championship=championship, user_id=user.pk, role=role
    )
    if created:
        audit(
            championship, AuditEntry.Action.ROLE_GRANT, acting_user,
            target=f"{user.get_username()}: {Role(role).label}",
            after={"user": user.get_username(), "role": role,
                   **({"account_created": True} if account_created else {})},
        )
    return membership


def membership_revoke_refusal(membership: Membership) -> ChampionshipStateError | None:
    """Why :func:`membership_revoke` would refuse to take ``membership`` away, whoever
    asks, as the error it raises; ``None`` when it can. The last organiser of a
    championship keeps the role: without one nobody but a superuser could run it. One
    query for an organiser's role, none for another."""
    if membership.role != Role.ORGANISER:
        return None
    others = Membership.objects.filter(
        championship_id=membership.championship_id, role=Role.ORGANISER
    ).exclude(pk=membership.pk)
    if others.exists():
        return None
    return ChampionshipStateError(
        _("No es pot treure l'últim organitzador del campionat."), field="role"
    )


@transaction.atomic
def membership_revoke(*, membership: Membership, acting_user: User | None = None) -> None:
    """Take a role away: delete ``membership`` (one user's role in one championship) and
    write its audit row.

    Only an organiser of that championship (or the system) may, as for
    :func:`membership_grant`. Locks the championship's row first, so two organisers
    removing each other cannot both succeed and leave it with none. A role already gone
    is no error (nothing is written). Raises :class:`NotAllowedError`,
    :class:`ChampionshipStateError` (:func:`membership_revoke_refusal`).
    """
    championship = lock_championship(membership.championship_id)
    require(acting_user, championship, Capability.GRANT_ROLE)
    row = Membership.objects.select_related("user").filter(pk=membership.pk).first()
    if row is None:
        return
    if (refusal := membership_revoke_refusal(row)) is not None:
        raise refusal
    username = row.user.get_username()
    row.delete()
    audit(
        championship, AuditEntry.Action.ROLE_REVOKE, acting_user,
        target=f"{username}: {Role(row.role).label}",
        before={"user": username, "role": row.role},
    )


@transaction.atomic
def championship_finish(*, championship: Championship, acting_user: User | None) -> Championship:
    """Finish the championship: results are final and every open round is closed.

    Raises :class:`ChampionshipStateError` (already finished), :class:`NotAllowedError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.FINISH)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja està acabat."))
    now = timezone.now()
    still_open = Round.objects.filter(championship=championship, closed_at__isnull=True)
    closed = sorted(still_open.values_list("number", flat=True))
    still_open.update(closed_at=now)
    before = championship.status
    championship.status = Championship.Status.FINISHED
    championship.save(update_fields=["status"])
    audit(
        championship, AuditEntry.Action.CHAMPIONSHIP_FINISH, acting_user,
        target=championship.name, before={"status": before},
        after={"status": championship.status, "rounds_closed": closed}, at=now,
    )
    return championship


@transaction.atomic
def deal_secret_publish(*, championship: Championship, acting_user: User | None) -> Championship:
    """Make the deal secret public so anyone can check the commitment and regenerate
    every board (``verify_deals``). Only once the championship is finished.

    Raises :class:`ChampionshipStateError` (not finished, no secret, already published),
    :class:`NotAllowedError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.PUBLISH_SECRET)
    if championship.status != Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("La llavor només es pot publicar quan el campionat s'ha acabat.")
        )
    if not championship.deal_secret:
        raise ChampionshipStateError(_("Aquest campionat no té llavor: no s'hi van generar "
                                       "els taulers."))
    if championship.deal_secret_published:
        raise ChampionshipStateError(_("La llavor ja és pública."))
    championship.deal_secret_published_at = timezone.now()
    championship.save(update_fields=["deal_secret_published_at"])
    # The secret itself stays out of the log: the championship's page shows it now.
    audit(
        championship, AuditEntry.Action.SECRET_PUBLISH, acting_user,
        target=championship.name,
        after={"deal_commitment": championship.deal_commitment,
               "published_at": championship.deal_secret_published_at},
    )
    return championship
