"""games.opening and games.opening_log: the opening rule a game is played with, and what the
players did in it (the stones are moves as any other; the colour choices and fifth-stone
offers are only in the log)

Revision ID: c9d0e1f2a3b4
Revises: b8c9d0e1f2a3
Create Date: 2026-12-05 00:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9d0e1f2a3b4'
down_revision = 'b8c9d0e1f2a3'
branch_labels = None
depends_on = None


def upgrade():
    # Every game before openings was played without one: `none`, by the server default.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('opening', sa.String(length=16), server_default='none',
                                      nullable=False))
        batch_op.add_column(sa.Column('opening_log', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('opening_log')
        batch_op.drop_column('opening')
