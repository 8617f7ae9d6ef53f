"""The one sandbox for code that is not ours on the command line (a heuristic file, a student's hand-in): a fresh
Python interpreter in namespaces of its own, which can compute values and nothing else.

On Linux with bubblewrap (Debian's `bubblewrap`, what Flatpak runs untrusted apps in) the interpreter runs in new
user, PID, mount, network, IPC and UTS namespaces, as uid 65534 with no capabilities, in a session of its own:
  - a read-only file system that shows only the interpreter, the system libraries and the slidelab package (no
    $HOME, no cache folder, no working folder, no other hand-ins, no /etc), a private empty /tmp, /proc read-only;
  - no network (a network namespace with only its own loopback);
  - the judge invisible: its processes are not in the sandbox's /proc, so they cannot be signalled, traced or
    opened; no descriptor of the command (its output, its pipes to other workers) is open inside: the sandbox gets
    its standard input from /dev/null, its output into a file of its own, and one socket to talk on;
  - limits on memory, CPU seconds, file size, open files and processes; every process in it ends with it (the PID
    namespace dies with its first process, and that with the command: --die-with-parent).
Nothing the code sends is trusted beyond a frame of JSON values (`Channel`: a 4-byte length, at most MAX_FRAME
bytes, read against a deadline), and what it prints is text kept apart, never passed to the terminal.

Where no sandbox can be made (no bubblewrap, a kernel or container that refuses user namespaces, macOS, Windows),
`status()` says why; the caller decides (grading refuses, your own file runs in a forked child with a notice).
`python3 bench/bench_sandbox.py` measures its start.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

MAX_FRAME = 16 << 20  # bytes of one frame from the sandbox (the values of a layer of 2,000,000 positions fit)
MEMORY = 4 << 30  # bytes of address space the sandbox's interpreter may use
FILE_SIZE = 8 << 20  # bytes any file it writes may hold (its output, a file in its /tmp)
OPEN_FILES = 64
PROCESSES = 64  # processes and threads the sandbox may hold at once
UID = 65534  # nobody
_HEADER = struct.Struct("!I")
_status: dict | None = None


class FrameError(Exception):
    """The other side sent something that is not a frame of ours (too large, cut short, not JSON); the message
    says what."""


class Channel:
    """Frames over a stream socket: a 4-byte big-endian length, then that many bytes; a frame announcing more than
    `limit` bytes is refused before any of it is read, and a read that the deadline overtakes raises TimeoutError."""

    def __init__(self, sock: socket.socket, limit: int = MAX_FRAME):
        self.sock, self.limit = sock, limit
        self.buffer = bytearray()  # bytes received past the frame read last
        sock.setblocking(False)

    def send(self, data: bytes, deadline: float) -> None:
        self._write(_HEADER.pack(len(data)) + data, deadline)

    def receive(self, deadline: float) -> bytes:
        """The next frame's bytes; TimeoutError at the deadline, EOFError when the other side has closed."""
        size = _HEADER.unpack(self._read(_HEADER.size, deadline))[0]
        if size > self.limit:
            raise FrameError(f"a message of {size:,} bytes, more than the {self.limit:,} allowed")
        return self._read(size, deadline)

    def ready(self, timeout: float) -> bool:
        return bool(self.buffer) or bool(select.select([self.sock], [], [], _timeout(timeout))[0])

    def close(self) -> None:
        self.sock.close()

    def _read(self, size: int, deadline: float) -> bytes:
        buffer = self.buffer
        while len(buffer) < size:
            try:
                chunk = self.sock.recv(max(size - len(buffer), 1 << 16))  # a whole frame in one call, when it is there
            except BlockingIOError:  # the rest not sent yet: wait for it on the socket (the buffer holds too little)
                if not select.select([self.sock], [], [], _timeout(deadline - time.monotonic()))[0]:
                    raise TimeoutError from None
                continue
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError
            buffer += chunk
        data, self.buffer = bytes(buffer[:size]), buffer[size:]
        return data

    def _write(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[self.sock.send(view):]
            except BlockingIOError:  # the other side is not reading: wait for it, until the deadline
                if not select.select([], [self.sock], [], _timeout(deadline - time.monotonic()))[1]:
                    raise TimeoutError from None


def json_of(data: bytes):
    """A frame's JSON values (no NaN, no infinity, nothing nested past the parser's depth), else FrameError."""
    try:
        return json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise FrameError(f"a message that is not JSON ({str(e)[:80]})") from None


def _timeout(seconds: float) -> float | None:
    """select's timeout for `seconds` left: None (wait as long as it takes) when no deadline was set."""
    return None if seconds == float("inf") else max(seconds, 0)


def _no_constant(name):
    raise ValueError(f"{name} is not a value")


def status() -> dict:
    """What this machine gives code that is not ours: {"kind": "bubblewrap" or "unshare", "detail"} when the sandbox
    works here, else {"kind": "none", "detail": why}. Probed once per process (a sandboxed interpreter started and
    asked for its uid and pid), each mechanism of MECHANISMS in turn unless SLIDELAB_SANDBOX names one."""
    global _status
    if _status is None:
        _status = _probe()
    return _status


def available() -> bool:
    return status()["kind"] != "none"


MECHANISMS = ("bubblewrap", "unshare")  # tried in this order; SLIDELAB_SANDBOX names one, or "none"


def _probe() -> dict:
    wanted = os.environ.get("SLIDELAB_SANDBOX", "").strip().lower()
    if wanted == "none":
        return {"kind": "none", "detail": "no sandbox: SLIDELAB_SANDBOX=none"}
    if wanted and wanted not in MECHANISMS:
        return {"kind": "none", "detail": f"no sandbox: SLIDELAB_SANDBOX={visible(wanted, 40)} is none of "
                                          f"{', '.join(MECHANISMS)}, none"}
    why = []
    for kind in (wanted,) if wanted else MECHANISMS:
        missing = _missing(kind) or _fails(kind)
        if missing is None:
            return {"kind": kind, "detail": _DETAIL[kind]()}
        why.append(missing)
    return {"kind": "none", "detail": "no sandbox: " + "; ".join(why)}


def _missing(kind: str) -> str | None:
    """Why the mechanism `kind` cannot be tried here, or None."""
    if not sys.platform.startswith("linux"):
        return f"there are no Linux namespaces on {sys.platform}"
    if kind == "bubblewrap":
        return None if shutil.which("bwrap") else "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    from slidelab.run import namespaces

    return namespaces.supported()


def _fails(kind: str) -> str | None:
    """Why a sandboxed interpreter made by `kind` did not start as one (its uid 65534, its pid 2 under the sandbox's
    init), or None."""
    fd = filter_file(kind)
    try:
        done = subprocess.run([*command(kind, fd), "-c", "import os; print(os.getuid(), os.getpid())"],
                              capture_output=True, timeout=20, stdin=subprocess.DEVNULL, env={},
                              preexec_fn=_limits(60), pass_fds=() if fd is None else (fd,))
    except (OSError, subprocess.SubprocessError) as e:
        return f"{kind} did not start ({visible(str(e), 100)})"
    finally:
        if fd is not None:
            os.close(fd)
    if done.stdout.split() != [str(UID).encode(), b"2"]:  # pid 1 is the sandbox's init (bubblewrap's, or ours)
        said = (done.stderr or done.stdout).decode("utf-8", "replace").strip().splitlines()
        return f"{kind} cannot make namespaces here ({visible(said[-1] if said else 'no answer', 100)})"
    return None


def _bubblewrap_detail() -> str:
    version = subprocess.run([shutil.which("bwrap") or "bwrap", "--version"], capture_output=True,
                             text=True).stdout.strip()
    return f"{version or 'bubblewrap'}: {_PROMISE}"


_PROMISE = "user, PID, mount, network and IPC namespaces, a read-only file system, no network"
_DETAIL = {"bubblewrap": _bubblewrap_detail,
           "unshare": lambda: f"namespaces made by unshare(2) (bubblewrap is not used): {_PROMISE}"}


def command(kind: str | None = None, seccomp_fd: int | None = None) -> list[str]:
    """The command line of a fresh interpreter of this Python in the sandbox made by `kind` (default: this
    machine's), before its arguments (`-c CODE`): only the interpreter, the system's libraries and the slidelab
    package are seen, read-only. bubblewrap reads the seccomp filter from `seccomp_fd` (`filter_file()`, passed to
    it); the other sandbox applies it itself."""
    kind = kind or status()["kind"]
    python = os.path.realpath(sys.executable)
    shown, links = _shown()
    if kind == "unshare":
        root = os.path.dirname(_package())
        launch = (f"import sys; sys.path[:0] = [{root!r}]; from slidelab.run.namespaces import enter; "
                  f"enter({shown!r}, {links!r}, [{python!r}, '-I', '-S', '-B', *sys.argv[1:]], "
                  f"{_kept_environment()!r}, {os.getpid()})")
        return [python, "-I", "-S", "-B", "-c", launch]
    binds = []
    for path in shown:
        binds += ["--ro-bind", path, path]
    for name, target in links.items():
        binds += ["--symlink", target, name]
    environment = [part for name, value in _kept_environment().items() for part in ("--setenv", name, value)]
    seccomp = ["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []
    return [shutil.which("bwrap") or "bwrap",
            "--unshare-all", "--unshare-user", "--uid", str(UID), "--gid", str(UID), "--disable-userns",
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv", *environment,
            "--tmpfs", "/tmp",  # first: a folder shown below /tmp (a virtual environment there) is bound over it
            *binds, "--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp",
            "--remount-ro", "/proc", "--remount-ro", "/", *seccomp,
            "--", python, "-I", "-S", "-B"]


def filter_file(kind: str) -> int | None:
    """A new descriptor holding the seccomp filter for bubblewrap to read (it reads to the end: one a start), or
    None for the other sandbox, or where no filter is known. The caller passes it and closes it."""
    from slidelab.run import seccomp

    code = seccomp.program()
    if kind != "bubblewrap" or code is None:
        return None
    fd = os.memfd_create("slidelab-seccomp", 0)
    os.write(fd, code)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _package() -> str:
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # .../slidelab


def _shown() -> tuple[list[str], dict[str, str]]:
    """The folders the sandbox shows read-only (/usr, the interpreter's prefixes, the package, and /lib, /bin...
    where they are folders), and the links it makes where those are links (/lib -> usr/lib)."""
    shown = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    shown.add(_package())
    folders = ["/usr", *sorted(p for p in shown if os.path.isdir(p) and p != "/usr" and not p.startswith("/usr/"))]
    links = {}
    for name in ("/lib", "/lib64", "/bin", "/sbin"):
        if os.path.islink(name):
            links[name] = os.readlink(name)
        elif os.path.isdir(name):
            folders.append(name)
    return folders, links


def _kept_environment() -> dict[str, str]:
    """The sandbox's whole environment: OpenBLAS's core settings where this machine needs them (an older OpenBLAS
    computes wrong results or crashes without them on some processors), one thread for numpy."""
    kept = {"OPENBLAS_NUM_THREADS": "1"}
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if os.environ.get(name):
            kept[name] = os.environ[name]
    return kept


def _limits(seconds: float):
    """What the sandbox's first process sets before bubblewrap starts (its limits hold for all it starts)."""
    cpu = int(seconds) + 5

    def limit():
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past FILE_SIZE fails (EFBIG) rather than kills
        for which, value in ((resource.RLIMIT_AS, MEMORY), (resource.RLIMIT_CPU, cpu),
                             (resource.RLIMIT_FSIZE, FILE_SIZE), (resource.RLIMIT_NOFILE, OPEN_FILES),
                             (resource.RLIMIT_CORE, 0)):
            try:
                resource.setrlimit(which, (value, value))
            except (ValueError, OSError):
                pass

    return limit


class Sandboxed:
    """A fresh interpreter in the sandbox running `entry` (a function `module:name` of slidelab, called with the
    descriptor of its end of the channel), for at most `seconds` of CPU time; `channel` talks to it. `close()` ends
    it and everything it started, and gives back what it printed (its standard output and error, both kept apart
    from the command's: at most `keep` characters, as it wrote them: whoever shows them makes them visible)."""

    def __init__(self, entry: str, seconds: float):
        import tempfile

        mine, theirs = socket.socketpair()
        self.channel = Channel(mine)
        self.output = tempfile.TemporaryFile()
        module, function = entry.split(":")
        # those not shown read-only are not there
        paths = [os.path.dirname(_package()), *(p for p in sys.path if p and os.path.isabs(p))]
        # processes: counted in the sandbox's user namespace, set there (not for a judge that is root: the kernel
        # counts none of root's)
        boot = (f"import resource; resource.setrlimit(resource.RLIMIT_NPROC, ({PROCESSES}, {PROCESSES})); "
                f"import sys; sys.path[:0] = {paths!r}; import {module} as m; m.{function}({theirs.fileno()})")
        kind = status()["kind"]
        fd = filter_file(kind)
        try:
            self.process = subprocess.Popen([*command(kind, fd), "-c", boot], stdin=subprocess.DEVNULL,
                                            stdout=self.output, stderr=self.output, env={},
                                            pass_fds=(theirs.fileno(),) if fd is None else (theirs.fileno(), fd),
                                            start_new_session=True, preexec_fn=_limits(seconds))
        finally:
            theirs.close()
            if fd is not None:
                os.close(fd)
        self.closed = False

    def ended(self) -> int | None:
        """Its wait status once it has ended, else None."""
        code = self.process.poll()
        if code is None:
            return None
        return (-code) if code < 0 else code << 8  # as os.waitpid says it

    def close(self, keep: int = 4000) -> str:
        if not self.closed:
            self.closed = True
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.channel.close()
        return printed(self.output, keep)


def printed(file, keep: int) -> str:
    """What a file of someone's output holds, at most `keep` characters (the cut said), read once and closed."""
    if file.closed:
        return ""
    try:
        size = file.seek(0, 2)
        file.seek(0)
        text = file.read(4 * keep).decode("utf-8", "replace")
    finally:
        file.close()
    if len(text) > keep or size > 4 * keep:
        text = text[:keep] + f"\n... (cut: {size:,} bytes written in all)"
    return text


def visible(text: str, limit: int = 200) -> str:
    """Text that came from code that is not ours, as one line for people: control characters (line breaks, escape
    sequences) shown as escapes, cut to `limit` characters."""
    text = str(text)
    shown = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text[:limit])
    return shown + ("..." if len(text) > limit else "")
