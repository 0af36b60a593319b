"""The transport: the server, and everything that touches the private parts of eventlet,
engine.io, Socket.IO and Flask. No module outside this package imports eventlet or engine.io
(an import contract in pyproject.toml); app.py patches eventlet first and then starts
server.py. patches.py lists every private part touched, checked before the server starts;
docs/upgrading.md says what each does and how to upgrade one of these libraries."""
