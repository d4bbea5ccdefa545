"""Was a required output told to the user? One pure matcher per kind of output.

A required output is a fact or figure the agent must tell the user: an amount, a date, a
confirmation code. `output_told` reads everything the agent told the user and decides whether a
person would say the output was told. Any correct phrasing must match ("3:45 PM" for ``15:45``,
"(800) 555-1249" for ``800-555-1249``, "$100k" for ``100000``) and nothing else may ("14:50" is not
$50, the heading "3.5." is not $3.50, "W12345678" is not code ``W1234567``).

Numbers, money, percents, dates and times are matched by *value*: the text is scanned for every
mention of the kind, each mention is parsed, and the parsed value is compared. Phones, codes, names
and text are matched by a pattern compiled once per output (cached). The scan of a text is cached
too (the last 32 texts), so checking several outputs against one answer scans it once; a quick
substring test rejects a text that lacks the value's digits without scanning it.

Decisions a caller must know:

* money, number and percent compare magnitudes: the sign is not checked. A stored ``-20.00`` (a
  credit) matches "-$20", "a $20.00 credit" and "a refund of $20"; a stored ``20.00`` matches "-$20.00"
  too. Whether it was a charge or a refund is the final database state's business.
* money also matches a bare number ("the total is 50" for ``50.00``) and number matches "$50" for
  ``50``: `infer_kind` cannot tell an integer amount from a count, so both kinds read both.
* percent needs a percent sign or word ("12.5%", "12.5 percent", "12.5 per cent", "12.5 pct"): a
  bare "12.5" is not a percent (it could be anything, e.g. "12.5 miles").
* number words are read for 0-99 ("two nights", "twenty-five"); money only with "dollars", "bucks"
  or "cents" ("fifty dollars", "four cents"); percent only with a percent word ("twelve percent").
  "one" after a determiner ("the one", "no one", "this one") and "one moment" are not the number 1.
  "$.04" is four cents.
* a number inside a time, a date, a phone number, a code ("W1250", "#50", "1250-A"), a section
  reference ("§8.2", "section 3.5", "3.5." opening a line) or a longer number is not told; nor is one
  joined to the next by a hyphen and a digit ("2-3"), so a range "2-3 nights" tells neither 2 nor 3.
* numeric dates are read US-style (month/day); a day-first form is read only when it cannot be a
  month/day ("24/5/2026" is May 24). A date without a year matches any year; a stated year must match.
* a bare 12-hour time ("8:45", no am/pm, no leading zero) matches both 08:45 and 20:45; "08:45" and
  "20:45" are 24-hour and exact. "12:30" with no am/pm matches 12:30 and 00:30.
* not read (known gaps): "$.50" (no leading digit), fractions and words beyond 99 ("two hundred
  dollars", "three and a half"), "3 o'clock pm"; "3 May" is always a date, so "fees 3 may apply"
  does not tell the number 3.
* a name's leading honorific is optional: "Alana Jones" tells ``Dr. Alana Jones`` (and so would
  "Mr. Alana Jones"; honorifics are not checked).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal, NamedTuple

import pydantic

__all__ = ["Kind", "Output", "infer_kind", "near_misses", "output_told", "spoken"]

Kind = Literal["money", "number", "percent", "date", "time", "phone", "code", "name", "text"]


class Output(pydantic.BaseModel):
    """A required output: its canonical stored form and what kind of thing it is.

    Canonical forms: money ``"1234.50"``, number ``"12"``, percent ``"12.5"``, date ``"2026-05-24"``,
    time ``"15:45"``, phone ``"800-555-1249"``, code ``"W1234567"``, name/text free words.
    """

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    value: str
    kind: Kind

    @pydantic.model_validator(mode="after")
    def _parses(self) -> Output:
        _parsed(self.value, self.kind)  # raises ValueError when the value is not of its kind
        return self

    def __str__(self) -> str:
        return f"{self.value} ({self.kind})"


# --------------------------------------------------------------------------- text normalization

_REPLACEMENTS = (
    ("\u2018", "'"), ("\u2019", "'"), ("\u201a", "'"), ("\u2032", "'"),
    ("\u201c", '"'), ("\u201d", '"'), ("\u201e", '"'),
    ("\u00a0", " "), ("\u202f", " "), ("\u2009", " "), ("\u2007", " "), ("\u200b", ""),
    ("\u2010", "-"), ("\u2011", "-"), ("\u2012", "-"), ("\u2013", "-"), ("\u2212", "-"), ("\u2014", " - "),
)
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
_UNDERSCORE = re.compile(r"(?<!\w)_(?=\w)|(?<=\w)_(?!\w)")


@lru_cache(maxsize=64)
def _normalize(text: str) -> str:
    """Lowercase, accents folded, markdown-free, spaces collapsed (line breaks kept: a section number
    is recognized at a line start)."""
    if not text.isascii():
        for char, replacement in _REPLACEMENTS:
            if char in text:
                text = text.replace(char, replacement)
        text = _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    text = text.casefold().replace("**", "").replace("__", "").replace("`", "")
    if "_" in text:
        text = _UNDERSCORE.sub("", text)  # _italic_, but snake_case stays
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line and not line.isspace())


_NON_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=64)
def _words(text: str) -> str:
    """Words only, single-spaced: "Dr. O'Brien-Smith" -> "dr obrien smith"."""
    return " " + _NON_WORD.sub(" ", _normalize(text).replace("'", "")).strip() + " "


# --------------------------------------------------------------------------- canonical values


class _Span(NamedTuple):
    start: int
    end: int


def _decimal(value: str) -> Decimal:
    cleaned = re.sub(r"[\s$,%]|usd", "", value.strip().casefold())
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"not a number: {value!r}") from None
    if not number.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    return number


_CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def _minutes(value: str) -> int:
    match = _CLOCK.fullmatch(value.strip())
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise ValueError(f"not a 24-hour time HH:MM: {value!r}")
    return int(match[1]) * 60 + int(match[2])


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"not an ISO date YYYY-MM-DD: {value!r}") from None


def _phone_digits(value: str) -> str:
    digits = re.sub(r"\D", "", value)
    if len(digits) < 7:
        raise ValueError(f"not a phone number (fewer than 7 digits): {value!r}")
    if len(digits) == 11 and digits[0] == "1":
        digits = digits[1:]
    return digits


def _code_chars(value: str) -> str:
    chars = _NON_WORD.sub("", _normalize(value)).replace("_", "")
    if not chars:
        raise ValueError(f"not a code (no letters or digits): {value!r}")
    return chars


def _word_list(value: str) -> list[str]:
    words = _words(value).split()
    if not words:
        raise ValueError(f"no words in {value!r}")
    return words


def _parsed(value: str, kind: Kind) -> object:
    if kind in ("money", "number", "percent"):
        return abs(_decimal(value))
    if kind == "date":
        return _date(value)
    if kind == "time":
        return _minutes(value)
    if kind == "phone":
        return _phone_digits(value)
    if kind == "code":
        return _code_chars(value)
    return _word_list(value)


# --------------------------------------------------------------------------- times

_HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
_HOUR = r"\d{1,2}|" + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True))
_AMPM = r"(?:\s?(?P<{0}>[ap])\.?m\.?(?![a-z]))"
_TIME_DIGITS = re.compile(  # "15:45", "3:45 pm", "3pm", "3 o'clock", "12 noon": the left side is checked in Python
    r"(?P<h>\d\d?)(?=:[0-5]\d|\s?[ap]\.?m|\so'?clock|\s(?:noon|midnight))(?::(?P<m>[0-5]\d)(?::[0-5]\d)?(?![\d:]))?"
    r"(?:\s?(?P<ap>[ap])\.?m\.?(?![a-z])|(?P<clock> o'?clock(?![a-z]))|(?P<noon> noon| midnight)(?![a-z]))?"
)
_TIME_WORDS = re.compile(  # "noon", "midnight", "quarter to four", "three o'clock": the left side is checked in Python
    r"(?P<named>noon|midday|midnight)(?![a-z])"
    r"|(?P<q>quarter|half) (?P<rel>past|after|to|till|before) (?P<h4>" + _HOUR + r")(?![\w:])" + _AMPM.format("ap4") + "?"
    r"|(?P<h3>" + "|".join(sorted(_HOUR_WORDS, key=len, reverse=True)) + r") o'?clock(?![a-z])" + _AMPM.format("ap3") + "?"
)
_TIME_WORD_HINTS = ("noon", "midday", "midnight", "quarter", "half", "clock")


class _TimeMention(NamedTuple):
    span: _Span
    minutes: frozenset[int]


def _clock_minutes(hour_text: str, minute: int, ampm: str | None) -> frozenset[int]:
    hour = _HOUR_WORDS.get(hour_text) or int(hour_text)
    if hour > 23 or minute > 59:
        return frozenset()
    if 1 <= hour <= 12 and ampm is not None:
        return frozenset({(hour % 12 + (12 if ampm == "p" else 0)) * 60 + minute})
    if 1 <= hour <= 12 and not hour_text.startswith("0"):
        return frozenset({(hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute})
    return frozenset({hour * 60 + minute})


@lru_cache(maxsize=32)
def _times(norm: str) -> tuple[_TimeMention, ...]:
    found = []
    for match in _TIME_DIGITS.finditer(norm):
        start = match.start()
        if match["m"] is None and match["ap"] is None and match["clock"] is None and match["noon"] is None:
            continue  # a bare number
        left = norm[start - 1] if start else " "
        if (left.isalnum() and not (left == "t" and norm[start - 2 : start - 1].isdigit())) or left in "_:.,$/-":
            continue  # inside a longer time, a date, an amount or a code ("2026-05-24t15:45" is fine)
        if match["noon"] is not None:
            minutes = frozenset({720 if match["noon"] == " noon" else 0}) if match["h"] == "12" and match["m"] in (None, "00") else frozenset()
        elif match["m"] is not None:
            minutes = _clock_minutes(match["h"], int(match["m"]), match["ap"])
        else:
            minutes = _clock_minutes(match["h"], 0, match["ap"]) if 1 <= int(match["h"]) <= 12 else frozenset()
        if minutes:
            found.append(_TimeMention(_Span(*match.span()), minutes))
    if any(hint in norm for hint in _TIME_WORD_HINTS):
        for match in _TIME_WORDS.finditer(norm):
            if match.start() and norm[match.start() - 1].isalnum():
                continue  # "afternoon"
            if match["named"] is not None:
                minutes = frozenset({0 if match["named"] == "midnight" else 720})
            elif match["h3"] is not None:
                minutes = _clock_minutes(match["h3"], 0, match["ap3"])
            else:
                delta = 15 if match["q"] == "quarter" else 30
                delta = -delta if match["rel"] in ("to", "till", "before") else delta
                minutes = frozenset((m + delta) % 1440 for m in _clock_minutes(match["h4"], 0, match["ap4"]))
            found.append(_TimeMention(_Span(*match.span()), minutes))
    return tuple(found)


# --------------------------------------------------------------------------- dates

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)
_MONTH = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
_YEAR = r"(?:,? (?P<{0}>(?:19|20)\d\d)(?![\d]))?"
_DATE_DIGITS = re.compile(  # ISO and US numeric: the left side is checked in Python
    r"(?P<iy>\d{4})[-/](?P<im>\d{1,2})[-/](?P<id>\d{1,2})(?!\d)"
    r"|(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<c>\d{4}|\d\d))?(?![\d/])"
    r"|(?P<a2>\d{1,2})-(?P<b2>\d{1,2})-(?P<c2>\d{4})(?![\d-])"
)
_DATE_CANDIDATE = re.compile(r"\d\d{0,3}[-/]\d")
_MONTH_HINT = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)")
_DAY_FIRST = re.compile(  # "24 May", "the 24th of May, 2026": the left side is checked in Python
    r"(?P<d2>\d\d?)(?:st|nd|rd|th)? (?:of )?(?P<mon2>" + _MONTH + r")(?![a-z])\.?" + _YEAR.format("y2")
)
_DATE_MONTHS = re.compile(  # "May 24", "Sept. 3rd, 2026": the left side is checked in Python
    r"(?P<mon>" + _MONTH + r")\.? (?:the )?(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\w)" + _YEAR.format("y")
)


class _DateMention(NamedTuple):
    span: _Span
    year: int | None
    month: int
    day: int


def _date_left_excluded(norm: str, start: int, chars: str) -> bool:
    left = norm[start - 1] if start else " "
    return left.isalnum() or left == "_" or left in chars


def _month_number(name: str) -> int:
    return next(i for i, full in enumerate(_MONTH_NAMES, 1) if full.startswith(name[:3]))


@lru_cache(maxsize=32)
def _dates(norm: str) -> tuple[_DateMention, ...]:
    found = []
    matches = []
    end = 0
    for candidate in _DATE_CANDIDATE.finditer(norm):  # few: the full pattern is tried only where one may start
        match = _DATE_DIGITS.match(norm, candidate.start()) if candidate.start() >= end else None
        if match is not None:
            end = match.end()
            if not _date_left_excluded(norm, match.start(), "/.,:$-"):
                matches.append(match)
    if _MONTH_HINT.search(norm):
        matches += [m for m in _DAY_FIRST.finditer(norm) if not _date_left_excluded(norm, m.start(), "/.,:$-")]
        matches += [m for m in _DATE_MONTHS.finditer(norm) if not _date_left_excluded(norm, m.start(), "")]
    for match in matches:
        g = match.groupdict()
        year: int | None
        if g.get("iy") is not None:
            year, month, day = int(g["iy"]), int(g["im"]), int(g["id"])
        elif g.get("a") is not None or g.get("a2") is not None:
            first, second = int(g["a"] or g["a2"]), int(g["b"] or g["b2"])
            year_text = g["c"] or g["c2"]
            year = None if year_text is None else int(year_text) + (2000 if len(year_text) == 2 else 0)
            month, day = (first, second) if first <= 12 else (second, first)  # day-first only when unambiguous
        else:
            name, day_text, year_text = (g["mon"], g["d"], g["y"]) if g.get("mon") else (g["mon2"], g["d2"], g["y2"])
            month, day, year = _month_number(name), int(day_text), None if year_text is None else int(year_text)
        try:
            date(2000 if year is None else year, month, day)  # 2000 is a leap year: Feb 29 is a date
        except ValueError:
            continue
        found.append(_DateMention(_Span(*match.span()), year, month, day))
    return tuple(found)


# --------------------------------------------------------------------------- numbers

_NUMBER = re.compile(  # digit-led so the engine skips to digits fast; a currency before it is read in Python
    r"(?P<num>\d(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?)"
    r"(?:(?P<mult>k|mm|m|bn|b)(?![a-z0-9])| (?P<multw>thousand|million|billion)(?![a-z]))?"
    r"(?: ?(?P<unit>usd|dollars?|bucks|cents?|¢|%|percent|per ?cent|pct)(?![a-z]))?"
)
_CURRENCY_BEFORE = re.compile(r"(?:us\$|\$|usd) ?$")
_MULTIPLIERS = {
    "k": 1000, "thousand": 1000, "m": 10**6, "mm": 10**6, "million": 10**6, "b": 10**9, "bn": 10**9, "billion": 10**9,
}
_PERCENT_UNITS = ("%", "percent", "pct")  # after spaces are dropped: "per cent" is "percent"
_SECTION_WORDS = ("section", "sec.", "clause", "article", "rule", "paragraph", "para.", "chapter", "policy", "§", "step")
_SECTION_BEFORE = _SECTION_WORDS + tuple(word + " " for word in _SECTION_WORDS)
_LIST_PREFIX = re.compile(r"[ #>*+-]*")
_RIGHT_EXCLUDED = re.compile(r"[:/.,]\d|-\d| ?(?:[ap]\.?m\.?|o'?clock)(?![a-z])")
_PHONE_HINT = re.compile(r"\d\d\d(?:\) ?|[ .-])\d{3}[ .-]\d{4}")
_PHONE_LIKE = re.compile(r"(?=[\d+(])(?<!\w)(?:\+?\d{1,3}[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d)")

_UNIT_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)
_TEN_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORD_VALUES = {word: n for n, word in enumerate(_UNIT_WORDS)} | {word: 20 + 10 * i for i, word in enumerate(_TEN_WORDS)}
_WORD_REST = sorted({word[1:] for word in _WORD_VALUES}, key=len, reverse=True)
_WORD_NUMBER = re.compile(  # the first letter as a class lets the engine skip ahead; the word is checked in Python
    r"(?P<w>[zotfsen](?<![\w-][zotfsen])(?:" + "|".join(_WORD_REST) + r")(?:[- ](?:" + "|".join(_UNIT_WORDS[1:10]) + r"))?)(?![\w-])"
    r"(?: (?P<unit>dollars?|bucks|cents?|percent|per ?cent)(?![a-z])| ?(?P<pct>%))?"
)
_DOLLAR_CENTS = re.compile(r"(?:us\$|\$|usd) ?\.(?P<cents>\d{1,2})(?!\d)(?![.,]\d)")  # "$.04": cents with no leading zero
_NOT_ONE_BEFORE = re.compile(r"(?:the|this|that|which|any|no|each|every|another|a|an|other|some|only|same|right|new|old) $")


class _NumberMention(NamedTuple):
    value: Decimal
    percent: bool
    currency: bool
    word: bool


def _blocked(norm: str) -> bytearray:
    """1 at every character inside a time, a date or a phone number: no figure is read there."""
    mask = bytearray(len(norm))
    spans = [mention.span for mention in _times(norm)] + [mention.span for mention in _dates(norm)]
    if _PHONE_HINT.search(norm):
        spans += [_Span(*match.span()) for match in _PHONE_LIKE.finditer(norm)]
    for start, end in spans:
        mask[start:end] = b"\x01" * (end - start)
    return mask


def _standalone(norm: str, match: re.Match[str], start: int, currency: bool) -> bool:
    """Is this digit run a figure of its own, not part of a code, section, date or longer number?"""
    end = match.end()
    left = norm[start - 1] if start else "\n"
    before = norm[start - 2] if start > 1 else "\n"
    if left.isalnum() or left in "_#§:/.@" or (left in ",-" and before.isalnum() and not currency):
        return False  # "W1250", "#50", "14:50", "5/24", "8.2", "1-800", but "$10-$20" is two amounts
    if match["mult"] is None and match["multw"] is None and match["unit"] is None:
        right = norm[end : end + 1]
        if right.isalnum() or right == "_":
            return False
    if _RIGHT_EXCLUDED.match(norm, end):
        return False
    if norm.endswith(_SECTION_BEFORE, max(0, start - 12), start):
        return False
    if not currency:
        line_start = norm.rfind("\n", 0, start) + 1
        prefix = norm[line_start:start]
        if _LIST_PREFIX.fullmatch(prefix) and ("#" in prefix or re.match(r"[.)](?:\s|$)", norm[end:])):
            return False  # "3.5. Refunds", "2) Bags", "## 3.5 Refunds": a heading or list number
    return True


@lru_cache(maxsize=32)
def _numbers(norm: str) -> tuple[_NumberMention, ...]:
    blocked = _blocked(norm)
    found = []
    for match in _NUMBER.finditer(norm):
        start = match.start()
        if blocked[start] or blocked[match.end() - 1]:
            continue
        cur = _CURRENCY_BEFORE.search(norm, max(0, start - 4), start) if start and norm[start - 1] in "$ d" else None
        if cur is not None:
            start = cur.start()
        if not _standalone(norm, match, start, cur is not None):
            continue
        multiplier = match["mult"] or match["multw"]
        if match["mult"] in ("m", "mm", "b", "bn") and cur is None and match["unit"] not in ("usd", "dollar", "dollars"):
            continue  # "5m" without a currency is minutes or metres, not millions
        value = Decimal(match["num"].replace(",", "")) * _MULTIPLIERS.get(multiplier or "", 1)
        unit = (match["unit"] or "").replace(" ", "")
        if unit in ("cent", "cents", "¢"):
            value /= 100
        currency = cur is not None or bool(unit and unit not in _PERCENT_UNITS)
        found.append(_NumberMention(value, unit in _PERCENT_UNITS, currency, word=False))
    for match in _WORD_NUMBER.finditer(norm):
        if blocked[match.start()]:
            continue
        word = match["w"]
        parts = re.split(r"[- ]", word)
        if parts[0] not in _WORD_VALUES or (len(parts) == 2 and not (parts[0] in _TEN_WORDS and parts[1] in _WORD_VALUES)):
            continue  # "zne", "five one": not a number word
        if word == "one" and (_NOT_ONE_BEFORE.search(norm, max(0, match.start() - 8), match.start()) or norm.startswith(" moment", match.end())):
            continue
        number = Decimal(sum(_WORD_VALUES[part] for part in parts))
        unit = match["unit"] or match["pct"] or ""
        percent = unit.replace(" ", "") in _PERCENT_UNITS
        if unit in ("cent", "cents"):
            number /= 100  # "four cents a bushel"
        found.append(_NumberMention(number, percent, bool(unit) and not percent, word=True))
    for match in _DOLLAR_CENTS.finditer(norm):
        if not blocked[match.start()]:
            found.append(_NumberMention(Decimal(match["cents"].ljust(2, "0")) / 100, False, True, word=False))
    return tuple(found)


# --------------------------------------------------------------------------- per-output patterns


@lru_cache(maxsize=1024)
def _pattern(value: str, kind: Kind) -> re.Pattern[str]:
    if kind == "phone":
        digits = _phone_digits(value)
        prefix = r"(?:\+?1[\s.-]{0,2})?" if len(digits) == 10 else r"\+?"
        body = r"[\s().-]{0,2}".join(digits)
        return re.compile(r"(?<![\d+])(?<!\d[.-])" + prefix + r"\(?" + body + r"(?!\d)(?![.-]\d)")
    if kind == "code":
        # "#" joins a code's parts as a hyphen does ("ledger-api#57", a pull request as GitHub names it).
        body = r"(?:\s?#|[\s_-])?".join(re.escape(char) for char in _code_chars(value))
        return re.compile(r"(?<![\w#-])#? ?" + body + r"(?!\w)(?!-\w)")
    if kind == "text" and _VERSION.fullmatch(value.strip()):
        # "3.5.0" is told by "v3.5.0" but not by "3.5.0.1" or "3.5.0-rc1" (another release).
        body = re.escape(value.strip().casefold().lstrip("v"))
        return re.compile(r"(?<![\w.-])v?" + body + r"(?![\w])(?![.+-]\w)")
    words = _tokens(value)
    honorific = ""
    if kind == "name" and len(words) > 1 and words[0].replace("'", "") in _HONORIFICS:
        honorific, words = rf"(?:{words[0]}\W*)?", words[1:]
    body = r"[\W_]+".join(re.escape(word).replace("'", "'?") for word in words)
    # A word joined to another by a hyphen is part of a longer word: "check-ups" does not tell
    # UPS, "Whitfield-Smith" does not tell Dana Whitfield.
    return re.compile(r"(?<![^\W_])(?<![^\W_]-)" + honorific + body + r"(?![^\W_])(?!-[^\W_])")


_VERSION = re.compile(r"v?\d+(?:\.\d+)+", re.IGNORECASE)
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def _tokens(value: str) -> list[str]:
    """The words of a name or text, apostrophes kept inside them ("o'brien", "smith")."""
    tokens = _TOKEN.findall(_normalize(value))
    if not tokens:
        raise ValueError(f"no words in {value!r}")
    return tokens


# A text told only in the negative is not told: "no longer pending" does not tell "pending".
_NEGATION_BEFORE = re.compile(r"(?:\bnot|\bno longer|\bno more|\bnever|n't|\bnor|\bnon|\bwithout)\W+(?:\w+\W+)?$")


def _told_words(value: str, kind: Kind, text: str) -> bool:
    norm = _normalize(text)
    for match in _pattern(value, kind).finditer(norm):
        if kind != "text" or not _NEGATION_BEFORE.search(norm, max(0, match.start() - 24), match.start()):
            return True
    return False


_HONORIFICS = frozenset({"dr", "mr", "mrs", "ms", "miss", "mx", "prof", "sir", "dame", "capt", "captain"})


# --------------------------------------------------------------------------- the API


@lru_cache(maxsize=1024)
def _needles(value: str, kind: Kind) -> tuple[str, ...]:
    """Digit strings of which every phrasing of the value contains at least one (empty: no such
    guarantee). A quick way to reject a text without scanning it."""
    if kind in ("money", "number", "percent"):
        amount = abs(_decimal(value))
        if (amount == amount.to_integral_value() and amount <= 99) or (amount < 1 and (amount * 100) % 1 == 0):
            return ()  # said in words, perhaps ("twelve", "four cents")
        scaled = (amount, amount / 1000, amount / 10**6, amount / 10**9, amount * 100)
        wholes = {int(number) for number in scaled if number >= 1 or number == amount}  # nobody says "$0.5k"
        return tuple({f"{whole}" for whole in wholes} | {f"{whole:,}" for whole in wholes})
    if kind == "date":
        return (str(_date(value).day),)
    if kind == "time":
        minute = _minutes(value) % 60
        return () if minute % 15 == 0 else (f"{minute:02d}",)
    return ()


def output_told(output: Output, text: str) -> bool:
    """True when `output` was said in `text` (everything the agent told the user)."""
    kind = output.kind
    needles = _needles(output.value, kind)
    if needles:
        plain = text if text.isascii() else _normalize(text)
        if not any(needle in plain for needle in needles):
            return False
    if kind in ("money", "number", "percent"):
        target = abs(_decimal(output.value))
        want_percent = kind == "percent"
        # A ratio stored as a fraction ("0.79") is told as a percent too ("79%").
        as_percent = target * 100 if kind == "number" and 0 < target < 1 else None
        return any(
            (mention.value == target and mention.percent == want_percent and (mention.currency or not (mention.word and kind == "money")))
            or (as_percent is not None and mention.percent and mention.value == as_percent)
            for mention in _numbers(_normalize(text))
        )
    if kind == "date":
        wanted = _date(output.value)
        return any(
            (mention.year is None or mention.year == wanted.year) and (mention.month, mention.day) == (wanted.month, wanted.day)
            for mention in _dates(_normalize(text))
        )
    if kind == "time":
        minute = _minutes(output.value)
        return any(minute in mention.minutes for mention in _times(_normalize(text)))
    if kind in ("phone", "code"):
        return _pattern(output.value, kind).search(_normalize(text)) is not None
    return _told_words(output.value, kind, text)


_INFER_MONEY = re.compile(r"[-+]?(?:\$ ?[\d,]+(?:\.\d+)?|\d+\.\d\d|\d{1,3}(?:,\d{3})+\.\d\d)")
_INFER_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?|[-+]?\d{1,3}(?:,\d{3})+")
_INFER_PHONE = re.compile(r"(?:\+?1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}|\+\d[\d .-]{6,}\d")


def infer_kind(value: str) -> Kind:
    """A best guess at the kind from a canonical stored value.

    "2026-05-24" date, "15:45" time, "12.5%" percent, "1234.50" (two decimals) or "$50" money,
    "12"/"3.5" number, "800-555-1249" phone, letters mixed with digits ("W1234567", "#W-1234567",
    "CONF-8K2P") code, capitalized words ("Dr. Alana Jones") name, anything else text. An integer
    amount ("100000") reads as a number; number and money match the same phrasings but for "dollars"
    words, and a bare 10-digit run is a number, not a phone: give the kind when it matters.
    """
    stripped = value.strip()
    if re.fullmatch(r"\d{4}-\d\d-\d\d", stripped):
        try:
            _date(stripped)
            return "date"
        except ValueError:
            pass
    if _CLOCK.fullmatch(stripped):
        try:
            _minutes(stripped)
            return "time"
        except ValueError:
            pass
    if re.fullmatch(r"[-+]?\d+(?:\.\d+)? ?%", stripped):
        return "percent"
    if _INFER_MONEY.fullmatch(stripped):
        return "money"
    if _INFER_NUMBER.fullmatch(stripped):
        return "number"
    if _INFER_PHONE.fullmatch(stripped):
        return "phone"
    compact = re.sub(r"[#-]", "", stripped)
    if compact.isalnum() and any(c.isalpha() for c in compact) and any(c.isdigit() for c in compact):
        return "code"
    words = [word for word in re.split(r"[\s-]+", stripped) if any(c.isalpha() for c in word)]
    if words and all(word[0].isupper() for word in words):
        return "name"
    return "text"


# --------------------------------------------------------------------------- phrasing values


def _plain(number: Decimal) -> str:
    """"12", "3.5", "1234.5": no exponent, no trailing zeros."""
    text = f"{number:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _grouped(number: Decimal, places: int | None = None) -> str:
    """"1,234.50" (places=2), "1,234" or "3.5" (places=None: as few as needed)."""
    if places is None:
        whole, _, fraction = _plain(number).partition(".")
        return f"{int(whole):,}" + (f".{fraction}" if fraction else "")
    return f"{number:,.{places}f}"


def _number_word(number: Decimal) -> str | None:
    if number != number.to_integral_value() or not 0 <= number <= 99:
        return None
    n = int(number)
    if n < 20:
        return _UNIT_WORDS[n]
    tens, units = divmod(n, 10)
    return _TEN_WORDS[tens - 2] + (f"-{_UNIT_WORDS[units]}" if units else "")


def _short_scale(number: Decimal) -> str | None:
    """"100k", "1.2k", "1.5 million" when exact and at least a thousand."""
    for size, suffix in ((10**6, " million"), (1000, "k")):
        if number >= size:
            return _plain(number / size) + suffix
    return None


def _money_forms(amount: Decimal, negative: bool) -> list[str]:
    whole = amount == amount.to_integral_value()
    cents = _grouped(amount, 2)
    short = _grouped(amount, 0) if whole else cents
    if negative:
        return [f"-${cents}", f"a ${short} credit", f"a refund of ${cents}", f"-{short} USD"]
    forms = [f"${cents}", f"{short} dollars", f"USD {cents}"]
    scale = _short_scale(amount)
    forms.append(f"${scale}" if scale else f"**${short}**")
    return forms


def _time_forms(minute: int) -> list[str]:
    hour, minutes = divmod(minute, 60)
    twelve, half = hour % 12 or 12, "AM" if hour < 12 else "PM"
    if minute == 720:
        return ["noon", "12 PM", "12:00 PM", "12 noon"]
    if minute == 0:
        return ["midnight", "12 AM", "12:00 AM", "12 midnight"]
    clock = f"{twelve}:{minutes:02d}"
    forms = [f"{clock} {half}", f"{clock}{half.lower()}", f"{clock} {half[0].lower()}.m.", f"{hour:02d}:{minutes:02d}"]
    if minutes == 0:
        forms[1] = f"{twelve}{half.lower()}"
        forms[2] = f"{twelve} {half}"
    return forms


def _date_forms(day: date, year: bool = True) -> list[str]:
    month = _MONTH_NAMES[day.month - 1].capitalize()
    ordinal = f"{day.day}" + ("th" if 10 <= day.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day.day % 10, "th"))
    weekday = day.strftime("%A")
    if not year:
        return [f"{month} {ordinal}", f"{weekday}, {month} {day.day}", f"{day.month}/{day.day}", f"the {ordinal} of {month}"]
    return [f"{month} {ordinal}, {day.year}", f"{weekday}, {month} {day.day}", f"{day.month}/{day.day}/{day.year}", f"{day.day} {month[:3]}. {day.year}"]


def _phone_forms(digits: str) -> list[str]:
    if len(digits) != 10:
        return [f"+{digits}", " ".join(digits[i : i + 3] for i in range(0, len(digits), 3)), digits, f"**{digits}**"]
    area, exchange, line = digits[:3], digits[3:6], digits[6:]
    return [f"({area}) {exchange}-{line}", f"{area}.{exchange}.{line}", f"+1 {area} {exchange} {line}", digits]


def _code_forms(value: str) -> list[str]:
    chars = _code_chars(value).upper()
    return [chars, f"#{chars}", f"`{chars.lower()}`", f"**{value.strip()}**"]


def spoken(output: Output, variant: int = 0) -> str:
    """The value as a person would say it, in a form other than the stored one when there is one.

    `variant` picks among forms deterministically (modulo their number): "$1,234.50",
    "1,234.50 dollars"; "3:45 PM", "3:45pm"; "May 24th, 2026", "5/24/2026"; "(800) 555-1249"...
    """
    forms = _forms(output)
    forms.sort(key=lambda form: form == output.value)  # the stored form itself goes last
    return forms[variant % len(forms)]


def _forms(output: Output) -> list[str]:
    value, kind = output.value, output.kind
    if kind in ("money", "number", "percent"):
        number = _decimal(value)
        amount = abs(number)
        if kind == "money":
            return _money_forms(amount, number < 0)
        sign = "-" if number < 0 else ""
        word = _number_word(amount)
        if kind == "percent":
            return [f"{sign}{_plain(amount)}%", f"{sign}{word or _plain(amount)} percent", f"{sign}{amount:.2f}%", f"{sign}{_grouped(amount)} per cent"]
        scale = _short_scale(amount)
        options = [word, _grouped(amount), scale, f"{amount:.2f}", _plain(amount)]
        forms = [sign + form for form in options if form is not None]
        return list(dict.fromkeys(forms))
    if kind == "date":
        return _date_forms(_date(value))
    if kind == "time":
        return _time_forms(_minutes(value))
    if kind == "phone":
        return _phone_forms(_phone_digits(value))
    if kind == "code":
        return _code_forms(value)
    stripped = " ".join(value.split())
    if kind == "name":
        return [" ".join(_word_list(value)).title(), stripped.upper(), f"**{stripped}**", stripped.lower()]
    return [stripped.lower(), stripped.upper(), f"**{stripped}**", f"\u201c{stripped}\u201d"]


def near_misses(output: Output) -> list[str]:
    """Phrasings of wrong values that `output_told` must reject, said the way a person says them.

    money +0.01 and +1; number and percent +1; date a day off, a month off, a year off; time a
    minute off and 12 hours off (said with AM/PM, so unambiguous); phone and code one character
    changed (and a code one character longer); name and text one word replaced (or, for one word,
    that word inside a longer one).
    """
    value, kind = output.value, output.kind
    if kind in ("money", "number", "percent"):
        number = _decimal(value)
        sign = Decimal(-1) if number < 0 else Decimal(1)
        steps = [Decimal("0.01"), Decimal(1)] if kind == "money" else [Decimal(1)]
        wrong = [abs(number) + step for step in steps]
        if kind == "money":
            return [form for amount in wrong for form in _money_forms(amount, sign < 0)[:2]]
        return [spoken(Output(value=_plain(sign * amount), kind=kind), v) for amount in wrong for v in (0, 1)]
    if kind == "date":
        day = _date(value)
        return [*_date_forms(day + timedelta(days=1))[:3], *_date_forms(_shift_month(day))[:1], f"{_date_forms(day)[0].rsplit(' ', 1)[0]} {day.year - 1}", _date_forms(day - timedelta(days=1), year=False)[0]]
    if kind == "time":
        minute = _minutes(value)
        minutes = [(minute + 1) % 1440, (minute - 1) % 1440, (minute + 720) % 1440, (minute + 60) % 1440]
        return [_time_forms(m)[0] for m in minutes]
    if kind == "phone":
        digits = _phone_digits(value)
        changed = [_bump(digits, len(digits) - 1), _bump(digits, 0), _bump(digits, len(digits) // 2)]
        return [_phone_forms(d)[0] for d in changed]
    if kind == "code":
        chars = _code_chars(value).upper()
        return [_bump(chars, len(chars) - 1), _bump(chars, 0), chars + ("1" if chars[-1].isalpha() else "8"), "A" + chars]
    words = " ".join(value.split()).split(" ")
    replacement = next(word for word in ("Smith", "Brown", "Silver", "Other") if word.casefold() not in _word_list(value))
    misses = [" ".join([*words[:-1], replacement])]
    content = [i for i, word in enumerate(words) if _words(word).strip() not in _HONORIFICS]
    if len(words) > 1 and content and content[0] != len(words) - 1:
        misses.append(" ".join(replacement if i == content[0] else word for i, word in enumerate(words)))
    if len(words) == 1:
        misses += [words[0] + "man", "Un" + words[0].lower()]
    return misses


def _shift_month(day: date) -> date:
    for offset in (1, -1, 2, -2):
        month0 = day.month - 1 + offset
        try:
            return day.replace(year=day.year + month0 // 12, month=month0 % 12 + 1)
        except ValueError:
            continue
    raise AssertionError("unreachable: some month within two has every day")  # pragma: no cover


def _bump(chars: str, index: int) -> str:
    """`chars` with one character changed: a digit to the next digit, a letter to the next letter."""
    char = chars[index]
    if char.isdigit():
        new = str((int(char) + 1) % 10)
    elif char.isalpha():
        new = "a" if char.lower() == "z" else chr(ord(char.lower()) + 1)
        new = new.upper() if char.isupper() else new
    else:
        new = "0"
    return chars[:index] + new + chars[index + 1 :]
