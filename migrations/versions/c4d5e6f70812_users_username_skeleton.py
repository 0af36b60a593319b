"""users.username_skeleton

Revision ID: c4d5e6f70812
Revises: 9b1c2d3e4f50
Create Date: 2026-12-01 16:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4d5e6f70812'
down_revision = '9b1c2d3e4f50'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('username_skeleton', sa.String(length=80), nullable=True))
        batch_op.create_index(batch_op.f('ix_users_username_skeleton'), ['username_skeleton'],
                              unique=False)
    _fill_skeletons()


def _fill_skeletons():
    # The names already taken must be compared with new ones too. The rule is the one the
    # app registers names with; it reads only the confusables data, not the app's state.
    from gobang.services.accounts.accounts import username_skeleton

    connection = op.get_bind()
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('username', sa.String),
                     sa.column('username_key', sa.String),
                     sa.column('username_skeleton', sa.String))
    rows = connection.execute(
        sa.select(users.c.id, users.c.username).where(users.c.username_key.is_not(None))).all()
    for user_id, username in rows:
        connection.execute(users.update().where(users.c.id == user_id)
                           .values(username_skeleton=username_skeleton(username)))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_users_username_skeleton'))
        batch_op.drop_column('username_skeleton')
