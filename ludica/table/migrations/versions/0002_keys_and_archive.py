"""Idempotency keys of acts and the archive mark of finished rooms.

* ``actions.act_key``: the key a client sent with an act (``<seat>:<key>``), unique in a room, so
  that a repeated message is recognised (and never applied twice) even after a restart;
* ``rooms.archived``: when the room's game ended (``NULL`` while it is played).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("act_key", sa.String(200), nullable=True))
    op.create_index("ix_actions_room_key", "actions", ["room_id", "act_key"], unique=True)
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("archived", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("archived")
    op.drop_index("ix_actions_room_key", "actions")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("act_key")
