"""A small neural evaluator: one hidden sigmoid layer, five sigmoid outputs, in numpy.

The outputs are gnubg's, for the side that has just moved (the encoded position's mover,
see :mod:`nardy.engine.features`), with the opponent to roll:

0. the mover wins (any kind);
1. the mover wins a gammon or backgammon;
2. the mover wins a backgammon;
3. the mover loses a gammon or backgammon;
4. the mover loses a backgammon.

:func:`equity` turns them into cubeless money equity, ``2 p(win) - 1 + p(wg) - p(lg) +
p(wbg) - p(lbg)``. :func:`flip` views outputs from the other side. A :class:`Net` saves to and
loads from a compressed ``.npz`` and trains by plain gradient steps on the cross-entropy of
each output against a target in [0, 1] (:meth:`Net.train`), which TD(λ) self-play supplies.

Inputs are only ever appended to an encoding, so an older net reads the prefix: every method
that takes encoded rows takes rows at least as wide as the net and reads the first
:attr:`Net.inputs` columns (:meth:`Net.columns`). A net trained before the backgammon
encoding grew from 212 to 224 inputs values today's encoding exactly as it valued the old one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nardy.engine import blas
from nardy.engine.errors import EngineError

F32 = npt.NDArray[np.float32]
OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(OUTPUTS)
FORMAT = "nardy-mlp-1"
"""The ``format`` entry of a saved net; a file without it is refused."""


def _sigmoid(z: F32) -> F32:
    """The logistic function of ``z``, computed in ``z``'s own memory (a product just made,
    owned by the caller): a lookahead's batches are tens of megabytes, and the temporaries of
    the plain expression cost three times the arithmetic (the values are the same)."""
    z *= 0.5
    np.tanh(z, out=z)
    z += 1.0
    z *= 0.5
    return z


def equity(outputs: F32) -> F32:
    """Cubeless money equity of each row of outputs (shape ``(N, 5)``), for the mover."""
    o = outputs
    return (
        2.0 * o[:, WIN]
        - 1.0
        + o[:, WIN_GAMMON]
        - o[:, LOSE_GAMMON]
        + o[:, WIN_BACKGAMMON]
        - o[:, LOSE_BACKGAMMON]
    )


def flip(outputs: F32) -> F32:
    """The same probabilities from the other side's view (rows of 5)."""
    o = outputs
    out = np.empty_like(o)
    out[:, WIN] = 1.0 - o[:, WIN]
    out[:, WIN_GAMMON] = o[:, LOSE_GAMMON]
    out[:, WIN_BACKGAMMON] = o[:, LOSE_BACKGAMMON]
    out[:, LOSE_GAMMON] = o[:, WIN_GAMMON]
    out[:, LOSE_BACKGAMMON] = o[:, WIN_BACKGAMMON]
    return out


class Net:
    """A one-hidden-layer perceptron: ``sigmoid(sigmoid(x W1 + b1) W2 + b2)``."""

    def __init__(self, w1: F32, b1: F32, w2: F32, b2: F32, meta: dict[str, Any] | None = None):
        if w1.ndim != 2 or w2.shape != (w1.shape[1], OUTPUTS):
            raise EngineError(f"bad shapes {w1.shape} and {w2.shape}")
        if b1.shape != (w1.shape[1],) or b2.shape != (OUTPUTS,):
            raise EngineError(f"bad bias shapes {b1.shape} and {b2.shape}")
        self.w1 = np.ascontiguousarray(w1, dtype=np.float32)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float32)
        self.w2 = np.ascontiguousarray(w2, dtype=np.float32)
        self.b2 = np.ascontiguousarray(b2, dtype=np.float32)
        self.meta: dict[str, Any] = dict(meta or {})

    @classmethod
    def random(cls, inputs: int, hidden: int, seed: int = 0, scale: float = 0.1) -> Net:
        """A fresh net with small normal weights (reproducible by ``seed``)."""
        rng = np.random.default_rng(seed)
        return cls(
            (rng.standard_normal((inputs, hidden)) * scale).astype(np.float32),
            np.zeros(hidden, dtype=np.float32),
            (rng.standard_normal((hidden, OUTPUTS)) * scale).astype(np.float32),
            np.zeros(OUTPUTS, dtype=np.float32),
        )

    def widened(self, inputs: int) -> Net:
        """The same function with ``inputs`` inputs: the new ones (appended at the end) start
        with zero weights, so that a trained net can go on training after features are added."""
        extra = inputs - self.inputs
        if extra < 0:
            raise EngineError(f"cannot narrow a net from {self.inputs} to {inputs} inputs")
        w1 = np.concatenate([self.w1, np.zeros((extra, self.hidden), dtype=np.float32)])
        return Net(w1, self.b1, self.w2, self.b2, {**self.meta, "widened_from": self.inputs})

    def with_hidden(self, hidden: int, seed: int = 0, scale: float = 0.1) -> Net:
        """The same function with ``hidden`` hidden units: the new ones get small normal
        input weights (reproducible by ``seed``) and zero output weights, so they change
        nothing until training gives them a part (a bigger net that starts where this one is)."""
        extra = hidden - self.hidden
        if extra < 0:
            raise EngineError(f"cannot shrink a net from {self.hidden} to {hidden} hidden units")
        rng = np.random.default_rng(seed)
        new_w1 = (rng.standard_normal((self.inputs, extra)) * scale).astype(np.float32)
        return Net(
            np.concatenate([self.w1, new_w1], axis=1),
            np.concatenate([self.b1, np.zeros(extra, dtype=np.float32)]),
            np.concatenate([self.w2, np.zeros((extra, OUTPUTS), dtype=np.float32)]),
            self.b2,
            {**self.meta, "hidden": hidden, "hidden_from": self.hidden},
        )

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    def columns(self, x: F32) -> F32:
        """The columns of encoded rows ``x`` this net reads: the first :attr:`inputs` (inputs
        are only appended, so an older net reads the prefix). ``x`` itself when it is as wide
        as the net, a view (no copy) when wider; narrower rows are refused."""
        width = x.shape[-1]
        if width == self.inputs:
            return x
        if width < self.inputs:
            raise EngineError(f"rows of {width} inputs for a net of {self.inputs}")
        return x[..., : self.inputs]

    def hidden_layer(self, x: F32) -> F32:
        """The hidden activations of a batch ``(N, inputs)`` (or wider: :meth:`columns`)."""
        z = self.columns(x) @ self.w1
        z += self.b1
        return _sigmoid(z)

    def forward(self, x: F32) -> F32:
        """The five outputs of each row of ``x``; shape ``(N, 5)``. The products run with
        the engine's BLAS threads (one by default: :mod:`nardy.engine.blas`)."""
        with blas.limited():
            return self.forward_as_set(x)

    def forward_as_set(self, x: F32) -> F32:
        """:meth:`forward` with whatever BLAS threads the process has now (for measuring
        what the threads cost, ``bench/blas_threads.py``)."""
        z = self.hidden_layer(x) @ self.w2
        z += self.b2
        return _sigmoid(z)

    def gradients(self, x: F32, targets: F32) -> tuple[tuple[F32, F32, F32, F32], float]:
        """The gradients of each output's cross-entropy against ``targets`` (shape ``(N, 5)``,
        values in [0, 1]), summed over the rows, for ``(w1, b1, w2, b2)``, and the mean
        squared error of the outputs."""
        x = self.columns(x)
        h = self.hidden_layer(x)
        y = _sigmoid(h @ self.w2 + self.b2)
        dz2 = (y - targets).astype(np.float32)
        dh = (dz2 @ self.w2.T) * h * (1.0 - h)
        grads = (x.T @ dh, dh.sum(axis=0), h.T @ dz2, dz2.sum(axis=0))
        return grads, float(np.mean(dz2 * dz2))

    @property
    def parameters(self) -> tuple[F32, F32, F32, F32]:
        """``(w1, b1, w2, b2)``, the arrays themselves (an optimiser updates them in place)."""
        return self.w1, self.b1, self.w2, self.b2

    def train(self, x: F32, targets: F32, rate: float) -> float:
        """One gradient step on a batch (:meth:`gradients` times ``rate``). Returns the mean
        squared error before the step."""
        grads, mse = self.gradients(x, targets)
        for param, grad in zip(self.parameters, grads, strict=True):
            param -= rate * grad
        return mse

    # -- files -----------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the net (and its ``meta``, kept as strings) to a compressed ``.npz``."""
        keys = sorted(self.meta)
        np.savez_compressed(
            path,
            format=np.array(FORMAT),
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
            meta_keys=np.array(keys, dtype=str),
            meta_values=np.array([str(self.meta[k]) for k in keys], dtype=str),
        )

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """A net saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            if "format" not in data or str(data["format"]) != FORMAT:
                raise EngineError(f"{path}: not a {FORMAT} net")
            meta = dict(zip(data["meta_keys"].tolist(), data["meta_values"].tolist(), strict=True))
            return cls(data["w1"], data["b1"], data["w2"], data["b2"], meta)
