"""gjkbatch: batch GJK collision queries (hit, distance, contact) on numpy arrays.

    import numpy as np, gjkbatch
    ctx = gjkbatch.Context()                       # widest backend this CPU runs
    bodies = gjkbatch.Bodies(kind=["sphere", "box"],
                             pos=[[0, 0, 0], [3, 0, 0]],
                             size=[[1, 0, 0], [0.5, 0.5, 0.5]])
    res = ctx.query(bodies, a=[0], b=[1], mode="distance")
    gjkbatch.STATUS[res.status[0]], res.distance[0], res.n[0]   # separated 1.5 (1, 0, 0)

A thin layer over the C library libgjkbatch (ctypes): arrays that already
have the C API's dtype and layout are passed by address, never copied, and
every library call releases the GIL. docs/python.md has the whole story.
"""

from ._core import *  # noqa: F401,F403
from ._core import __all__ as _core_all
from ._lib import library_path

__version__ = "0.1.0"
__all__ = list(_core_all) + ["library_path", "__version__"]
