"""Several server processes sharing one Redis: leases, and where each live game is played."""
