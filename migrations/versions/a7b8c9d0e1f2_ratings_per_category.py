"""ratings per category (ruleset x speed, Glicko-2), seeded from each player's Elo score

Revision ID: a7b8c9d0e1f2
Revises: f3a4b5c6d7e8
Create Date: 2026-12-04 21:30:00.000000

"""
from collections import Counter

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7b8c9d0e1f2'
down_revision = 'f3a4b5c6d7e8'
branch_labels = None
depends_on = None

GAME_COLUMNS = ('black_rating_before', 'black_rating_after', 'white_rating_before',
                'white_rating_after', 'black_deviation_after', 'white_deviation_after')


def upgrade():
    op.create_table(
        'ratings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('category', sa.String(length=24), nullable=False),
        sa.Column('rating', sa.Double(), nullable=False),
        sa.Column('deviation', sa.Double(), nullable=False),
        sa.Column('volatility', sa.Double(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('rated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('user_id', 'category', name='uq_ratings_user_category'),
    )
    with op.batch_alter_table('ratings', schema=None) as batch_op:
        batch_op.create_index('ix_ratings_category_rating', ['category', 'rating'], unique=False)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('category', sa.String(length=24), nullable=True))
        for name in GAME_COLUMNS:
            batch_op.add_column(sa.Column(name, sa.Double(), nullable=True))
    _seed(op.get_bind())


def _seed(connection):
    """Every finished rated game gets its category; every player, a rating in each category
    they have rated games in: their Elo score moved to Glicko-2's scale (+500: both start a
    newcomer at their own base, 1000 and 1500, so a player stays as far above or below one),
    with the deviation that many games would have settled it to (glicko2.settled). Past
    games keep the score change they showed; their rating columns stay empty."""
    from gobang.services.ratings.categories import category_of
    from gobang.services.ratings.glicko2 import settled

    games = sa.table('games', sa.column('id', sa.Integer), sa.column('ruleset', sa.String),
                     sa.column('status', sa.String), sa.column('reason', sa.String),
                     sa.column('black_id', sa.Integer), sa.column('white_id', sa.Integer),
                     sa.column('clock_initial_ms', sa.Integer),
                     sa.column('clock_increment_ms', sa.Integer),
                     sa.column('computer_level', sa.Integer),
                     sa.column('ended_at', sa.DateTime), sa.column('category', sa.String))
    rows = connection.execute(
        sa.select(games.c.id, games.c.ruleset, games.c.clock_initial_ms,
                  games.c.clock_increment_ms, games.c.black_id, games.c.white_id,
                  games.c.ended_at)
        .where(games.c.status == 'finished', games.c.computer_level.is_(None),
               games.c.reason != 'aborted')).all()
    counts, last = Counter(), {}
    for game_id, ruleset, initial_ms, increment_ms, black_id, white_id, ended_at in rows:
        clock = None if initial_ms is None else (initial_ms // 1000, (increment_ms or 0) // 1000)
        key = category_of(ruleset, clock).key
        connection.execute(games.update().where(games.c.id == game_id).values(category=key))
        for user_id in (black_id, white_id):
            counts[(user_id, key)] += 1
            if ended_at is not None:
                last[(user_id, key)] = max(ended_at, last.get((user_id, key), ended_at))
    if not counts:
        return
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('score', sa.Integer),
                     sa.column('created_at', sa.DateTime))
    found = connection.execute(sa.select(users.c.id, users.c.score, users.c.created_at)
                               .where(users.c.id.in_({user for user, _ in counts}))).all()
    scores = {user_id: (score, created_at) for user_id, score, created_at in found}
    ratings = sa.table('ratings', sa.column('user_id', sa.Integer),
                       sa.column('category', sa.String), sa.column('rating', sa.Float),
                       sa.column('deviation', sa.Float), sa.column('volatility', sa.Float),
                       sa.column('games', sa.Integer), sa.column('rated_at', sa.DateTime))
    values = []
    for (user_id, key), played in sorted(counts.items()):
        score, created_at = scores[user_id]
        sure = settled(played)
        values.append({'user_id': user_id, 'category': key, 'rating': score + 500.0,
                       'deviation': sure.deviation, 'volatility': sure.volatility,
                       'games': played, 'rated_at': last.get((user_id, key), created_at)})
    connection.execute(ratings.insert(), values)


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        for name in reversed(GAME_COLUMNS):
            batch_op.drop_column(name)
        batch_op.drop_column('category')
    with op.batch_alter_table('ratings', schema=None) as batch_op:
        batch_op.drop_index('ix_ratings_category_rating')
    op.drop_table('ratings')
