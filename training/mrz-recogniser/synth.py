"""Synthetic MRZ line crops for training the OCR-B line recogniser (issue #19 item 2).

Lines are rendered in OCR-B from Debian's fonts-ocr-b with random MRZ-like text (TD1, TD2, TD3 and visa
layouts, names with filler, dates, numbers) and degraded the ways real captures are: pitch and size, stroke
weight, skew and shear, blur, low resolution, uneven light, paper texture, noise, JPEG, and binarisation as in
scanned crops. Nothing here comes from real documents.
"""
import io
import math
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
FONT_PATHS = ["/usr/share/fonts/opentype/ocr-b/OCRB.otf", "/usr/share/fonts/opentype/ocr-b/OCRBS.otf"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
STATES = ["UTO", "D<<", "GBR", "FRA", "USA", "NLD", "ESP", "ITA", "EST", "CZE", "AUS", "COL", "CHE", "AUT", "POL",
          "SWE", "NOR", "FIN", "DNK", "BEL", "PRT", "IRL", "CAN", "MEX", "BRA", "ARG", "CHN", "JPN", "KOR", "IND",
          "RUS", "UKR", "TUR", "GRC", "HUN", "ROU", "BGR", "SVK", "SVN", "HRV", "LTU", "LVA", "ISL", "LUX", "MLT"]

_fonts = {}


def font(path, size):
    key = (path, size)
    if key not in _fonts:
        _fonts[key] = ImageFont.truetype(path, size)
    return _fonts[key]


# Share of name letters drawn from the OCR-B look-alikes H, M, N and W (set by train.py's --hmnw-share; 0 draws
# every letter uniformly, as the first model was trained). Names are where these four are misread, and no check
# digit catches them there.
HMNW_SHARE = 0.0


def rand_letter():
    return random.choice("HMNW") if random.random() < HMNW_SHARE else random.choice(LETTERS)


def rand_word(lo, hi):
    n = random.randint(lo, hi)
    return "".join(rand_letter() for _ in range(n))


def rand_name_field(width):
    parts = [rand_word(2, 11)]
    if random.random() < 0.3:
        parts.append(rand_word(2, 9))
    surname = "<".join(parts)
    given = [rand_word(2, 9) for _ in range(random.randint(0, 3))]
    s = surname + "<<" + "<".join(given)
    return (s + "<" * width)[:width]


def rand_digits(n):
    return "".join(random.choice(DIGITS) for _ in range(n))


def rand_alnum(n, digit_share=0.7):
    return "".join(random.choice(DIGITS) if random.random() < digit_share else random.choice(LETTERS) for _ in range(n))


def rand_number_field(n):
    core = rand_alnum(random.randint(max(1, n - 3), n))
    return (core + "<" * n)[:n]


def rand_date():
    return "%02d%02d%02d" % (random.randint(0, 99), random.randint(1, 12), random.randint(1, 31))


def rand_line():
    """One MRZ-like line of a random layout."""
    kind = random.random()
    state = random.choice(STATES)
    if kind < 0.12:  # TD3 / MRV-A first line
        return random.choice(["P", "V", "I"]) + random.choice("<<<ADOSRM") + state + rand_name_field(39)
    if kind < 0.24:  # TD3 second line
        s = rand_number_field(9) + rand_digits(1) + random.choice(STATES) + rand_date() + rand_digits(1)
        s += random.choice("MF<") + rand_date() + rand_digits(1) + rand_number_field(14) + rand_digits(2)
        return s
    if kind < 0.34:  # TD1 first line
        return random.choice(["I", "A", "C"]) + random.choice("<<DRP") + state + rand_number_field(9) + rand_digits(1) + rand_number_field(15)
    if kind < 0.44:  # TD1 second line
        return rand_date() + rand_digits(1) + random.choice("MF<") + rand_date() + rand_digits(1) + random.choice(STATES) + rand_number_field(11) + rand_digits(1)
    if kind < 0.54:  # TD1 third line
        return rand_name_field(30)
    if kind < 0.62:  # TD2 / MRV-B first line
        return random.choice(["I", "V", "P"]) + random.choice("<<DR") + state + rand_name_field(31)
    if kind < 0.70:  # TD2 second line
        s = rand_number_field(9) + rand_digits(1) + random.choice(STATES) + rand_date() + rand_digits(1)
        return s + random.choice("MF<") + rand_date() + rand_digits(1) + rand_number_field(7) + rand_digits(1)
    if kind < 0.85:  # random characters: no layout prior
        n = random.choice([30, 36, 44])
        return "".join(random.choice(ALPHABET) for _ in range(n))
    # random runs of letters, digits and filler
    out = ""
    n = random.choice([30, 36, 44])
    while len(out) < n:
        r = random.random()
        out += rand_word(1, 8) if r < 0.4 else rand_digits(random.randint(1, 8)) if r < 0.75 else "<" * random.randint(1, 6)
    return out[:n]


def render(text, rng_fragment=True):
    """A degraded line crop (grey uint8, any size) and its text."""
    if rng_fragment and random.random() < 0.85:
        n = random.randint(5, 16)
        a = random.randint(0, max(0, len(text) - n))
        text = text[a : a + n]
    size = random.randint(26, 56)
    f = font(random.choice(FONT_PATHS) if random.random() < 0.25 else FONT_PATHS[0], size)
    adv = f.getlength("M")
    pitch = adv * random.uniform(0.92, 1.35)
    ascent, descent = f.getmetrics()
    cap = size * 0.72
    mx = int(pitch * random.uniform(0.05, 1.2)) + 2
    top = int(cap * random.uniform(0.05, 0.6)) + 2
    bottom = int(cap * random.uniform(0.05, 0.6)) + 2
    w = int(mx * 2 + pitch * len(text))
    h = int(top + ascent + descent * 0.2 + bottom)
    paper = random.randint(140, 255)
    ink = random.randint(0, min(100, paper - 80))
    img = Image.new("L", (w, h), paper)
    d = ImageDraw.Draw(img)
    y0 = top - (ascent - cap) * 0.98
    jitter = random.uniform(0, 1.5)
    for i, ch in enumerate(text):
        x = mx + i * pitch + random.uniform(-jitter, jitter) * size / 40
        y = y0 + random.uniform(-jitter, jitter) * size / 50
        d.text((x, y), ch, font=f, fill=ink)
    # Neighbouring lines' ink cut by the crop, above or below.
    if random.random() < 0.15:
        other = rand_line()
        yo = -ascent * random.uniform(0.75, 1.05) if random.random() < 0.5 else h - (ascent - cap) - cap * random.uniform(0.0, 0.3)
        for i, ch in enumerate(other[: len(text) + 2]):
            d.text((mx + i * pitch, y0 + yo), ch, font=f, fill=ink)
    # Glyph aspect: printed MRZs and their scans are often narrower (or wider) than the font's own glyphs; a
    # narrow O is what a 0 looks like in OCR-B, so the network must see both.
    sx = random.uniform(0.68, 1.15)
    img = img.resize((max(8, int(w * sx)), h), Image.BILINEAR)
    w = img.width
    # Stroke weight.
    r = random.random()
    if r < 0.2:
        img = img.filter(ImageFilter.MinFilter(3))  # bolder (dark ink grows)
    elif r < 0.35:
        img = img.filter(ImageFilter.MaxFilter(3))  # thinner
    arr = np.asarray(img, dtype=np.float32)
    # Uneven light and paper texture.
    if random.random() < 0.6:
        gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = random.uniform(0, 2 * math.pi)
        grad = (np.cos(ang) * gx / max(1, w) + np.sin(ang) * gy / max(1, h)) * random.uniform(-60, 60)
        arr = arr + grad
    if random.random() < 0.5:
        small = np.random.randn(max(2, h // 8), max(2, w // 8)).astype(np.float32)
        tex = np.asarray(Image.fromarray(small).resize((w, h), Image.BILINEAR), dtype=np.float32)
        arr = arr + tex * random.uniform(0, 18)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    # Skew and shear.
    if random.random() < 0.7:
        ang = random.uniform(-1.5, 1.5)
        shear = random.uniform(-0.18, 0.18)
        img = img.transform(img.size, Image.AFFINE, (1, shear, -shear * h / 2, 0, 1, 0), resample=Image.BILINEAR, fillcolor=paper)
        img = img.rotate(ang, resample=Image.BILINEAR, fillcolor=paper)
    # Blur and resolution loss.
    if random.random() < 0.6:
        img = img.filter(ImageFilter.GaussianBlur(random.uniform(0.3, 1.6) * size / 40))
    if random.random() < 0.6:
        th = random.randint(15, 40)
        tw = max(8, int(img.width * th / img.height * random.uniform(0.8, 1.1)))
        img = img.resize((tw, th), random.choice([Image.BILINEAR, Image.BOX, Image.NEAREST]))
    arr = np.asarray(img, dtype=np.float32)
    if random.random() < 0.6:
        arr = arr + np.random.randn(*arr.shape).astype(np.float32) * random.uniform(2, 16)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    if random.random() < 0.5:
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=random.randint(12, 90))
        img = Image.open(io.BytesIO(buf.getvalue())).convert("L")
    # Binarised crops (as in scanned or preprocessed line images).
    if random.random() < 0.35:
        if random.random() < 0.5:
            img = img.resize((max(8, int(img.width * 58 / img.height)), 58), Image.BILINEAR)
        a = np.asarray(img, dtype=np.float32)
        lo, hi = np.percentile(a, 3), np.percentile(a, 90)
        t = lo + (hi - lo) * random.uniform(0.3, 0.7)
        a = np.where(a < t, 0, 255).astype(np.uint8)
        if random.random() < 0.3:
            flip = np.random.rand(*a.shape) < random.uniform(0.001, 0.02)
            a = np.where(flip, 255 - a, a).astype(np.uint8)
        img = Image.fromarray(a)
    return img, text


def to_input(img, height=32, max_width=1200):
    """Grey crop -> float32 [height, width] in [-1, 1], aspect kept, contrast stretched."""
    w = max(8, min(max_width, int(round(img.width * height / max(1, img.height)))))
    a = np.asarray(img.resize((w, height), Image.BILINEAR), dtype=np.float32)
    lo, hi = np.percentile(a, 2), np.percentile(a, 98)
    a = (a - lo) / max(1.0, hi - lo)
    return np.clip(a, 0, 1) * 2 - 1


def encode(text):
    return [ALPHABET.index(c) + 1 for c in text]


if __name__ == "__main__":
    import sys
    random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    for i in range(12):
        img, t = render(rand_line())
        img.save("/tmp/synth-%d.png" % i)
        print(i, img.size, t)
