"""WSGI entry point (gunicorn config.wsgi): Django's application, with a chunked request
body made readable (config.wsgi_body).

Once the application is loaded, its objects (modules, models, settings, URL patterns:
about 130,000) are moved out of the garbage collector's view (``gc.freeze``): they live
as long as the process, and every full collection walked them all again, a pause of
60-90 ms in the middle of a request on a slow 2-core machine (1.6 ms frozen).
"""

import gc
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from config.wsgi_body import ChunkedBodyMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = ChunkedBodyMiddleware(get_wsgi_application(),
                                    memory_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
# The URL patterns and views too, which Django would otherwise import at the first request.
from django.urls import get_resolver  # noqa: E402 (after the application is set up)

get_resolver().url_patterns  # noqa: B018 (imports every view module)
gc.collect()
gc.freeze()
