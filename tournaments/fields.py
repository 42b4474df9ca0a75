"""Text fields that hold clean text whichever way it came in.

Every text that enters (forms, the pairs CSV, the interchange import, the admin, the API)
ends in one of these model fields, so the rule lives here, at the lowest common level
(docs/decisions.md 33):

- composed to Unicode NFC (``scoring.text.normalise``): a name typed or sent decomposed
  (``Nu`` + U+0301 + ``ria``) is stored as ``Núria``, one precomposed ``ú``. It happens
  in ``to_python`` (forms, the admin, ``full_clean``), in ``pre_save`` (every save and
  ``bulk_create``, the instance's attribute too) and in ``get_prep_value`` (lookups and
  ``QuerySet.update``), so no path stores a decomposed text and a lookup by a
  decomposed name finds the composed one;
- control characters refused by a validator (:class:`NoControlCharacters`) with a field
  error that names them: none in a one-line text (:class:`NFCCharField`), only tab and
  line ends in a multi-line one (:class:`NFCTextField`). Validators run wherever Django
  validates (ModelForms, the admin, DRF's ModelSerializers, ``full_clean``); the services
  that write without a form check the same rule themselves (the pairs CSV, the
  interchange file's checks).

:class:`NFCFormField` is the form field for the forms that are not a model's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.text import MULTILINE_CONTROLS, control_character_positions, normalise


@deconstructible
class NoControlCharacters:
    """Refuses a text holding a control character (``scoring.text.is_control``: Unicode
    ``Cc``, the line separators, the bidirectional controls) other than ``allowed``:
    ``ValidationError`` (code ``control_characters``) naming each and where it is, e.g.
    "El text té caràcters de control (U+202E a la posició 5): ...".
    """

    code = "control_characters"

    def __init__(self, allowed: str = "") -> None:
        self.allowed = allowed

    def __call__(self, value: Any) -> None:
        if not isinstance(value, str):
            return
        found = control_character_positions(value, allowed=frozenset(self.allowed))
        if found:
            where = [gettext("%(code)s a la posició %(position)s")
                     % {"code": code, "position": position} for code, position in found]
            raise ValidationError(
                _("El text té caràcters de control (%(chars)s): esborreu-los i torneu a "
                  "escriure'l."),
                code=self.code,
                params={"chars": ", ".join(where)},
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoControlCharacters) and other.allowed == self.allowed

    def __hash__(self) -> int:
        return hash(self.allowed)


ONE_LINE = NoControlCharacters()
MULTILINE = NoControlCharacters(allowed="".join(sorted(MULTILINE_CONTROLS)))


def _nfc(value: Any) -> Any:
    return normalise(value) if isinstance(value, str) else value


if TYPE_CHECKING:
    # django-stubs' fields are generic in (value set, value read); Django's classes are
    # not subscriptable at run time.
    _CharField = models.CharField[str, str]
    _TextField = models.TextField[str, str]
else:
    _CharField = models.CharField
    _TextField = models.TextField


class _NFCMixin:
    """Composes to NFC on the way in and on the way to the database."""

    def to_python(self, value: Any) -> Any:
        return _nfc(super().to_python(value))  # type: ignore[misc]  # a mixin: the field is next in the MRO

    def get_prep_value(self, value: Any) -> Any:
        return _nfc(super().get_prep_value(value))  # type: ignore[misc]  # a mixin: the field is next in the MRO

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = super().pre_save(model_instance, add)  # type: ignore[misc]  # a mixin: the field is next in the MRO
        clean = _nfc(value)
        if clean != value:
            setattr(model_instance, self.attname, clean)  # type: ignore[attr-defined]  # the field's
        return clean


class NFCCharField(_NFCMixin, _CharField):
    """A one-line ``CharField`` (a name, a venue, a reason) stored in NFC, refusing every
    control character (tab and line ends too)."""

    default_validators = [ONE_LINE]


class NFCTextField(_NFCMixin, _TextField):
    """A multi-line ``TextField`` stored in NFC, refusing control characters other than
    tab and line ends."""

    default_validators = [MULTILINE]


class NFCFormField(forms.CharField):
    """A form's ``CharField`` for the forms that are not a model's: its value composed
    to NFC (after Django's own strip), control characters refused with the field's
    error; ``multiline=True`` allows tab and line ends (a pasted list)."""

    def __init__(self, *args: Any, multiline: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.validators.append(MULTILINE if multiline else ONE_LINE)

    def to_python(self, value: Any) -> Any:
        return _nfc(super().to_python(value))
