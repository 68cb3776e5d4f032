"""Build configuration beyond pyproject.toml: the compiled legal-play generator.

The C extension ``nardy.core._movegen`` (docs/engine.md, "The compiled fast path") needs only a C
compiler and the Python headers. ``pip install .`` and ``pip install -e .`` build it; from a
source checkout, ``python3 setup.py build_ext --inplace`` builds it next to its sources.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("nardy.core._movegen", ["src/nardy/core/_movegen.c"])])
