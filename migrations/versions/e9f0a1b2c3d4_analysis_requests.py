"""analysis_requests: the analysis queue in the database, shared by every process

Revision ID: e9f0a1b2c3d4
Revises: b6c7d8e9f0a1
Create Date: 2026-12-05 07:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e9f0a1b2c3d4'
down_revision = 'b6c7d8e9f0a1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('analysis_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('requested_at', sa.DateTime(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('owner', sa.String(length=40), nullable=True),
    sa.Column('lease_until', sa.DateTime(), nullable=True),
    sa.Column('done', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    with op.batch_alter_table('analysis_requests', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_analysis_requests_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_analysis_requests_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('analysis_requests', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_analysis_requests_user_id'))
        batch_op.drop_index(batch_op.f('ix_analysis_requests_status'))
    op.drop_table('analysis_requests')
