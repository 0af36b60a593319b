"""/metrics for Prometheus."""
