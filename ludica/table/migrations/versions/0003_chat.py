"""Table talk: the ``chat`` table (one row per line said in a room; see ``ludica.table.chat``).

* ``step``: the room's step when the line was said (it is placed there in the story);
* ``sender`` / ``recipient``: roles (a seat or ``*host*``); ``recipient`` is set for a whisper only;
* ``kind``: ``say``, ``whisper`` or ``narrate``.

Revision ID: 0003_chat
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_chat"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("sender", sa.String(60), nullable=False),
        sa.Column("recipient", sa.String(60), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_room_id", "chat", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_room_id", "chat")
    op.drop_table("chat")
