"""Package data: the neural bot's trained weights (``backgammon.npz``, see docs/engine.md)."""
