"""Zip packages (QTI exports) opened with limits, so a zip bomb is refused before it inflates."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from lessonkit.imports.common import MAX_BYTES, refuse

MAX_ENTRIES = 2000
# Deflate manages about 1,000:1 at best on real text; XML question files compress 5-20:1.
MAX_RATIO = 200


def xml_members(data: bytes, path: Path | str) -> list[tuple[str, bytes]]:
    """Every `.xml` member of the zip in ``data``, read within limits; ContentError otherwise."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise refuse(path, "not a zip file", "give the .zip exported by the LMS, or "
                     "one of the .xml files in it") from None  # fmt: skip
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise refuse(path, f"the zip holds {len(infos):,} files; imports stop at "
                         f"{MAX_ENTRIES:,}")  # fmt: skip
        wanted = [i for i in infos if i.filename.lower().endswith(".xml") and not i.is_dir()]
        total = sum(i.file_size for i in wanted)
        if total > MAX_BYTES:
            raise refuse(path, f"the zip's XML would unpack to {total / 2**20:.0f} MiB; imports "
                         f"stop at {MAX_BYTES // 2**20} MiB", "is this a zip bomb?")  # fmt: skip
        members = []
        for info in wanted:
            ratio = info.file_size // max(info.compress_size, 1)
            if ratio > MAX_RATIO:
                what = f"{info.filename} inflates {ratio:,} times its packed size"
                raise refuse(path, f"{what}; no question file does", "is this a zip bomb?")
            members.append((info.filename, _read(archive, info, path)))
        return members


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path | str) -> bytes:
    # The sizes in a zip's directory are claims: read no more than was claimed, plus one.
    try:
        with archive.open(info) as member:
            data = member.read(info.file_size + 1)
    except (zipfile.BadZipFile, OSError, NotImplementedError) as error:
        raise refuse(path, f"cannot unpack {info.filename}: {error}") from None
    if len(data) > info.file_size:
        raise refuse(path, f"{info.filename} unpacks to more than its stated size",
                     "is this a zip bomb?")  # fmt: skip
    return data
