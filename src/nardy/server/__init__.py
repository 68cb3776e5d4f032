"""The online play server (``nardy serve``): accounts, the lobby, one authoritative room per
game over a WebSocket, and the database that keeps every accepted action.

The server holds no rules: every game decision is the core's (``apply``), every bot move the
engine's. See ``docs/protocol.md`` for what a client says and hears.
"""
