from __future__ import annotations

from flask_login import current_user
from flask_socketio import Namespace


class HallNamespace(Namespace):
    def on_connect(self, auth: object = None) -> bool:
        return bool(current_user.is_authenticated)
