"""Comparative duplicate scoring (../shared/spec/championship-json.md). Pure Python, no Django."""
