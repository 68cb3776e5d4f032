"""A process alone on its bus encodes no room news: nobody but its own room (which passes
over its own news) could hear it. As soon as anyone else listens on the channel, the news
goes out again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nardy.core.actions import action_from_json
from nardy.server.bus.bus import LocalBus, game_channel
from nardy.server.lobby.matches import Lobby
from nardy.server.room.registry import Rooms
from nardy.server.store.store import Store
from tests.server.gameplay import settle


def test_news_goes_out_only_where_someone_else_can_hear_it(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
        ann = store.create_user("ann", None, {}, guest=True)
        bob = store.create_user("bob", None, {}, guest=True)
        lobby = Lobby(store)
        game = lobby.create(ann, {"settings": {"match-length": 1}}).game
        lobby.join(bob, game.id)
        rooms = Rooms(store, LocalBus())
        published: list[str] = []
        send = rooms.publisher.publish
        rooms.publisher.publish = lambda g, news: (
            published.append(type(news).__name__) or send(g, news)
        )  # type: ignore[method-assign]
        room = await rooms.get(game.id)
        assert room is not None and room.match is not None
        opening = action_from_json({"type": "roll-opening", "player": 0})
        assert await room.act(0, opening) is None
        assert published == []  # alone: not even encoded
        listener = await rooms.bus.subscribe(game_channel(game.id))  # another process's room
        await room.refresh()  # news of the room again, now with someone to hear it
        await settle()
        assert published == ["Reload"]
        heard = await asyncio.wait_for(listener.get(), 5)
        assert heard.data["kind"] == "reload" and heard.data["seq"] == room.seq  # type: ignore[union-attr]
        await listener.close()
        await rooms.close()
        store.close()

    asyncio.run(run())
