"""Checkpoints: the action a game's stored snapshot and dice are at, so that a snapshot is
written every few actions instead of on every one (nardy.server.store.checkpoints). Every game
stored so far has its snapshot at its last action.

Revision ID: 0007_checkpoints
Revises: 0006_unavailable
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_checkpoints"
down_revision = "0006_unavailable"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("snapshot_seq", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE games SET snapshot_seq = seq")


def downgrade() -> None:
    # Before this revision a snapshot is read as the game after its last action: one that
    # is older would lose the actions after it, so only a database where no game's snapshot
    # lags its actions (every game finished, say) can go back.
    lagging = op.get_bind().execute(
        sa.text("SELECT count(*) FROM games WHERE snapshot_seq != seq AND snapshot IS NOT NULL")
    )
    if lagging.scalar_one():
        raise RuntimeError("some games' snapshots are older than their last action")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("snapshot_seq")
