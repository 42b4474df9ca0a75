"""WSGI entry point (gunicorn config.wsgi): Django's application, with a chunked request
body made readable (config.wsgi_body)."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from config.wsgi_body import ChunkedBodyMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = ChunkedBodyMiddleware(get_wsgi_application(),
                                    memory_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
