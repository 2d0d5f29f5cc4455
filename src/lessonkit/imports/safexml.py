"""XML from outside, read so that it cannot hurt: no entities, no DTDs, bounded depth and size.

defusedxml refuses entity declarations (billion laughs), external entities and DTDs
before expat expands anything; the depth is counted while parsing, so a file of a
million nested elements is refused at the 100th level instead of exhausting the stack
of whatever walks the tree later.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from lessonkit.imports.common import refuse

MAX_DEPTH = 100  # Moodle XML and QTI nest about 12 levels deep


def parse(data: bytes, path: Path | str) -> ET.Element:
    """The root element of ``data``; ContentError naming ``path`` for anything unsafe or broken."""
    import defusedxml  # type: ignore[import-untyped]
    import defusedxml.ElementTree as SafeET  # type: ignore[import-untyped]

    depth = 0
    root: ET.Element | None = None
    try:
        for event, element in SafeET.iterparse(io.BytesIO(data), events=("start", "end"),
                                               forbid_dtd=True):  # fmt: skip
            if event == "start":
                depth += 1
                if depth > MAX_DEPTH:
                    raise refuse(path, f"the XML nests deeper than {MAX_DEPTH} levels; "
                                 "no question file does", "is this the right file?")  # fmt: skip
                root = root if root is not None else element
            else:
                depth -= 1
    except (defusedxml.DTDForbidden, defusedxml.EntitiesForbidden,
            defusedxml.ExternalReferenceForbidden):  # fmt: skip
        raise refuse(path, "the XML declares a DTD or entities; imports refuse them, since "
                     "they can expand to gigabytes or read files on this machine",
                     "export the questions again from the LMS") from None  # fmt: skip
    except ET.ParseError as error:
        line, column = error.position
        what = str(error).split(":")[0]
        raise refuse(path, f"not well-formed XML: {what}", line=line, column=column + 1) from None
    if root is None:
        raise refuse(path, "the file holds no XML element")
    return root


def local(tag: str) -> str:
    """An element's name without its namespace: `{http://…}item` → `item`."""
    return tag.rsplit("}", 1)[-1]


def strip_namespaces(root: ET.Element) -> ET.Element:
    """The tree with every tag's namespace removed, so finders can say `item` for any QTI."""
    for element in root.iter():
        element.tag = local(element.tag)
    return root
