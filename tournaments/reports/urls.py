"""URLs of the print-job pages, included from config/urls.py."""

from django.urls import path

from tournaments.reports import views

urlpatterns = [
    path("c/<slug:slug>/prints/", views.jobs, name="print_jobs"),
    path("c/<slug:slug>/prints/<int:job_id>/status/", views.job_status, name="print_job_status"),
    path("c/<slug:slug>/prints/<int:job_id>/download/", views.download,
         name="print_job_download"),
    path("c/<slug:slug>/prints/<int:job_id>/retry/", views.job_retry, name="print_job_retry"),
    path("c/<slug:slug>/prints/<int:job_id>/cancel/", views.job_cancel,
         name="print_job_cancel"),
    # A circuit's ranking (its page's "PDF" button; the old link still answers).
    path("circuits/<slug:slug>/pdf/", views.circuit_pdf, name="circuit_pdf"),
    path("circuits/<slug:slug>/prints/", views.circuit_print_request,
         name="circuit_print_request"),
    path("circuits/<slug:slug>/prints/<int:job_id>/", views.circuit_print_job,
         name="circuit_print_job"),
    path("circuits/<slug:slug>/prints/<int:job_id>/status/", views.circuit_print_status,
         name="circuit_print_status"),
    path("circuits/<slug:slug>/prints/<int:job_id>/download/", views.circuit_print_download,
         name="circuit_print_download"),
]
