"""Game clocks: each game's clock settings and where its clock stands.

Revision ID: 0004_clocks
Revises: 0003_rules
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_clocks"
down_revision = "0003_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(sa.Column("clock_state", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_state")
        batch.drop_column("clock")
