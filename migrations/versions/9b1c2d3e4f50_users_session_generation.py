"""users.session_generation

Revision ID: 9b1c2d3e4f50
Revises: 12a4aabe5dc9
Create Date: 2026-12-01 15:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9b1c2d3e4f50'
down_revision = '12a4aabe5dc9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0',
                                      nullable=False))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
