"""The optional extras: numpy (the `build` and `scale` extras) and dask.distributed (`scale`). Work that can use one
asks `installed`; work that needs one asks `require`, which refuses with Unavailable naming the extra to install.
The browser's engine has neither and never needs them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from slidelab.core.errors import Unavailable


def installed(name: str) -> ModuleType | None:
    """The module `name` where it is installed, else None."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def require(what: str, *modules: str, extra: str = "scale") -> ModuleType:
    """The first of `modules`, imported; Unavailable, naming `extra`, unless every one is installed (`what` names the
    work that needs them)."""
    found = [module for module in map(installed, modules) if module is not None]
    if len(found) < len(modules):
        raise Unavailable(f'{what} needs {" and ".join(modules)}: pip install ".[{extra}]"')
    return found[0]
