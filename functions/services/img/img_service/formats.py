"""Output formats: Pillow's names, media types and the mode each format can store."""

from __future__ import annotations

from PIL import Image

# name → (Pillow format, media type)
OUTPUT_FORMATS: dict[str, tuple[str, str]] = {
    "png": ("PNG", "image/png"),
    "jpeg": ("JPEG", "image/jpeg"),
    "webp": ("WEBP", "image/webp"),
    "gif": ("GIF", "image/gif"),
    "tiff": ("TIFF", "image/tiff"),
    "heic": ("HEIF", "image/heic"),
}
_BY_PILLOW = {pillow: name for name, (pillow, _) in OUTPUT_FORMATS.items()}
_OPAQUE = frozenset({"jpeg"})


def format_name(image: Image.Image) -> str:
    """The output format that matches the input's (PNG when the input's cannot be written)."""
    return _BY_PILLOW.get(image.format or "", "png")


def fit_mode(image: Image.Image, name: str) -> Image.Image:
    """Convert to a mode the format stores: JPEG flattens alpha onto white, GIF palettes."""
    if name in _OPAQUE and image.mode not in ("RGB", "L", "CMYK"):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, "white")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if name == "gif" and image.mode not in ("P", "L"):
        return image.convert("RGBA").quantize() if image.has_transparency_data else image.convert("RGB").quantize()
    if name in ("webp", "heic") and image.mode not in ("RGB", "RGBA"):
        return image.convert("RGBA" if image.has_transparency_data else "RGB")
    if image.mode in ("I;16", "I", "F") and name != "tiff":
        return image.convert("L")
    return image
