"""games.abort_detail: why an aborted game was aborted ({"cause", "color", "seconds"}, as the
Result's `abort` in docs/protocol.md); null for every other game and for games aborted before

Revision ID: a5b6c7d8e9f0
Revises: f4a5b6c7d8e9
Create Date: 2026-12-05 04:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a5b6c7d8e9f0'
down_revision = 'f4a5b6c7d8e9'
branch_labels = None
depends_on = None


def upgrade():
    # Games aborted before kept no cause: theirs stays unknown (null).
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abort_detail', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('abort_detail')
