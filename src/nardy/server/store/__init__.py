"""The database: the schema, the store, checkpointed games and the Alembic migrations."""
