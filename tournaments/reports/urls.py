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
]
