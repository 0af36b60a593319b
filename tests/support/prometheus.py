"""Reading /metrics with the Prometheus client's own parser."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def families(text: str) -> dict[str, str]:
    """Metric family name -> type."""
    return {family.name: family.type for family in text_string_to_metric_families(text)}


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample. Every sample carries the answering process's `process` label:
    it is compared only when asked for (tests/http/test_metrics.py checks it is there)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            compared = found.labels if "process" in labels else {
                key: value for key, value in found.labels.items() if key != "process"}
            if found.name == name and compared == labels:
                return found.value
    raise AssertionError(f"no sample {name}{labels} in:\n{text}")
