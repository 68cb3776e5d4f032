"""When a game's last action was accepted: the games being played that nobody moves in any
more (their players gone, no clock to end them) are not listed to watch. A game in progress
takes the time of its last action in the log.

Revision ID: 0011_moved_at
Revises: 0010_seeks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_moved_at"
down_revision = "0010_seeks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("moved_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE games SET moved_at = "
        "(SELECT max(actions.created_at) FROM actions WHERE actions.game_id = games.id)"
    )


def downgrade() -> None:
    # In place, on SQLite too (3.35 and later): a batch would rebuild the games table, and
    # dropping the old one would delete every action of the log with it (ON DELETE CASCADE).
    op.execute("ALTER TABLE games DROP COLUMN moved_at")
