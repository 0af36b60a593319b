"""games.rated: casual games, and games against the computer, move no score or rating

Revision ID: b8c9d0e1f2a3
Revises: a7b8c9d0e1f2
Create Date: 2026-12-04 21:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8c9d0e1f2a3'
down_revision = 'a7b8c9d0e1f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.true(),
                                      nullable=False))
    # Games against the computer were never rated: say so in the column from now on.
    games = sa.table('games', sa.column('rated', sa.Boolean),
                     sa.column('computer_level', sa.Integer))
    op.get_bind().execute(games.update().where(games.c.computer_level.is_not(None))
                          .values(rated=False))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('rated')
