"""How many threads the BLAS library may use for the net's matrix products.

The products of an evaluation are small (a few hundred rows by a few hundred columns at
most), and OpenBLAS's threads cost more than they give there: on a shared two-core machine
its default threads made every small net call about 8 times slower (a rollout took 22.9 s
against 2.8 s with one thread; ``bench/blas_threads.py`` measures it). So the engine runs its
evaluations with one BLAS thread (``NARDY_BLAS_THREADS`` chooses another count) and restores
the library's setting after each, so numpy elsewhere in the process keeps its own.

The limit goes through one :class:`threadpoolctl.ThreadpoolController`, made once: it finds
the BLAS libraries loaded, which is slow, while setting and restoring a count is cheap
(``threadpool_limits()`` per call, which finds them every time, costs more than the threads).
The count is the library's, for the whole process: where threads evaluate at once, one may
give the count back while another computes, which costs that one speed, never a result.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

from nardy.engine.errors import EngineError

VARIABLE = "NARDY_BLAS_THREADS"
"""The environment variable that sets the engine's BLAS thread count (default 1)."""

_controller: ThreadpoolController | None = None


def threads() -> int:
    """The BLAS threads an evaluation may use: ``NARDY_BLAS_THREADS``, 1 where it is unset."""
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return 1
    if not text.isdigit() or int(text) < 1:
        raise EngineError(f"{VARIABLE} is a number of threads (1 or more), not {text!r}")
    return int(text)


@contextlib.contextmanager
def limited() -> Iterator[None]:
    """Within this block BLAS uses :func:`threads` threads; the count it had comes back
    after it."""
    global _controller
    count = threads()
    if _controller is None:
        _controller = ThreadpoolController()
    with _controller.limit(limits=count, user_api="blas"):
        yield
