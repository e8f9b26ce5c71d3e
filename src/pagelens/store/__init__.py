"""Persistence under the data home: the SQLite catalog and the content-addressed image store."""
