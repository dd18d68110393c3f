"""``.npz`` archives read without ever unpickling: statistics files (``Stats.save``) and
shard files (``bleuprint stats --shard``) are read through here, and anything that is not such
an archive raises the caller's own error saying what is wrong."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Optional, TypeVar, Union

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")


def load_npz(
    path: Union[str, os.PathLike],
    expected: Optional[list[str]],
    not_ours: Callable[[str], Exception],
) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive (``expected`` names them all, when given), read
    without ever unpickling; anything else raises ``not_ours(why)``. A missing file stays
    ``FileNotFoundError``."""

    def every(get: Callable[[str], np.ndarray], names: list[str]) -> dict[str, np.ndarray]:
        if expected is not None and sorted(names) != sorted(expected):
            raise not_ours(f"it holds {sorted(names)}, not {sorted(expected)}")
        return {name: get(name) for name in names}

    return read_npz(path, not_ours, every)


def read_npz(
    path: Union[str, os.PathLike],
    not_ours: Callable[[str], Exception],
    read: Callable[[Callable[[str], np.ndarray], list[str]], T],
) -> T:
    """``read(get, names)`` on an open ``.npz`` archive: ``get(name)`` reads one array
    (never unpickling), so ``read`` reads only the arrays it needs. A file that is not such
    an archive, or an array that cannot be read, raises ``not_ours(why)``."""
    import numpy as np

    with open(path, "rb") as f:  # a missing file stays FileNotFoundError
        try:
            data = np.load(f, allow_pickle=False)
        except ValueError:  # numpy's answer to a pickle (and to other unknown formats)
            raise not_ours("it is not an .npz archive (a pickle or another format)") from None
        except (EOFError, OSError, zipfile.BadZipFile) as error:
            raise not_ours(f"it cannot be read as .npz ({error})") from None
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise not_ours("it is a single .npy array, not an .npz archive")

        def get(name: str) -> np.ndarray:
            try:
                return np.asarray(data[name])
            except ValueError:
                raise not_ours("its arrays hold Python objects (pickled data)") from None
            except (EOFError, OSError, zipfile.BadZipFile) as error:
                raise not_ours(f"an array cannot be read ({error})") from None

        with data:
            return read(get, list(data.files))
