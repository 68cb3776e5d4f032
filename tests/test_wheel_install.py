"""nardy as a user installs it: a wheel built by pip from this tree, installed into a fresh
virtual environment, ``nardy`` and ``nardy serve`` run from there (issue 17).

The test command's editable install reads the source tree, so a file the wheel lacks goes
unseen by every other test. Here the wheel must hold every non-Python file under src/; a
server run from it must serve every page and asset the site links to: a crawl from ``/``
through the links of its HTML, the imports of its JavaScript modules, the ``url()`` of its
CSS, and the catalogues and rules pages the scripts fetch for each of their languages and
variants; and ``nardy --version`` and the server's first line must say which code runs. A
wheel built where no C compiler is found installs and runs on the pure-Python references
and says so.

The wheels are built as README's install builds them: ``pip`` with build isolation, which
fetches setuptools from the package index. The virtual environments take the server's
dependencies from this interpreter's site-packages (a ``.pth`` naming them, which adds them
to the path without running their own ``.pth`` files, so an editable nardy there cannot
shadow the wheel's), and each test checks that ``nardy`` is imported from its environment.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fnmatch import fnmatch
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from tests.server.serverutil import free_port

ROOT = Path(__file__).resolve().parents[1]
EXTENSIONS = ("nardy/core/_movegen", "nardy/engine/_features")
COMPILED = "(compiled move generator and encodings)"
PURE_PYTHON = "(pure-Python move generator and encodings: C extensions not built)"
BUILD_PRODUCTS = ("__pycache__", "*.pyc", "*.so", "*.egg-info")
"""What a source checkout may hold under src/ that is not the project's (built there)."""


@dataclass(frozen=True)
class Installed:
    """A wheel built from this tree and the virtual environment it is installed in."""

    wheel: Path
    venv: Path

    def run(self, *args: str) -> str:
        """``nardy ARGS`` from this environment; its standard output."""
        return check([str(self.venv / "bin" / "nardy"), *args], self.venv)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without what would point nardy elsewhere: PYTHONPATH (a source tree
    first on the path), the user's site-packages, a compiler named in CC and nardy's own
    settings (NARDY_FASTPATH, NARDY_DATABASE_URL...); with ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("NARDY_", "PYTHON")) and k not in {"CC", "LDSHARED"}
    }
    return {**env, "PYTHONNOUSERSITE": "1", **extra}


def check(command: list[str], cwd: Path, **env: str) -> str:
    """Run a command in the clean environment (with ``env``) to its end: its standard
    output, or a failure that shows all it said."""
    result = subprocess.run(
        command, cwd=cwd, env=clean_env(**env), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{command}:\n{result.stdout}{result.stderr}"
    return result.stdout


def build_and_install(tmp: Path, **build_env: str) -> Installed:
    """Copy the project's files to ``tmp`` (so that nothing built in the checkout is reused),
    build a wheel there with pip in ``build_env``, and install it into a new environment."""
    tree = tmp / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns(*BUILD_PRODUCTS))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tree / name)
    pip = ["-m", "pip", "--disable-pip-version-check", "-q"]
    wheel_command = ["wheel", "--no-deps", "-w", str(tmp / "dist"), str(tree)]
    check([sys.executable, *pip, *wheel_command], tmp, **build_env)
    (wheel,) = (tmp / "dist").glob("nardy-*.whl")
    venv = tmp / "venv"
    check([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp)
    python = str(venv / "bin" / "python")
    site = check([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp)
    paths = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    Path(site.strip(), "test-environment.pth").write_text("\n".join(paths) + "\n", "utf-8")
    install = ["install", "--no-deps", "--no-index", "--ignore-installed", str(wheel)]
    check([python, *pip, *install], tmp)
    where = check([python, "-c", "import nardy; print(nardy.__file__)"], tmp).strip()
    assert Path(where).is_relative_to(venv), f"nardy imported from {where}, not from {venv}"
    return Installed(wheel, venv)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel as built where a C compiler is found."""
    compiler = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    if shutil.which(compiler.split()[0]) is None:
        reason = f"no C compiler ({compiler}) to build the extensions with"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return build_and_install(tmp_path_factory.mktemp("compiled"))


@pytest.fixture(scope="module")
def without_compiler(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel as built where no C compiler is found: setuptools runs ``CC``, which here
    names no program, as ``gcc`` names none on a machine without one."""
    return build_and_install(tmp_path_factory.mktemp("no-compiler"), CC="nardy-no-compiler")


@contextmanager
def serving(installed: Installed, tmp: Path) -> Iterator[tuple[str, list[str]]]:
    """``nardy serve`` from the environment, on a free port and an empty data folder: its
    address and the lines it printed at start-up; stopped on leaving."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp / "serve.log"
    nardy = str(installed.venv / "bin" / "nardy")
    with log.open("wb") as out:
        server = subprocess.Popen(
            [nardy, "serve", "--port", str(port), "--data-dir", str(tmp / "data")],
            env=clean_env(),
            cwd=tmp,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text(encoding="utf-8")
            try:
                if httpx.get(base + "/", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text(encoding="utf-8")
            time.sleep(0.2)
        yield base, log.read_text(encoding="utf-8").splitlines()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


class Links(HTMLParser):
    """The addresses an HTML document names (``href``, ``src``) and its import map."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.importmap: dict[str, str] = {}
        self._importmap: list[str] | None = None  # the import map's text while it is read
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in {"href", "src"} and v]
        if tag == "script" and dict(attrs).get("type") == "importmap":
            self._importmap = []

    def handle_data(self, data: str) -> None:
        if self._importmap is not None:
            self._importmap.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._importmap is not None:
            self.importmap.update(json.loads("".join(self._importmap))["imports"])
            self._importmap = None


MODULE_SPECIFIERS = re.compile(
    r"""\b(?:import|export)\b[^;"'`]*?\bfrom\s*(["'])(?P<a>[^"']+)\1"""
    r"""|\bimport\s*(["'])(?P<b>[^"']+)\3"""
    r"""|\bimport(?:\.meta\.resolve)?\(\s*(["'])(?P<c>[^"']+)\5\s*\)"""
)
"""What a JavaScript module imports (static, side-effect-only and dynamic imports) or
resolves through the import map, where the specifier is a literal string."""
CSS_URLS = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")


def script_list(script: str, name: str) -> list[str]:
    """The strings of ``const NAME = [...]`` in a served script: the client's own lists of
    its languages and rules pages, which it turns into addresses."""
    found = re.search(rf"\bconst {name} = \[(.*?)\]", script, re.DOTALL)
    assert found is not None, f"no {name} list in the script the crawl reads it from"
    return re.findall(r'"([^"]+)"', found.group(1))


@dataclass
class Crawl:
    """Every address the site names, fetched from a running server; what failed, and why."""

    base: str
    importmap: dict[str, str] = field(default_factory=dict)
    fetched: dict[str, httpx.Response] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def resolve(self, specifier: str, referrer: str) -> str | None:
        """The path a browser fetches for an address named at ``referrer``, through the
        import map; None for another site, a data: URL or a fragment of the same document."""
        if specifier.startswith(("#", "data:", "mailto:", "javascript:")):
            return None
        url = urlsplit(urljoin(self.base + referrer, specifier))
        if f"{url.scheme}://{url.netloc}" != self.base:
            return None
        return self.importmap.get(url.path, url.path)

    def visit(self, specifier: str, referrer: str, module: bool = False) -> httpx.Response | None:
        path = self.resolve(specifier, referrer)
        if path is None:
            return None
        if module and specifier.startswith("/") and specifier not in self.importmap:
            self.failures.append(f"{referrer} names {specifier}, absent from the import map")
        if path in self.fetched:
            return self.fetched[path]
        response = self.fetched[path] = httpx.get(self.base + path, timeout=30)
        if not response.is_success:
            self.failures.append(f"{path} (named by {referrer}): {response.status_code}")
            return response
        kind = response.headers.get("content-type", "")
        if kind.startswith("text/html"):
            links = Links(response.text)
            self.importmap.update(links.importmap)
            for link in links.links:
                self.visit(link, path)
        elif kind.startswith("text/javascript"):
            for found in MODULE_SPECIFIERS.finditer(response.text):
                self.visit(found["a"] or found["b"] or found["c"], path, module=True)
        elif kind.startswith("text/css"):
            for found in CSS_URLS.finditer(response.text):
                self.visit(found[1] or found[2], path)
        elif kind.startswith("application/json"):
            response.json()
        return response


def test_the_wheel_holds_every_file_of_the_package(compiled: Installed) -> None:
    """Every non-Python file under src/ (the client's files at any depth, the rules
    document, the nets' weights, the migrations' template, py.typed) is in the wheel, with
    the compiled extensions and the licence."""
    source = ROOT / "src"
    expected = {
        p.relative_to(source).as_posix()
        for p in source.rglob("*")
        if p.is_file()
        and p.suffix != ".py"
        and not any(fnmatch(part, built) for part in p.parts for built in BUILD_PRODUCTS)
    }
    wheel = zipfile.ZipFile(compiled.wheel)
    names = set(wheel.namelist())
    assert sorted(expected - names) == []
    assert [n for n in expected if wheel.read(n) != (source / n).read_bytes()] == []
    assert "nardy/web/static/rules/en/backgammon.html" in names
    for extension in EXTENSIONS:
        assert any(n.startswith(extension + ".") and n.endswith(".so") for n in names)
    licence = [n for n in names if re.fullmatch(r"nardy-[^/]+\.dist-info/(licenses/)?LICENSE", n)]
    assert [wheel.read(n) for n in licence] == [(ROOT / "LICENSE").read_bytes()]


def test_the_installed_server_serves_every_page_and_asset(
    compiled: Installed, tmp_path: Path
) -> None:
    """A crawl of the site served by the installed wheel: every address its pages, scripts
    and style sheets name, and each language's catalogue and rules page of each variant
    (the addresses the scripts build), answers 2xx; every module a script imports is in
    the import map. The rules pages are the ones a pip install used to lack."""
    with serving(compiled, tmp_path) as (base, printed):
        crawl = Crawl(base)
        crawl.visit("/", "/")
        assert crawl.importmap, "the page has no import map"
        i18n = crawl.visit("/js/i18n.js", "/")
        rules = crawl.visit("/js/rules.js", "/")
        assert i18n is not None and rules is not None
        languages = script_list(i18n.text, "LANGUAGES")
        pages = script_list(rules.text, "RULE_PAGES")
        assert {"en", "ka"} <= set(languages) and {"backgammon", "long"} <= set(pages)
        for page in pages:
            crawl.visit(f"/rules/{page}", "/js/rules.js")
        for language in languages:
            crawl.visit(f"/i18n/{language}.json", "/js/i18n.js", module=True)
            for page in pages:
                crawl.visit(f"/rules/{language}/{page}.html", "/js/rules.js", module=True)
    assert crawl.failures == []
    unreached = set(crawl.importmap.values()) - set(crawl.fetched)
    assert unreached == set(), "files the site serves that the crawl found no link to"
    assert printed[0] == f"nardy {version_of(compiled)} {COMPILED}"


def version_of(installed: Installed) -> str:
    """The version in the wheel's name (``nardy-0.1.0-cp311-...whl``)."""
    return installed.wheel.name.split("-")[1]


def test_the_installed_command_says_it_runs_compiled_code(compiled: Installed) -> None:
    assert compiled.run("--version") == f"nardy {version_of(compiled)} {COMPILED}\n"
    assert compiled.run("rules", "1.5").startswith("### 1.5 The doubling cube\n")


def test_without_a_compiler_nardy_installs_and_runs_on_the_references(
    without_compiler: Installed, tmp_path: Path
) -> None:
    """pip installs nardy where no C compiler is found: the extensions are left out, the
    pure-Python references answer (the same plays: RULES.md 1.3), and ``nardy --version``
    and the server's first line say so."""
    names = zipfile.ZipFile(without_compiler.wheel).namelist()
    assert [n for n in names if n.endswith(".so")] == []
    version = version_of(without_compiler)
    assert without_compiler.run("--version") == f"nardy {version} {PURE_PYTHON}\n"
    plays = without_compiler.run("moves", "4HPwATDgc/ABMA", "6", "5").splitlines()
    assert plays[:2] == ["24/13", "24/18 13/8"]
    with serving(without_compiler, tmp_path) as (base, printed):
        assert httpx.get(base + "/rules/backgammon", timeout=30).status_code == 200
    assert printed[0] == f"nardy {version} {PURE_PYTHON}"
