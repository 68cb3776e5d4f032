"""Quick pairing and seeks that live while their creator does: a quick seek's mark, the last
sign of life of a seek's creator, and the idempotency key of the request that made a game.

Revision ID: 0010_seeks
Revises: 0009_analyses
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_seeks"
down_revision = "0009_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("quick", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("request_key", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_games_request_key", ["creator_id", "request_key"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_request_key", type_="unique")
        batch.drop_column("request_key")
        batch.drop_column("seen_at")
        batch.drop_column("quick")
