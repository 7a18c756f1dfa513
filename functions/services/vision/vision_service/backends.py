"""The vision backends: Rekognition (labels, OCR) and RapidOCR (local OCR); which one runs is in the settings."""

from __future__ import annotations

from functools import cache
from typing import Any

from mcp_platform.contracts.vision import Box, Label, TextLine
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage.aws import client_errors, configured_client

NOT_CONFIGURED = "provider_not_configured"


@cache
def rekognition() -> Any:
    """Built on first use, botocore with it: a service that may run RapidOCR does not load botocore at init."""
    from botocore.config import Config

    return configured_client(
        "rekognition", Config(connect_timeout=3, read_timeout=15, retries={"total_max_attempts": 2})
    )


def _unavailable(action: str, exc: Exception) -> ToolError:
    from botocore.exceptions import ClientError

    if isinstance(exc, ClientError):
        code = exc.response["Error"].get("Code", "error")
        if code in {"InvalidImageFormatException", "ImageTooLargeException", "InvalidParameterException"}:
            return ToolError(f"image: Rekognition refused it ({code})", ErrorCode.INVALID_ARGUMENTS)
    else:
        code = type(exc).__name__
    return ToolError(
        f"Amazon Rekognition: {action} failed ({code})", ErrorCode.UPSTREAM_UNAVAILABLE, backend="Amazon Rekognition"
    )


def _box(geometry: dict[str, Any]) -> Box:
    box = geometry.get("BoundingBox", geometry)
    return Box(
        left=round(box.get("Left", 0.0), 4),
        top=round(box.get("Top", 0.0), 4),
        width=round(box.get("Width", 0.0), 4),
        height=round(box.get("Height", 0.0), 4),
    )


def rekognition_labels(image: bytes, max_labels: int, min_confidence: float) -> list[Label]:
    try:
        answer = rekognition().detect_labels(Image={"Bytes": image}, MaxLabels=max_labels, MinConfidence=min_confidence)
    except client_errors() as exc:
        raise _unavailable("DetectLabels", exc) from None
    return [
        Label(
            name=label["Name"],
            confidence=round(label["Confidence"], 2),
            parents=[parent["Name"] for parent in label.get("Parents", [])],
            boxes=[_box(instance) for instance in label.get("Instances", [])],
        )
        for label in answer.get("Labels", [])
    ]


def rekognition_text(image: bytes) -> tuple[list[TextLine], list[TextLine]]:
    try:
        answer = rekognition().detect_text(Image={"Bytes": image})
    except client_errors() as exc:
        raise _unavailable("DetectText", exc) from None
    lines, words = [], []
    for found in answer.get("TextDetections", []):
        item = TextLine(
            text=found["DetectedText"], confidence=round(found["Confidence"], 2), box=_box(found["Geometry"])
        )
        (lines if found["Type"] == "LINE" else words).append(item)
    return lines, words


@cache
def _rapidocr() -> Any:
    from rapidocr import RapidOCR  # the local engine: installed for the local default and tests only

    return RapidOCR(params={"Global.log_level": "error"})


def rapidocr_text(image: Any) -> tuple[list[TextLine], list[TextLine]]:
    """Lines and words of a PIL image by PP-OCR (detection + recognition models from the rapidocr wheel)."""
    import numpy as np

    width, height = image.size
    result = _rapidocr()(np.asarray(image)[:, :, ::-1], return_word_box=True)  # RGB → the BGR it expects
    if result.txts is None:
        return [], []

    def box(points: Any) -> Box:
        xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
        return Box(
            left=round(max(0.0, min(xs)) / width, 4),
            top=round(max(0.0, min(ys)) / height, 4),
            width=round((max(xs) - min(xs)) / width, 4),
            height=round((max(ys) - min(ys)) / height, 4),
        )

    lines = [
        TextLine(text=text, confidence=round(float(score) * 100, 2), box=box(points))
        for text, score, points in zip(result.txts, result.scores, result.boxes, strict=True)
    ]
    words = [
        TextLine(text=text, confidence=round(float(score) * 100, 2), box=box(points))
        for line in (result.word_results or ())
        for text, score, points in line
        if text.strip()
    ]
    return rows(lines), words


def rows(pieces: list[TextLine]) -> list[TextLine]:
    """Detections on one visual row (vertical centres within half a height) joined left to right.

    The detector sometimes boxes the words of a short line apart; a reader expects one line.
    """
    out: list[list[TextLine]] = []
    for piece in sorted(pieces, key=lambda p: p.box.top + p.box.height / 2):
        centre = piece.box.top + piece.box.height / 2
        row = out[-1] if out else None
        if row and abs(centre - (row[0].box.top + row[0].box.height / 2)) < row[0].box.height / 2:
            row.append(piece)
        else:
            out.append([piece])
    return [_joined(sorted(row, key=lambda p: p.box.left)) for row in out]


def _joined(row: list[TextLine]) -> TextLine:
    if len(row) == 1:
        return row[0]
    left, top = min(p.box.left for p in row), min(p.box.top for p in row)
    right, bottom = max(p.box.left + p.box.width for p in row), max(p.box.top + p.box.height for p in row)
    return TextLine(
        text=" ".join(p.text for p in row),
        confidence=round(min(p.confidence for p in row), 2),
        box=Box(left=left, top=top, width=round(right - left, 4), height=round(bottom - top, 4)),
    )
