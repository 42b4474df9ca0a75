"""URLs of the tournaments pages. Names use the field's terms (docs/architecture.md)."""

from django.urls import path

from tournaments.web import (
    audit,
    championships,
    live,
    pairs,
    people,
    referee,
    rounds,
    table_page,
)

C = "c/<slug:slug>/"
TABLE = C + "referee/rounds/<int:round>/tables/<int:table>/"

urlpatterns = [
    path("", championships.home, name="home"),
    # A table's own page (its secret is the credential) and its service worker
    path("t/sw.js", table_page.table_service_worker, name="table_sw"),
    path("t/<str:secret>/", table_page.table_page, name="table_page"),
    path("t/<str:secret>/score/<int:board>/", table_page.table_hand_score,
         name="table_hand_score"),
    path("championships/new/", championships.championship_create, name="championship_create"),
    path("after-login/", championships.after_login, name="after_login"),
    # Public
    path(C, championships.championship_detail, name="championship"),
    path(C + "standings/", live.standings, name="standings"),
    path(C + "boards/<int:number>/", live.traveller, name="traveller"),
    path(C + "pairs/<int:number>/", live.pair_card, name="pair_card"),
    path(C + "hall/", live.hall, name="hall"),
    path(C + "rounds/<int:round>/", live.round_games, name="round_games"),
    path(C + "groups/", live.groups, name="groups"),
    path(C + "bracket/", live.bracket, name="bracket"),
    # Live fragments, polled by the pages (204 while nothing changed)
    path(C + "live/version/", live.version, name="live_version"),
    path(C + "live/standings/", live.fragment, {"name": "standings"}, name="live_standings"),
    path(C + "live/boards/<int:number>/", live.fragment, {"name": "traveller"},
         name="live_traveller"),
    path(C + "live/pairs/<int:number>/", live.fragment, {"name": "card"},
         name="live_pair_card"),
    path(C + "live/hall/", live.fragment, {"name": "hall"}, name="live_hall"),
    path(C + "live/groups/", live.fragment, {"name": "groups"}, name="live_groups"),
    path(C + "live/bracket/", live.fragment, {"name": "bracket"}, name="live_bracket"),
    path(C + "live/rounds/<int:number>/", live.fragment, {"name": "round"},
         name="live_round_games"),
    path(C + "rounds/<int:round>/seating/", rounds.round_seating, name="round_seating"),
    # Organiser
    path(C + "organise/rules/", championships.rules_edit, name="rules_edit"),
    path(C + "organise/pairs/", pairs.pairs_register, name="pairs_register"),
    path(C + "organise/pairs/<int:number>/remove/", pairs.pair_remove, name="pair_remove"),
    path(C + "organise/pairs/<int:number>/withdraw/", pairs.pair_withdraw,
         name="pair_withdraw"),
    path(C + "organise/pairs/<int:number>/short-names/", pairs.pair_short_names,
         name="pair_short_names"),
    path(C + "organise/delete/", championships.championship_delete,
         name="championship_delete"),
    path(C + "organise/rounds/", rounds.rounds_setup, name="rounds_setup"),
    path(C + "organise/boards/", rounds.boards_generate, name="boards_generate"),
    path(C + "organise/rounds/<int:round>/draw/", rounds.round_draw, name="round_draw"),
    path(C + "organise/rounds/<int:round>/close/", rounds.round_close, name="round_close"),
    path(C + "organise/finish/", championships.championship_finish, name="championship_finish"),
    path(C + "organise/publish-secret/", championships.deal_secret_publish,
         name="deal_secret_publish"),
    path(C + "organise/people/", people.people, name="people"),
    path(C + "organise/people/<int:membership>/remove/", people.people_remove,
         name="people_remove"),
    path(C + "organise/people/<int:membership>/link/", people.people_link, name="people_link"),
    path(C + "organise/people/<int:membership>/sign-in.pdf", people.people_qr,
         name="people_qr"),
    path(C + "sign-in/<str:uidb64>/<str:token>/", people.sign_in, name="sign_in"),
    path(C + "interchange.json", championships.interchange_file, name="interchange_file"),
    path(C + "log/", audit.audit_log, name="audit_log"),
    # Referee
    path(C + "referee/", referee.referee_tables, name="referee_tables"),
    path(TABLE, referee.referee_table, name="referee_table"),
    path(TABLE + "boards/<int:board>/", referee.result_entry, name="result_entry"),
    path(TABLE + "boards/<int:board>/score/", referee.result_hand_score,
         name="result_hand_score"),
    path(TABLE + "game/", referee.game_entry, name="game_entry"),
    path(TABLE + "game/sheet/", referee.game_sheet, name="game_sheet"),
]
