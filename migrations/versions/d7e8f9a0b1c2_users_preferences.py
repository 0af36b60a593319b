"""users.preferences

Revision ID: d7e8f9a0b1c2
Revises: c4d5e6f70812
Create Date: 2026-12-01 16:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd7e8f9a0b1c2'
down_revision = 'c4d5e6f70812'
branch_labels = None
depends_on = None


def upgrade():
    # NULL means "never saved": the defaults apply, so existing rows need no backfill.
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('preferences', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('preferences')
