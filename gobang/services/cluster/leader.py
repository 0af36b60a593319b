"""Which process leads: it alone runs the matcher, the hall's fan-out, the host's commands
and the search for games whose process died. Held by a lease renewed every tick, so another
process takes over within the lease's length when the leader dies."""

from __future__ import annotations

from gobang.services.cluster.leases import Leases

LEADER = "leader"


class Leadership:
    def __init__(self, leases: Leases) -> None:
        self.leases = leases

    def hold(self) -> bool:
        """Takes or renews the lead; False while another process holds it."""
        return self.leases.take(LEADER)
