"""A federation's site: its name, short name, footer and logo set with `ledger site set`,
kept in the ledger, shown on every page and in the API's description; bad settings refused
in one line; on both backends."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ledger.web import create_app

from builders import run

NAME = "Norwegian Chess Federation"
FOOTER = "Contact: rating@example.org. The lists are published under CC BY 4.0."


def _png(side: int = 8) -> bytes:
    """A small valid PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x0b\x5c\xad" * side for _ in range(side))
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def logo(tmp_path: Path) -> Path:
    path = tmp_path / "logo.png"
    path.write_bytes(_png())
    return path


def _set(url: str, *options: str) -> None:
    done = run("site", "set", *options, "--operator", "Olga", db=url)
    assert done.exit_code == 0, done.stderr


def test_a_site_given_nothing_is_the_rating_ledger(database_url: str) -> None:
    shown = run("site", "show", db=database_url)
    assert shown.stdout == (
        "Name: Rating ledger\nShort name: Rating ledger\nFooter: (none)\nLogo: (none)\n"
    )
    with TestClient(create_app(database_url)) as client:
        home = client.get("/").text
        assert client.get("/site/logo").status_code == 404
    assert '<a class="brand" href="/" title="Rating ledger">Rating ledger</a>' in home
    assert "<img" not in home


def test_the_sites_settings_show_on_every_page_and_in_the_api(
    database_url: str, logo: Path
) -> None:
    _set(database_url, "--name", NAME, "--short-name", "NSF", "--footer", FOOTER)
    _set(database_url, "--logo", str(logo))
    assert run("site", "show", db=database_url).stdout == (
        f"Name: {NAME}\nShort name: NSF\nFooter: {FOOTER}\nLogo: image/png\n"
    )
    with TestClient(create_app(database_url)) as client:
        pages = [client.get(path) for path in ("/", "/events", "/periods/standard", "/nowhere")]
        served = client.get("/site/logo")
        described = client.get("/api/v1/openapi.json").json()["info"]
    for answer in pages:
        assert f'title="{NAME}"><img class="logo" src="/site/logo" alt=""' in answer.text
        assert ">NSF</a>" in answer.text
        assert f"· {NAME}</title>" in answer.text
        assert f'<p class="site-footer">{FOOTER}</p>' in answer.text
    assert pages[-1].status_code == 404
    assert (served.content, served.headers["content-type"]) == (_png(), "image/png")
    assert described["title"] == f"{NAME}: rating lists API"
    assert described["description"].startswith(f"{NAME}. Public and read-only")
    assert described["description"].endswith(FOOTER)


def test_a_change_of_the_site_is_logged_and_changes_the_answers(database_url: str) -> None:
    _set(database_url, "--name", "Old Name")
    with TestClient(create_app(database_url)) as client:
        before = client.get("/")
        _set(database_url, "--name", NAME, "--reason", "renamed")
        after = client.get("/", headers={"If-None-Match": before.headers["etag"]})
    assert after.status_code == 200
    assert NAME in after.text
    logged = run("log", "--action", "site-set", "--format", "json", db=database_url).stdout
    assert '"operator":"Olga"' in logged.replace(" ", "")
    assert "renamed" in logged


def test_a_text_given_empty_is_removed_and_the_logo_can_be(database_url: str, logo: Path) -> None:
    _set(database_url, "--name", NAME, "--footer", FOOTER, "--logo", str(logo))
    _set(database_url, "--footer", "", "--no-logo")
    shown = run("site", "show", db=database_url).stdout
    assert shown == f"Name: {NAME}\nShort name: {NAME}\nFooter: (none)\nLogo: (none)\n"


@pytest.mark.parametrize(
    ("options", "content", "message"),
    [
        ((), None, "error: nothing to set; give --name, --short-name, --footer or --logo.\n"),
        (("--name", "x" * 201), None, "error: name: longer than 200 characters.\n"),
        (("--short-name", "NSF\x1b[31m"), None, "error: short-name: the text"),
        (
            ("--logo",),
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "error: logo: the file is not a PNG, JPEG, GIF or WebP image (SVG is refused",
        ),
        (("--logo",), b"GIF89a" + b"\0" * 100_000, "is larger than 100,000 bytes"),
    ],
)
def test_a_bad_setting_is_refused_in_one_line_and_nothing_is_written(
    database_url: str,
    tmp_path: Path,
    options: tuple[str, ...],
    content: bytes | None,
    message: str,
) -> None:
    arguments = list(options)
    if content is not None:
        (tmp_path / "logo").write_bytes(content)
        arguments.append(str(tmp_path / "logo"))
    refused = run("site", "set", *arguments, db=database_url)
    assert refused.exit_code == 1
    assert message in refused.stderr
    assert len(refused.stderr.splitlines()) == 1
    assert run("site", "show", db=database_url).stdout.startswith("Name: Rating ledger\n")
