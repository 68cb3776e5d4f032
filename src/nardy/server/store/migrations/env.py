"""Alembic's environment: migrate the connection that :func:`nardy.server.store.migrate`
hands over (the server never runs Alembic from a configuration file)."""

from __future__ import annotations

from alembic import context

from nardy.server.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
