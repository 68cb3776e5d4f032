"""Type stub of the compiled legal-play generator (``_movegen.c``)."""

def play_paths(
    kind: int, mine: bytes, theirs: bytes, d1: int, d2: int, /
) -> dict[tuple[bytes, bytes], tuple[tuple[int, int, bool], ...]] | None: ...
