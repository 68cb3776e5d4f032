"""Behind a reverse proxy (issue 17 item 4; docs/server.md, "Behind a proxy"):
X-Forwarded-For and X-Forwarded-Proto are believed only from the proxies the operator
names, so no client chooses the address its sign-in rate limit counts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nardy.server.accounts.security import client_key
from nardy.server.config import ConfigError, ServerConfig
from tests.server.serverutil import ROOT, Client, ServerProcess


def _sign_ins(client: Client, forwarded_for: list[str]) -> list[int]:
    return [
        client.post(
            "/api/signin", {"username": "x", "password": "y"}, headers={"x-forwarded-for": ip}
        ).status_code
        for ip in forwarded_for
    ]


def test_a_client_cannot_choose_its_address_by_default(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, None, NARDY_AUTH_RATE="3/60").start()
    try:
        client = Client(server)
        assert _sign_ins(client, [f"10.0.0.{i}" for i in range(4)]) == [401, 401, 401, 429]
        other = server.url.replace("http://", "https://")  # a forged scheme is not believed
        r = client.post("/api/signout", headers={"x-forwarded-proto": "https", "origin": other})
        assert r.status_code == 403
    finally:
        server.kill()


def test_a_named_proxy_gives_the_clients_address_and_scheme(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path, None, "--forwarded-allow-ips", "127.0.0.1", NARDY_AUTH_RATE="3/60"
    ).start()
    try:
        client = Client(server)
        assert _sign_ins(client, [f"10.0.0.{i}" for i in range(4)]) == [401] * 4
        assert _sign_ins(client, ["10.0.0.1"] * 3) == [401, 401, 429]
        https = server.url.replace("http://", "https://")
        r = client.post("/api/signout", headers={"x-forwarded-proto": "https", "origin": https})
        assert r.status_code == 200
    finally:
        server.kill()


def test_the_addresses_of_one_ipv6_network_share_a_limit(tmp_path: Path) -> None:
    """An IPv6 subscriber holds a whole /64: counted by its address alone, it would have a
    new sign-in limit for each of 2**64 addresses."""
    server = ServerProcess(
        tmp_path, None, "--forwarded-allow-ips", "127.0.0.1", NARDY_AUTH_RATE="3/60"
    ).start()
    try:
        client = Client(server)
        mine = [f"2001:db8:0:1::{i:x}" for i in range(1, 5)]
        assert _sign_ins(client, mine) == [401, 401, 401, 429]
        assert _sign_ins(client, ["2001:db8:0:2::1"]) == [401]  # another network
        assert _sign_ins(client, ["::ffff:10.0.0.9", "10.0.0.9", "10.0.0.9"]) == [401, 401, 401]
        assert _sign_ins(client, ["10.0.0.9"]) == [429]  # an IPv4-mapped address is its IPv4
    finally:
        server.kill()


def test_a_client_is_its_ipv4_address_or_its_ipv6_network() -> None:
    assert client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("2001:db8:0:1:aaaa::7") == "2001:db8:0:1::/64"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("testclient") == "testclient"
    assert client_key(None) == "unknown"


def test_trusted_proxies_are_addresses_or_networks() -> None:
    env = {"NARDY_FORWARDED_ALLOW_IPS": "10.0.0.1, 10.1.0.0/16,::1"}
    assert ServerConfig.from_env(env).forwarded_allow_ips == ("10.0.0.1", "10.1.0.0/16", "::1")
    assert ServerConfig.from_env({}).forwarded_allow_ips == ()
    assert ServerConfig.from_env({"NARDY_FORWARDED_ALLOW_IPS": "*"}).forwarded_allow_ips == ("*",)
    with pytest.raises(ConfigError, match=r"proxy\.example"):
        ServerConfig.from_env({"NARDY_FORWARDED_ALLOW_IPS": "proxy.example"})
    run = subprocess.run(
        [sys.executable, "-m", "nardy.cli.main", "serve", "--forwarded-allow-ips", "10.0.0.x"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2 and "10.0.0.x" in run.stderr and "Traceback" not in run.stderr
