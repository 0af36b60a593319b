"""users.username_skeleton again: capital I is mapped to small l before case is folded

Revision ID: f3a4b5c6d7e8
Revises: e1f2a3b4c5d6
Create Date: 2026-12-04 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a4b5c6d7e8'
down_revision = 'e1f2a3b4c5d6'
branch_labels = None
depends_on = None


def upgrade():
    # The skeletons stored so far folded case first and lost capital I's look-alike (small l):
    # new names are compared with the taken ones' skeletons, so those are made again by the
    # rule the app now registers names with. Names that now collide stay as they are.
    from gobang.services.accounts.accounts import username_skeleton

    connection = op.get_bind()
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('username', sa.String),
                     sa.column('username_key', sa.String),
                     sa.column('username_skeleton', sa.String))
    rows = connection.execute(
        sa.select(users.c.id, users.c.username, users.c.username_skeleton)
        .where(users.c.username_key.is_not(None))).all()
    for user_id, username, stored in rows:
        skeleton = username_skeleton(username)
        if skeleton != stored:
            connection.execute(users.update().where(users.c.id == user_id)
                               .values(username_skeleton=skeleton))


def downgrade():
    pass  # the old rule went with the old code; the skeletons stay as they are
