from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("c/<slug:slug>/standings/", views.StandingsApi.as_view(), name="api_standings"),
    path(
        "c/<slug:slug>/boards/<int:number>/", views.TravellerApi.as_view(), name="api_traveller"
    ),
]
