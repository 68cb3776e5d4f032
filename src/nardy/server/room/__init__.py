"""The rooms of the games (one authoritative, serialised room per game and process).

- :mod:`~nardy.server.room.actor`: the room itself, which applies, commits and tells;
- :mod:`~nardy.server.room.host`, :mod:`~nardy.server.room.match_host`,
  :mod:`~nardy.server.room.table_host`: the game object of each kind;
- :mod:`~nardy.server.room.clock_keeper`, :mod:`~nardy.server.room.presence`,
  :mod:`~nardy.server.room.rematch`, :mod:`~nardy.server.room.bot_driver`,
  :mod:`~nardy.server.room.chat_desk`, :mod:`~nardy.server.room.ratings`: the room's
  collaborators, each reacting to what was committed;
- :mod:`~nardy.server.room.news` and :mod:`~nardy.server.room.publisher`: the news between
  processes and the way it goes out;
- :mod:`~nardy.server.room.member`: someone in a room;
- :mod:`~nardy.server.room.registry`: every room of the process.
"""
