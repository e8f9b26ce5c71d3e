"""Content-addressed image files: ``<home>/images/ab/abcdef....png``, or under a shared folder or any
fsspec URL (``PAGELENS_IMAGES_DIR``: ``/mnt/shared/images``, ``s3://bucket/pagelens/images``, …) so
that machines sharing a catalog share its figures too."""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pagelens.errors import ComponentUnavailable

if TYPE_CHECKING:
    from pagelens.settings import Settings


class ImageStore:
    """PNG files in a local (or mounted, shared) folder, named by their sha256."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, sha: str) -> Path:
        return self.root / sha[:2] / f"{sha}.png"

    def location(self, sha: str) -> str:
        """Where the image lives, for people to read (a path or a URL)."""
        return str(self.path(sha))

    def put(self, png: bytes) -> str:
        """Store PNG bytes; returns their sha256. Writing the same bytes twice is a no-op."""
        sha = hashlib.sha256(png).hexdigest()
        target = self.path(sha)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(png)
            os.replace(tmp, target)
        return sha

    def get(self, sha: str) -> bytes:
        return self.path(sha).read_bytes()

    def exists(self, sha: str) -> bool:
        return self.path(sha).exists()


class FsspecImageStore(ImageStore):
    """The same content-addressed layout under an fsspec URL (``s3://``, ``gcs://``, ``file://``,
    ``memory://``…); fsspec (and the filesystem's own package, e.g. s3fs) is needed only here."""

    def __init__(self, url: str) -> None:
        try:
            import fsspec
        except ImportError as exc:
            raise ComponentUnavailable("image store", f"{url.split('://')[0]}:// needs fsspec ({exc})", "pip install fsspec") from exc
        try:
            fs, root = fsspec.core.url_to_fs(url)
        except (ImportError, ValueError) as exc:  # an unknown protocol, or its package missing
            raise ComponentUnavailable("image store", f"cannot use {url}: {exc}") from exc
        self.fs: Any = fs
        self.url = url.rstrip("/")
        self.root = Path(root)  # the filesystem's own path (kept for the attribute's type)
        self._root = str(root).rstrip("/")

    def _key(self, sha: str) -> str:
        return f"{self._root}/{sha[:2]}/{sha}.png"

    def path(self, sha: str) -> Path:
        raise TypeError(f"images live under {self.url}, not in a local folder: use location() or get()")

    def location(self, sha: str) -> str:
        return f"{self.url}/{sha[:2]}/{sha}.png"

    def put(self, png: bytes) -> str:
        sha = hashlib.sha256(png).hexdigest()
        key = self._key(sha)
        if not self.fs.exists(key):
            self.fs.makedirs(key.rsplit("/", 1)[0], exist_ok=True)
            if "file" in (self.fs.protocol if isinstance(self.fs.protocol, tuple) else (self.fs.protocol,)):
                tmp = f"{key}.{uuid.uuid4().hex}.tmp"  # a local file appears whole, as os.replace does
                self.fs.pipe_file(tmp, png)
                self.fs.mv(tmp, key)
            else:
                self.fs.pipe_file(key, png)  # object stores write an object whole
        return sha

    def get(self, sha: str) -> bytes:
        return bytes(self.fs.cat_file(self._key(sha)))

    def exists(self, sha: str) -> bool:
        return bool(self.fs.exists(self._key(sha)))


def open_image_store(settings: "Settings") -> ImageStore:
    """The image store the settings name: ``settings.images_dir`` (a folder, e.g. one several machines
    mount, or an fsspec URL) or ``<home>/images``."""
    root = settings.images_dir
    if root and "://" in root:
        return FsspecImageStore(root)
    return ImageStore(Path(root or Path(settings.home).expanduser() / "images").expanduser())
