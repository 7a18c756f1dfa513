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


def duration_s(data: bytes) -> float:
    """Seconds of audio in an encoded file (decoded, so it is exact for any codec)."""
    samples, rate = 0, 0
    with av.open(io.BytesIO(data)) as container:
        for frame in container.decode(audio=0):
            samples += frame.samples
            rate = frame.sample_rate
    return round(samples / rate, 3) if rate else 0.0
