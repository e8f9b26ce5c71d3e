"""The deployment recipe (deploy/): the compose file parses, and what it wires together matches what the
code reads — every PAGELENS_* variable lands in a settings field, the URLs name the services and ports
that exist, nginx balances exactly the pagelens servers on the port they listen on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML reads the compose file")

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
PAGELENS_SERVICES = ("pagelens-a", "pagelens-b", "ray-head", "ray-worker")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


def _field(settings: Any, key: str) -> Any:
    from pagelens.settings import _SHORT_ENV

    path = _SHORT_ENV.get(key) or tuple(key.removeprefix("PAGELENS_").lower().split("__"))
    node = settings
    for part in path:
        assert hasattr(node, part), f"{key}: settings have no field {'.'.join(path)}"
        node = getattr(node, part)
    return node


def test_the_services_of_the_recipe_are_there(compose) -> None:
    services = compose["services"]
    assert {"qdrant", "postgres", "pagelens-a", "pagelens-b", "lb", "ray-head", "ray-worker", "embed"} <= set(services)
    assert services["embed"]["profiles"] == ["embed"]  # optional
    for name in PAGELENS_SERVICES:
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
        assert "shared:/shared" in services[name]["volumes"]
    assert (DEPLOY / "Dockerfile").is_file()


@pytest.mark.parametrize("service", PAGELENS_SERVICES)
def test_every_pagelens_variable_lands_in_a_setting(compose, service: str, monkeypatch, tmp_path: Path) -> None:
    from pagelens.settings import Settings

    env = compose["services"][service]["environment"]
    assert env and all(k.startswith("PAGELENS_") for k in env)
    for key in [k for k in list(__import__("os").environ) if k.startswith("PAGELENS_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("PAGELENS_CONFIG", str(tmp_path / "none.toml"))
    for key, value in env.items():
        monkeypatch.setenv(key, str(value))
    settings = Settings()
    for key, value in env.items():
        got = _field(settings, key)
        got = got.get_secret_value() if hasattr(got, "get_secret_value") else got
        want: Any = {"true": True, "false": False}.get(str(value), str(value))
        assert (got if isinstance(got, bool) else str(got)) == want, key
    assert settings.images_dir and settings.uploads_dir
    assert all(str(d).startswith("/shared/") for d in (settings.images_dir, settings.uploads_dir))


def test_urls_name_the_services_and_ports(compose) -> None:
    services = compose["services"]
    env = services["pagelens-a"]["environment"]
    catalog = urlsplit(env["PAGELENS_CATALOG_URL"])
    pg = services["postgres"]["environment"]
    assert (catalog.hostname, catalog.port, catalog.username, catalog.password, catalog.path.lstrip("/")) == (
        "postgres", 5432, pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"], pg["POSTGRES_DB"])
    assert "5432" in services["postgres"]["expose"]
    qdrant = urlsplit(env["PAGELENS_QDRANT_URL"])
    assert qdrant.hostname == "qdrant" and str(qdrant.port) in services["qdrant"]["expose"]
    head_port = next(a.split("=")[1] for a in services["ray-head"]["command"] if a.startswith("--port="))
    assert f"--address=ray-head:{head_port}" in services["ray-worker"]["command"]


def test_nginx_balances_the_pagelens_servers_on_their_port(compose) -> None:
    services = compose["services"]
    conf = (DEPLOY / "nginx.conf").read_text()
    upstream = re.findall(r"^\s*server\s+([\w.-]+):(\d+)", conf, flags=re.M)
    servers = {n for n in services if n.startswith("pagelens-")}
    assert {h for h, _ in upstream} == servers
    for name, port in upstream:
        command = services[name]["command"]
        assert command[command.index("--port") + 1] == port and port in services[name]["expose"]
        assert command[command.index("--host") + 1] == "0.0.0.0"  # inside the compose network only
    listen = re.search(r"listen\s+(\d+);", conf)
    assert listen is not None
    assert services["lb"]["ports"] == [f"127.0.0.1:8080:{listen.group(1)}"]
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["lb"]["volumes"]


def test_the_image_installs_the_extras_the_recipe_needs() -> None:
    import tomllib

    docker = (DEPLOY / "Dockerfile").read_text()
    extras = set(re.search(r'"\.\[([\w,]+)\]"', docker).group(1).split(","))  # type: ignore[union-attr]
    assert {"postgres", "ray"} <= extras
    pyproject = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())
    assert "postgres" in pyproject["project"]["optional-dependencies"]
