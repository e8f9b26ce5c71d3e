
from pagelens import pdf_layout_import as _pdf_layout_import

# PyMuPDF's layout models load on first use, not with `import pymupdf` (see pdf_layout_import).
_pdf_layout_import.defer()
