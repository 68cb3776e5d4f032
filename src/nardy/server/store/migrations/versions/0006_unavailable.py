"""Games set aside: why the server could not restore a game from its data (NULL: it can),
so that one damaged game is not resumed and never stops the server from starting.

Revision ID: 0006_unavailable
Revises: 0005_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_unavailable"
down_revision = "0005_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("unavailable", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("unavailable")
