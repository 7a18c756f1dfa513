"""What people say, mapped to what the tool descriptions say: the query side of `tool_search`.

Keys are lower-case words or two-word phrases as a caller writes them; values
are words to add to the query (at a lower weight than the caller's own).
Entries are general English, not one tool's name: a description that an
everyday request cannot reach is fixed in the description instead.
"""

from __future__ import annotations

STOPWORDS = frozenset(
    """a an the of to for in on at by with from and or is are was were be been it its this that these those
    i me my we our you your he she they them his her their can could would should will do does did
    what which who whom how why when where there here please want need give show tell get let us
    some any all into as about than then so if not no yes just also very much many more most
    like have has had am""".split()
)


def _groups(*pairs: tuple[str, str]) -> dict[str, tuple[str, ...]]:
    """`("a, b, c", "x y")`: each of a, b, c (words or two-word phrases) adds the words x and y."""
    table: dict[str, tuple[str, ...]] = {}
    for keys, added in pairs:
        for key in keys.split(","):
            table[key.strip()] = (*table.get(key.strip(), ()), added)
    return table


EXPANSIONS = _groups(
    # the web
    ("link, links, website, site, webpage, address, web address, homepage", "url page"),
    ("article, articles, blog, post", "page"),
    ("internet, online, google, googling, web", "web search"),
    ("headline, headlines, today, latest, recent, current, breaking", "news"),
    ("summarise, summarize, summary, tldr, gist", "summarize"),
    ("screenshot, snapshot, looks like, look like, render, rendered", "capture screenshot page"),
    ("phone screen, mobile view, on a phone", "device viewport"),
    # research
    ("sources, cited, citations, cite, evidence, report, known", "brief quote research"),
    ("fact, fact-check, claim, verify, true", "claim source"),
    ("compare, versus, vs, better, pros", "compare options criteria"),
    ("cost, costs, price, prices, dollars, usd, money, balance, spend, credit", "credits price"),
    # files and documents
    ("upload, attach, give you, send you, provide", "upload file staging"),
    ("video, large, big, huge, mb, gb, gigabyte, megabyte", "large upload url"),
    ("download link, fresh link", "download url"),
    ("remove, erase, delete, discard", "delete"),
    ("spreadsheet, excel, word, docx, slides, powerpoint, presentation, deck", "document extract"),
    ("combine, join, concatenate, glue, together", "merge"),
    ("break, cut, separate, chop, pages", "split page"),
    ("printable, print, invoice, printed", "pdf"),
    # images
    ("picture, photo, photograph, pic, image, screenshot, scan, scanned", "image"),
    ("caption, happening, describe, scene, depict, shows", "describe image question"),
    ("dimensions, resolution, width, height, how big", "pixel size"),
    ("thumbnail, shrink, smaller, scale, enlarge", "resize"),
    ("tag, tags, objects, detect, recognise, recognize", "labels objects"),
    ("words, written, receipt, handwriting, characters", "text read"),
    # codes
    ("scannable, scan, code", "qr code"),
    ("pay, payment, bank transfer, transfer, invoice", "sepa payment iban"),
    ("contact, business card, contact details", "vcard contact"),
    ("map, location, coordinates, latitude, longitude", "geo coordinates"),
    ("wifi, wi-fi, wireless, network password", "wifi network"),
    ("product code, ean, upc, gtin", "barcode"),
    # voice
    ("aloud, out loud, speak, narrate, voice, audio, spoken", "speech audio"),
    (
        "transcribe, transcript, subtitle, subtitles, captions, dictation, podcast, recording, meeting, interview",
        "transcribe recording",
    ),
    # health
    ("medicine, medicines, medication, medications, pill, pills, prescription, tablet", "drug"),
    ("side effect, side effects, adverse, reaction", "adverse reaction"),
    ("pulled, withdrawn, recall, unsafe", "recall"),
    ("insert, leaflet, dosage, prescribing, warnings", "label"),
    ("vitamin, mineral, nutrient, multivitamin, protein", "supplement"),
    ("too much, upper, intake, allowance, rda, daily dose, recommended", "rda ul"),
    ("herb, herbs, herbal, botanical, remedy, remedies", "herb"),
    ("traditionally, traditional, folk, used for", "ethnobotanical uses"),
    ("anti-inflammatory, antioxidant, antibacterial, sedative, calming, anticoagulant", "activity"),
    ("blood thinner, blood thinners, combine with, interact, together with", "interaction medicine"),
    ("species, taxonomy, latin, scientific", "taxon scientific name"),
    ("native, grows, naturally, introduced, invasive", "native distribution region"),
    ("chemical, chemicals, molecule, substance, compound", "compound"),
    ("dangerous, toxic, hazardous, flammable, poisonous, corrosive, safe", "hazard ghs safety"),
    # checks
    ("tax id, tax number, vat", "vat number"),
    ("swift", "bic"),
    ("bank account, account number", "iban"),
    ("credit card, debit card, visa, mastercard", "card"),
    ("isbn, issn, ssn, national id, company number, registration number, siren, isin", "number format kind"),
    ("telephone, mobile number, cell, phone", "phone number"),
    ("well-formed, malformed, valid, correct, legit", "valid check"),
    ("bounce, bounced, blocked, bouncing, complaint", "suppression list"),
    ("deliverability, spf, dkim, dmarc, mx", "dns domain mail"),
    ("throwaway, disposable, fake, temporary", "disposable"),
    ("mail, notify, message", "email send"),
    ("left, remaining, limit", "quota balance"),
    ("injection, jailbreak, manipulate, malicious, attack, untrusted", "prompt injection"),
    ("leak, leaks, leaked, exfiltrate", "canary token"),
    ("alive, working, connection, api key", "ping key"),
    # places
    ("nation, nations", "country"),
    ("town, towns, village, villages, metropolis", "city"),
    ("seaside, beach, coast, shore, seafront, by the sea", "coast coastal sea"),
    ("how far, far, kilometres, kilometers, km, miles, separate", "distance"),
    ("people, inhabitants, residents, populous, biggest, largest", "population"),
    ("highest, tallest, mountain, mountains, summit", "elevation peak"),
    ("border, borders, bordering, neighbour, neighbor, neighboring, neighbouring, adjacent", "neighbour border"),
    ("state, states, province, provinces, prefecture, regions", "admin1 region"),
    ("county, counties, district, districts, municipality", "admin2"),
    ("ocean, bay, gulf, strait, sea", "marine sea"),
    ("closest, near, around, nearby, within, vicinity", "nearest nearby"),
    ("flight, flights, airfield", "airport"),
    ("lake, lakes, park, parks, river, volcano, glacier, island", "place"),
    ("similar, alike, resembling", "similar"),
    ("misspelled, misspelt, typo, typos, spelling", "fuzzy typos"),
    ("kinds, categories, filter", "kind"),
)
