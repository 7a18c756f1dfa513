"""Voice and vision engines of the local default, measured: `python bench/voice.py`.

- tts: espeak-ng characters per second (synthesis + MP3 encoding), over a paragraph, 5 runs.
- whisper: pocketsphinx real-time factor (seconds of compute per second of audio) and word error rate
  on clips espeak-ng speaks in two voices and two rates, clean and with white noise at 20 dB SNR.
- vision: RapidOCR character accuracy (1 - character edit distance / length) on text rendered in
  3 fonts x 2 sizes.
Figures vary with machine load; run on a quiet machine.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "shared"), str(ROOT / "tests")]
for name in ("tts", "whisper", "vision"):
    sys.path.insert(0, str(ROOT / "functions" / "services" / name))
from localdev import environment

# The functions' template variables (their settings refuse to load without them), then the offline engines.
os.environ.update(environment.function_environment())
os.environ.update({"TTS_ENGINE": "espeak", "WHISPER_ENGINE": "pocketsphinx", "VISION_OCR_ENGINE": "rapidocr"})

import io

import numpy as np
from PIL import Image

from mcp_platform.runtime.service import ServiceContext
from tts_service.engines import Speech
from tts_service.engines import engine as tts_engine
from vision_service.backends import rapidocr_text
from voice_support import FONTS, rendered_text, word_error_rate
from whisper_service.audio import pcm16k, seconds
from whisper_service.engines import Recording
from whisper_service.engines import engine as whisper_engine

PARAGRAPH = (
    "The platform reads text aloud in many languages. Each request is split at sentence boundaries, "
    "synthesized, and joined into one file. Short answers come back in well under a second."
)
CLIPS = [
    "one two three four five",
    "please call me tomorrow",
    "the weather is nice today",
    "turn left at the next street",
    "i would like a cup of coffee",
    "seven eight nine ten",
]
OCR_LINES = ["Invoice 2026-11 total 42.50 EUR", "Quarterly report: revenue up 12%", "The quick brown fox jumps"]


def chars_per_second() -> float:
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        tts_engine().synthesize(Speech(PARAGRAPH, None, None, None, "mp3", 100))
        runs.append(len(PARAGRAPH) / (time.perf_counter() - started))
    return statistics.median(runs)


def noisy(pcm: bytes, snr_db: float) -> bytes:
    signal = np.frombuffer(pcm, dtype=np.int16).astype(np.float64)
    power = np.mean(signal**2) / (10 ** (snr_db / 10))
    noise = np.random.default_rng(7).normal(0, np.sqrt(power), signal.shape)
    return np.clip(signal + noise, -32768, 32767).astype(np.int16).tobytes()


def transcription() -> list[tuple[str, float, float]]:
    ctx = ServiceContext(account_id="bench", request_id="bench")
    rows = []
    for condition in ("clean", "20 dB noise"):
        wers, compute, audio_s = [], 0.0, 0.0
        for text in CLIPS:
            for voice, rate in (("en-us", 91), ("en", 100)):
                made = tts_engine().synthesize(Speech(text, None, voice, None, "wav", rate))
                pcm = pcm16k(made.data)
                if condition != "clean":
                    pcm = noisy(pcm, 20)
                started = time.perf_counter()
                heard = whisper_engine().transcribe(Recording(pcm, made.data, "audio/wav", "clip.wav"), "en", ctx)
                compute += time.perf_counter() - started
                audio_s += seconds(pcm)
                wers.append(word_error_rate(text, heard.text))
        rows.append((condition, compute / audio_s, statistics.mean(wers)))
    return rows


def edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[len(b)]


def ocr_accuracy() -> list[tuple[str, int, float]]:
    rows = []
    for font in FONTS:
        for size in (18, 32):
            image = Image.open(io.BytesIO(rendered_text(OCR_LINES, font, size))).convert("RGB")
            lines, _ = rapidocr_text(image)
            expected, read = "\n".join(OCR_LINES), "\n".join(line.text for line in lines)
            rows.append((font, size, 1 - edit_distance(expected, read) / len(expected)))
    return rows


def main() -> None:
    print(f"tts (espeak-ng, mp3): {chars_per_second():,.0f} characters/s")
    print("whisper (pocketsphinx):")
    for condition, rtf, wer in transcription():
        print(f"  {condition:12} real-time factor {rtf:.2f}  word error rate {wer:.2f}")
    print("vision_ocr (RapidOCR) character accuracy:")
    for font, size, accuracy in ocr_accuracy():
        print(f"  {font:17} {size:2} px  {accuracy:.3f}")


if __name__ == "__main__":
    main()
