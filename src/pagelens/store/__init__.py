"""Persistence: the catalog (SQLite under the data home, or a PostgreSQL server) and the content-addressed image store."""
