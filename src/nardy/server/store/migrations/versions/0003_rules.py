"""The dice tallies of the public dice page: per game, how often each of the 21 rolls came up.

Revision ID: 0003_rules
Revises: 0002_multiproc
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_rules"
down_revision = "0002_multiproc"
branch_labels = None
depends_on = None

# Written out here, not imported: a migration keeps the schema of its own day.
_ROLLS = [f"r{high}{low}" for high in range(6, 0, -1) for low in range(high, 0, -1)]


def upgrade() -> None:
    op.create_table(
        "dice_tallies",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in _ROLLS),
    )


def downgrade() -> None:
    op.drop_table("dice_tallies")
