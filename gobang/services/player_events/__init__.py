"""What players do around an event besides playing in it: create one within the host's
limits, cancel their own, and talk on its page (docs/tournaments.md, "Players' events").
Apart from gobang.services.arenas, which must not ask moderation (mutes, the moderation log)
or social (blocks): this package asks all three."""
