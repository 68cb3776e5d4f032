"""Chouette tables and consultation games: what a game's room holds, its seats and bots,
and each person at the table with their own result; a chat line's speaker by their name at
the table.

Revision ID: 0005_tables
Revises: 0004_clocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_tables"
down_revision = "0004_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="match"))
        batch.add_column(sa.Column("seating", sa.JSON, nullable=True))
    op.create_table(
        "table_members",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("side", sa.Integer, nullable=True),
        sa.Column("seated", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("member", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("member")
    op.drop_table("table_members")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seating")
        batch.drop_column("kind")
