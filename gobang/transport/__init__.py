"""The transport: what touches the private parts of eventlet, engine.io, Socket.IO and Flask.

Today it holds the table of those touches and its check at start-up (patches.py); the patches
themselves still live where docs/upgrading.md lists them, and move here one by one."""
