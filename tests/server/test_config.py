"""`nardy serve`'s settings: options over NARDY_* environment variables over the defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nardy.server.config import ConfigError, RateLimit, ServerConfig, default_data_dir


def test_defaults_environment_and_options() -> None:
    assert default_data_dir({"XDG_DATA_HOME": "/x"}) == Path("/x/nardy")
    env = {"NARDY_PORT": "9000", "NARDY_HOST": "0.0.0.0", "NARDY_DATA_DIR": "/d"}
    config = ServerConfig.from_env(env, port=9100)
    assert (config.host, config.port, config.data_dir) == ("0.0.0.0", 9100, Path("/d"))
    assert config.sqlite_path == Path("/d/nardy.sqlite3")
    assert config.resolved_database_url == "sqlite:////d/nardy.sqlite3"
    pg = ServerConfig.from_env({"NARDY_DATABASE_URL": "postgresql+psycopg://u@h/db"})
    assert pg.sqlite_path is None and pg.resolved_database_url == "postgresql+psycopg://u@h/db"
    assert RateLimit.parse("10/60") == RateLimit(10, 60.0)


@pytest.mark.parametrize(
    "env",
    [
        {"NARDY_PORT": "http"},
        {"NARDY_PORT": "70000"},
        {"NARDY_WORKERS": "2"},
        {"NARDY_AUTH_RATE": "9"},
    ],
)
def test_bad_settings_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        ServerConfig.from_env(env)


def test_several_workers_need_redis_and_postgresql() -> None:
    pg = "postgresql+psycopg://u@h/db"
    with pytest.raises(ConfigError, match="--redis-url"):
        ServerConfig(workers=2, database_url=pg)
    with pytest.raises(ConfigError, match="PostgreSQL"):
        ServerConfig(workers=2, redis_url="redis://h:6379/0")  # SQLite
    with pytest.raises(ConfigError, match="PostgreSQL"):
        ServerConfig(workers=2, redis_url="redis://h:6379/0", database_url="sqlite:////x.db")
    config = ServerConfig.from_env(
        {"NARDY_WORKERS": "3", "NARDY_REDIS_URL": "redis://h:6379/0", "NARDY_DATABASE_URL": pg}
    )
    assert config.workers == 3


def test_the_dice_page_refresh_interval() -> None:
    assert ServerConfig.from_env({}).dice_stats_seconds == 10
    assert ServerConfig.from_env({"NARDY_DICE_STATS_SECONDS": "60"}).dice_stats_seconds == 60
    with pytest.raises(ConfigError, match="0 or more"):
        ServerConfig.from_env({"NARDY_DICE_STATS_SECONDS": "-1"})
    with pytest.raises(ConfigError, match="whole number"):
        ServerConfig.from_env({"NARDY_DICE_STATS_SECONDS": "soon"})


def test_the_caps_on_sockets() -> None:
    config = ServerConfig.from_env({})
    assert (config.sockets_per_user, config.sockets_per_address) == (10, 20)
    env = {"NARDY_SOCKETS_PER_USER": "3", "NARDY_SOCKETS_PER_ADDRESS": "500"}
    config = ServerConfig.from_env(env)
    assert (config.sockets_per_user, config.sockets_per_address) == (3, 500)
    with pytest.raises(
        ConfigError, match=r"sockets-per-user \(NARDY_SOCKETS_PER_USER\) is at least 1"
    ):
        ServerConfig.from_env({"NARDY_SOCKETS_PER_USER": "0"})
    with pytest.raises(ConfigError, match="whole number"):
        ServerConfig.from_env({"NARDY_SOCKETS_PER_ADDRESS": "many"})


def test_nardy_serve_takes_the_caps_on_sockets_as_options(tmp_path: Path) -> None:
    """``--sockets-per-user`` and ``--sockets-per-address`` are checked as the environment's
    values are, before anything starts."""
    result = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "serve", "--data-dir", str(tmp_path),
         "--sockets-per-address", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result
    assert "sockets-per-address (NARDY_SOCKETS_PER_ADDRESS) is at least 1" in result.stderr
    assert not list(tmp_path.iterdir())  # no database was made
