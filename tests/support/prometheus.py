"""Reading /metrics with the Prometheus client's own parser."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def families(text: str) -> dict[str, str]:
    """Metric family name -> type."""
    return {family.name: family.type for family in text_string_to_metric_families(text)}


def sample(text: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return found.value
    raise AssertionError(f"no sample {name}{labels} in:\n{text}")
