"""SentencePiece tokenizers: ``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K``.

Each line is tokenized exactly as sacrebleu 2.6.0's ``TokenizerSPM`` does it:
``" ".join(sp.EncodeAsPieces(line))`` with the published model for the key.

Unlike sacrebleu, which loads the model again for every tokenizer (and so for every
``sentence_bleu`` call, sacrebleu #227/#264), a model file is loaded once per process and
shared, and :func:`get_spm_tokenizer` hands out one tokenizer per (key, model file).

Where the model comes from (:func:`resolve_model_path`), first match wins:

1. an explicit ``model_path`` (``spm_model=PATH``, CLI ``--spm-model PATH``);
2. bleuprint's cache, ``<cache_dir()>/models/<file>``;
3. sacrebleu's cache, ``$SACREBLEU/models/<file>`` (default ``~/.sacrebleu``), read only;
4. a download from the published URL into bleuprint's cache (atomic, under a file lock).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from contextlib import suppress
from pathlib import Path
from types import ModuleType
from typing import Any, Optional, Union

from bleuprint.errors import InvalidOptionError, ModelUnavailableError, warn
from bleuprint.io.file_lock import file_lock
from bleuprint.tokenizers.base import ExternalTokenizer, missing_package_error
from bleuprint.tokenizers.spm_models import SPM_MODELS

PathLike = Union[str, "os.PathLike[str]"]

#: sacrebleu's message when the deprecated ``spm`` key is used.
SPM_RENAMED_MESSAGE = (
    "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
)

#: Seconds without progress before a model download is abandoned.
DOWNLOAD_TIMEOUT = 60.0


def _check_key(key: str) -> dict[str, str]:
    try:
        return SPM_MODELS[key]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown SentencePiece tokenizer {key!r}; choose one of {', '.join(SPM_MODELS)}"
        ) from None


def _warn_if_renamed(key: str) -> None:
    if key == "spm":
        warn(SPM_RENAMED_MESSAGE)


def _import_sentencepiece(key: str) -> ModuleType:
    # Imported lazily: `import bleuprint` must not pay for (or need) sentencepiece.
    try:
        import sentencepiece
    except ImportError:
        raise missing_package_error("sentencepiece", "spm", key) from None
    return sentencepiece


def _env_dir(name: str) -> Optional[Path]:
    value = os.environ.get(name)
    # An empty variable counts as unset (as the XDG spec says for XDG_CACHE_HOME).
    return Path(os.path.expanduser(value)) if value else None


def cache_dir() -> Path:
    """bleuprint's cache: ``$BLEUPRINT_CACHE``, else ``$XDG_CACHE_HOME/bleuprint``, else
    ``~/.cache/bleuprint``. Read at every call, so changing the variables takes effect."""
    explicit = _env_dir("BLEUPRINT_CACHE")
    if explicit is not None:
        return explicit
    xdg = _env_dir("XDG_CACHE_HOME")
    return (xdg if xdg is not None else Path.home() / ".cache") / "bleuprint"


def _sacrebleu_dir() -> Path:
    # sacrebleu.utils.SACREBLEU_DIR, but read now rather than at sacrebleu's import time.
    return _env_dir("SACREBLEU") or Path.home() / ".sacrebleu"


def _model_filename(key: str) -> str:
    # As sacrebleu names the file: the URL's last path component (flores200: no extension).
    return os.path.basename(_check_key(key)["url"])


def model_cache_path(key: str) -> Path:
    """Where bleuprint caches (and downloads) the model for ``key``."""
    return cache_dir() / "models" / _model_filename(key)


def _usable(path: Path) -> bool:
    # An empty file is what an interrupted sacrebleu download leaves behind.
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def resolve_model_path(key: str, model_path: Optional[PathLike] = None) -> Path:
    """The model file for ``key``, downloading it into :func:`cache_dir` if needed.

    Raises :class:`~bleuprint.errors.InvalidOptionError` for an unknown key or a
    ``model_path`` that is not a file, and :class:`ModelUnavailableError` when the model
    is in no cache and cannot be downloaded.
    """
    info = _check_key(key)
    if model_path is not None:
        path = Path(os.path.expanduser(os.fspath(model_path)))
        if not path.is_file():
            raise InvalidOptionError(
                f"SentencePiece model file {str(path)!r} (spm_model / --spm-model) does not exist"
                + (" (it is a directory)" if path.is_dir() else "")
            )
        return path
    ours = model_cache_path(key)
    if _usable(ours):
        return ours
    theirs = _sacrebleu_dir() / "models" / ours.name
    if _usable(theirs):
        return theirs
    _download(info["url"], ours, key)
    return ours


def _download_failed(url: str, dest: Path, key: str, reason: object) -> ModelUnavailableError:
    return ModelUnavailableError(
        f"could not download the SentencePiece model for tokenize={key!r} from {url} "
        f"({reason}). It would be cached at {dest}. Pass spm_model=PATH (CLI: --spm-model "
        f"PATH) with a local copy of the model, or place the file at {dest}."
    )


def _download(url: str, dest: Path, key: str) -> None:
    """Downloads ``url`` to ``dest`` atomically: a temporary file in the same directory,
    then ``os.replace``, so no reader ever sees a partial model."""
    # HTTP and SSL (~10 ms of imports) load for a download only, not with every module that
    # reads this one's table or tokenizes with a cached model.
    import http.client
    import urllib.error
    import urllib.request

    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _download_failed(url, dest, key, f"cannot create {dest.parent}: {exc}") from exc
    with file_lock(dest.with_name(dest.name + ".lock")):
        if _usable(dest):  # another process downloaded it while we waited for the lock
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response:
                    shutil.copyfileobj(response, out, 1 << 20)
                out.flush()
                os.fsync(out.fileno())
            if os.path.getsize(tmp) == 0:
                raise ValueError("the server sent an empty file")
            os.chmod(tmp, 0o644)  # mkstemp makes it private; a cache may be shared
            os.replace(tmp, dest)
        except BaseException as exc:
            with suppress(OSError):
                os.unlink(tmp)
            # URLError, HTTPError, timeouts and SSL errors are all OSErrors.
            if isinstance(exc, (OSError, ValueError, http.client.HTTPException)):
                # URLError's str() wraps its reason in noise; HTTPError's names the status.
                reason: object = exc
                if isinstance(exc, urllib.error.URLError) and not isinstance(
                    exc, urllib.error.HTTPError
                ):
                    reason = exc.reason
                raise _download_failed(url, dest, key, reason) from exc
            raise


# One loaded model per file per process: real path -> (file stamp, processor). The stamp
# (mtime, size, inode) makes a file replaced in place load again instead of going stale.
_PROCESSORS: dict[str, tuple[tuple[int, int, int], Any]] = {}
_PROCESSORS_LOCK = threading.Lock()


def _stamp(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _load_processor(sentencepiece: ModuleType, path: str, explicit: bool) -> tuple[Any, Any]:
    """The shared processor for the model at real path ``path``, and its stamp."""
    stamp = _stamp(path)
    with _PROCESSORS_LOCK:
        entry = _PROCESSORS.get(path)
        if entry is not None and entry[0] == stamp:
            return entry[1], stamp
        sp = sentencepiece.SentencePieceProcessor()
        error: Optional[BaseException]
        try:
            loaded = sp.Load(path)
        except (OSError, RuntimeError) as exc:
            loaded, error = False, exc
        else:
            error = None
        if loaded is False:  # old SWIG builds return False instead of raising
            if explicit:
                raise InvalidOptionError(
                    f"{path!r} (spm_model / --spm-model) is not a SentencePiece model: {error}"
                ) from error
            raise ModelUnavailableError(
                f"{path!r} is not a valid SentencePiece model ({error}); it may be a "
                "corrupt download: delete it to download it again, or pass spm_model=PATH "
                "(CLI: --spm-model PATH)"
            ) from error
        _PROCESSORS[path] = (stamp, sp)
        return sp, stamp


class SentencePieceTokenizer(ExternalTokenizer):
    """sacrebleu's ``TokenizerSPM`` for ``key`` (``spm``, ``flores101``, ``flores200``,
    ``spBLEU-1K``), on a model file loaded once per process.

    Prefer :func:`get_spm_tokenizer`, which also shares the tokenizer (and its line cache).
    """

    def __init__(self, key: str = "spm", model_path: Optional[PathLike] = None) -> None:
        _check_key(key)
        _warn_if_renamed(key)
        self._setup(key, model_path, explicit=model_path is not None)

    def _setup(self, key: str, model_path: Optional[PathLike], explicit: bool) -> None:
        # `explicit`: the user named the file, so a bad file is a bad option, not a bad cache.
        super().__init__()
        sentencepiece = _import_sentencepiece(key)  # before any download
        path = resolve_model_path(key, model_path)
        real = os.path.realpath(path)
        #: The ``tokenize=`` value; :meth:`signature` gives the ``tok:`` value.
        self.name = key
        self.key = key
        #: The model file in use (symlinks resolved).
        self.model_path = Path(real)
        self.sp, self._stamp = _load_processor(sentencepiece, real, explicit)

    def signature(self) -> str:
        return SPM_MODELS[self.key]["signature"]

    def _tokenize_uncached(self, lines: list[str], workers: int = -1) -> list[str]:
        # One EncodeAsPieces per line, sacrebleu's own call. The batch API
        # (sp.encode(lines, out_type=str, num_threads=n)) gives the same pieces but was no
        # faster (0.7-1.1x) on 48k WMT22 lines, so it buys nothing for its extra risk.
        encode = self.sp.EncodeAsPieces
        try:
            return [" ".join(encode(line)) for line in lines]
        except (RuntimeError, TypeError):
            # A lone surrogate is not text: raise what the Rust tokenizers raise for it.
            for line in lines:
                line.encode("utf-8")
            raise

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # Processors and locks do not pickle; a worker process loads the same file once.
        return _restore, (self.key, str(self.model_path))


def _restore(key: str, model_path: str) -> SentencePieceTokenizer:
    return _shared(key, model_path, explicit=True)


_INSTANCES: dict[tuple[str, str], SentencePieceTokenizer] = {}
_INSTANCES_LOCK = threading.Lock()


def _shared(key: str, model_path: Optional[PathLike], explicit: bool) -> SentencePieceTokenizer:
    _import_sentencepiece(key)
    real = os.path.realpath(resolve_model_path(key, model_path))
    with _INSTANCES_LOCK:
        tok = _INSTANCES.get((key, real))
        if tok is not None and tok._stamp == _stamp(real):
            return tok
        tok = SentencePieceTokenizer.__new__(SentencePieceTokenizer)
        tok._setup(key, real, explicit)
        _INSTANCES[(key, real)] = tok
        return tok


def get_spm_tokenizer(
    key: str = "spm", model_path: Optional[PathLike] = None
) -> SentencePieceTokenizer:
    """The process-wide tokenizer for ``key`` and its model file (see the module docstring
    for how the file is found).

    Every call with ``key='spm'`` warns that it was renamed, as every sacrebleu
    ``TokenizerSPM('spm')`` does.
    """
    _check_key(key)
    _warn_if_renamed(key)
    return _shared(key, model_path, explicit=model_path is not None)


def clear_model_cache() -> None:
    """Forgets the loaded models and shared tokenizers (they are freed once unused)."""
    with _INSTANCES_LOCK:
        _INSTANCES.clear()
    with _PROCESSORS_LOCK:
        _PROCESSORS.clear()


__all__ = [
    "DOWNLOAD_TIMEOUT",
    "SPM_MODELS",
    "SPM_RENAMED_MESSAGE",
    "ModelUnavailableError",
    "SentencePieceTokenizer",
    "cache_dir",
    "clear_model_cache",
    "get_spm_tokenizer",
    "model_cache_path",
    "resolve_model_path",
]
