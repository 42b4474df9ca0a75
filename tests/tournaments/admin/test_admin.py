"""The Django admin speaks the UI's language: every model field has a Catalan
``verbose_name``, so forms and filters read "Campionat", never "Championship"."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse

from tests.factories import ChampionshipFactory, UserFactory


def test_every_field_of_every_tournaments_model_has_a_verbose_name():
    missing = [
        f"{model.__name__}.{field.name}"
        for model in apps.get_app_config("tournaments").get_models()
        for field in model._meta.concrete_fields
        if not field.auto_created and "verbose_name" not in field.deconstruct()[3]
    ]
    assert missing == []


@pytest.mark.django_db
def test_the_membership_admin_form_and_filters_are_in_catalan(client):
    admin = UserFactory(username="admin-ca", is_superuser=True, is_staff=True)
    admin.save()
    ChampionshipFactory(name="Obert de Vic")
    ChampionshipFactory(name="Obert de Manlleu")  # a filter shows with two choices
    client.force_login(admin)
    client.cookies["django_language"] = "ca"
    form = client.get(reverse("admin:tournaments_membership_add")).content.decode()
    assert "Campionat:" in form and "Usuari:" in form and "Rol:" in form
    assert "Championship:" not in form and "User:" not in form
    listing = client.get(reverse("admin:tournaments_membership_changelist")).content.decode()
    assert "Per campionat" in listing
    assert "Per championship" not in listing
