"""/metrics for Prometheus: local addresses, or a bearer token (METRICS_TOKEN)."""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, abort, current_app, request

from gobang.services.registry import services

bp = Blueprint("metrics", __name__)

LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1"})
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _allowed() -> bool:
    # remote_addr is the client's as ProxyFix (PROXY_FIX) reports it: behind nginx without
    # PROXY_FIX every request would look local, hence the setting is required there.
    if request.remote_addr in LOCAL_ADDRESSES:
        return True
    token = current_app.config.get("METRICS_TOKEN")
    sent = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


@bp.route("/metrics")
def metrics() -> Response:
    if not _allowed():
        abort(403)
    found = services()
    text = found.metrics.exposition(found.store, len(found.lobby.matcher.queued()),
                                    found.play.maintenance.on, current_app.config["PROCESS_NAME"])
    return Response(text, content_type=CONTENT_TYPE)
