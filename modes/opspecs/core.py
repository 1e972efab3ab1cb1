"""The built-in operations, each in one place (see modes/opspec.py for how to add one)."""

from __future__ import annotations

import re
from typing import Any

from modes.conditions import Cond
from modes.naming import export_format, output_stem
from modes.opspec import OpSpec, PlanContext, Slot, StepSpec, operation
from modes.opspec import said_in as _zh

# a column that names things rather than measures them: 客户编号, 型号, store_id, CustomerId (never fee_paid, valid)
ID_LIKE = re.compile(r"(?:编号|号|代码)$|(?i:(?:^|[\s_.\-])(?:id|code|no))$|(?<=[a-z])(?:Id|ID|Code)$")
AVERAGED = {"price", "rating", "age", "spend", "salary"}
AGG_LABEL = {"zh": {"sum": "合计", "mean": "平均", "median": "中位数", "count": "计数", "min": "最小", "max": "最大", "distinct": "不同值个数"},
             "en": {"sum": "sum", "mean": "mean", "median": "median", "count": "count", "min": "min", "max": "max", "distinct": "number of distinct values"}}


COND_OPS = {"eq", "ne", "gt", "ge", "lt", "le", "between", "contains", "not_contains", "in", "not_in", "empty",
            "not_empty", "startswith", "endswith", "numeric", "not_numeric", "not_between", "blank_or_numeric", "blank_or_not_numeric"}
def _sep(lang: str) -> str:
    return "、" if lang == "zh" else ", "


@operation
class Profile(OpSpec):
    name = "profile"
    family = "profile"
    label = {"zh": "预览", "en": "preview"}

    def stem_label(self, args: dict[str, Any]) -> str:
        return ""

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        if args.get("head"):
            return _zh(lang, f"预览前 {args['head']} 行", f"preview the first {args['head']} rows")
        if args.get("question") == "rows":  # 一共有多少条 / how many members: the rows counted, shown with its structure
            return _zh(lang, "数一共有多少行（并预览结构）", "count its rows (with a preview of its structure)")
        return _zh(lang, "预览结构（行列、类型、空值、样例）", "preview its structure (shape, types, blanks, samples)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return []  # the plan always starts with a preview step


@operation
class Filter(OpSpec):
    name = "filter"
    label = {"zh": "筛选", "en": "filter"}
    slots = (Slot("conditions", "conditions", "筛选条件是什么？例如“评分大于4”“地址不为空”。",
                  "What is the condition? e.g. “rating > 4”, “address is not empty”.", gap="condition"),)
    saves_result = True
    main_slot = "conditions"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        conds: list[Cond] = args.get("conditions") or []
        joiner = _zh(lang, " 或 ", " or ") if args.get("logic") == "or" else _zh(lang, " 且 ", " and ")
        text = joiner.join(c.describe(lang) for c in conds if c.column)
        if not text:
            return self.label[lang]
        return _zh(lang, f"筛选 {text} 的行", f"keep rows where {text}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        conds = [c.to_tool() if hasattr(c, "to_tool") else c for c in args["conditions"]]
        return [StepSpec("筛选行", "filter_rows", "筛选完成", {"conditions": conds, "logic": args.get("logic", "and")})]


@operation
class Sort(OpSpec):
    name = "sort"
    label = {"zh": "排序", "en": "sort"}
    slots = (Slot("by", "columns", "按哪一列排序？", "Sort by which column?", gap="sort_by"),)
    saves_result = True
    main_slot = "by"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        by = _sep(lang).join(args.get("by") or [])
        asc = args.get("ascending")
        if not by:  # after a summary: by its (first) figure, the order said
            return _zh(lang, f"按汇总的数值{'升序' if asc else '降序'}排序", f"sort by the summary's figure, {'ascending' if asc else 'descending'}")
        down = args.get("descending") or []
        if down:  # each key in its own direction
            each = [f"{c} {'降序' if c in down or not asc else '升序'}" if lang == "zh" else f"{c} {'descending' if c in down or not asc else 'ascending'}"
                    for c in args.get("by") or []]
            return _zh(lang, f"按 {'、'.join(each)} 排序", f"sort by {', then '.join(each)}")
        return _zh(lang, f"按 {by} {'升序' if asc else '降序'}排序", f"sort by {by} {'ascending' if asc else 'descending'}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        by = args.get("by") or ([ctx.last_measure] if ctx.last_measure else [])
        down = {"descending": [c for c in args["descending"] if c in by]} if args.get("descending") else {}
        return [StepSpec("排序", "sort_rows", "排序完成", {"by": by, "ascending": bool(args.get("ascending", True)), **down})]


def numeric_measures(sheet: Any, keys: list[str]) -> list[dict[str, str]]:
    """Every numeric column that is not a key or an id: rates and prices averaged, amounts added up."""
    if sheet is None:
        return []
    from modes.lexicon import concept_of

    cols = [c for c in sheet.columns if c in sheet.numeric and c not in keys and not ID_LIKE.search(c)
            and concept_of(c) not in ("phone", "order")]  # a phone number or an order number is a label, never added up
    return [{"column": c, "agg": "mean" if concept_of(c) in AVERAGED or PER_UNIT_NAME.search(c) else "sum"} for c in cols]


# a figure per unit, whatever its concept (Daily Rate / Price per Head / Hourly Rate / 单价 / 满意度 / 占比): averaged, never added up
PER_UNIT_NAME = re.compile(r"(?<![a-z])(?:rate|price|per|avg|average|mean|percent|pct|ratio|score|rating)(?![a-z])|率|单价|均价|评分|占比|比例|平均", re.I)


@operation
class Group(OpSpec):
    name = "group"
    label = {"zh": "分组汇总", "en": "group & summarise"}
    slots = (Slot("keys", "columns", "按哪一列分组？", "Group by which column?", gap="group_by"),)
    saves_result = True
    main_slot = "keys"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        sep = _sep(lang)
        keys = sep.join(args.get("keys") or [])
        ms = args.get("measures") or []
        mtxt = sep.join(_measure_said(m, lang) for m in ms)
        if not mtxt:
            mtxt = _zh(lang, "各数值列的合计（单价、评分等取平均）与行数", "totals of numeric columns (prices and ratings averaged) and row counts")
        if args.get("versus_overall"):
            mtxt += _zh(lang, "，并与整体平均比较（差值、是否高于）", ", each compared with the overall average (difference, above or not)")
        if lang == "zh":
            return f"按 {keys} 分组，计算 {mtxt}" if keys else f"计算 {mtxt}"
        return f"group by {keys}, compute {mtxt}" if keys else f"compute {mtxt}"

    def stem_label(self, args: dict[str, Any]) -> str:
        return "汇总"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        from tools.ops import ROWS, measure_name, where_name

        keys = list(args.get("keys") or [])
        measures = list(args.get("measures") or []) or numeric_measures(ctx.sheet, keys)
        lang = "en" if getattr(ctx.request, "lang", "zh") == "en" else "zh"  # result columns in the request's language
        first = next((m for m in measures if m.get("column") or m.get("where")), None)  # a bare count is the rows column, always there
        ctx.last_measure = (where_name(_measures_to_tool([first])[0], lang) if first.get("where") else measure_name(first["column"], first["agg"], lang)) \
            if first else ROWS[lang]
        named: dict[str, Any] = {"lang": lang} if lang != "zh" else {}
        if args.get("versus_overall"):
            named["versus_overall"] = True
        return [StepSpec("分组汇总", "group_summarize", "汇总完成", {"keys": keys, "measures": _measures_to_tool(measures), **named})]


def _measure_said(m: dict[str, Any], lang: str) -> str:
    """One measure as restated: 金额 合计, row count, and a figure over part of the rows (办结情况为未处理 的行数)."""
    what = f"{m['column']} {AGG_LABEL[lang][m['agg']]}" if m.get("column") and m.get("agg") != "count" or m.get("column") and not m.get("where") \
        else _zh(lang, "行数", "row count")
    if not m.get("where"):
        return what
    part = _zh(lang, " 且 ", " and ").join(c.describe(lang) if hasattr(c, "describe") else str(c) for c in m["where"])
    return _zh(lang, f"其中 {part} 的{what.replace(' ', '')}", f"{what} where {part}")


def _measures_to_tool(ms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Measures as the tool takes them: a part of the rows' conditions as plain predicates."""
    return [{**m, "where": [c.to_tool() if hasattr(c, "to_tool") else c for c in m["where"]]} if m.get("where") else m for m in ms]


@operation
class Dedupe(OpSpec):
    name = "dedupe"
    label = {"zh": "去重", "en": "dedupe"}
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        sub = _sep(lang).join(args.get("subset") or [])
        if args.get("show"):
            return _zh(lang, f"找出 {sub} 重复的行" if sub else "找出重复的行", f"list rows duplicated on {sub}" if sub else "list duplicated rows")
        said = _zh(lang, f"按 {sub} 去重" if sub else "删除重复行", f"dedupe on {sub}" if sub else "remove duplicate rows")
        keep, by = args.get("keep") or "first", args.get("by")
        if by:  # 每组保留 下单日期 最新的一行 / keeping the row with the latest SaleDate
            return said + _zh(lang, f"（重复的只保留 {by} {'最大/最晚' if keep == 'last' else '最小/最早'}的一行）",
                              f" (of each set of duplicates, the row with the {'largest/latest' if keep == 'last' else 'smallest/earliest'} {by} stays)")
        if keep == "last":
            return said + _zh(lang, "（重复的保留最后一行）", " (of each set of duplicates, the last row stays)")
        return said

    def stem_label(self, args: dict[str, Any]) -> str:
        return "重复行" if args.get("show") else "去重"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        sub = {"subset": args["subset"]} if args.get("subset") else {}
        if args.get("keep") == "last":
            sub["keep"] = "last"
        if args.get("by"):
            sub["by"] = args["by"]
        if args.get("show"):
            return [StepSpec("找出重复行", "find_duplicates", "检查完成", sub)]
        return [StepSpec("去重", "deduplicate", "去重完成", sub)]


@operation
class Clean(OpSpec):
    name = "clean"
    label = {"zh": "清洗", "en": "clean"}
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        fill = args.get("fill")
        if fill:
            return _sep(lang).join(_zh(lang, f"{'所有列' if k == '*' else k} 的空值填为“{v}”", f"fill blanks in {'all columns' if k == '*' else k} with '{v}'")
                                   for k, v in fill.items())
        return _zh(lang, "清洗（去首尾空格、删除全空行）", "clean (trim spaces, drop empty rows)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        fill = args.get("fill")
        if fill and "*" in fill and ctx.sheet is not None:
            fill = {c: fill["*"] for c in ctx.sheet.columns}
        return [StepSpec("清洗", "clean", "清洗完成", {"fill": fill} if fill else {})]


@operation
class Select(OpSpec):
    name = "select"
    label = {"zh": "选列", "en": "select columns"}
    slots = (Slot("columns", "columns", "要保留哪几列？", "Which columns to keep?"),)
    saves_result = True
    main_slot = "columns"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = _sep(lang).join(args.get("columns") or [])
        return _zh(lang, f"只保留 {cols} 列", f"keep columns {cols}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("选择列", "select_columns", "列已选出", {"columns": args["columns"]})]


@operation
class AddColumn(OpSpec):
    name = "add_column"
    label = {"zh": "加计算列", "en": "add a column"}
    slots = (Slot("left", "column", "新列怎么算？例如“含税金额=金额×1.13”。", "How is the new column computed? e.g. “with_tax = amount * 1.13”.",
                  gap="expression"),)
    saves_result = True
    main_slot = "left"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        right = args.get("right")
        r = right.get("column") if isinstance(right, dict) else right
        rounded = _zh(lang, f"，保留 {args['digits']} 位小数", f", rounded to {args['digits']} decimals") if args.get("digits") is not None else ""
        return _zh(lang, "新增列", "add column") + f" {args.get('name')} = {args.get('left')} {args.get('op')} {r}{rounded}"

    def stem_label(self, args: dict[str, Any]) -> str:
        return "加列"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("新增计算列", "add_column", "新列已计算", {k: args[k] for k in ("name", "left", "op", "right", "digits") if k in args})]


@operation
class TopN(OpSpec):
    name = "top_n"
    label = {"zh": "取前几名", "en": "top N"}
    slots = (Slot("by", "column", "按哪一列排序？", "Sort by which column?", gap="sort_by", fits="ordered"),)
    saves_result = True
    main_slot = "by"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        low = args.get("ascending")
        if args.get("both"):
            return _zh(lang, f"找出{' ' + args['by'] + ' ' if args.get('by') else ''}最高和最低的{'行' if args.get('by') else '组'}（并列的都列出）",
                       f"find the {'rows' if args.get('by') else 'groups'} with the highest and the lowest {args.get('by') or 'value'} (ties listed)")
        if args.get("percent") is not None:  # the top 10%: a share of the rows (or groups) holding a value, rounded up
            what = _zh(lang, f" {args['by']} " if args.get("by") else "", f" by {args['by']}" if args.get("by") else "")
            within = _zh(lang, f"在每个 {'、'.join(args['within'])} 内，", f"within each {', '.join(args['within'])}, ") if args.get("within") else ""
            return _zh(lang, f"{within}取{what}{'最低' if low else '最高'}的前 {args['percent']}% 的{'行' if args.get('by') else '组'}（按有值的行数算，向上取整）",
                       f"{within}the {'bottom' if low else 'top'} {args['percent']}% of {'rows' if args.get('by') else 'groups'}{what} (of those with a value, rounded up)")
        if args.get("within") and not args.get("by"):  # after a grouping: its groups ranked by the measure, within each key
            keys = _zh(lang, "、", ", ").join(args["within"])
            return _zh(lang, f"在每个 {keys} 内，取{'最低' if low else '最高'}的 {args.get('n')} 组",
                       f"within each {keys}, the {'lowest' if low else 'highest'} {args.get('n')} groups")
        if args.get("within"):
            keys = _zh(lang, "、", ", ").join(args["within"])
            return _zh(lang, f"在每个 {keys} 内，取 {args.get('by')} {'最小' if low else '最大'}的 {args.get('n')} 行",
                       f"within each {keys}, the {'bottom' if low else 'top'} {args.get('n')} rows by {args.get('by')}")
        if args.get("question") and args.get("by") and (args.get("n") or 1) > 1:
            return _zh(lang, f"找出 {args['by']} {'最低' if low else '最高'}的 {args['n']} 行",
                       f"find the {args['n']} rows with the {'lowest' if low else 'highest'} {args['by']}")
        if args.get("question") and args.get("by"):
            return _zh(lang, f"找出 {args['by']} {'最低' if low else '最高'}的那一行",
                       f"find the row with the {'lowest' if low else 'highest'} {args['by']}")
        if args.get("question") and (args.get("n") or 1) > 1:  # 前三的销售员: the groups ranked by their total
            return _zh(lang, f"取{'最低' if low else '最高'}的 {args['n']} 组", f"take the {'lowest' if low else 'highest'} {args['n']} groups")
        if args.get("question"):
            return _zh(lang, "取最低的一组" if low else "取最高的一组", "take the lowest group" if low else "take the highest group")
        if not args.get("by"):  # after a summary: its groups, ranked by what it computed
            return _zh(lang, f"取{'最低' if low else '最高'}的 {args.get('n')} 组", f"the {'lowest' if low else 'highest'} {args.get('n')} groups")
        return _zh(lang, f"取 {args.get('by')} {'最小' if low else '最大'}的 {args.get('n')} 行",
                   f"{'bottom' if low else 'top'} {args.get('n')} rows by {args.get('by')}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "最高最低" if args.get("both") else f"前百分之{args['percent']}" if args.get("percent") is not None else f"前{args.get('n', 10)}"

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "extremes":
            return None
        from tools.fmt import num

        keys = "、".join(facts["keys"]) if lang == "zh" else ", ".join(facts["keys"])
        hi, lo = "、".join(facts["highest"]), "、".join(facts["lowest"])
        return _zh(lang, f"{keys} 中 {facts['by']} 最高的是 {hi}（{num(facts['max'], lang)}），最低的是 {lo}（{num(facts['min'], lang)}）。",
                   f"Highest {facts['by']}: {', '.join(facts['highest'])} ({num(facts['max'], lang)}); lowest: {', '.join(facts['lowest'])} ({num(facts['min'], lang)}).")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        if args.get("both"):  # the highest and the lowest, every tied row
            g = ctx.request.op("group") if ctx.request is not None else None
            keys = {"keys": g.args["keys"]} if g is not None and g.args.get("keys") else {}
            return [StepSpec("找出最高和最低", "extremes", "已找出", {"by": args.get("by") or ctx.last_measure, **keys})]
        within = {"within": args["within"]} if args.get("within") else {}
        within |= {"percent": args["percent"]} if args.get("percent") is not None else {}
        return [StepSpec("取前几名", "top_n", "筛选完成", {"by": args.get("by") or ctx.last_measure, "n": args.get("n", 10),
                                                        "ascending": bool(args.get("ascending", False)), **within})]


@operation
class Head(OpSpec):
    name = "head"
    label = {"zh": "取前几行", "en": "first rows"}
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, f"取前 {args.get('n')} 行", f"take the first {args.get('n')} rows")

    def stem_label(self, args: dict[str, Any]) -> str:
        return f"前{args.get('n', 10)}行"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec(f"取前 {args.get('n', 10)} 行", "head_rows", "筛选完成", {"n": args.get("n", 10)})]


@operation
class Rename(OpSpec):
    name = "rename"
    label = {"zh": "改名", "en": "rename"}
    saves_result = True
    main_slot = "mapping"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        pairs = _sep(lang).join(f"{o} → {n}" for o, n in (args.get("mapping") or {}).items())
        return _zh(lang, f"把列改名：{pairs}", f"rename columns: {pairs}")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("重命名列", "rename_columns", "列已改名", {"mapping": args["mapping"]})]


@operation
class Count(OpSpec):
    name = "count"
    label = {"zh": "计数", "en": "count"}
    answers_question = True

    def stem_label(self, args: dict[str, Any]) -> str:
        return ""

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, "统计满足条件的行数", "count the matching rows")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return []  # the filter step's row count is the answer


@operation
class Compare(OpSpec):
    name = "compare"
    family = "explore"
    label = {"zh": "对比", "en": "compare"}

    def stem_label(self, args: dict[str, Any]) -> str:
        return ""

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        sheets = args.get("sheets") or []
        if len(sheets) > 1:  # two sheets of one workbook: which two, said
            return _zh(lang, f"对比 {sheets[0]} 和 {sheets[1]} 两张表", f"compare the sheets {sheets[0]} and {sheets[1]}")
        if args.get("other_sheet"):  # 商品.csv和南区店对比: the second table's sheet, said
            return _zh(lang, f"对比两张表（第二张表用 {args['other_sheet']} 表）", f"compare the two tables (the second one's sheet {args['other_sheet']})")
        return _zh(lang, "对比两张表", "compare the two tables")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        r = ctx.request
        sheets = args.get("sheets") or []
        other = r.files[1] if len(r.files) > 1 else r.file
        where = {"other_path": r.file, "other_sheet": sheets[1]} if len(sheets) > 1 and len(r.files) < 2 else \
            {"other_path": other, **({"other_sheet": args["other_sheet"]} if args.get("other_sheet") else {})}
        return [StepSpec("对比两张表", "compare_tables", "对比完成", {**where, **({"columns": args["columns"]} if args.get("columns") else {})})]


@operation
class Outliers(OpSpec):
    name = "outliers"
    family = "explore"
    label = {"zh": "找异常值", "en": "find outliers"}
    slots = (Slot("column", "column", "要找哪一列的异常值？", "Outliers in which column?", numeric=True),)
    main_slot = "column"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, f"找出 {args.get('column')} 的异常值", f"find outliers in {args.get('column')}")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "异常值"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("找异常值", "find_outliers", "检查完成", {"column": args["column"]})]


@operation
class Correlate(OpSpec):
    name = "correlate"
    family = "explore"
    label = {"zh": "看相关性", "en": "correlation"}
    slots = (Slot("columns", "columns", "要看哪两列之间的关系？", "Which two columns?", gap="columns_pair"),)
    main_slot = "columns"

    def stem_label(self, args: dict[str, Any]) -> str:
        return ""

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = _sep(lang).join(args.get("columns") or [])
        return _zh(lang, f"看 {cols} 之间的相关性", f"correlate {cols}")

    def gaps(self, args: dict[str, Any]) -> list[str]:
        return ["columns_pair"] if len(args.get("columns") or []) < 2 else []

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("计算相关性", "correlate_columns", "相关性已计算", {"a": args["columns"][0], "b": args["columns"][1]})]


JOIN_HOW_LABEL = {"zh": {"left": "左连接：保留第一张表的每一行", "inner": "内连接：只保留两边都匹配上的行", "full": "全连接：两边的行都保留",
                         "anti": "只保留第一张表里在第二张表中找不到的行"},
                  "en": {"left": "left join: every row of the first table", "inner": "inner join: only rows matched on both sides",
                         "full": "full join: every row of both tables", "anti": "only the first table's rows with no match in the second"}}


@operation
class Join(OpSpec):
    name = "join"
    family = "explore"
    label = {"zh": "关联", "en": "join"}
    slots = (Slot("on", "column", "按哪一列关联？", "Join on which column?", gap="join_key"),)
    saves_result = True
    main_slot = "on"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        on = f"{args.get('on')} ↔ {args['other_on']}" if args.get("other_on") else args.get("on")
        how = JOIN_HOW_LABEL["zh" if lang == "zh" else "en"][args.get("how") or "left"]
        if args.get("key_shared"):  # the key was not said: it is the one column the two tables share
            how = _zh(lang, f"两张表共有的列只有它；{how}", f"the only column both tables have; {how}")
        other = _zh(lang, f"第二张表（{args['other_sheet']} 表）", f"the second (its sheet {args['other_sheet']})") if args.get("other_sheet") else \
            _zh(lang, "第二张表", "the second")
        if args.get("how") == "anti":  # drivers who never appear in deliveries
            return _zh(lang, f"只保留第一张表里 {on} 在{other}中找不到的行", f"keep the first table's rows whose {on} is not in {other}")
        if args.get("other_sheet"):
            how = _zh(lang, f"第二张表用 {args['other_sheet']} 表；{how}", f"the second table's sheet {args['other_sheet']}; {how}")
        if args.get("once"):  # 先把车主.csv按车牌去重再对: the second table deduplicated on its key first
            how = _zh(lang, f"第二张表先按 {args.get('other_on') or on} 去重，每个值只取第一行；{how}",
                      f"the second table first deduplicated on {args.get('other_on') or on}, its first row per key; {how}")
        if args.get("columns"):  # a lookup: only the columns asked for are brought over
            cols = ("、" if lang == "zh" else ", ").join(args["columns"])
            return _zh(lang, f"按 {on} 把第二张表的 {cols} 对到第一张表的每一行（{how}）",
                       f"bring {cols} from the second table onto each row of the first, matched on {on} ({how})")
        return _zh(lang, f"按 {on} 关联两张表（{how}）", f"join the two tables on {on} ({how})")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        sheets = args.get("sheets") or []
        r = ctx.request
        keys = {"on": args["on"], **({"other_on": args["other_on"]} if args.get("other_on") else {}),
                **({"how": args["how"]} if args.get("how") and args["how"] != "left" else {}),
                **({"columns": list(args["columns"])} if args.get("columns") else {}), **({"once": True} if args.get("once") else {})}
        if len(sheets) > 1:
            return [StepSpec("关联工作表", "join_tables", "关联完成", {"other_path": r.file, "other_sheet": sheets[1], **keys})]
        return [StepSpec("关联文件", "join_tables", "关联完成", {"other_path": r.files[1], **keys,
                                                               **({"other_sheet": args["other_sheet"]} if args.get("other_sheet") else {})})]


@operation
class Append(OpSpec):
    name = "append"
    family = "explore"
    label = {"zh": "合并", "en": "append"}
    saves_result = True

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, "把两张表上下合并（列相同）", "stack the two tables (same columns)")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        r = ctx.request
        return [StepSpec("上下合并两张表", "append_tables", "合并完成", {"other_path": r.files[1] if len(r.files) > 1 else r.file})]


@operation
class FullAnalysis(OpSpec):
    name = "full_analysis"
    family = "profile"
    label = {"zh": "全面分析", "en": "full analysis"}

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        return _zh(lang, "全面分析（每个工作表的结构、各列统计、空值）", "full analysis (every sheet, per-column statistics, blanks)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return "分析"

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        steps = [StepSpec("逐列统计", "describe_columns", "统计完成")]
        r = ctx.request
        if len(ctx.sheets) > 1:
            main = r.sheet or ctx.sheets[0].name
            for s in ctx.sheets:
                if s.name != main:
                    steps.append(StepSpec(f"预览工作表 {s.name}", "profile_dataset", "获取列信息", {"path": r.file, "sheet": s.name}))
                    steps.append(StepSpec(f"逐列统计 {s.name}", "describe_columns", "统计完成"))
            if len(r.ops) > 1:
                steps.append(StepSpec(f"回到工作表 {main}", "profile_dataset", "获取列信息", {"path": r.file, "sheet": main}))
        return steps


@operation
class Export(OpSpec):
    name = "export"
    family = "export"
    label = {"zh": "导出", "en": "export"}
    main_slot = "format"

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        fmt = (args.get("format") or "csv").upper()
        if args.get("name"):  # the name the user gave is said back: what is restated is what is written
            named = f"outputs/{args['name']}.{fmt.lower()}"
            return _zh(lang, f"导出为 {fmt}：{named}", f"export as {fmt} to {named}")
        return _zh(lang, f"导出为 {fmt} 到 outputs/", f"export as {fmt} to outputs/")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        r = ctx.request
        fmt = args.get("format") or export_format(r)
        tool = "write_xlsx" if fmt == "xlsx" else "write_csv"
        stem = args.get("name") or output_stem(r, ctx.labels or "导出")  # the name the user gave, else one made from the request
        return [StepSpec(f"导出 {fmt.upper()}", tool, "导出成功", {"stem": stem})]


@operation
class ListFiles(OpSpec):
    name = "list_files"
    family = "list"
    label = {"zh": "列出文件", "en": "list files"}

    def stem_label(self, args: dict[str, Any]) -> str:
        return ""

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("列出工作区文件", "list_files", "获得文件清单")]
