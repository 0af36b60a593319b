"""tournaments: arenas, their players and their games

Revision ID: d8e9f0a1b2c3
Revises: c7d8e9f0a1b2
Create Date: 2026-12-05 07:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd8e9f0a1b2c3'
down_revision = 'c7d8e9f0a1b2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tournaments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('ruleset', sa.String(length=16), nullable=False),
    sa.Column('clock_initial', sa.Integer(), nullable=True),
    sa.Column('clock_increment', sa.Integer(), nullable=True),
    sa.Column('opening', sa.String(length=16), nullable=False),
    sa.Column('rated', sa.Boolean(), nullable=False),
    sa.Column('starts_at', sa.DateTime(), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('min_players', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('created_by', sa.String(length=80), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournaments_starts_at'), ['starts_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournaments_status'), ['status'], unique=False)

    op.create_table('tournament_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('withdrawn', sa.Boolean(), nullable=False),
    sa.Column('joined_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'user_id', name='uq_tournament_players_entry')
    )
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_players_user_id'), ['user_id'], unique=False)

    op.create_table('tournament_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('black_berserk', sa.Boolean(), nullable=False),
    sa.Column('white_berserk', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_games_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_games_tournament_id'))

    op.drop_table('tournament_games')
    with op.batch_alter_table('tournament_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_players_user_id'))

    op.drop_table('tournament_players')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournaments_status'))
        batch_op.drop_index(batch_op.f('ix_tournaments_starts_at'))

    op.drop_table('tournaments')
