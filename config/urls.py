"""Top-level URLs: the tournaments app, admin, auth, i18n, the API schema and the health
check. MEDIA_URL is deliberately not routed: generated files (PDFs) are downloaded only
through the app's permission check."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournaments.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("", include("tournaments.reports.urls")),
    path("", include("tournaments.urls")),
]
