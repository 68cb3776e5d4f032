"""The accounts: users and their preferences, sessions, the security of requests, and the
sockets a session holds."""
