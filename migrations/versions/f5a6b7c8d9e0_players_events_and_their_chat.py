"""tournaments created by players (created_by_id, by_player) and each event's chat

Revision ID: f5a6b7c8d9e0
Revises: e0f1a2b3c4d5
Create Date: 2026-12-05 10:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f5a6b7c8d9e0'
down_revision = 'e0f1a2b3c4d5'
branch_labels = None
depends_on = None

# As gobang.models.UPCOMING_OF_PLAYER: a player's events still to start.
UPCOMING_OF_PLAYER = "status = 'scheduled' AND by_player"
FOREIGN_KEY = 'fk_tournaments_created_by_id_users'


def upgrade():
    # Plain ALTER TABLE ... ADD COLUMN, never the batch mode's copy of the table: on SQLite
    # the copy drops the old table, which the foreign keys of tournament_players and
    # tournament_games refuse while an arena has players (the server migrates with them on).
    if op.get_bind().dialect.name == 'sqlite':
        # SQLite adds a column with its reference only in the column's own definition.
        op.execute('ALTER TABLE tournaments ADD COLUMN created_by_id INTEGER'
                   ' REFERENCES users (id)')
    else:
        op.add_column('tournaments', sa.Column('created_by_id', sa.Integer(), nullable=True))
        op.create_foreign_key(FOREIGN_KEY, 'tournaments', 'users', ['created_by_id'], ['id'])
    # Every event before this one was the host's or a moderator's: not a player's. A string
    # default, which both databases read as false ('0'), keeps SQLite on ADD COLUMN.
    op.add_column('tournaments', sa.Column('by_player', sa.Boolean(), server_default='0',
                                           nullable=False))
    op.create_index('ix_tournaments_created_by_id', 'tournaments', ['created_by_id'],
                    unique=False)
    # At most one upcoming event per player, whatever requests arrive at once.
    op.create_index('uq_tournaments_player_upcoming', 'tournaments', ['created_by_id'],
                    unique=True, sqlite_where=sa.text(UPCOMING_OF_PLAYER),
                    postgresql_where=sa.text(UPCOMING_OF_PLAYER))

    op.create_table('tournament_chat_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournament_chat_lines', schema=None) as batch_op:
        batch_op.create_index('ix_tournament_chat_lines_tournament_id_id',
                              ['tournament_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('tournament_chat_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_tournament_chat_lines_tournament_id_id')

    op.drop_table('tournament_chat_lines')
    op.drop_index('uq_tournaments_player_upcoming', table_name='tournaments')
    op.drop_index('ix_tournaments_created_by_id', table_name='tournaments')
    if op.get_bind().dialect.name != 'sqlite':  # SQLite drops it with its column
        op.drop_constraint(FOREIGN_KEY, 'tournaments', type_='foreignkey')
    op.drop_column('tournaments', 'by_player')
    op.drop_column('tournaments', 'created_by_id')
