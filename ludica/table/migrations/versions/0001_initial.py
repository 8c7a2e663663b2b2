"""The first schema of the table: rooms, actions (the record) and invite tokens.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(60), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(100), nullable=False),
        sa.Column("seed_hash", sa.String(64), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("action", sa.Text, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("room_id", sa.String(40), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(60), nullable=False),
    )
    op.create_index("ix_tokens_room_id", "tokens", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_tokens_room_id", "tokens")
    op.drop_table("tokens")
    op.drop_table("actions")
    op.drop_table("rooms")
