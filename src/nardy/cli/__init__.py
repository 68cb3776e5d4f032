"""The ``nardy`` command line."""
