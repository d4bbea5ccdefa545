"""How a quote is priced: shared by the tools and the generator, so stored quotes and previews agree."""

from __future__ import annotations

from typing import Any


def price_lines(prices: dict[str, float], names: dict[str, str], lines: list[tuple[str, int, float]],
                header_discount_pct: float) -> dict[str, Any]:
    """Price (sku, quantity, line discount %) lines at a price book's unit prices, then the header discount.

    Each line's net is quantity x unit price x (1 - line discount), rounded to the cent; the header discount
    applies to the sum of the line nets. The effective discount compares the net total with the list total."""
    out: list[dict[str, Any]] = []
    for sku, quantity, discount in lines:
        unit = prices[sku]
        net = round(quantity * unit * (1 - discount / 100), 2)
        out.append({"sku": sku, "product_name": names[sku], "quantity": quantity, "unit_price": unit,
                    "discount_pct": discount, "net_amount": net})
    list_total = round(sum(line["quantity"] * line["unit_price"] for line in out), 2)
    subtotal = round(sum(line["net_amount"] for line in out), 2)
    header_amount = round(subtotal * header_discount_pct / 100, 2)
    net_total = round(subtotal - header_amount, 2)
    effective = round((1 - net_total / list_total) * 100, 2) if list_total else 0.0
    return {"lines": out, "list_total": list_total, "lines_subtotal": subtotal, "header_discount_pct": header_discount_pct,
            "header_discount_amount": header_amount, "net_total": net_total,
            "total_discount_amount": round(list_total - net_total, 2), "effective_discount_pct": effective}
