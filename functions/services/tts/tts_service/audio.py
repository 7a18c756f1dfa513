"""PCM to WAV, MP3 and Ogg (Opus) with PyAV's bundled FFmpeg, and durations of encoded audio."""

from __future__ import annotations

import io
import wave

import av
import numpy as np

MEDIA_TYPES = {"mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav"}
_CODECS = {"mp3": ("mp3", "libmp3lame", None), "ogg": ("ogg", "libopus", 48_000)}


def wav(pcm: bytes, sample_rate: int) -> bytes:
    """16-bit mono PCM in a WAV container."""
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(sample_rate)
        file.writeframes(pcm)
    return out.getvalue()


def encode(pcm: bytes, sample_rate: int, fmt: str) -> bytes:
    """16-bit mono PCM as `fmt` (wav, mp3, or ogg with Opus at 48 kHz)."""
    if fmt == "wav":
        return wav(pcm, sample_rate)
    container_format, codec, codec_rate = _CODECS[fmt]
    out = io.BytesIO()
    with av.open(out, "w", format=container_format) as container:
        stream = container.add_stream(codec, rate=codec_rate or sample_rate, layout="mono")
        resampler = av.AudioResampler(format=stream.format.name, layout="mono", rate=codec_rate or sample_rate)
        frame = av.AudioFrame.from_ndarray(
            np.frombuffer(pcm, dtype=np.int16).reshape(1, -1), format="s16", layout="mono"
        )
        frame.sample_rate = sample_rate
        for piece in [*resampler.resample(frame), *resampler.resample(None)]:
            container.mux(stream.encode(piece))
        container.mux(stream.encode(None))
    return out.getvalue()


def decode(data: bytes) -> tuple[bytes, int]:
    """An encoded file as 16-bit mono PCM and its sample rate; `ValueError` when it is not audio."""
    out = bytearray()
    rate = 0
    try:
        with av.open(io.BytesIO(data)) as container:
            rate = container.streams.audio[0].sample_rate
            resampler = av.AudioResampler(format="s16", layout="mono", rate=rate)
            for frame in container.decode(audio=0):
                for piece in resampler.resample(frame):
                    out += piece.to_ndarray().tobytes()
    except (av.FFmpegError, IndexError) as exc:
        raise ValueError(f"not decodable audio ({type(exc).__name__})") from None
    return bytes(out), rate


def join(pieces: list[bytes], fmt: str) -> bytes:
    """Several encoded files as one (decoded and encoded once: MP3 and Ogg files do not concatenate)."""
    if len(pieces) == 1:
        return pieces[0]
    decoded = [decode(piece) for piece in pieces]
    return encode(b"".join(pcm for pcm, _ in decoded), decoded[0][1], fmt)


def duration_s(data: bytes) -> float:
    """Seconds of audio in an encoded file (decoded, so it is exact for any codec)."""
    pcm, rate = decode(data)
    return round(len(pcm) / 2 / rate, 3) if rate else 0.0
