"""URLs of API v1, included at ``/api/v1/`` from config/urls.py. Names use the field's
terms; a result lives at its natural key (round, table, board), a classic
championship's game at its own (round, table)."""

from django.urls import path

from tournaments.api import (
    auth,
    circuits,
    games,
    persons,
    prints,
    results,
    root,
    schema_auth,
    signup,
    stages,
    tables,
    views,
)

__all__ = ["schema_auth", "urlpatterns"]  # schema_auth: registered on import

C = "c/<slug:slug>/"
T = "tables/<str:secret>/"

urlpatterns = [
    path("", root.ApiRoot.as_view(), name="api_root"),
    path("token/", auth.TokenApi.as_view(), name="api_token"),
    path("c/", views.ChampionshipListApi.as_view(), name="api_championships"),
    path("circuits/<slug:slug>/", circuits.CircuitApi.as_view(), name="api_circuit"),
    path("circuits/<slug:slug>/prints/", prints.CircuitPrintJobListApi.as_view(),
         name="api_circuit_print_jobs"),
    path("circuits/<slug:slug>/prints/<int:job_id>/", prints.CircuitPrintJobApi.as_view(),
         name="api_circuit_print_job"),
    path("circuits/<slug:slug>/prints/<int:job_id>/download/",
         prints.CircuitPrintJobDownloadApi.as_view(), name="api_circuit_print_download"),
    path(C, views.ChampionshipApi.as_view(), name="api_championship"),
    path(C + "pairs/", views.PairListApi.as_view(), name="api_pairs"),
    path(C + "pairs/<int:number>/card/", views.ScoreCardApi.as_view(), name="api_score_card"),
    path(C + "rounds/", views.RoundListApi.as_view(), name="api_rounds"),
    path(C + "rounds/<int:round>/", views.RoundApi.as_view(), name="api_round"),
    path(
        C + "rounds/<int:round>/tables/<int:table>/boards/<int:board>/result/",
        results.ResultApi.as_view(), name="api_result",
    ),
    path(C + "rounds/<int:round>/tables/<int:table>/game/", games.GameApi.as_view(),
         name="api_game"),
    path(C + "boards/", views.BoardListApi.as_view(), name="api_boards"),
    path(C + "boards/<int:number>/", views.TravellerApi.as_view(), name="api_traveller"),
    path(C + "results/", views.ResultListApi.as_view(), name="api_results"),
    path(C + "standings/", views.StandingsApi.as_view(), name="api_standings"),
    path(C + "standings/progressive/", views.ProgressiveStandingsApi.as_view(),
         name="api_standings_progressive"),
    path(C + "signup/", signup.SignupListApi.as_view(), name="api_signup"),
    path(C + "persons/", persons.PlayerPersonsApi.as_view(), name="api_player_persons"),
    path(C + "stages/", stages.StagesApi.as_view(), name="api_stages"),
    path(C + "groups/", stages.GroupsApi.as_view(), name="api_groups"),
    path(C + "bracket/", stages.BracketApi.as_view(), name="api_bracket"),
    path(C + "prints/", prints.PrintJobListApi.as_view(), name="api_print_jobs"),
    path(C + "prints/<int:job_id>/", prints.PrintJobApi.as_view(), name="api_print_job"),
    path(C + "prints/<int:job_id>/download/", prints.PrintJobDownloadApi.as_view(),
         name="api_print_download"),
    # A table's own link (no account: the secret is the credential).
    path(T, tables.TableApi.as_view(), name="api_table"),
    path(T + "boards/<int:board>/result/", tables.TableResultApi.as_view(),
         name="api_table_result"),
    path(T + "boards/<int:board>/result/confirm/", tables.TableResultConfirmApi.as_view(),
         name="api_table_result_confirm"),
    path(T + "boards/<int:board>/result/dispute/", tables.TableResultDisputeApi.as_view(),
         name="api_table_result_dispute"),
    path(T + "game/", tables.TableGameApi.as_view(), name="api_table_game"),
    path(T + "game/confirm/", tables.TableGameConfirmApi.as_view(),
         name="api_table_game_confirm"),
    path(T + "game/dispute/", tables.TableGameDisputeApi.as_view(),
         name="api_table_game_dispute"),
]
