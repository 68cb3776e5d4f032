"""Chat kept in the database, so that every server process (and a restarted one) shows the
same history and honours the same mutes: chat_lines and chat_mutes.

Revision ID: 0002_multiproc
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_multiproc"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_game", "chat_lines", ["game_id", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )


def downgrade() -> None:
    op.drop_index("ix_chat_lines_game", table_name="chat_lines")
    op.drop_table("chat_mutes")
    op.drop_table("chat_lines")
