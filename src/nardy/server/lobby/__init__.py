"""The lobby: seeks, invitations and tables to join, their HTTP endpoints, and the replay of a
finished game."""
