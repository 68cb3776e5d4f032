"""The event bus between the server's processes: in-process or through Redis."""
