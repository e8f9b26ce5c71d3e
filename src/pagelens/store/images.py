"""Content-addressed image files: ``<home>/images/ab/abcdef....png``."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagelens.settings import Settings


class ImageStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, sha: str) -> Path:
        return self.root / sha[:2] / f"{sha}.png"

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


def open_image_store(settings: "Settings") -> ImageStore:
    """The image store the settings name: ``settings.images_dir`` (e.g. a folder several machines
    share) or ``<home>/images``."""
    root = settings.images_dir or Path(settings.home).expanduser() / "images"
    return ImageStore(Path(root).expanduser())
