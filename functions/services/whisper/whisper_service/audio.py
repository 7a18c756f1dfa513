"""Any recording to 16 kHz mono 16-bit PCM (PyAV's FFmpeg), which gives its exact duration too."""

from __future__ import annotations

import io

import av

from mcp_platform.protocol.errors import ErrorCode, ToolError

RATE = 16_000


def pcm16k(data: bytes) -> bytes:
    """The first audio stream, resampled; `invalid_arguments` when it is not audio FFmpeg reads."""
    out = bytearray()
    try:
        with av.open(io.BytesIO(data)) as container:
            if not container.streams.audio:
                raise ToolError("audio: the file has no audio stream", ErrorCode.INVALID_ARGUMENTS)
            resampler = av.AudioResampler(format="s16", layout="mono", rate=RATE)
            for frame in container.decode(audio=0):
                for piece in resampler.resample(frame):
                    out += piece.to_ndarray().tobytes()
            for piece in resampler.resample(None):
                out += piece.to_ndarray().tobytes()
    except av.FFmpegError as exc:
        raise ToolError(
            f"audio: not a recording FFmpeg can read ({type(exc).__name__})", ErrorCode.INVALID_ARGUMENTS
        ) from None
    if not out:
        raise ToolError("audio: the recording is empty", ErrorCode.INVALID_ARGUMENTS)
    return bytes(out)


def seconds(pcm: bytes) -> float:
    return len(pcm) / 2 / RATE
