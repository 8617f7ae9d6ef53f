"""The sandbox where bubblewrap is not installed: the same namespaces made by unshare(2) through ctypes (Python 3.11
has no os.unshare), for Linux on x86_64 and aarch64.

`enter` runs in a fresh interpreter of ours (sandbox.command() starts it) before any code that is not ours:
  1. new user, mount, PID, network, IPC and UTS namespaces, the caller's uid and gid seen inside as 65534;
  2. a fork: the child is the first process of the new PID namespace (an init of ours, which nothing of the code
     can trace), killed when the launcher dies, as the launcher is when the judge dies; each only waits for the one
     below and passes on its status; every process of the namespace ends with its init;
  3. a new root in memory that shows, read-only, only what `shown` lists (the interpreter, /usr, the package)
     and the links of /lib and /bin, a private /tmp, /dev/null, /dev/zero and /dev/urandom (read-only mounts, so
     the code cannot change the nodes), a read-only /proc of the new PID namespace; no /etc, no $HOME; the old
     root detached (pivot_root);
  4. a second fork, the code's process: no capabilities (they go at exec for a user that is not root, and the
     bounding set is emptied, no new privileges), a session of its own, the seccomp filter (seccomp.py); then the
     interpreter is started afresh for the code.
Measured beside bubblewrap in docs/benchmarks.md (`python3 bench/bench_sandbox.py`).
"""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import sys

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE, MS_RELATIME = 1024, 2048, 4096, 16384, 1 << 18, 1 << 21
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 4, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}  # the system call's number: glibc has no function for it
ST_FLAGS = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
            (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))
DEVICES = ("null", "zero", "urandom")
TMP_SIZE = "size=64m"
UID = 65534
FREE_FOLDERS = ("/mnt", "/media", "/srv", "/opt", "/run", "/tmp", "/var", "/home")
LAST_CAPABILITY = 40  # CAP_CHECKPOINT_RESTORE, where /proc does not say


def supported() -> str | None:
    """None where `enter` can work on this machine, else why not."""
    if not sys.platform.startswith("linux"):
        return f"no namespaces on {sys.platform}"
    if platform.machine() not in PIVOT_ROOT:
        return f"no known pivot_root on {platform.machine()}"
    return None


def enter(shown: list[str], links: dict[str, str], argv: list[str], environment: dict[str, str],
          judge: int) -> None:
    """Become the sandbox and run `argv` (an interpreter's command line) there with `environment`; never returns.
    `judge` is the pid of the process that started this one: the launcher ends when it does. Whatever fails on the
    way ends the process with status 125 and a line on its (the sandbox's own) output."""
    try:
        from slidelab.run import seccomp

        libc = ctypes.CDLL(None, use_errno=True)
        _call(libc.prctl, PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != judge:  # it died before the line above: nothing will kill this one
            os._exit(125)
        uid, gid, last = os.getuid(), os.getgid(), _last_capability()
        _call(libc.unshare, CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{UID} {uid} 1")
        _write("/proc/self/gid_map", f"{UID} {gid} 1")
        init = os.fork()
        if init:
            _pass_on(init)
        _call(libc.prctl, PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        _call(libc.prctl, PR_SET_DUMPABLE, 0, 0, 0, 0)  # the code runs as the same user: it may not trace this
        _new_root(libc, shown, links)
        code = os.fork()
        if code:
            _pass_on(code)
        _call(libc.prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        _call(libc.prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
        for cap in range(last + 1):
            _call(libc.prctl, PR_CAPBSET_DROP, cap, 0, 0, 0)
        os.setsid()
        os.chdir("/tmp")
        seccomp.install(libc)
        os.execve(argv[0], argv, environment)
    except BaseException as e:  # the sandbox was not made: nothing of anyone else's ran
        os.write(2, f"slidelab sandbox: {type(e).__name__}: {e}\n".encode())
        os._exit(125)


def _new_root(libc, shown: list[str], links: dict[str, str]) -> None:
    mount = libc.mount
    mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p)
    _call(mount, None, b"/", None, MS_REC | MS_PRIVATE, None)
    root = _free_folder(shown)
    _call(mount, b"tmpfs", root.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"mode=0755")
    for path in shown:
        target = root + path
        os.makedirs(target, exist_ok=True)
        _call(mount, path.encode(), target.encode(), None, MS_BIND | MS_REC, None)
        flags = os.statvfs(target).f_flag
        kept = sum(ms for st, ms in ST_FLAGS if flags & st)  # a remount must keep the flags the mount has
        _call(mount, None, target.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept, None)
    for name, target in links.items():
        os.symlink(target, root + name)
    os.makedirs(root + "/dev")
    for name in DEVICES:
        device = f"{root}/dev/{name}"
        os.close(os.open(device, os.O_CREAT | os.O_WRONLY, 0o666))
        _call(mount, f"/dev/{name}".encode(), device.encode(), None, MS_BIND, None)
        kept = sum(ms for st, ms in ST_FLAGS if os.statvfs(device).f_flag & st)
        _call(mount, None, device.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC | kept, None)
    os.makedirs(root + "/proc")
    try:  # this PID namespace's processes only; where a container hides parts of its /proc, none
        _call(mount, b"proc", f"{root}/proc".encode(), b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, None)
    except OSError:
        pass
    os.makedirs(root + "/tmp")
    _call(mount, b"tmpfs", f"{root}/tmp".encode(), b"tmpfs", MS_NOSUID | MS_NODEV, f"mode=1777,{TMP_SIZE}".encode())
    os.chdir(root)
    syscall = libc.syscall
    syscall.argtypes = (ctypes.c_long, ctypes.c_char_p, ctypes.c_char_p)
    _call(syscall, PIVOT_ROOT[platform.machine()], b".", b".")  # the old root stacked under the new: detach it
    umount = libc.umount2
    umount.argtypes = (ctypes.c_char_p, ctypes.c_int)
    _call(umount, b".", MNT_DETACH)
    os.chdir("/")
    _call(mount, None, b"/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None)


def _free_folder(shown: list[str]) -> str:
    """A folder of the old root that the new root's tmpfs may cover in this mount namespace: none of what is shown
    lies below it."""
    for folder in FREE_FOLDERS:
        if os.path.isdir(folder) and not any(p == folder or p.startswith(folder + "/") for p in shown):
            return folder
    raise OSError(f"no folder of {', '.join(FREE_FOLDERS)} to make the new root on")


def _last_capability() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            return int(f.read())
    except (OSError, ValueError):
        return LAST_CAPABILITY


def _pass_on(child: int) -> None:
    """A launcher's or the init's life after its fork: close everything, wait for the child, end as it ended."""
    os.closerange(3, 1 << 16)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except ChildProcessError:
            os._exit(125)
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 125)


def _call(function, *args) -> None:
    if function(*args) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{function.__name__}: {os.strerror(errno)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)
