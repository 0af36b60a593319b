"""One set of service objects per app, reachable from views and namespaces."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from gobang.services.accounts import Accounts
from gobang.services.clock import Clock, monotonic
from gobang.services.passwords import Passwords
from gobang.services.ratelimit import RateLimiter

EXTENSION_KEY = "gobang"


@dataclass
class Services:
    accounts: Accounts
    auth_limiter: RateLimiter
    clock: Clock


def build_services(app: Flask, clock: Clock = monotonic) -> Services:
    cfg = app.config
    passwords = Passwords(
        cfg["ARGON2_TIME_COST"], cfg["ARGON2_MEMORY_KIB"], cfg["ARGON2_PARALLELISM"]
    )
    offload = cfg.get("BLOCKING_OFFLOAD")
    accounts = Accounts(passwords, offload) if offload else Accounts(passwords)
    return Services(
        accounts=accounts,
        auth_limiter=RateLimiter(
            cfg["AUTH_ATTEMPTS_PER_MINUTE"], 60, clock, enabled=cfg["RATELIMIT_ENABLED"]
        ),
        clock=clock,
    )


def install_services(app: Flask) -> None:
    app.extensions[EXTENSION_KEY] = build_services(app)


def services() -> Services:
    return current_app.extensions[EXTENSION_KEY]
