"""The default pools as the wire names them (config MATCH_POOLS), for tests that read counts."""

from __future__ import annotations

DEFAULT_CLOCKS = ["180+2", "300+3", "600+5", "900+10", "none"]
# After the clock pools, the default pools with an opening (MATCH_POOLS' objects).
OPENING_POOL_NAMES = ["freestyle/600+5/swap2", "renju/600+5/taraguchi-10"]
POOL_NAMES = [f"{ruleset}/{clock}" for ruleset in ("freestyle", "standard", "renju")
              for clock in DEFAULT_CLOCKS] + OPENING_POOL_NAMES
NO_ONE_WAITING = dict.fromkeys(POOL_NAMES, 0)

# A clock and its name on the pages (gobang/services/pools.py clock_label, static/js/pools.js).
CLOCK_LABELS = [((300, 3), "5+3"), ((60, 0), "1+0"), ((90, 0), "1.5+0"), ((100, 2), "1.67+2"),
                ((20, 0), "20s+0"), ((59, 1), "59s+1"), ((1800, 20), "30+20")]
