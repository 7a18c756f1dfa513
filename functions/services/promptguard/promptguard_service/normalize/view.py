"""A text the detector reads, with offsets back into the caller's text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    """A text the detector reads, and where each of its characters came from in the caller's text."""

    text: str
    origin: list[int]
    """`origin[i]` is the offset in the original text of `text[i]`; `origin[len(text)]` is its end."""
    name: str = "text"
    """`text` for the normalised text, else the decoding that produced it (`base64`, `hex`, ...)."""
    segment: tuple[int, int] | None = None
    """For a decoded view: the encoded segment of the original text, which every span maps to."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original-text span of `text[start:end]`."""
        if self.segment is not None:
            return self.segment
        if start >= len(self.text):
            return self.origin[-1], self.origin[-1]
        first = self.origin[start]
        last = self.origin[max(start, end - 1)]
        return first, max(last + 1, first + 1) if end > start else first
