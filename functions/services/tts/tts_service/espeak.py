"""espeak-ng through ctypes, from the library and voice data the espeakng-loader wheel ships.

espeak-ng keeps global state (one voice, one callback), so every call holds one lock.
"""

from __future__ import annotations

import array
import ctypes
import threading
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version

import espeakng_loader

_SYNCHRONOUS = 0x02
_DONT_EXIT = 0x8000
_RATE = 1
_CHARS_UTF8, _SSML = 0x01, 0x10
_POS_CHARACTER = 1
_WPM_AT_100 = 175
_SynthCallback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)


class _Voice(ctypes.Structure):
    _fields_ = [  # noqa: RUF012 - ctypes layout of espeak_VOICE
        ("name", ctypes.c_char_p),
        ("languages", ctypes.c_char_p),
        ("identifier", ctypes.c_char_p),
        ("gender", ctypes.c_ubyte),
        ("age", ctypes.c_ubyte),
        ("variant", ctypes.c_ubyte),
        ("xx1", ctypes.c_ubyte),
        ("score", ctypes.c_int),
        ("spare", ctypes.c_void_p),
    ]


@dataclass(frozen=True)
class EspeakVoice:
    identifier: str
    name: str
    language: str
    gender: str | None


class Espeak:
    """The process's espeak-ng: 22,050 Hz 16-bit mono PCM out."""

    def __init__(self) -> None:
        self._lib = ctypes.CDLL(espeakng_loader.get_library_path())
        self._lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        self._lib.espeak_ListVoices.restype = ctypes.POINTER(ctypes.POINTER(_Voice))
        self._lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        self.sample_rate = self._lib.espeak_Initialize(
            _SYNCHRONOUS, 0, espeakng_loader.get_data_path().encode(), _DONT_EXIT
        )
        if self.sample_rate <= 0:
            raise RuntimeError("espeak-ng did not initialise")
        self._samples = array.array("h")
        self._callback = _SynthCallback(self._collect)  # kept referenced: espeak calls it later
        self._lib.espeak_SetSynthCallback(self._callback)
        self._lock = threading.Lock()
        self.version = version("espeakng-loader")

    def _collect(self, wav: ctypes.Array[ctypes.c_short], count: int, _events: int) -> int:
        if count > 0:
            self._samples.frombytes(ctypes.string_at(wav, count * 2))
        return 0

    def voices(self) -> list[EspeakVoice]:
        with self._lock:
            listed = self._lib.espeak_ListVoices(None)
            out, i = [], 0
            while listed[i]:
                voice = listed[i].contents
                # `languages` is a priority byte, a language name, a NUL, ...: take the first name.
                language = (voice.languages or b"\x05en")[1:].split(b"\0", 1)[0].decode()
                gender = {1: "Male", 2: "Female"}.get(voice.gender)
                out.append(EspeakVoice(voice.identifier.decode(), voice.name.decode(), language, gender))
                i += 1
            return out

    def speak(self, text: str, voice: str, rate_percent: int, *, ssml: bool) -> bytes:
        """PCM of `text` (or SSML) read by `voice` (a name, identifier or language) at `rate_percent`."""
        data = text.encode()
        with self._lock:
            if self._lib.espeak_SetVoiceByName(voice.encode()) != 0:
                raise ValueError(f"espeak-ng has no voice {voice!r}")
            self._lib.espeak_SetParameter(_RATE, _WPM_AT_100 * rate_percent // 100, 0)
            del self._samples[:]
            flags = _CHARS_UTF8 | (_SSML if ssml else 0)
            self._lib.espeak_Synth(ctypes.c_char_p(data), len(data) + 1, 0, _POS_CHARACTER, 0, flags, None, None)
            self._lib.espeak_Synchronize()
            return self._samples.tobytes()


@cache
def espeak() -> Espeak:
    return Espeak()
