"""Letter case of text columns: 统一改为大写 / 小写 / 首字母大写, make the State column upper case."""

from __future__ import annotations

import re
from typing import Any

from modes.opspec import Found, OpSpec, PlanContext, Slot, StepSpec, operation, said_in

# the case each word asks for; 大小写 and 大写字母 name letters (不区分大小写, 以大写字母开头), never a change
CASE_WORDS = (
    ("title", r"首字母大写|(?<![a-z_])(?:title[ -]?case|capitali[sz]e[ds]?|proper case)(?![a-z_])"),
    ("upper", r"(?<!首字母)(?<!小)大写(?!字母)|(?<![a-z_])(?:upper[ -]?case[ds]?|all caps|capital letters)(?![a-z_])"),
    ("lower", r"(?<!大)小写(?!字母)|(?<![a-z_])(?:lower[ -]?case[ds]?)(?![a-z_])"),
)
CASE_RX = re.compile("|".join(f"(?P<{k}>{p})" for k, p in CASE_WORDS), re.I)
VERB = re.compile(r"(?:统一|全部|全都|都)?\s*(?:改成|改为|转成|转为|变成|换成|设为|转换成|转换为|改|转)?\s*$"
                  r"|(?<![a-z_])(?:make|convert|change|turn|put|set|transform)(?![a-z_])[^,;]*$", re.I)
# 统一成首字母大写后按部门统计人数 / title case it and then count by department: a further step this operation does not run
AFTER = re.compile(r"^[^，,。；;]{0,8}?(?:之后|以后|然后|后|再)\s*[，,]?\s*(?P<rest>\S.*)$|^\s*[,;]?\s*(?:and\s+)?then\s+(?P<rest_en>\S.*)$", re.I)
CASE_ZH = {"upper": "大写", "lower": "小写", "title": "首字母大写"}
CASE_EN = {"upper": "upper case", "lower": "lower case", "title": "title case"}


@operation
class LetterCase(OpSpec):
    name = "letter_case"
    family = "transform"
    label = {"zh": "改大小写", "en": "letter case"}
    words = {"zh": ("大写", "小写", "首字母大写"), "en": ("upper case", "lower case", "title case")}
    slots = (Slot("columns", "columns", "要改哪一列的大小写？", "Change the letter case of which column?", gap="case_columns"),)
    saves_result = True
    main_slot = "columns"
    precedence = 1  # 改为大写 names a case, never a value to write (改为X)

    def read(self, text: str, hits: list[Any], sheet: Any) -> Found | None:
        """The case word, the verb before it and the text columns named; numeric and date columns have no case."""
        m = CASE_RX.search(text)
        if m is None:
            return None
        case = next(k for k, _ in CASE_WORDS if m.group(k))
        verb = VERB.search(text[: m.start()])
        start = verb.start() if verb and verb.end() > verb.start() else m.start()
        texts = [h for h in hits if h.column not in sheet.numeric and h.column not in sheet.dates]
        args: dict[str, Any] = {"case": case, "columns": list(dict.fromkeys(h.column for h in texts))}
        after = AFTER.match(text[m.end():])
        if after:  # never dropped in silence: the restatement names the step left out
            rest = (after.group("rest") or after.group("rest_en")).strip(" 。.!?？！")
            args["doubts"] = [("slot", f"没用上：{rest}（这一步只改大小写，{rest}请改完后再说一次）",
                               f"not used: {rest} (this step only changes the case; ask for it again afterwards)")]
        return Found(start, self.name, args, ((start, m.end()), *((h.start, h.end) for h in texts)))

    def phrase(self, args: dict[str, Any], lang: str) -> str:
        cols = args.get("columns") or []
        case = args.get("case", "upper")
        return said_in(lang, f"把 {'、'.join(cols)} 列的英文字母改为{CASE_ZH[case]}，另存为新文件（原文件不变）",
                       f"change {', '.join(cols)} to {CASE_EN[case]} in a new file (the source is not changed)")

    def stem_label(self, args: dict[str, Any]) -> str:
        return CASE_ZH.get(args.get("case", ""), "大小写")

    def to_steps(self, args: dict[str, Any], ctx: PlanContext) -> list[StepSpec]:
        return [StepSpec("改大小写", "change_case", "大小写已改", {"columns": list(args["columns"]), "case": args["case"]})]

    def answer(self, tool: str, facts: dict[str, Any], lang: str) -> str | None:
        if tool != "change_case":
            return None
        cols, kept = facts["columns"], facts.get("acronyms") or []
        keep_zh = f"全大写的缩写 {'、'.join(kept)} 保持大写。" if kept else ""
        keep_en = f" Acronyms written in capitals ({', '.join(kept)}) stay in capitals." if kept else ""
        return said_in(lang, f"已把 {'、'.join(cols)} 列改为{CASE_ZH[facts['case']]}：改动 {facts['changed']:,} 个单元格（共 {facts['rows']:,} 行）。{keep_zh}",
                       f"Changed {', '.join(cols)} to {CASE_EN[facts['case']]}: {facts['changed']:,} cells changed ({facts['rows']:,} rows).{keep_en}")
