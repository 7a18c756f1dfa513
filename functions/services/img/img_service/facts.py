"""img_info and img_status: what an image is and what it reveals (EXIF, GPS)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import PIL
from PIL import ExifTags, Image

from img_service.decode import HEIC, load_pixels, open_image
from img_service.formats import OUTPUT_FORMATS
from mcp_platform.contracts.img import IMAGE_MAX_BYTES, MAX_PIXELS, MAX_SIDE, InfoInput
from mcp_platform.protocol.binary import sniff_media_type

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext

MAX_EXIF_TAGS = 100
MAX_EXIF_TEXT = 200
_GPS_IFD = ExifTags.IFD.GPSInfo
_SUB_IFDS = (ExifTags.IFD.Exif, ExifTags.IFD.Interop)


def info(arguments: InfoInput, ctx: ServiceContext) -> dict[str, Any]:
    blob = arguments.image.load(ctx)
    image = load_pixels(open_image(blob.data))
    exif = image.getexif()
    return {
        "format": image.format or "unknown",
        "media_type": sniff_media_type(blob.data) or Image.MIME.get(image.format or "", "application/octet-stream"),
        "width": image.width,
        "height": image.height,
        "mode": image.mode,
        "size_bytes": len(blob.data),
        "frames": getattr(image, "n_frames", 1),
        "has_alpha": image.has_transparency_data,
        "exif": exif_tags(exif),
        "gps": gps_of(exif),
    }


def status(_arguments: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    return {
        "ok": True,
        "backend": f"Pillow {PIL.__version__}",
        "heic": HEIC,
        "output_formats": [name for name in OUTPUT_FORMATS if name != "heic" or HEIC],
        "limits": {"max_bytes": IMAGE_MAX_BYTES, "max_pixels": MAX_PIXELS, "max_side": MAX_SIDE},
        "version": PIL.__version__,
    }


def exif_tags(exif: Image.Exif) -> dict[str, str | int | float]:
    """Named EXIF tags of the main, Exif and Interop IFDs, as JSON scalars (binary blobs left out)."""
    out: dict[str, str | int | float] = {}
    entries = list(exif.items())
    exif_ifd = exif.get_ifd(ExifTags.IFD.Exif)
    entries.extend(exif_ifd.items())
    if ExifTags.IFD.Interop in exif_ifd:  # Pillow 12 raises KeyError when asked for an absent Interop IFD
        entries.extend(exif.get_ifd(ExifTags.IFD.Interop).items())
    for tag, value in entries:
        if tag in (_GPS_IFD, *_SUB_IFDS) or len(out) >= MAX_EXIF_TAGS:
            continue
        scalar = _scalar(value)
        if scalar is not None:
            out[ExifTags.TAGS.get(tag, f"tag_{tag}")] = scalar
    return out


def gps_of(exif: Image.Exif) -> dict[str, Any]:
    """`{present}` plus decimal coordinates when the GPS IFD has them."""
    gps = {ExifTags.GPSTAGS.get(k, k): v for k, v in exif.get_ifd(_GPS_IFD).items()}
    out: dict[str, Any] = {"present": bool(gps)}
    for axis, key, negative in (("latitude", "GPSLatitude", "S"), ("longitude", "GPSLongitude", "W")):
        degrees = _degrees(gps.get(key))
        if degrees is not None:
            ref = str(gps.get(f"{key}Ref", "")).strip().upper()
            out[axis] = round(-degrees if ref == negative else degrees, 7)
    altitude = _number(gps.get("GPSAltitude"))
    if altitude is not None:
        out["altitude_m"] = -altitude if gps.get("GPSAltitudeRef") in (1, b"\x01") else altitude
    return out


def _degrees(value: Any) -> float | None:
    if not isinstance(value, tuple) or len(value) != 3:
        return None
    parts = [_number(v) for v in value]
    if any(p is None for p in parts):
        return None
    d, m, s = parts
    return d + m / 60 + s / 3600  # type: ignore[operator]


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return number if math.isfinite(number) else None  # a 0/0 rational reads as NaN


def _scalar(value: Any) -> str | int | float | None:
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, bytes):
        text = value.rstrip(b"\0")
        return text.decode("ascii")[:MAX_EXIF_TEXT] if text.isascii() and text.isprintable() else None
    if isinstance(value, str):
        return value.rstrip("\0")[:MAX_EXIF_TEXT]
    if isinstance(value, tuple):
        return ", ".join(str(_scalar(v)) for v in value)[:MAX_EXIF_TEXT]
    return _number(value)
