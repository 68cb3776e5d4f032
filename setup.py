"""Build configuration beyond pyproject.toml: the compiled fast path (docs/engine.md).

Two C extensions, each with a pure-Python reference in the package that gives the same
answers: ``nardy.core._movegen`` (the legal-play generator) and ``nardy.engine._features``
(the nets' input encodings). They need only a C compiler and the Python headers.
``pip install .`` and ``pip install -e .`` build them; in a source checkout
``python3 setup.py build_ext --inplace`` builds them next to their sources. They are optional:
where no compiler is found (or the headers are missing) setuptools warns and builds nardy
without them, and the references run (``nardy --version`` says which code does).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("nardy.core._movegen", ["src/nardy/core/_movegen.c"], optional=True),
        Extension("nardy.engine._features", ["src/nardy/engine/_features.c"], optional=True),
    ]
)
