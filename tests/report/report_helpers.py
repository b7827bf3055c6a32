"""Reading a report folder back: links of index.html, PDF pages and text."""
import re
import shutil
import subprocess
import unicodedata
from html.parser import HTMLParser


class Links(HTMLParser):
    """Every href/src of a page, the tags seen, and whether it parsed to the end."""

    def __init__(self):
        super().__init__()
        self.refs, self.tags, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("href", "src") and v:
                self.refs.append(v)

    def handle_data(self, data):
        self.text.append(data)


def parse_page(path):
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    p.close()
    return p


def pdf_pages(path):
    """Page count: pdfinfo when installed, else the page objects of the file."""
    if shutil.which("pdfinfo"):
        out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
        return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))
    return len(re.findall(rb"/Type\s*/Page[^s]", path.read_bytes()))


def pdf_text(path):
    """Text of the PDF with pdftotext, or None when it is not installed."""
    if not shutil.which("pdftotext"):
        return None
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True).stdout
    return unicodedata.normalize("NFKC", text)          # the "fi" ligature back to letters
