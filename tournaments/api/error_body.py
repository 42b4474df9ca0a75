"""The API's error body and the 428 refusal: what the views raise and document.

Kept apart from the exception handler (``api/errors.py``), which imports the results view
to show the stored result in a 409: the views import these without importing the
handler, so the two never import each other.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import exceptions, serializers


class PreconditionRequired(exceptions.APIException):
    """428: a change of an existing resource must say which version it changes."""

    status_code = 428
    default_detail = gettext_lazy(
        "Aquest resultat ja existeix: envieu la capçalera If-Match amb el seu ETag per "
        "canviar-lo."
    )
    default_code = "precondition_required"


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(allow_null=True, help_text="path of the field, dotted")
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    code = serializers.CharField()
    # Named like ``Serializer.errors``, which stays: DRF's metaclass takes the declared
    # fields off the class.
    errors = FieldErrorSerializer(many=True, required=False)  # type: ignore[assignment]  # see above
