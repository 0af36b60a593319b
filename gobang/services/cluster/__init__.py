"""Live state shared by several server processes through Redis (config REDIS_URL)."""
