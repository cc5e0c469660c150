"""The text of a file as federations, arbiters and pairing programs send it."""

from __future__ import annotations


def decode(content: bytes) -> str:
    """UTF-8 (a byte-order mark dropped) when it decodes, else Latin-1, as older files are."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("latin-1")
