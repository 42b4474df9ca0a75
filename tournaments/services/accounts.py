"""Accounts the program itself sets up (the demo's users). People's own accounts are made
in the admin or with ``manage.py createsuperuser``, as in any Django site."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from tournaments.services.championships import CREATE_PERMISSION


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
