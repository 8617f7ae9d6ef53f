"""Tries to read what is not its own and to reach the network: it fails its run, naming what it read, if it can."""
import socket

_found = []
for _path in ("/etc/passwd", "{SECRET}"):
    try:
        with open(_path) as _f:
            _found.append(_f.read(200))
    except OSError:
        pass
for _host in ("127.0.0.1", "localhost"):
    try:
        socket.create_connection((_host, int("{PORT}")), timeout=2).sendall(b"hello from a hand-in")
        _found.append(f"connected to {_host}")
    except OSError:
        pass
if _found:
    raise RuntimeError(f"reached: {_found}")


def h(board):
    return 0
