"""Accounts the program itself sets up: the demo's users, and a referee's account made by
the organiser on the championship's people page, with its one-time sign-in link. Other
accounts are made in the admin or with ``manage.py createsuperuser``, as in any Django
site."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import IntegrityError, transaction
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _

from tournaments.models import Championship, Membership
from tournaments.permissions import Role
from tournaments.selectors.roles import signs_in_by_link
from tournaments.services.championships import CREATE_PERMISSION, membership_grant
from tournaments.services.common import Capability, User, lock_championship, require
from tournaments.services.errors import AccountError, RegistrationError


@transaction.atomic
def user_ensure(
    *, username: str, password: str, superuser: bool = False,
    may_create_championships: bool = False,
) -> Any:
    """The user ``username`` with ``password`` (created if missing, its password set
    again if not); ``superuser`` makes it staff and superuser, ``may_create_championships``
    gives it :data:`CREATE_PERMISSION`. Returns the user. Not audited: an account belongs
    to no championship (roles in one are granted by ``membership_grant``, which is)."""
    user, _created = get_user_model().objects.get_or_create(username=username)
    if superuser:
        user.is_staff = user.is_superuser = True
    user.set_password(password)
    user.save()
    if may_create_championships:
        app_label, codename = CREATE_PERMISSION.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return user


# ----------------------------------------------------------------- referee accounts


class SignInTokenGenerator(PasswordResetTokenGenerator):
    """The token of a one-time sign-in link (``web/people.py``). Django's password-reset
    token hashes the user's ``last_login``: signing in changes it, so a link works once;
    it also dies after ``settings.PASSWORD_RESET_TIMEOUT`` (3 days). It hashes the
    account's roles too: a role given or taken (in any championship) kills the links
    made before, so a link never opens more than its maker could open when making it.
    Its own salt: a password-reset token is no sign-in token and the other way round."""

    key_salt = "tournaments.services.accounts.SignInTokenGenerator"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        roles = sorted(Membership.objects.filter(user_id=user.pk)
                       .values_list("championship_id", "role"))
        return super()._make_hash_value(user, timestamp) + repr(roles)


sign_in_tokens = SignInTokenGenerator()

#: How many days a sign-in link lasts (Django's ``PASSWORD_RESET_TIMEOUT``, in days).
SIGN_IN_DAYS = settings.PASSWORD_RESET_TIMEOUT // 86400


def sign_in_refusal(user: Any) -> AccountError | None:
    """Why no sign-in link may be made for ``user``, as the error; ``None`` when one may.
    The rule: :func:`tournaments.selectors.roles.signs_in_by_link`."""
    if not signs_in_by_link(user):
        return AccountError(
            _("Només es poden fer enllaços d'entrada per als comptes d'àrbitre creats "
              "aquí (sense contrasenya)."), field="user")
    return None


def _championships_not_organised(user: Any, acting_user: User | None) -> list[str]:
    """The names of the championships where ``user`` holds a role that ``acting_user``
    does not organise (none for the system or a superuser)."""
    if acting_user is None or acting_user.is_superuser:
        return []
    held = Championship.objects.filter(memberships__user_id=user.pk)
    if acting_user.pk is not None:  # an anonymous user organises nothing
        held = held.exclude(pk__in=Membership.objects.filter(
            user_id=acting_user.pk, role=Role.ORGANISER).values("championship_id"))
    return list(held.distinct().order_by("name").values_list("name", flat=True))


def sign_in_token(*, user: Any, acting_user: User | None) -> str:
    """A one-time sign-in token for ``user`` (:data:`sign_in_tokens`), made by
    ``acting_user`` (``None``: the system). A link opens the whole account, so it is made
    only by someone who organises every championship where the account holds a role:
    else the organiser of one championship could add another's referee by user name and
    act as them there. Raises :class:`AccountError` (:func:`sign_in_refusal`, or a role
    in a championship ``acting_user`` does not organise)."""
    if (refusal := sign_in_refusal(user)) is not None:
        raise refusal
    if elsewhere := _championships_not_organised(user, acting_user):
        raise AccountError(
            _("%(name)s també té un rol en un altre campionat (%(list)s): només qui "
              "organitza tots els seus campionats li pot fer un enllaç d'entrada.")
            % {"name": user.get_username(), "list": ", ".join(elsewhere)}, field="user")
    return sign_in_tokens.make_token(user)


def sign_in_check(*, uidb64: str, token: str, championship: Championship) -> Any:
    """The user a sign-in link of ``championship`` names, or ``None`` when the link is
    malformed, used, expired, for an account that may not sign in so
    (:func:`sign_in_refusal`) or holds no role in ``championship`` (a link moved under
    another championship's address)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode("ascii"))
        user = get_user_model().objects.get(pk=pk, is_active=True)
    except (ValueError, UnicodeDecodeError, OverflowError, ObjectDoesNotExist):
        return None
    if sign_in_refusal(user) is not None or not sign_in_tokens.check_token(user, token):
        return None
    if not Membership.objects.filter(user_id=user.pk, championship=championship).exists():
        return None
    return user


@transaction.atomic
def referee_account_create(
    *, championship: Championship, username: str, email: str, role: str,
    acting_user: User | None,
) -> Any:
    """Create an account with no password for a referee (``role``: referee or head
    referee) or a check-in helper (``check_in``) and give it the role in
    ``championship`` (:func:`membership_grant`, whose audit row says the account was
    made here). The person signs in with a one-time link
    (:func:`sign_in_token`).

    Raises :class:`AccountError` (field ``username``: empty, invalid or taken; field
    ``email``: taken), :class:`RegistrationError` (role), :class:`NotAllowedError`.
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.GRANT_ROLE)
    if role not in (Role.REFEREE, Role.HEAD_REFEREE, Role.CHECK_IN):
        raise RegistrationError(_("Rol desconegut: %(role)s.") % {"role": role}, field="role")
    model = get_user_model()
    username = (username or "").strip()
    email = (email or "").strip()
    try:
        model._meta.get_field("username").run_validators(username)
    except ValidationError as exc:
        raise AccountError(" ".join(exc.messages), field="username") from None
    if not username:
        raise AccountError(_("Cal un nom d'usuari."), field="username")
    taken = AccountError(
        _("Ja hi ha un compte «%(name)s»: afegiu-lo amb el nom o el correu.")
        % {"name": username}, field="username")
    if model.objects.filter(username__iexact=username).exists():
        raise taken
    if email and model.objects.filter(email__iexact=email).exists():
        raise AccountError(
            _("Ja hi ha un compte amb el correu %(email)s: afegiu-lo amb el correu.")
            % {"email": email}, field="email")
    user = model(username=username, email=email)
    user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # The championship's lock does not cover accounts: an organiser of another
        # championship made the same user name in the meantime.
        raise taken from None
    membership_grant(championship=championship, user=user, role=role,
                     acting_user=acting_user, account_created=True)
    return user
