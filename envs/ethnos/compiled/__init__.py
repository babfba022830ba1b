"""ethnos' compiled engine (numba): ``make_vector`` of ``vector``, stepped by ``kernels``.

numba's cache (``cache=True``) checks only the file that defines a kernel, not the files of the
functions it calls: after an edit of ``turns.py`` the cached ``kernels.step`` would still run the
old rules. So before the kernels load, a digest of every source they are compiled from (this
folder, the shared generator kernels, the components and layouts they read) is compared with
the one saved beside the cache, and a changed digest drops this folder's cached kernels.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_HERE = Path(__file__).parent
_SOURCES = (*sorted(_HERE.glob("*.py")), _HERE.parent / "actions.py",
            _HERE.parent / "components.py", _HERE.parent / "components.json",
            _HERE.parent / "observation.py", _HERE.parent.parent / "vector" / "kernels.py")


def _drop_stale_cache() -> None:
    digest = hashlib.sha256()
    for path in _SOURCES:
        digest.update(path.read_bytes())
    cache = _HERE / "__pycache__"
    mark = cache / "kernels.digest"
    try:
        if mark.is_file() and mark.read_text() == digest.hexdigest():
            return
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        mark.write_text(digest.hexdigest())
    except OSError:  # a read-only install: numba then compiles in memory
        pass


_drop_stale_cache()

from tablezoo.envs.ethnos.compiled.vector import EthnosVector, make_vector  # noqa: E402

__all__ = ["EthnosVector", "make_vector"]
