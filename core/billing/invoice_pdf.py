"""An invoice as a PDF (fpdf2), drawn from the stored invoice alone so it never changes."""

from decimal import ROUND_HALF_UP, Decimal

from fpdf import FPDF
from fpdf.fonts import FontFace

from core.billing.invoices import CallLine, CreditLine, FeeLine, InvoiceLine
from core.models import Invoice, User

_KINDS = {
    "number_setup": "Setup fee",
    "number_monthly": "Monthly fee",
    "topup": "Top-up",
    "refund": "Refund",
    "adjustment": "Adjustment",
}
CENTS = Decimal("0.01")
_HEAD = FontFace(emphasis="BOLD", fill_color=(230, 230, 230))


def render(invoice: Invoice, customer: User) -> bytes:
    pdf = FPDF()
    pdf.set_creation_date(invoice.created_at)  # the same invoice gives the same bytes
    pdf.set_title(invoice.number)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, f"Invoice {invoice.number}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    for line in (
        _text(customer.company or customer.name),
        _text(customer.email),
        f"Period: {invoice.period_start:%d %b %Y} - {invoice.period_end:%d %b %Y}",
        f"Currency: {invoice.currency}",
    ):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    _table(
        pdf,
        "Summary",
        ("", "Amount"),
        [
            ("Opening balance", _money(invoice.opening_balance)),
            ("Credits (top-ups, refunds)", _money(invoice.topups_total)),
            ("Calls", _money(-invoice.calls_total)),
            ("Number fees", _money(-invoice.fees_total)),
            ("Closing balance", _money(invoice.closing_balance)),
        ],
    )
    calls: list[CallLine] = []
    fees: list[FeeLine] = []
    credits: list[CreditLine] = []
    entry: InvoiceLine
    for entry in invoice.lines:
        if entry["kind"] == "calls":
            calls.append(entry)
        elif entry["kind"] == "number_setup" or entry["kind"] == "number_monthly":
            fees.append(entry)
        else:
            credits.append(entry)
    if calls:
        rows: list[tuple[str, ...]] = [
            (_text(ln["country"]), ln["prefix"], str(ln["calls"]), ln["minutes"], _money(ln["amount"]))
            for ln in calls
        ]
        _table(pdf, "Calls", ("Destination", "Prefix", "Calls", "Minutes", "Amount"), rows)
    if fees:
        rows = [(ln["number"], _KINDS[ln["kind"]], str(ln["count"]), _money(ln["amount"])) for ln in fees]
        _table(pdf, "Number fees", ("Number", "Fee", "Periods", "Amount"), rows)
    if credits:
        rows = [
            (ln["date"], _KINDS[ln["kind"]], _text(ln["description"]), _money(ln["amount"])) for ln in credits
        ]
        _table(pdf, "Credits", ("Date", "Kind", "Note", "Amount"), rows)
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(
        0, 8, f"Total charges: {_money(invoice.total)} {invoice.currency}", new_x="LMARGIN", new_y="NEXT"
    )
    return bytes(pdf.output())


def _table(pdf: FPDF, title: str, head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    pdf.set_font("Helvetica", "B", 12)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=9)
    with pdf.table(headings_style=_HEAD, text_align="LEFT") as table:
        for cells in (head, *rows):
            table.row(cells)
    pdf.ln(4)


def _money(value: Decimal | str) -> str:
    """On paper money shows 2 places (domain.md); the stored 4 stay in the API."""
    return f"{Decimal(value).quantize(CENTS, rounding=ROUND_HALF_UP):,.2f}"


def _text(value: str) -> str:
    # The PDF's built-in fonts are Latin-1; anything else prints as '?' rather than failing.
    return value.encode("latin-1", "replace").decode("latin-1")
