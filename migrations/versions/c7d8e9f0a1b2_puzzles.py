"""puzzles, puzzle_attempts, puzzle_ratings: positions with a missed forced win taken from
analysed games, each player's tries at them, and players' puzzle ratings; all empty at first

Revision ID: c7d8e9f0a1b2
Revises: e9f0a1b2c3d4
Create Date: 2026-12-05 07:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c7d8e9f0a1b2'
down_revision = 'e9f0a1b2c3d4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('puzzles',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('move_number', sa.Integer(), nullable=False),
    sa.Column('ruleset', sa.String(length=16), nullable=False),
    sa.Column('moves', sa.JSON(), nullable=False),
    sa.Column('attacker', sa.String(length=8), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('line', sa.JSON(), nullable=False),
    sa.Column('rating', sa.Double(), nullable=False),
    sa.Column('deviation', sa.Double(), nullable=False),
    sa.Column('volatility', sa.Double(), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'move_number', name='uq_puzzles_game_move')
    )
    with op.batch_alter_table('puzzles', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_puzzles_game_id'), ['game_id'], unique=False)
        batch_op.create_index('ix_puzzles_ruleset_rating', ['ruleset', 'rating'], unique=False)

    op.create_table('puzzle_attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('puzzle_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('line', sa.JSON(), nullable=False),
    sa.Column('plies', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.Column('rating_before', sa.Double(), nullable=True),
    sa.Column('rating_after', sa.Double(), nullable=True),
    sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('user_id', 'puzzle_id', name='uq_puzzle_attempts_user_puzzle')
    )
    with op.batch_alter_table('puzzle_attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_puzzle_attempts_puzzle_id'), ['puzzle_id'],
                              unique=False)

    op.create_table('puzzle_ratings',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Double(), nullable=False),
    sa.Column('deviation', sa.Double(), nullable=False),
    sa.Column('volatility', sa.Double(), nullable=False),
    sa.Column('solved', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.Column('rated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('user_id')
    )


def downgrade():
    op.drop_table('puzzle_ratings')
    with op.batch_alter_table('puzzle_attempts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_puzzle_attempts_puzzle_id'))
    op.drop_table('puzzle_attempts')
    with op.batch_alter_table('puzzles', schema=None) as batch_op:
        batch_op.drop_index('ix_puzzles_ruleset_rating')
        batch_op.drop_index(batch_op.f('ix_puzzles_game_id'))
    op.drop_table('puzzles')
