"""Analyses: a finished match's analysis in the browser, queued, running, done or failed,
with its result (nardy.server.analysis).

Revision ID: 0009_analyses
Revises: 0008_practice
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_analyses"
down_revision = "0008_practice"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("worker", sa.String(16), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_analyses_status", "analyses", ["status", "worker"])


def downgrade() -> None:
    op.drop_index("ix_analyses_status", "analyses")
    op.drop_table("analyses")
