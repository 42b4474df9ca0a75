"""The web app's words for scoring.validate's codes: every code has a Catalan message, and
the service and the result form report every problem, each next to its field."""

from __future__ import annotations

import pytest

from scoring.validate import MESSAGES as CODES
from scoring.validate import Problem
from tests.factories import ChampionshipFactory
from tournaments import services
from tournaments.forms import ResultForm
from tournaments.result_messages import MESSAGES, form_field, problem_message

pytestmark = pytest.mark.django_db


def test_every_code_of_the_rule_has_a_translated_message():
    assert set(MESSAGES) == set(CODES)


def test_a_message_shows_the_values_in_the_interface_s_words():
    problem = Problem("adjusted_unknown", "adjusted.EW",
                      {"side": "EW", "value": "top", "choices": ("average", "average_plus")})
    assert problem_message(problem) == (
        "Puntuació arbitral de EO: «top» no és cap de average, average_plus."
    )
    assert form_field(problem) == "adjusted_ew"
    assert form_field(Problem("infraction_and_adjusted", "")) == "infraction"


def test_the_service_reports_every_problem_by_field():
    championship = ChampionshipFactory(sant_vicenc=False)
    with pytest.raises(services.ResultError) as caught:
        services.validate_result(championship, trump="botifarra", ns_points_taken=80,
                                 contro=False, recontro=True, sant_vicenc=True)
    assert caught.value.problems == [
        ("ns_points_taken", "Els punts de NS han de ser un enter de 0 a 72, no «80»."),
        ("recontro", "No hi pot haver recontro sense contro."),
        ("sant_vicenc",
         "En aquest campionat no es permet el Sant Vicenç (regla «Sant Vicenç permès»: no)."),
    ]
    assert caught.value.field == "ns_points_taken"


def test_the_service_reads_the_form_s_spellings():
    data = services.validate_result(ChampionshipFactory(), trump="C", ns_points_taken=30,
                                    infraction="EO")
    assert (data.trump, data.infraction, data.adjusted) == ("C", "EW", None)
    data = services.validate_result(ChampionshipFactory(), trump="", ns_points_taken=None,
                                    adjusted={"NS": "average", "EW": "average_plus"})
    assert (data.trump, data.adjusted) == (None, ("average", "average_plus"))


def test_the_result_form_shows_every_problem_next_to_its_field():
    championship = ChampionshipFactory()
    form = ResultForm(
        {"trump": "botifarra", "ns_points_taken": "73", "recontro": "on",
         "adjusted_ns": "average"},
        championship=championship, can_adjust=True,
    )
    assert not form.is_valid()
    assert form.errors == {
        "ns_points_taken": ["Els punts de NS han de ser un enter de 0 a 72, no «73»."],
        "recontro": ["No hi pot haver recontro sense contro."],
        "adjusted_ew": ["Cal la puntuació arbitral de les dues línies."],
    }
