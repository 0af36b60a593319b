"""Several server processes sharing one Redis (config REDIS_URL): leases, where each live
game is played, and the live state the processes share."""
