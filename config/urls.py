"""Top-level URLs: the tournaments app, admin, auth, i18n, the API schema and the health
check. MEDIA_URL is deliberately not routed: generated files (PDFs) are downloaded only
through the app's permission check."""

from typing import Any

from csp.decorators import csp_exempt
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from tournaments import lockouts
from tournaments.health import healthz
from tournaments.web.errors import bad_request

#: A refused request (a body over the size limit, too many fields) in our words.
handler400 = bad_request


class FaviconView(RedirectView):
    """``/favicon.ico``, which browsers ask for on pages that name no icon (the API's
    JSON, ReDoc's): the site's icon, resolved at request time (its hashed name)."""

    permanent = False

    def get_redirect_url(self, *args: Any, **kwargs: Any) -> str:
        return static("tournaments/favicon.svg")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/lockouts/", lockouts.lockouts, name="lockouts"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", csp_exempt()(SpectacularSwaggerView.as_view(url_name="schema")),
         name="api-docs"),
    # Exempt from the Content-Security-Policy: these vendored pages start with an inline
    # script (settings.CONTENT_SECURITY_POLICY).
    path("api/redoc/", csp_exempt()(SpectacularRedocView.as_view(
        url_name="schema", template_name="drf_spectacular/redoc_offline.html")),
        name="api-redoc"),
    path("api/v1/", include("tournaments.api.urls")),
    # The read-only endpoints of before API v1, kept as permanent redirects.
    path("api/c/<slug:slug>/standings/", RedirectView.as_view(
        pattern_name="api_standings", permanent=True, query_string=True)),
    path("api/c/<slug:slug>/boards/<int:number>/", RedirectView.as_view(
        pattern_name="api_traveller", permanent=True, query_string=True)),
    path("", include("tournaments.reports.urls")),
    path("", include("tournaments.urls")),
]
