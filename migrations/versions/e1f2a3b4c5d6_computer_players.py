"""users.computer_level and games.computer_level

Revision ID: e1f2a3b4c5d6
Revises: d7e8f9a0b1c2
Create Date: 2026-12-01 18:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e1f2a3b4c5d6'
down_revision = 'd7e8f9a0b1c2'
branch_labels = None
depends_on = None


def upgrade():
    # NULL for people and their games with each other: existing rows need no backfill.
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('computer_level', sa.Integer(), nullable=True))
        batch_op.create_index('ix_users_computer_level', ['computer_level'], unique=True)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('computer_level', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('computer_level')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index('ix_users_computer_level')
        batch_op.drop_column('computer_level')
