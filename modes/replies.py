"""What wenqing says: Chinese first, English when the user writes English."""

from __future__ import annotations

from typing import Any

from modes import opspec
from modes.decision import Request
from modes.query import phrases, query_of

CONFIRM_ZH = "确认请回复'继续'"
CONFIRM_EN = "Reply 'go' to confirm, or 'cancel'."

CHAT = {
    "greeting": ("你好！我是问清，帮你处理表格：预览、筛选、排序、汇总、去重、导出……直接告诉我要对哪个文件做什么就行。",
                 "Hi! I'm wenqing. I work on your spreadsheets: preview, filter, sort, summarise, dedupe, export… Tell me which file and what to do."),
    "thanks": ("不客气！还有表格要处理随时叫我。", "You're welcome! Tell me whenever there's another table to handle."),
    "farewell": ("再见！下次有表格要处理随时找我。", "Bye! Come back whenever there's a table to handle."),
    "deliver": ("问清不能发邮件、打印或上传文件，只在本机处理表格。我可以把表格（或处理后的结果）导出成 xlsx 或 csv 存到 outputs/，你再自己发送：比如说“把它导出成excel”。",
                "wenqing cannot send email, print or upload files; it only works on tables on this machine. I can export the table (or a result) "
                "as xlsx or csv into outputs/ for you to send, e.g. “export it to excel”."),
    "venting": ("辛苦了，表格的活儿确实磨人。把要做的事告诉我，比如“筛选 X.xlsx 里评分大于4的行”，我来跑。",
                "That sounds tiring. Tell me what needs doing, e.g. “filter X.xlsx where rating > 4”, and I'll run it."),
    "about": ("我是问清（wenqing），一个在终端里帮你处理表格的助手：能预览、筛选、排序、分组汇总、去重、清洗、加计算列、对比和导出 xlsx/xls/csv。"
              "不确定时我会先问清楚或复述理解，范围大的工作先给方案卡；原文件永远不改，结果另存到 outputs/；默认完全离线运行，数据不会发到网上。",
              "I'm wenqing, a terminal assistant for spreadsheets (xlsx, xls, csv): preview, filter, sort, group and summarise, dedupe, clean, "
              "computed columns, compare and export. When unsure I ask or restate first; broad work gets a plan card; your source files are never "
              "changed (results go to outputs/); by default everything runs offline and no data leaves this machine."),
    "safety": ("不会。问清从不改动或覆盖你的原文件：所有结果都另存为 outputs/ 下的新文件，重名时自动加后缀；写入是原子的，中途中断也不会留下半个文件。"
               "要“覆盖原文件”时我会先出方案卡，说明结果另存、原文件不动，你确认后才执行。",
               "No. wenqing never changes or overwrites your source files: every result is a new file in outputs/ (a suffix is added "
               "when a name is taken), written atomically. If you ask to overwrite, I show a plan card first saying the result goes to a new file."),
    "privacy": ("默认完全离线：规则引擎在本机理解你的话，表格只在本机读取和处理，不会上传。只有你自己配置了模型接口时才会调用它，而且可以设置不发送单元格内容。",
                "By default everything runs offline on this machine: requests are understood by local rules and tables are read locally, "
                "nothing is uploaded. A model is used only if you configure one yourself, and cell values can be kept out of it."),
    "formats": ("支持 xlsx、xlsm、xls、ods 和 csv/tsv（UTF-8、带 BOM 的 UTF-8、GBK/GB18030 都能正确读取），多工作表的工作簿会列出每个工作表。"
                "导出可以是 CSV（Excel 打开中文不乱码）或 xlsx。",
                "xlsx, xlsm, xls, ods and csv/tsv (UTF-8, UTF-8 with BOM and GBK/GB18030 are all read correctly); every sheet of a "
                "workbook is listed. Results can be exported as CSV (opens in Excel without garbled Chinese) or xlsx."),
    "howto": ("这是 Excel 用法的问题。我更擅长直接替你处理工作区里的表格：比如“把订单表和客户表按客户ID关联起来”就相当于一次 VLOOKUP，告诉我文件和列就行。",
              "That's a general Excel question. I'm best at doing the work on your workspace files directly, e.g. “join the orders and customers sheets on customer_id” does what a VLOOKUP would."),
    "join_kinds": ("左连接保留第一张表的每一行，第二张表没匹配上的行不要，第一张表没匹配上的行对应列留空；内连接只保留两张表都匹配上的行；"
                   "全连接两边的行都保留，缺的一边留空。关联时我默认用左连接，并总会说明两边各有多少行没匹配上；要内连接或全连接直接说就行。",
                   "A left join keeps every row of the first table (blank where the second has no match) and drops the second's unmatched rows; "
                   "an inner join keeps only rows matched on both sides; a full join keeps every row of both, blank on the missing side. "
                   "I join with a left join unless you say otherwise, and always say how many rows of each side found no match."),
    "undo": ("原文件从不改动，所以没有需要恢复的原文件。/undo 会删除上一次运行写到 outputs/ 的文件；还在等确认的请求，回复'取消'就不会执行。",
             "Your source files are never changed, so there is nothing to restore there. /undo deletes the files the last run wrote to "
             "outputs/; a request still waiting for confirmation is dropped by replying 'cancel'."),
    "name": ("我叫问清（wenqing）：先问清楚再动手。不确定时我先问或复述理解，你确认了才执行；处理的是工作区里的表格。",
             "I'm wenqing (问清, “ask until clear”): when unsure I ask or restate first and run only once you confirm. I work on the spreadsheets in this workspace."),
    "service": ("这个我帮不上：天气、车票航班、比赛节目、音乐、邮件这类事要用别的应用。我只处理工作区里的表格，比如“按城市汇总销售额”。",
                "I can't help with that: weather, tickets and flights, matches and shows, music or mail need another app. "
                "I only work on the spreadsheets in this workspace, e.g. “sum sales by city”."),
    "persona": ("我是问清，一个处理表格的助手，没有自己的喜好和生活。有表格要处理随时告诉我。",
                "I'm wenqing, an assistant for spreadsheets, without likes or a life of my own. Tell me whenever a table needs handling."),
    "conversation": ("我不复述聊天内容，但记得这次会话做过的请求和结果：/history 会列出来；要在某个结果上接着做，说“在刚才的结果里…”或“在第2个结果里…”。",
                     "I don't replay the chat, but I keep this session's requests and results: /history lists them; to work on one, "
                     "say “in the last result …” or “in result 2 …”."),
    "knowledge": ("这超出了我的范围：我不查百科知识，只回答工作区里表格能回答的问题。", "That's outside what I do: I don't look up general knowledge, only what the tables in this workspace can answer."),
    "other": ("我主要帮你处理表格。想分析、筛选或导出哪个文件？", "I mainly work on spreadsheets. Which file would you like to analyse, filter or export?"),
}

def op_phrase(kind: str, args: dict[str, Any], lang: str) -> str:
    spec = opspec.get(kind)
    return spec.phrase(args, lang) if spec else kind


HELD = ".wenqing/results/"  # where a result shown but not saved is kept as the input of the next request
NAMED = ".wenqing/named/"  # a result the user named (/name N 名字): kept until they remove it, referred to by its name


def file_label(path: str, lang: str) -> str:
    """A file as the user knows it: a result that was shown but not saved is "显示过的结果", never its internal name;
    a named result is called by its name."""
    if path.startswith(NAMED):
        stem = path[len(NAMED):].removesuffix(".csv").removesuffix(".parquet")
        return f"结果“{stem}”" if lang == "zh" else f"the result '{stem}'"
    if path.startswith(HELD):
        return "显示过的结果（未保存）" if lang == "zh" else "the result shown (not saved)"
    return path


def target(r: Request, lang: str) -> str:
    paths = list(r.files) or ([r.file] if r.file else [])
    files = [file_label(f, lang) for f in paths]
    if r.sheet and r.op("stack") is None and files:  # stacked sheets are named by the step that stacks them
        at = paths.index(r.file) if r.file in paths else 0  # the sheet is the first table's: said beside its file
        files[at] += f" 的 {r.sheet} 表" if lang == "zh" else f" (sheet {r.sheet})"
    return (" 和 " if lang == "zh" else " and ").join(files) if files else ("（未定）" if lang == "zh" else "(not chosen)")


def goal_summary(r: Request, lang: str) -> str:
    """What the request's query does, every part in the order it runs (modes.query)."""
    q = query_of(r)
    ops = phrases(q, lang) if q is not None else [op_phrase(o.kind, o.args, lang) for o in r.ops]
    if lang == "zh":
        body = f"对 {target(r, lang)}：" + "，".join(ops)
        if r.overwrite:
            body += "；结果另存为 outputs/ 下的新文件，原文件保持不变"
        return body
    body = f"On {target(r, lang)}: " + "; ".join(ops)
    if r.overwrite:
        body += "; the result goes to a new file in outputs/, the source stays as it is"
    return body


def restate(r: Request, lang: str, why: str = "") -> str:
    if lang == "zh":
        return f"我的理解是：{goal_summary(r, lang)}。{why}不对请直接纠正，取消请回复'取消'；{CONFIRM_ZH}"
    return f"Here is what I understood: {goal_summary(r, lang)}. {why}{CONFIRM_EN}"


# a reading that left out something the request names: (what was not understood, what the reading would miss, the ask)
LEFT_OUT = {
    "quoted": (("您引号里的{said}（没用上）", "会漏掉它", "请换个说法说明{said}指什么（哪一列、哪个值），我再做。"),
               ("{said}, which you quoted (left out)", "which leaves it out", "Please say what {said} refers to (which column or value) and I will do it.")),
    "example": (("{said}是您举的例子，要删或要留的是哪一类值", "会漏掉同类的其它值", "请直接说明要哪些行：列出所有的值，或给出比较条件。"),
                ("{said} was given as an example, of which kind of values", "which would miss other values of that kind",
                 "Please say which rows exactly: list every value, or give a comparison.")),
    "period": (("时间{said}对应表里的哪一列", "会把所有时间都算进去", "请说明按哪一列筛选这个时间，例如“年份 等于 2023”。"),
               ("which column holds the period {said}", "which would include every period", "Please say which column holds it, e.g. “Year = 2023”.")),
}


def left_out(kind: str, r: Request, names: list[str], lang: str) -> str:
    """A reading that left out a quoted name, took an example for the whole condition, or dropped a period: what was
    not understood, what would have run, and the question; nothing runs."""
    zh = lang == "zh"
    said = "、".join(f"“{n}”" for n in names) if zh else ", ".join(f"'{n}'" for n in names)
    what, miss, ask = (x.format(said=said) for x in LEFT_OUT[kind][0 if zh else 1])
    dated = next((cols for m, cols in r.offers if m == "period_column"), ())
    if dated:  # the date columns of the table: reply with one
        ask += f"可以直接回复其中一个日期列：{'、'.join(dated[:12])}。" if zh else f" Reply with one of its date columns: {', '.join(dated[:12])}."
    if zh:
        return f"没理解：{what}。按我的理解只能做：{goal_summary(r, lang)}，{miss}。{ask}"
    return f"Not understood: {what}. All I understood was: {goal_summary(r, lang)}, {miss}. {ask}"


def ask_unexplained(r: Request, words: list[str], lang: str) -> str:
    """The words of a request that have no place in its query, asked about instead of run without."""
    if lang == "zh":
        said = "、".join(f"“{w}”" for w in words)
        return (f"还没理解{said}在这个请求里要做什么，不能只做其余部分（{goal_summary(r, lang)}）。"
                f"请换个说法说明它，例如写成条件（“性别为女”）或列名；不需要它的话，请不带它重新说一遍；取消请回复'取消'。")
    said = ", ".join(f"'{w}'" for w in words)
    return (f"I still don't know what {said} should do in this request, and I won't run only the rest ({goal_summary(r, lang)}). "
            "Please say it another way, e.g. as a condition ('gender is F') or a column name; if it is not needed, say the "
            "request again without it; or reply 'cancel'.")


def refuse_reduced(r: Request, lang: str) -> str:
    """A request with a part wenqing cannot do, confirmed: the rest is never run in its place."""
    gaps = [g.say(lang) for g in r.gaps]
    if lang == "zh":
        return (f"{'；'.join(gaps)}。这部分做不了，不能只做其余部分（{goal_summary(r, lang)}），那样结果不是您要的。"
                f"可以按上面的做法换个说法，或回复'取消'。")
    return (f"{'; '.join(gaps)}. That part cannot be done, and I won't run only the rest ({goal_summary(r, lang)}): it would not be "
            "what you asked. Say it another way as suggested, or reply 'cancel'.")


def plan_prompt(r: Request, lang: str) -> str:
    if lang == "zh":
        extra = "只出方案，" if r.plan_only else ""
        return f"{extra}方案如上（{goal_summary(r, lang)}）。取消请回复'取消'；{CONFIRM_ZH}"
    return f"The plan is above ({goal_summary(r, lang)}). {CONFIRM_EN}"


def remark(file: str) -> tuple[str, str]:
    return (f"收到。需要的话我可以对 {file} 做预览、筛选、排序、汇总或导出，直接说要做什么就行。",
            f"Noted. I can preview, filter, sort, summarise or export {file} whenever you like; just say what to do.")


def ask_intent(lang: str, file: str | None = None, nothing_pending: bool = False) -> str:
    if lang == "zh":
        pre = "目前没有待确认的操作。" if nothing_pending else ""
        about = f"关于 {file}，" if file else ""
        return f"{pre}{about}您想让我做什么？比如分析数据、导出文件、筛选表格……"
    pre = "Nothing is waiting for confirmation. " if nothing_pending else ""
    about = f"About {file}: " if file else ""
    return f"{pre}{about}What would you like me to do? For example: analyse data, export a file, filter a table…"


def what_to_change(r: Request, lang: str) -> str:
    """The reading was wrong and the user did not say how: which part to change, with examples in its own terms."""
    q = query_of(r) if r.ops else None
    said = phrases(q, lang) if q is not None else []
    now = ("；".join(said) if lang == "zh" else "; ".join(said)) if said else ""
    if lang == "zh":
        return (f"好的，哪里不对？刚才的理解是：{now}。" if now else "好的，哪里不对？") + \
            "请直接说要改的部分，例如“改成按区域”“只看2024年的”“用中位数”；或回复“取消”。"
    return (f"OK, what should change? The reading was: {now}. " if now else "OK, what should change? ") + \
        "Say the part to change, e.g. 'by region instead', 'only 2024', 'use the median'; or 'cancel'."


def noted_still_asked(lang: str) -> str:
    """A turn that changed the waiting request while its question is still open: said before the question, asked again."""
    return "（已记下。）" if lang == "zh" else "(Noted.) "


def already(lang: str) -> str:
    """A correction the waiting reading already does: said before the reading."""
    return "（现在的理解已经是这样了。）" if lang == "zh" else "(That is already how it reads.) "


def not_applied(utterance: str, r: Request, lang: str) -> str:
    """A correction that left the request exactly as it was: said plainly, with corrections in the request's own terms,
    never the same restatement again."""
    keys = [k for o in r.ops for k in (o.args.get("keys") or [])]
    cols = [m["column"] for o in r.ops for m in (o.args.get("measures") or []) if isinstance(m, dict) and m.get("column")]
    conds = [c.column for o in r.ops if o.kind == "filter" for c in (o.args.get("conditions") or []) if getattr(c, "column", None)]
    u = utterance.strip()
    if lang == "zh":
        eg = [f"“不是按{keys[0]}，是按…”" if keys else "“改成按…分组”", f"“不是{cols[0]}，是…”" if cols else "“改成算…的合计”",
              f"“去掉{conds[0]}这个条件”" if conds else "“只看…的”"]
        return f"这句我没能用到等待的请求上：“{u}”，请求没有变。可以换个说法，例如{'、'.join(eg)}；或者说“取消”，再把整个要求重说一遍。"
    eg = [f"'by … instead of {keys[0]}'" if keys else "'group by … instead'", f"'not {cols[0]}, …'" if cols else "'the total of … instead'",
          f"'drop the {conds[0]} condition'" if conds else "'only …'"]
    return f"I could not apply “{u}” to the request waiting; it is unchanged. Say it another way, e.g. {', '.join(eg)}; or say 'cancel' and give the whole request again."


def cancelled(lang: str) -> str:
    return "好的，已取消，什么都没有执行。" if lang == "zh" else "OK, cancelled; nothing was run."


def ask_slots(r: Request, missing: list[str], lang: str, files: list[str]) -> str:
    zh = lang == "zh"
    sep = "、" if zh else ", "
    parts: list[str] = []
    what = opspec.label(r.ops[0].kind, lang) if r.ops and opspec.get(r.ops[0].kind) else ""
    for m in missing:
        if m == "file":
            if r.file_how == "outside":
                parts.append(f"{r.missing_file_name} 在工作区之外，我只读取工作区里的文件。请从这些文件里选：{sep.join(files[:6])}。" if zh else
                             f"{r.missing_file_name} is outside the workspace; I only read files inside it. Pick one of: {sep.join(files[:6])}.")
            elif r.missing_file_name:
                near = sep.join(r.candidates) if r.candidates else sep.join(files[:6])
                parts.append(f"工作区里没有 {r.missing_file_name}，最接近的文件：{near}。您指的是哪个？" if zh else
                             f"There is no {r.missing_file_name} in the workspace; closest: {near}. Which one do you mean?")
            elif r.file_how == "not_table":
                parts.append(f"{r.problems[0] if r.problems else ''}请换一个表格文件（可选：{sep.join(files[:6])}）。" if zh else
                             f"{r.problems[0] if r.problems else 'That is not a spreadsheet.'} Pick a table file ({sep.join(files[:6])}).")
            elif r.file_how == "current_missing":
                parts.append(f"还没有当前文件，您说的是哪个文件？可选：{sep.join(files[:6])}。" if zh else
                             f"There is no current file yet; which file do you mean? Options: {sep.join(files[:6])}.")
            elif r.candidates:
                parts.append(f"有多个文件符合：{sep.join(r.candidates)}，要{what}哪一个？" if zh else
                             f"Several files fit: {sep.join(r.candidates)}. Which one{' (' + what + ')' if what else ''}?")
            else:
                parts.append(f"要{what}哪个文件？工作区里有：{sep.join(files[:6])}。" if zh else
                             f"Which file{' (' + what + ')' if what else ''}? The workspace has: {sep.join(files[:6])}.")
        elif m == "sheet":
            parts.append(r.problems[0] if r.problems else ("请指明工作表。" if zh else "Which sheet?"))
        elif m == "condition":
            parts.append("筛选条件是什么？例如“评分大于4”“地址不为空”。" if zh else "What is the condition? e.g. “rating > 4”, “address is not empty”.")
        elif m in ("column", "value", "ratio") and r.problems:
            parts.extend(p for p in r.problems if p not in parts)
        elif m == "group_by":
            parts.append(f"按哪一列分组？{_cols_hint(r, lang)}" if zh else f"Group by which column? {_cols_hint(r, lang)}")
        elif m == "sort_by":
            parts.append(f"按哪一列排序？{_cols_hint(r, lang, m)}" if zh else f"Sort by which column? {_cols_hint(r, lang, m)}")
        elif m == "columns":
            parts.append(f"要保留哪几列？{_cols_hint(r, lang)}" if zh else f"Which columns to keep? {_cols_hint(r, lang)}")
        elif m in ("expression", "measure"):
            parts.append("新列怎么算？例如“含税金额=金额×1.13”。" if zh else "How is the new column computed? e.g. “with_tax = amount * 1.13”.")
        elif m == "columns_pair":
            parts.append(f"要看哪两列之间的关系？{_cols_hint(r, lang)}" if zh else f"Which two columns? {_cols_hint(r, lang)}")
        elif m == "second_table":
            parts.append("要和哪个文件或工作表比较/关联？" if zh else "Compare or join with which file or sheet?")
        elif m == "other_key":  # the second table calls the key differently: its columns are named
            parts.extend(p for p in r.problems if p not in parts)
        elif m == "join_key":
            parts.append(f"按哪一列关联？{_cols_hint(r, lang)}" if zh else f"Join on which column? {_cols_hint(r, lang)}")
        else:  # a slot of another operation: its own question
            q = next((x for o in r.ops if (spec := opspec.get(o.kind)) and (x := spec.question(m, lang))), None)
            if q:
                parts.append(f"{q}{_cols_hint(r, lang, m)}" if zh else f"{q} {_cols_hint(r, lang, m)}")
    head = ""
    if r.file and "file" not in missing:
        head = f"好的，{what + ' ' if what else ''}{target(r, lang)}。" if zh else f"OK, {what + ' ' if what else ''}{target(r, lang)}. "
    elif zh and not parts:
        head = "好的，"
    if zh:  # each question ends as a sentence, so two never run together (…是否欠费图上画哪一列…)
        parts = [x if not x or x.endswith(("。", "？", "！", "）", "?", ".")) else x + "。" for x in parts]
    return head + ("".join(parts) if zh else " ".join(parts))


def slot_fits(r: Request, slot: str) -> str:
    """The kind of column the request's missing slot takes (numeric, date, ordered), or "" for any."""
    s = opspec.missing_slot(r.ops, slot)
    return s.takes if s is not None else ""


def _cols_hint(r: Request, lang: str, slot: str = "") -> str:
    """The columns that can answer the question about this slot; said plainly when the table has none of that kind."""
    cols = r.offered(slot)
    if not cols:
        if not r.closest or not any(m == slot for m, _ in r.offers) or not slot_fits(r, slot):
            return ""  # a number's question (how many days?) lists no columns
        zh_kind, en_kind = KIND_WORDS[slot_fits(r, slot)]
        return f"（{target(r, lang)} 里没有{zh_kind}。）" if lang == "zh" else f"({target(r, lang)} has no {en_kind}.)"
    return ("现有列：" if lang == "zh" else "Columns: ") + ("、" if lang == "zh" else ", ").join(cols[:12])


SLOT_NAMES = {"file": ("文件", "file"), "second_table": ("文件或工作表", "file or sheet"), "condition": ("条件", "condition"), "group_by": ("分组的列", "column to group by"),
              "sort_by": ("排序的列", "column to sort by"), "columns": ("列", "columns"), "intent": ("要做的事", "what to do"), "value": ("值", "value")}


KIND_WORDS = {"numeric": ("数值列", "numeric column"), "date": ("日期列", "date column"), "ordered": ("数值或日期列", "numeric or date column")}


def not_matched(said: str, slot: str, choices: list[str], lang: str, again: bool = False, unfit: tuple[str, str] | None = None) -> str:
    """Asked once already and the answer still fits nothing: say what could not be matched and offer the choices.
    `unfit`: (a column of the table, the kind the slot takes) when the answer names a column that cannot fill it."""
    zh = lang == "zh"
    what = SLOT_NAMES.get(slot, ("列", "column"))[0 if zh else 1]
    said = said.strip()[:40]
    listed = ("、" if zh else ", ").join(choices[:12])
    if unfit:
        kind = KIND_WORDS.get(unfit[1], KIND_WORDS["numeric"])
        head = f"“{unfit[0]}”不是{kind[0]}，这里用不上。" if zh else f"“{unfit[0]}” is not a {kind[1]}, so it cannot be used here. "
    elif zh:
        head = f"“{said}”里没有我能对上的{what}。" if said else f"还缺{what}。"
    if zh:
        pick = f"可以直接回复其中一个：{listed}。" if listed else ""
        tail = "也可以换个说法，或回复“取消”。" if not again else "如果都不是，请换个说法描述要做的事，或回复“取消”。"
        return head + pick + tail
    if not unfit:
        head = f"I could not match a {what} in “{said}”. " if said else f"The {what} is still missing. "
    pick = f"Reply with one of: {listed}. " if listed else ""
    tail = "Or say it another way, or 'cancel'." if not again else "If none of these, describe the task another way, or reply 'cancel'."
    return head + pick + tail


def still_not_matched(said: str, lang: str, again: bool = False) -> str:
    """Two answers to the same question fitted nothing: no third asking; a way out (cancel, or say it again)."""
    said = said.strip()[:40]
    if lang == "zh":
        head = f"还是没能从“{said}”里对上。" if said else "还是不明白。"
        return head + ("可以回复“取消”，或换个说法重新描述需求。" if not again else "这个问题不再追问了：回复“取消”放下这个请求，或把要做的事整句重新说一遍。")
    head = f"I still could not match “{said}”. " if said else "I still do not understand. "
    return head + ("Reply 'cancel', or describe the request again in other words." if not again
                   else "I will not ask again: reply 'cancel' to drop this request, or say the whole task again.")
