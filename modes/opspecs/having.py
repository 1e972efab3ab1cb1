"""A condition on each group's figure (平均月薪大于10000的城市, cities whose total sales is over 70000): a having.

Read by `modes.ops._rule_having` (its words are those of a statistic next to a column and a comparison); the query
places it after the summary (`modes.query`, stage `having`), whatever the order of the words.
"""

from __future__ import annotations

from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, StepSpec, operation, said_in


@operation
class Having(OpSpec):
    name = "having"
    family = "transform"
    label = {"zh": "按汇总结果筛选", "en": "keep groups by their figure"}
    saves_result = True

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        return None  # read by the reader's having rule, which knows the summary it belongs to

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        text = " 且 ".join(c.describe(lang) for c in args.get("conditions") or []) if lang == "zh" else \
            " and ".join(c.describe(lang) for c in args.get("conditions") or [])
        return said_in(lang, f"汇总后只保留 {text} 的组", f"then keep the groups where {text}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        conds = [c.to_tool() for c in args.get("conditions") or []]
        return [StepSpec("按汇总结果筛选", "filter_rows", "筛选完成", {"conditions": conds, "logic": "and"})]
