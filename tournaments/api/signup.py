"""The organiser's sign-up list through the API: read it (with the contact) and add a
pair by hand, the same service and rights as the list's page (``services.signup``,
``Capability.MANAGE_SIGNUP``). Nothing of it is public: anyone else gets 403 (401
without an account)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import ReadOrAuthenticated, championship_of, require
from tournaments.api.serializers import StrictInput, TextInput
from tournaments.models import Registration
from tournaments.permissions import Capability
from tournaments.selectors import signup as signup_selectors
from tournaments.services import signup as signup_services


class RegistrationSerializer(serializers.Serializer[Any]):
    """One registration of the list, contact included (the organiser's only)."""

    id = serializers.IntegerField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    paid = serializers.BooleanField()
    player1 = serializers.CharField()
    player2 = serializers.CharField()
    licence1 = serializers.CharField()
    licence2 = serializers.CharField()
    email = serializers.CharField()
    phone = serializers.CharField()
    language = serializers.CharField()
    note = serializers.CharField()
    pair = serializers.IntegerField(allow_null=True, help_text="the pair made of it")
    waiting_place = serializers.IntegerField(allow_null=True,
                                             help_text="its place in the waiting list")
    created_at = serializers.DateTimeField()


class RegistrationInput(StrictInput):
    """A pair added by hand: names, a contact (e-mail or phone), licences, a note."""

    player1 = TextInput(allow_blank=True, max_length=signup_services.NAME_MAX)
    player2 = TextInput(allow_blank=True, max_length=signup_services.NAME_MAX)
    email = TextInput(required=False, allow_blank=True, max_length=254)
    phone = TextInput(required=False, allow_blank=True, max_length=signup_services.PHONE_MAX)
    licence1 = TextInput(required=False, allow_blank=True,
                         max_length=signup_services.LICENCE_MAX)
    licence2 = TextInput(required=False, allow_blank=True,
                         max_length=signup_services.LICENCE_MAX)
    note = TextInput(required=False, allow_blank=True, max_length=signup_services.NOTE_MAX)


def registration_data(registration: Registration, place: int | None) -> dict[str, Any]:
    return {
        "id": registration.pk, "position": registration.position,
        "status": registration.status, "paid": registration.paid,
        "player1": registration.player1_name, "player2": registration.player2_name,
        "licence1": registration.player1_licence, "licence2": registration.player2_licence,
        "email": registration.email, "phone": registration.phone,
        "language": registration.language, "note": registration.note,
        "pair": registration.pair.number if registration.pair else None,
        "waiting_place": place, "created_at": registration.created_at,
    }


class SignupListApi(APIView):
    """GET: the sign-up list in order (the cancelled ones last). POST: add a pair by
    hand (201; the same names and contact again within a minute: 200 with the first).
    Organiser only."""

    permission_classes = [ReadOrAuthenticated]

    @extend_schema(responses=RegistrationSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        require(request, championship, Capability.MANAGE_SIGNUP)
        rows = signup_selectors.registrations(championship)
        waiting = [r for r in rows if r.status == Registration.Status.WAITING]
        places = {r.pk: k for k, r in enumerate(waiting, start=1)}
        return Response(RegistrationSerializer(
            [registration_data(r, places.get(r.pk)) for r in rows], many=True).data)

    @extend_schema(request=RegistrationInput,
                   responses={200: RegistrationSerializer, 201: RegistrationSerializer})
    def post(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        require(request, championship, Capability.MANAGE_SIGNUP)
        incoming = RegistrationInput(data=request.data)
        incoming.is_valid(raise_exception=True)
        done = signup_services.signup_add(
            championship=championship, acting_user=request.user,
            site_url=settings.SITE_URL or request.build_absolute_uri("/").rstrip("/"),
            language=translation.get_language() or "", **incoming.validated_data)
        return Response(
            RegistrationSerializer(registration_data(done.registration, done.place)).data,
            status=status.HTTP_201_CREATED if done.created else status.HTTP_200_OK)
