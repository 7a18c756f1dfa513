"""img_transform: crop → rotate → resize → convert, with metadata kept or really stripped."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageOps

from img_service.decode import HEIC, load_pixels, open_image
from img_service.formats import OUTPUT_FORMATS, fit_mode, format_name
from mcp_platform.contracts.img import MAX_PIXELS, Crop, Resize, TransformInput
from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.service import ToolOutput

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

_LOSSY = frozenset({"jpeg", "webp", "heic"})


def transform(arguments: TransformInput, ctx: ServiceContext) -> ToolOutput:
    source = open_image(arguments.image.load(ctx).data)
    name = arguments.format or format_name(source)
    if name == "heic" and not HEIC:
        raise ToolError("format: heic output is not available in this deployment", ErrorCode.INVALID_ARGUMENTS)
    image = ImageOps.exif_transpose(load_pixels(source))  # first frame, upright as a viewer shows it
    if arguments.crop is not None:
        image = _crop(image, arguments.crop)
    if arguments.rotate % 360:
        image = image.rotate(arguments.rotate, resample=Image.Resampling.BICUBIC, expand=True)
    if arguments.resize is not None:
        image = _resize(image, arguments.resize)
    if image.width * image.height > MAX_PIXELS:
        raise ToolError(f"resize: the result would exceed {MAX_PIXELS} pixels", ErrorCode.INVALID_ARGUMENTS)
    image = fit_mode(image, name)
    pillow_format, media_type = OUTPUT_FORMATS[name]
    data = _encode(image, pillow_format, name, arguments)
    staged = stage_output(data, media_type, ctx, filename=f"image.{'jpg' if name == 'jpeg' else name}")
    structured: dict[str, Any] = {
        "format": pillow_format,
        "media_type": media_type,
        "width": image.width,
        "height": image.height,
        "mode": image.mode,
        "file": staged.file,
        "metadata_stripped": arguments.strip_metadata,
    }
    return ToolOutput(structured=structured, content=staged.content)


def _crop(image: Image.Image, crop: Crop) -> Image.Image:
    right, bottom = crop.left + crop.width, crop.top + crop.height
    if right > image.width or bottom > image.height:
        raise ToolError(
            f"crop: the box ends at ({right}, {bottom}) but the image is {image.width}x{image.height}",
            ErrorCode.INVALID_ARGUMENTS,
        )
    return image.crop((crop.left, crop.top, right, bottom))


def _resize(image: Image.Image, resize: Resize) -> Image.Image:
    ratio = image.width / image.height
    width = resize.width or max(1, round(resize.height * ratio))  # type: ignore[operator]
    height = resize.height or max(1, round(resize.width / ratio))  # type: ignore[operator]
    if resize.fit == "stretch" or resize.width is None or resize.height is None:
        return image.resize((width, height), Image.Resampling.LANCZOS)
    if resize.fit == "cover":
        return ImageOps.fit(image, (width, height), Image.Resampling.LANCZOS)
    return ImageOps.contain(image, (width, height), Image.Resampling.LANCZOS)


def _encode(image: Image.Image, pillow_format: str, name: str, arguments: TransformInput) -> bytes:
    options: dict[str, Any] = {}
    if name in _LOSSY:
        options["quality"] = arguments.quality
    if arguments.strip_metadata:
        # Pillow's writers also read some metadata (ICC, XMP, PNG text) from `info`: empty it.
        image.info = {}
    else:
        exif = image.getexif()
        if len(exif):
            options["exif"] = exif.tobytes()
        if icc := image.info.get("icc_profile"):
            options["icc_profile"] = icc
    buffer = io.BytesIO()
    image.save(buffer, pillow_format, **options)
    return buffer.getvalue()
