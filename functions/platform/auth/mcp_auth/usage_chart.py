"""Credits charged per day and service as a server-rendered SVG (stacked bars, no script)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from html import escape
from typing import Any

WIDTH, HEIGHT, BAR_GAP, MAX_BAR = 640, 200, 4, 40


def usage_svg(totals: list[dict[str, Any]]) -> str:
    """`totals` are `daily_totals` rows (day, service, net…); grants are left out."""
    by_day: dict[str, dict[str, int]] = defaultdict(dict)
    for row in totals:
        if row["service"] != "(grants)" and row["net"] > 0:
            by_day[row["day"]][row["service"]] = row["net"]
    days = sorted(by_day)
    if not days:
        return "<p>No billed calls in this period.</p>"
    peak = max(sum(services.values()) for services in by_day.values())
    bar = max(4, min(MAX_BAR, (WIDTH - BAR_GAP * len(days)) // len(days)))
    parts = [
        f'<svg role="img" aria-labelledby="usage-title" width="{WIDTH}" height="{HEIGHT + 20}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT + 20}" xmlns="http://www.w3.org/2000/svg">',
        '<title id="usage-title">Credits charged per day, by service</title>',
    ]
    for i, day in enumerate(days):
        x, y = i * (bar + BAR_GAP), HEIGHT
        for service, credits in sorted(by_day[day].items()):
            h = max(1, round(credits / peak * (HEIGHT - 10)))
            y -= h
            label = escape(f"{day} {service}: {credits} credits")
            rect = f'<rect x="{x}" y="{y}" width="{bar}" height="{h}" fill="{_colour(service)}">'
            parts.append(f"{rect}<title>{label}</title></rect>")
        parts.append(f'<text x="{x}" y="{HEIGHT + 14}" font-size="10">{escape(day[5:])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _colour(service: str) -> str:
    return "#" + hashlib.sha256(service.encode()).hexdigest()[:6]
