"""Practice games: a game against the bot whose player may ask for hints, never rated,
chosen when it is created or switched on during it for good. Every game stored so far is
not one.

Revision ID: 0008_practice
Revises: 0007_checkpoints
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_practice"
down_revision = "0007_checkpoints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("practice")
