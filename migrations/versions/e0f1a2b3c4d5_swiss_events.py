"""swiss events: their rounds, their boards, and which game each board got

Revision ID: e0f1a2b3c4d5
Revises: d8e9f0a1b2c3
Create Date: 2026-12-05 10:30:00

Downgrading drops the Swiss events (their entries and game links; the games themselves stay):
the schema before knows arenas only, and a Swiss event has no duration to give one.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e0f1a2b3c4d5'
down_revision = 'd8e9f0a1b2c3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rounds', sa.Integer(), nullable=True))
        batch_op.alter_column('minutes', existing_type=sa.Integer(), nullable=True)

    op.create_table('swiss_boards',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('black_id', sa.Integer(), nullable=False),
    sa.Column('white_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['black_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.ForeignKeyConstraint(['white_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'round', 'board', name='uq_swiss_boards_board')
    )

    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('swiss_board_id', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint('uq_tournament_games_swiss_board_id',
                                          ['swiss_board_id'])
        batch_op.create_foreign_key('fk_tournament_games_swiss_board_id', 'swiss_boards',
                                    ['swiss_board_id'], ['id'])


def downgrade():
    swiss = "SELECT id FROM tournaments WHERE kind = 'swiss'"
    for table in ('tournament_games', 'tournament_players', 'swiss_boards'):
        op.execute(f"DELETE FROM {table} WHERE tournament_id IN ({swiss})")
    op.execute("DELETE FROM tournaments WHERE kind = 'swiss'")

    with op.batch_alter_table('tournament_games', schema=None) as batch_op:
        batch_op.drop_constraint('fk_tournament_games_swiss_board_id', type_='foreignkey')
        batch_op.drop_constraint('uq_tournament_games_swiss_board_id', type_='unique')
        batch_op.drop_column('swiss_board_id')

    op.drop_table('swiss_boards')
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.alter_column('minutes', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column('rounds')
