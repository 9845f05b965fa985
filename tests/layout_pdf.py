"""Hand-written PDFs with a real text layer and typography (no PDF library needed).

``layout_pdf(pages)`` writes each line in Helvetica or Helvetica-Bold at its own size and left
edge, top down, so a test can build a small solicitation in the layouts real PDFs use (bold
headings without numbers, a numbered heading wrapped onto a second line, roman and lettered
levels) and check the outline read from layout and numbering together.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One text line: ``bold`` selects Helvetica-Bold, ``size`` is in points, ``x`` the left
    edge in points, ``gap`` the extra space above it in points (a paragraph break)."""

    text: str
    bold: bool = False
    size: float = 11.0
    x: float = 72.0
    gap: float = 0.0


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def layout_pdf(pages: list[list[Line]]) -> bytes:
    """A PDF of ``pages`` (each a list of ``Line``), letter size, lines placed top down with
    a leading of 1.3 times their size. Text is Latin-1 (the standard Type 1 fonts)."""
    objects: list[bytes] = [b"", b""]  # catalog and page tree, filled in below
    fonts = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    )
    objects.extend(fonts)
    page_ids = []
    for lines in pages:
        y = 740.0
        ops = []
        for line in lines:
            y -= line.gap + line.size * 1.3
            font = "/F2" if line.bold else "/F1"
            ops.append(
                f"BT {font} {line.size:g} Tf {line.x:g} {y:g} Td ({_escape(line.text)}) Tj ET"
            )
        stream = "\n".join(ops).encode("latin-1")
        objects.append(
            b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream"
        )
        content_id = len(objects)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R "
            f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> >>".encode()
        )
        page_ids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects[1] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode()
    return pdf_file(objects)


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
HELVETICA_BOLD = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>"


def pdf_file(objects: list[bytes]) -> bytes:
    """The PDF file of ``objects`` (object 1 the catalog): header, the numbered objects, the
    cross-reference table and the trailer."""
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out


def one_page_pdf(
    ops: list[str],
    fonts: tuple[bytes, ...] = (HELVETICA, HELVETICA_BOLD),
    encoding: str = "latin-1",
) -> bytes:
    """A one-page letter PDF whose content stream is ``ops`` (PDF text operators placing text
    at absolute positions; ``/F1``, ``/F2``... are ``fonts`` in order)."""
    stream = "\n".join(ops).encode(encoding)
    names = " ".join(f"/F{k} {5 + k - 1} 0 R" for k in range(1, len(fonts) + 1))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        + f"/Resources << /Font << {names} >> >> >>".encode(),
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        *fonts,
    ]
    return pdf_file(objects)
