"""The net's matrix products run with one BLAS thread by default (nardy.engine.blas)."""

from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import ThreadpoolController, threadpool_limits

from nardy.engine import blas
from nardy.engine.errors import EngineError
from nardy.engine.net import F32, Net


def blas_threads() -> list[int]:
    return [int(i["num_threads"]) for i in ThreadpoolController().select(user_api="blas").info()]


def threads_during_forward(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The BLAS thread counts seen inside one :meth:`Net.forward`."""
    seen: list[int] = []
    hidden_layer = Net.hidden_layer

    def watched(net: Net, x: F32) -> F32:
        seen.extend(blas_threads())
        return hidden_layer(net, x)

    monkeypatch.setattr(Net, "hidden_layer", watched)
    rng = np.random.default_rng(1)
    outputs = Net.random(8, 4, seed=1).forward(rng.random((3, 8), dtype=np.float32))
    assert outputs.shape == (3, 5)
    return seen


def test_an_evaluation_uses_one_blas_thread_and_gives_the_count_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(blas.VARIABLE, raising=False)
    with threadpool_limits(2, user_api="blas"):
        if not blas_threads() or set(blas_threads()) != {2}:
            pytest.skip("no BLAS library here that runs 2 threads")
        assert set(threads_during_forward(monkeypatch)) == {1}
        assert set(blas_threads()) == {2}  # numpy elsewhere keeps its threads


def test_the_count_is_chosen_by_nardy_blas_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(blas.VARIABLE, "2")
    with threadpool_limits(1, user_api="blas"):
        if not blas_threads():
            pytest.skip("no BLAS library here")
        assert set(threads_during_forward(monkeypatch)) == {2}
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv(blas.VARIABLE, bad)
        with pytest.raises(EngineError, match="NARDY_BLAS_THREADS is a number of threads"):
            blas.threads()
