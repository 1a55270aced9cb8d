"""`serve` answers a malformed path with 400 or 404 and prints no traceback (the security review's `GET /%00`)."""

from __future__ import annotations

import re
import socket
import threading

import pytest

from generator.serve.server import site_server

MALFORMED = ("/%00", "/a%00b/", "/%00/index.html", "/%ED%A0%80", "/%ed%b0%80x", "/%ff%fe%fd", "/%E0%A4%A", "/%",
             "/%zz", "/..%2f..%2f..%2fetc%2fpasswd", "/" + "a" * 5000, "/" + "a/" * 3000, "/a%0d%0aSet-Cookie:x",
             "/\u00e9", "//%00//")


@pytest.fixture
def served(tmp_path):
    """The address of a server like `serve`'s, of a folder holding one page."""
    (tmp_path / "index.html").write_text("<p>home</p>", encoding="utf-8")
    server = site_server(tmp_path, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server.server_address
    server.shutdown()
    server.server_close()


def request(address, target: str, method: str = "GET") -> str:
    """The status line the server answers a raw request with ("" if it dropped the connection)."""
    with socket.create_connection(address, timeout=10) as connection:
        connection.sendall(f"{method} {target} HTTP/1.0\r\n\r\n".encode("utf-8", "surrogateescape"))
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode("latin-1")


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_every_malformed_path_is_answered_400_or_404_without_a_traceback(served, capfd, method):
    answers = {target: request(served, target, method) for target in MALFORMED}
    assert all(re.fullmatch(r"HTTP/1\.[01] (400|404) .*", status) for status in answers.values()), answers
    assert answers["/%00"].split()[1] == "400" and answers["/%ED%A0%80"].split()[1] == "400"
    assert request(served, "/index.html", method).split()[1] == "200"  # the server still serves afterwards
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err + printed.out and "Exception occurred" not in printed.err


def test_an_overlong_request_line_is_refused_with_414(served, capfd):
    assert request(served, "/" + "a" * 70000).split()[1] == "414"
    assert "Traceback" not in capfd.readouterr().err
