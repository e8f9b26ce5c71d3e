"""Exports: the per-document extraction report (HTML)."""
