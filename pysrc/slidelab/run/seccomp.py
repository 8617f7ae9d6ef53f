"""The system calls the sandbox's code may not make, as a seccomp filter (classic BPF) that both sandboxes apply to
it (bubblewrap by `--seccomp FD`, namespaces.py before its exec). The namespaces already hide the judge; this adds
what they leave: tracing a process of the sandbox's own (bubblewrap's first process, which holds its death signal),
the judge's session keyring (inherited through every namespace), new namespaces inside the sandbox, changing a
file's mode, times or attributes (the device nodes it is shown belong, when the judge is root, to the user it runs
as), and kernel surfaces a heuristic never needs. Each refused call fails with EPERM (clone3 with ENOSYS, so the
C library falls back to clone, whose flags are checked); a call of another architecture's numbering ends the
process.
"""

from __future__ import annotations

import platform
import struct

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
CALLS = {  # the numbers of the calls refused, per architecture
    "x86_64": {"ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
               "request_key": 249, "unshare": 272, "setns": 308, "io_uring_setup": 425, "userfaultfd": 323,
               "perf_event_open": 298, "bpf": 321, "mount": 165, "pivot_root": 155, "chmod": 90, "fchmod": 91,
               "fchmodat": 268, "fchmodat2": 452, "utime": 132, "utimes": 235, "futimesat": 261, "utimensat": 280,
               "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190},
    "aarch64": {"ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "keyctl": 219, "add_key": 217,
                "request_key": 218, "unshare": 97, "setns": 268, "io_uring_setup": 425, "userfaultfd": 282,
                "perf_event_open": 241, "bpf": 280, "mount": 40, "pivot_root": 41, "fchmod": 52, "fchmodat": 53,
                "fchmodat2": 452, "utimensat": 88, "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7},
}
CLONE = {"x86_64": 56, "aarch64": 220}
CLONE3 = 435
X32 = 0x40000000  # x86_64's x32 calls: their own numbers, refused whole
CLONE_NEWUSER = 0x10000000
EPERM, ENOSYS = 1, 38

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL_PROCESS, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (the low half of args[0]: both are little-endian)


def program(machine: str | None = None) -> bytes | None:
    """The filter as the kernel reads it (struct sock_filter after sock_filter), or None on an architecture it
    does not know."""
    machine = machine or platform.machine()
    if machine not in AUDIT_ARCH:
        return None
    code = [(_LD_W_ABS, 0, 0, _ARCH), (_JEQ, 1, 0, AUDIT_ARCH[machine]), (_RET, 0, 0, _KILL_PROCESS),
            (_LD_W_ABS, 0, 0, _NR)]
    if machine == "x86_64":
        code += [(_JGE, 0, 1, X32), (_RET, 0, 0, _ERRNO | EPERM)]
    for number in sorted(CALLS[machine].values()):
        code += [(_JEQ, 0, 1, number), (_RET, 0, 0, _ERRNO | EPERM)]
    code += [(_JEQ, 0, 1, CLONE3), (_RET, 0, 0, _ERRNO | ENOSYS),
             (_JEQ, 0, 3, CLONE[machine]), (_LD_W_ABS, 0, 0, _ARG0), (_JSET, 0, 1, CLONE_NEWUSER),
             (_RET, 0, 0, _ERRNO | EPERM), (_RET, 0, 0, _ALLOW)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in code)


def install(libc) -> None:
    """Apply the filter to this process and all it starts (no new privileges must be set first); OSError if the
    kernel refuses it."""
    import ctypes

    code = program()
    if code is None:
        raise OSError(f"no seccomp filter for {platform.machine()}")

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    prog = Program(len(code) // 8, code)
    if libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        errno = ctypes.get_errno()
        raise OSError(errno, f"seccomp: {__import__('os').strerror(errno)}")
