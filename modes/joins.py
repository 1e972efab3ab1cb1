"""The keys of a join: the column of each table the rows are matched on.

Two tables often call their key differently (客户ID ↔ Customer ID). A key pair the user states is used as stated
("销售订单的客户ID对应customers的Customer ID", "orders.客户ID = customers.Customer ID"); a key the first table has
and the second does not is asked about, naming the second table's columns, before anything runs.
"""

from __future__ import annotations

import re

from modes.catalog import SheetInfo
from modes.resolve import ColumnHit, find_columns

# what may stand between the two keys of a stated pair (the file names are blanked out of the text already)
PAIR_GAP = re.compile(r"[\s.。的:：]*(?:对应于?|对上|匹配|等于|==|=|↔|<->|->|(?:corresponds |maps )?to|matches|equals)[\s.。的:：]*", re.I | re.A)
AND_GAP = re.compile(r"[\s.。的:：]*(?:跟|和|与|and)[\s.。的:：]*", re.I | re.A)  # 客户ID和Customer ID对应
PAIR_AFTER = re.compile(r"\s*(?:是)?(?:对应|匹配|对上|相等|一致|相同|match|correspond)", re.I | re.A)
KEY_WORDS = re.compile(r"关联|合并|连接|匹配|对应|join|merge|match", re.I | re.A)


def _exact(hits: list[ColumnHit]) -> list[ColumnHit]:
    return [h for h in hits if h.how in ("exact", "synonym")]


LEAD = re.compile(r"(?:(?<![a-z_])(?:where|when|on|using|by|with)|按照?|以|用|其中|通过)\s*$", re.I | re.A)


def pair_span(text: str, a: SheetInfo, b: SheetInfo) -> tuple[str, str, int, int] | None:
    """(key of a, key of b, start, end): a stated key pair and the words that state it (with a leading where / 按)."""
    if not KEY_WORDS.search(text):
        return None
    ha, hb = _exact(find_columns(text, a)), _exact(find_columns(text, b))
    for x in ha:
        for y in hb:
            first, second = (x, y) if x.end <= y.start else (y, x)
            if x.column == y.column or first.end > second.start:
                continue
            gap = text[first.end : second.start]
            after = PAIR_AFTER.match(text, second.end)
            if PAIR_GAP.fullmatch(gap) or AND_GAP.fullmatch(gap) and after:
                lead = LEAD.search(text[: first.start])
                return x.column, y.column, lead.start() if lead else first.start, after.end() if after else second.end
    return None


def stated_pair(text: str, a: SheetInfo, b: SheetInfo) -> tuple[str, str] | None:
    """A column of the first table and one of the second, written as matching each other."""
    p = pair_span(text, a, b)
    return (p[0], p[1]) if p else None
