"""The default pools as the wire names them (config MATCH_POOLS), for tests that read counts."""

from __future__ import annotations

DEFAULT_CLOCKS = ["180+2", "300+3", "600+5", "900+10", "none"]
POOL_NAMES = [f"{ruleset}/{clock}" for ruleset in ("freestyle", "standard", "renju")
              for clock in DEFAULT_CLOCKS]
NO_ONE_WAITING = dict.fromkeys(POOL_NAMES, 0)
