"""Words: operations, chat, vague requests, and a small bilingual lexicon of column meanings."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from modes.lazyre import lazy

# the labels of a table's own total row (合计 / Total): the row is never a group, a top row or a value a request filters on
TOTAL_WORDS = frozenset({"总计", "合计", "总数", "总和", "共计", "总共", "全部", "汇总", "小计合计", "total", "totals", "grand total", "sum", "all",
                         # a footer of averages is no row of the data either (平均 under the last student)
                         "平均", "平均值", "平均分", "均值", "全班平均", "average", "averages", "mean", "avg"})

# English function words and politeness that carry no operation (never an unexplained word, never a value of their own)
FILLER_EN = frozenset(
    "a an the of to in on at for from with by and or but then also too as is are was were be been it its this that these those everything "
    "me my we our you your i please can could would will should do does did done get give show tell let make want need like just "
    "all any each every some only which what who whom how many much there here into out up about per one ones row rows column "
    "columns table tables file files sheet data value values record records entries result results list have has had not no "
    "than more less over under above below between where when whose their them they so if now first pls plz thanks yes yeah yep ok okay sure "
    "original new copy again just instead use using among across two three four five six seven eight nine ten both take keep put "
    "see look check represent represents find appear appears appeared occur occurs occurred run perform compute calculate "
    "quick quickly honestly kindly pull grab fetch basically actually simply few couple "
    "work works worked working live lives lived living based located belong belongs belonged sell sells sold selling nothing else".split()
)

# Plain cross-language meanings of column names. A column belongs to a concept when its folded name
# is one of the concept's words; a word in a request then reaches that column.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "name": ("name", "姓名", "名字", "名称", "full name"),
    "department": ("department", "dept", "部门", "科室"),
    "city": ("city", "城市", "所在城市", "所在地"),
    "salary": ("salary", "工资", "薪资", "月薪", "薪水", "薪酬", "pay", "wage", "wages", "年薪", "earning", "earnings", "earns", "earn", "income", "收入"),
    "hire_date": ("hire_date", "hire date", "hired", "入职", "入职日期", "入职时间", "joined", "join date", "start date"),
    "signup": ("signup_date", "signup", "sign up", "signed up", "sign-up", "registered", "registration", "注册", "注册日期", "注册时间"),
    "email": ("email", "e-mail", "mail", "邮箱", "电子邮件", "邮件"),
    "phone": ("phone", "tel", "telephone", "mobile", "电话", "手机", "手机号", "联系电话", "联系方式"),
    "address": ("address", "addr", "地址", "住址"),
    "date": ("date", "日期", "时间", "day"),
    "amount": ("amount", "金额", "销售额", "sales amount", "revenue", "营收", "销售金额", "营业额"),
    "price": ("price", "unit price", "单价", "价格", "售价"),
    "quantity": ("quantity", "qty", "units", "units sold", "数量", "件数", "销量"),
    "product": ("product", "产品", "商品", "品名", "item"),
    "customer": ("customer", "client", "客户", "顾客"),
    "rating": ("rating", "score", "评分", "分数", "得分", "satisfaction", "满意度"),
    "district": ("district", "区", "区县", "行政区"),
    "country": ("country", "国家", "国别"),
    "province": ("province", "省份", "省"),
    "age": ("age", "年龄", "岁数"),
    "gender": ("gender", "sex", "性别"),
    "status": ("status", "状态"),
    "category": ("category", "类别", "分类", "品类", "类型"),
    "region": ("region", "地区", "区域", "大区"),
    "cost": ("cost", "成本"),
    "profit": ("profit", "利润", "毛利"),
    "stock": ("stock", "inventory", "库存", "库存数量"),
    "level": ("level", "grade", "tier", "等级", "级别"),
    "title": ("title", "position", "job title", "职位", "岗位"),
    "order": ("order", "订单", "order id", "订单号"),
    "warehouse": ("warehouse", "仓库"),
    "employee": ("employee", "employees", "员工", "职员", "staff", "人员"),
    "store": ("门店", "店铺", "store", "stores", "shop", "shops"),
    "spend": ("人均消费", "人均", "avg spend", "spend per person", "average spend"),
    "id": ("id", "编号", "number"),
    "employee_id": ("employee id", "employee_id", "emp id", "staff id", "工号", "员工编号"),
    "supplier": ("supplier", "vendor", "供应商", "厂商"),
    "brand": ("brand", "品牌"),
    "discount": ("discount", "折扣", "优惠"),
    "tax": ("tax", "税额", "税费"),
    "margin": ("margin", "gross margin", "利润率", "毛利率"),
    "year": ("year", "年份", "年度"),
    "month": ("month", "月份"),
    "quarter": ("quarter", "季度"),
    "zip": ("zip", "zipcode", "zip code", "postcode", "postal code", "邮编", "邮政编码"),
    "education": ("education", "degree", "学历"),
    "unit": ("unit", "单位"),
    "agriculture": ("agriculture", "农业", "第一产业"),
    "industry": ("industry", "工业", "第二产业"),
    "services": ("services", "service", "服务业", "第三产业"),
    "epicenter": ("epicenter", "epicentre", "震中", "震中地区"),
    "magnitude": ("magnitude", "震级"),
    "season": ("season", "赛季"),
    "team": ("team", "球队", "车队", "队伍", "team(s)"),
    "remark": ("remark", "remarks", "note", "notes", "comment", "comments", "备注"),
    # places, so that "the shanghai file" reaches 上海_poi.xlsx
    "shanghai": ("上海", "shanghai"), "beijing": ("北京", "beijing"), "guangzhou": ("广州", "guangzhou"),
    "shenzhen": ("深圳", "shenzhen"), "hangzhou": ("杭州", "hangzhou"), "nanjing": ("南京", "nanjing"),
    "suzhou": ("苏州", "suzhou"), "chengdu": ("成都", "chengdu"), "wuhan": ("武汉", "wuhan"), "tianjin": ("天津", "tianjin"),
    "chongqing": ("重庆", "chongqing"), "xian": ("西安", "xi'an", "xian"),
}

# Common words of spreadsheet headers in English with the Chinese a request says them with, where the dictionary's
# glosses do not join the two (观众人数 for Attendance, 车手 for Driver). Read by modes/crosslang.py together with
# CC-CEDICT; a header word is written singular and lower case.
HEADER_WORDS: dict[str, tuple[str, ...]] = {
    "attendance": ("观众人数", "观众", "到场人数", "入场人数", "上座人数", "现场观众", "出席人数"),
    "crowd": ("观众人数", "观众", "到场人数", "现场观众", "人群"),
    "venue": ("场地", "比赛场地", "场馆", "赛场", "球场", "举办地", "举办地点", "比赛地点"),
    "ground": ("场地", "球场"),
    "position": ("名次", "排名", "位置"),
    "place": ("名次", "地点"),
    "rank": ("排名", "名次", "排位"),
    "finish": ("完赛", "完成比赛"),
    "gold": ("金牌", "金牌数"), "silver": ("银牌", "银牌数"), "bronze": ("铜牌", "铜牌数"),
    "medal": ("奖牌", "奖牌数"),
    "vehicle": ("飞行器", "航天器", "载具", "车辆"),
    "driver": ("车手", "赛车手", "驾驶员", "司机"),
    "rider": ("车手", "骑手"),
    "constructor": ("车队", "制造商"),
    "mintage": ("发行量", "铸造量"),
    "time": ("用时", "耗时", "所用时间"),
    "duration": ("时长", "持续时间", "用时"),
    "pole": ("杆位",),
    "win": ("胜场", "胜场数", "胜利场次", "获胜场次"),
    "loss": ("负场", "败场", "负场数", "败场数"),
    "draw": ("平局", "平局数"),
    "lap": ("圈数",),
    "county": ("县", "郡", "县区", "县份"),
    "population": ("人口", "人口数量", "人口数"),
    "household": ("户数", "家庭数", "住户数"),
    "subsidy": ("补助", "补贴"),
    "salary": ("工资", "薪资", "薪水", "薪酬", "月薪"),
    "score": ("得分", "比分", "分数"),
    "home": ("主队", "主场"), "away": ("客队", "客场"),
    "opponent": ("对手",),
    "winner": ("冠军", "获胜者", "胜者"),
    "artist": ("艺术家", "设计者", "设计师", "作者"),
    "album": ("专辑",), "song": ("歌曲",), "band": ("乐队",),
    "club": ("俱乐部",),
    "height": ("身高", "高度"), "weight": ("体重", "重量"),
    "capacity": ("容量", "容纳人数", "可容纳人数"),
    "prevalence": ("患病率", "流行率"),
    "municipality": ("市镇",),
    "episode": ("集数",),
    "viewer": ("观众", "观看人数", "收视人数"),
    "rating": ("收视率", "评分"),
    "elevation": ("海拔",),
    "enrollment": ("招生人数", "在校人数", "入学人数"),
    "number": ("数量", "数目", "个数"),
    "fund": ("资助", "拨款", "资金"),
}
# English header words said with one meaning (Nation and Country): a gloss of one reaches a column named by another
HEADER_SAME: tuple[tuple[str, ...], ...] = (
    ("country", "nation"), ("attendance", "crowd", "audience", "spectator"), ("salary", "wage", "pay"),
    ("venue", "stadium", "ground"), ("position", "place", "rank", "ranking"), ("employee", "staff"),
    ("vehicle", "craft", "spacecraft", "aircraft"), ("child", "children"), ("people", "person"),
    ("category", "class", "classification"), ("base", "basic"), ("fund", "funding"),
    # abbreviations headers use
    ("population", "pop"), ("average", "avg"), ("number", "no", "num"), ("percent", "pct"), ("department", "dept"),
    ("quantity", "qty"), ("amount", "amt"),
    # ordinals written as numbers (1st Party is the first party, 第一党派)
    ("first", "1st"), ("second", "2nd"), ("third", "3rd"), ("fourth", "4th"),
)
# Words of a request that name what is asked about or done, or a period, never a column by meaning (记录 is not the
# Record column, 次数 not the Time column)
NOT_HEADER_WORDS = frozenset(
    "数据 记录 比赛 信息 情况 结果 内容 表格 表 项目 问题 方法 时候 次数 数量 总数 人数 个数 数目 比例 比率 占比 平均 平均值 "
    "均值 总和 合计 总计 最大 最小 最高 最低 最多 最少 所有 全部 每个 各个 分布 趋势 关系 差异 变化 增长 图表 图 "
    "部分 方面 整体 总体 排序 分组 统计 计算 分析 筛选 查询 列出 显示 展示 "
    # periods, read by the period and time-bucket rules (每年 is per year, not the Year column)
    "每年 每月 每天 每日 每周 每季度 历年 各年 全年 当年 今年 去年 明年 年中 年底 年初 月份 期间 时期".split()
)

# Nouns that, right after a column's name by meaning, make the phrase name something else about it (未完成形式 is
# the form, 筹资效率 the efficiency): such a mention names no column
ABOUT_HEADER_NOUNS = frozenset("形式 方式 形态 方法 原因 目的 效率 效果 影响 水平 能力 结构 特点 特征 规律 标准".split())

_WORD_CONCEPT: dict[str, str] = {}
for _c, _words in CONCEPTS.items():
    for _w in _words:
        _WORD_CONCEPT.setdefault(_w.casefold(), _c)


_SYNONYMS: Mapping[str, str] = MappingProxyType(_WORD_CONCEPT)


# the two ends of a ranking (最高 / lowest)
HIGH_END = lazy(r"最(?:高|多|大|好)|(?<![a-z_])(?:highest|most|largest|biggest|maximum)(?![a-z_])", re.I)
LOW_END = lazy(r"最(?:低|少|小|差)|(?<![a-z_])(?:lowest|least|fewest|smallest|minimum|worst)(?![a-z_])", re.I)


def asks_both_ends(text: str) -> bool:
    """哪个最多、哪个最少 / which is highest and which lowest: both ends of a ranking are asked for."""
    return bool(HIGH_END.search(text) and LOW_END.search(text))


def concept_of(word: str) -> str | None:
    return _WORD_CONCEPT.get(word.casefold().strip())


def concept_of_name(column: str) -> str | None:
    """The concept a column's name carries: of the whole name (with _ as a space), or of the head word of a name of
    English words when it names a figure (total_amount, net_price: amount, price)."""
    whole = concept_of(column) or concept_of(column.replace("_", " "))
    if whole or not column.isascii():
        return whole
    words = [w for w in re.split(r"[_\s\-]+", column) if w]
    if len(words) < 2 or len(words[-1]) < 3:
        return None
    head = concept_of(words[-1])
    return head if head in HEAD_CONCEPTS else None


# the concepts a head word gives a longer English name (total_amount, net_price, unit_cost): figures, which a request
# names by meaning (revenue, price); a name's other words (designated doctor address) stay the name's own
HEAD_CONCEPTS = frozenset({"amount", "salary", "price", "quantity", "spend", "profit", "cost", "margin", "discount", "tax"})


def synonyms() -> Mapping[str, str]:
    """Every word of the lexicon with its concept (read-only)."""
    return _SYNONYMS


def alt(*words: str) -> str:
    """Alternatives, longest first. English words match whole words ("join" not in "joined"); a trailing * marks a stem."""

    def one(w: str) -> str:
        stem = w.endswith("*")
        w = w.rstrip("*")
        if not re.search(r"[a-z]", w, re.I):
            return re.escape(w)
        # a word of a hyphened compound is not the word (fill-ups, follow-up, re-sort): letters joined by - are one word
        return ((r"(?<![a-z_])(?<![a-z]-)" if re.match(r"[a-z]", w, re.I) else "") + re.escape(w)
                + ("" if stem or not re.search(r"[a-z]$", w, re.I) else r"(?![a-z_])(?!-[a-z])"))

    return "(?:" + "|".join(one(w) for w in sorted(words, key=lambda w: len(w.rstrip("*")), reverse=True)) + ")"


# --- counting rows, in Chinese ----------------------------------------------------------------------------------------
# the classifiers a count of rows is said with (几单 / 多少套 / 三辆), and the nouns of such a count (单数 / 套数 / 人数)
COUNT_CLASSIFIERS_ZH = ("个", "条", "人", "家", "行", "笔", "位", "单", "次", "项", "户", "名", "份", "所", "间", "张", "套", "台", "辆")
COUNT_NOUNS_ZH = ("单数", "件数", "次数", "个数", "笔数", "人数", "户数", "套数", "台数", "辆数", "单量", "数量")
ROW_CLASSIFIERS = "|".join(COUNT_CLASSIFIERS_ZH)
COUNT_NOUNS = "|".join(sorted(COUNT_NOUNS_ZH, key=len, reverse=True))


def rx(*words: str) -> re.Pattern[str]:
    return lazy(alt(*words), re.I | re.A)


# --- operations -----------------------------------------------------------------------------
FILTER = rx("筛选", "筛出", "筛一下", "筛下", "筛", "过滤", "挑出", "挑选", "拉出来", "找出来", "查出", "只看", "只显示", "filter", "fliter", "filtr", "where", "rows with", "rows where", "find rows")
# Words written right before values that exclude them: 剔除上海, 不包括广州, except Sales
EXCLUDE = rx("除了", "excl.", "excl", "w/o", "除去", "除开", "刨除", "扣除", "剔除", "排除", "去掉", "去除", "删掉", "删除", "不包括", "不包含", "不含", "不算", "不要",
             "除", "非", "except", "excluding", "exclude", "other than", "besides", "without", "not", "but not", "apart from",
             # leaving a value out, said as what is done to it
             "not counting", "leaving out", "leave out", "ignoring", "ignore", "omitting", "omit", "skipping", "skip", "aside from", "setting aside", "minus")
EXCLUDE_BEFORE = lazy(r"(?:" + EXCLUDE.pattern + r")\s*(?:掉|了)?\s*$", re.I | re.A)
# an order said as a pair of ends (从多到少 / 由便宜到贵): the first end first
HIGH_ENDS, LOW_ENDS = "高大多新晚贵长", "低小少旧早短"
DESC_PAIR = rf"(?:从|由)(?:[{HIGH_ENDS}])到(?:[{LOW_ENDS}]|便宜)"
ASC_PAIR = rf"(?:从|由)(?:[{LOW_ENDS}]|便宜)到(?:[{HIGH_ENDS}])"
DELETE_ROWS = rx("删掉", "删除", "删了", "去掉", "去除", "剔除", "排除", "remove", "delete", "drop")
# the words between a superlative and "first" (largest freight first): up to four words, the figure said
THEN_FIRST = r"(?:\s+(?!first\b)[\w()$%/-]+){0,4}?\s+first\b"
SORT = lazy(
    r"排序|排一下|排个序|排列|重新排|排\b|排,|排$|排名|排行|名次|" + DESC_PAIR + "|" + ASC_PAIR + r"|升序|降序|倒序|正序|"
    r"(?:最)?(?:高|大|多|低|小|少)的?(?:排在|排|在)前(?:面|头|边)?|排个名|排一下名|排下名|\b(?:highest|lowest|largest|smallest|biggest|most|least|best|worst|top|newest|latest|oldest|earliest|most recent|longest|shortest|heaviest|lightest|priciest|cheapest|busiest)" + THEN_FIRST + r"|\b(?:high|low) to (?:low|high)\b|\branking\b|"
    r"\bsort(?:ed)?\b|\border(?:ed)? by\b|\brank(?:ed)?\b|\bsrot\b|\bascending\b|\bdescending\b",
    re.I | re.A,
)
GROUP = lazy(
    r"汇总|分组|统计|求和|总和|总额|合计|加总|(?:各|分别)(?:自|是)?(?:卖了?|收了?|花了?|挣了?|赚了?)?多少钱|把[^，,。；;]{1,20}?加起来|(?<=[\u4e00-\u9fff)）])\s*(?:都|全部|全都)?\s*加(?:起来|在一起)|平均|均值|求均值|最大值|最小值|最高值|最低值|计数|小计|总计|数一下|数一数|数数|(?<![人件个次单笔户张])数下(?![降跌滑])|清点|按[^，,。；;、]{1,12}?(?<!不)(?<![结预核估清折换打])算|按[^，,。；;、\s]{1,12}?(?<![评得积总学满部成均])分(?=组|开|别|类|成|一下|下|[，,。；;！!?？呢]|$)|"  # 按月算, never past the clause into 不算 (nor 按结算金额: 算 of a word)
    r"\bgroup(?:ed)?\b|\bsummari[sz]e\b|\bsum\b|\btotals?\b|\baverage\b|\bmean\b|\bavg\b|\b(?:use|take|show)\s+(?:the\s+)?(?:max(?:imum)?|min(?:imum)?)\b|\b(?:max(?:imum)?|min(?:imum)?)\b(?=\s+instead\b|(?:\s+(?:too|as well))?\s*[?.!]?\s*$)|\baggregate\b|\bsubtotal\b|\bcount\b|\bper\b"
    r"|\bbreak(?:s|ing)?\s+(?:[\w.-]+\s+){0,4}?down\b|\bbroken\s+down\b|\bbreakdown\b|\bsplit(?:ting)?\s+(?:[\w.-]+\s+){0,4}?(?:up\s+)?by\b",
    re.I | re.A,
)
DEDUPE = rx("exact duplicates", "exact duplicate", "identical rows", "duplicated", "dupes", "repeated rows", "去重", "去一下重", "去下重", "去个重", "去掉重复", "删除重复", "删掉重复", "删重复", "重复的行", "重复行", "完全一样的", "完全一样", "一模一样的", "一模一样", "完全相同的", "完全相同", "重复项", "重复", "dedupe", "de-duplicate", "deduplicate", "duplicate", "duplicates")
# one row of each group kept (a dedupe on the keys named with 每/per), never a summary: 每个部门保留一行, one row per region
ONE_ROW_EACH = lazy(r"(?:只)?(?:保留|留下|留|取)\s*(?:第)?(?:一|1)\s*(?:行|条|笔|个)(?!数)"
                    r"|(?<![a-z_])(?:one|the first|a single|1|only one)\s+(?:row|record|line|entry)s?\s+(?:per|for each|for every|of each|of every|in each)(?![a-z_])"
                    r"|(?<![a-z_])(?:keep(?:ing)?\s+)?(?:just\s+|only\s+)?(?:one|the first|a single)\s+(?:of each|of every|per (?:id|key|value))(?![a-z_])",  # keep one of each
                    re.I | re.A)
CLEAN = rx("清洗", "清理", "数据清洗", "填成", "填为", "填充", "填上", "补成", "补全", "去空格", "去掉空格", "去除空格", "首尾空格", "前后空格", "两端空格", "多余空格", "多余的空格", "空值填", "clean", "cleanse", "tidy up", "trim", "fill")
SELECT = lazy(r"(?<![a-z_])(?:i|we) (?:just |only )?need(?= (?:the )?[\w\u4e00-\u9fff]+(?:,| and ))|"
             r"(?<![a-z_])(?:show|list|display|give)(?: me| us)?(?: just| only)?(?: the)?(?= [\w()$%/ .-]+(?:, [\w()$%/ .-]+)+,? and [\w()$%/ .-]+)|只保留|保留|只要[^。；;]{0,20}列|只要[^。；;]{0,120}?(?:这|那)(?:几|些|\d+|[两三四五六七八九十]+)(?:个)?(?:列|字段)|只留|留下|选出.{0,20}列|提取.{0,20}列|\bkeep (?:only )?(?:the )?(?:columns?)?|\bselect (?:the )?columns?|\bonly (?:the )?columns?", re.I | re.A)
ADD_COLUMN = lazy(r"(?:加|新增|增加|添加|插入|算)(?:一|个)?(?:新)?列|\b(?:add|create) (?:an? |new |another |extra |computed |calculated |derived |helper )*column|\bnew column"
                  # add an ARR column / create a margin column: the new column's name said before the word column
                  r"|(?<![a-z_])(?:add|create)\s+(?:an?\s+|new\s+|extra\s+)+(?P<named>(?!(?:new|extra|another|computed|calculated|derived|helper)\s)[A-Za-z][\w%]*(?:\s+(?!column)[A-Za-z][\w%]*){0,2})\s+column(?![a-z_])"
                  r"|(?:算|计算|求|算出)(?=\s*[\w\u4e00-\u9fff]{1,12}\s*[=＝]\s*[\w\u4e00-\u9fff])"  # 算执行率 = 实际支出/预算: a named formula
                  # 再加个优惠金额=原价-金额: a named formula said after 加个 / 加一个, its name no column's
                  r"|(?:加|新增|增加|添加)(?:一)?个(?=\s*[\w\u4e00-\u9fff]{1,12}\s*[=＝]\s*[\w\u4e00-\u9fff.]+\s*(?:[+\-*/×÷]|乘以|除以|加上|减去)\s*[\w\u4e00-\u9fff.])"
                  r"|(?<![a-z_])(?:compute|calculate)(?=\s+\w+\s*=\s*\w)"
                  # now add Total Cost = Labor Cost + Parts Cost: a named formula after add / create, with no word column
                  r"|(?<![a-z_])(?:add|create)(?=\s+(?:a\s+)?[A-Za-z][\w ()%/\-]{0,30}?\s*=\s*[\w(\[].*?(?:[+\-*/×÷]|(?<![a-z_])(?:plus|minus|times|divided by)(?![a-z_])))"
                  r"|(?:^|(?<=\s))(?![^=＝]*(?:(?:加|新增|增加|添加|插入|算)(?:一|个)?(?:新)?列|算|计算|求|里|中|(?<![a-z_])(?:add|compute|calculate|where|if)(?![a-z_])))(?=[\w\u4e00-\u9fff]{1,16}\s*[=＝]\s*(?!(?:19|20)\d{2}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d))[\w\u4e00-\u9fff.]+\s*(?:[+\-*/×÷]|乘以|除以|加上|减去)\s*[\w\u4e00-\u9fff.])",  # 利润=收入-成本 (never a date)
                  re.I | re.A)
# the top 10% / 前10% / 排名前百分之五 / lowest 5 percent: a share of the rows, never that many rows
TOP_PERCENT = lazy(r"(?:前|(?<![a-z_])(?:top|highest|largest|biggest|bottom|lowest|smallest)|最[高低大小多少](?:的)?)\s*(?P<p>\d+(?:\.\d+)?)\s*(?:%|％|(?<![a-z_])(?:percent|per cent|pct)(?![a-z_]))"
                   r"|前\s*百分之\s*(?P<p2>[一二两三四五六七八九十]+|\d+(?:\.\d+)?)", re.I)
# the count of a cut said as a word (three lowest-scoring / top five): read as its figure (modes.text.EN_NUMBER_WORDS)
N_EN = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)"
TOP_N = lazy(TOP_PERCENT.pattern + r"|前\s*(\d+|[一二两三四五六七八九十]+)\s*(?:名|个|位|家|条|笔|单|户|本|部|首|款|的|(?=\s*(?:$|[，,。；;！!？?])))|\btop\s*" + N_EN + r"(?![a-z_])|(?<![a-z_])(?:bottom|lowest|smallest)\s+(\d+)(?![\d.])|(?<![\w.])" + N_EN + r"\s+(?:largest|biggest|highest|greatest|smallest|lowest|heaviest|lightest|cheapest|priciest|most expensive|longest|shortest|oldest|youngest|newest|latest|earliest|most recent(?:ly)?)(?![a-z_])|(?<![\w.])" + N_EN + r"(?=\s+(?:[a-z_]+\s+){0,2}with\s+the\s+(?:highest|largest|biggest|greatest|most|lowest|smallest|least|fewest|longest|shortest|oldest|newest|latest|earliest)(?![a-z_]))|最(?:高|大|多|低|小|少|早|晚|新|近|旧|老|长|短|久|贵|便宜)的\s*(?:那)?\s*(\d+|[一二两三四五六七八九十]+)\s*(?:个|名|家|条|位|笔|单|人|天|周|期|款|种|张|份|次|件|户|辆|台|本|部|首)(?:单子|单)?", re.I | re.A)
HEAD_N = lazy(r"前\s*(\d+|[一二两三四五六七八九十]+)\s*行|\bfirst\s*(\d+)\s*rows|\bhead\b"
              # keep only the first 20 / the first 5 ones: the first rows, the number said alone
              r"|(?<![a-z_])(?:keep|show|take|give me|list|only|just)\s+(?:only\s+|just\s+)?(?:the\s+)?first\s+(\d+)(?:\s+(?:rows|records|lines|entries|ones))?(?![\w.%])", re.I | re.A)
EXPORT_WORDS = rx("导出", "导出来", "倒出来", "倒出", "输出", "另存为", "另存", "保存为", "保存成", "保存下来", "保存一下", "存一下", "存下来", "存成", "存为", "转成", "转为", "转换成", "转换为", "转换", "转", "生成", "下载", "export", "save as", "save it as", "convert", "conver", "output", "write out", "download")
# "save X as an Excel file": a save whose object comes between it and "as"
EXPORT = lazy(EXPORT_WORDS.pattern + r"|(?<![a-z_])save(?=\s.{0,60}?\sas(?![a-z_]))|(?<![a-z_])turn(?=\s.{0,40}?\sinto\s)", re.I | re.A)
PROFILE = rx("分析", "预览", "看看", "看一下", "看下", "瞧瞧", "瞅瞅", "打开", "长啥样", "长什么样", "什么样", "多少行", "几行", "多少条", "多少列", "几列", "有哪些列", "哪些列", "哪些字段", "列名", "字段", "表头", "什么类型", "数据类型", "类型", "空值", "缺失值", "概况", "概览", "基本情况", "描述", "介绍", "describe", "preview", "show me", "show", "open", "look at", "peek", "how many rows", "how many columns", "rows", "rwos", "columns", "overview", "profile", "analyse", "analyze", "analysis", "inspect", "summary of", "what's in", "what is in")
EXPLORE_COMPARE = lazy(alt("对比", "比一下", "比对", "相比", "compare", "comparison", "compared with", "compared to", "versus", "差异", "区别在")
                       # 比较 compares, unless it says "rather" (比较贵 / 比较多 / 比较有名: a degree, never a comparison)
                       + r"|比较(?![有想喜爱好多少大小高低贵便快慢远近难容累忙长短重轻新旧旺淡冷热])"
                       # vs another table, never growth vs the previous month (the period before, said as what it is compared with)
                       + r"|(?<=\s)vs\.?(?=\s)(?!\s+(?:the\s+)?(?:previous|prior|last|same)\s)", re.I | re.A)
EXPLORE_OUTLIER = rx("异常", "离群", "outlier", "outliers", "anomal*", "不正常", "奇怪的值", "unusual", "abnormal")
EXPLORE_RELATION = rx("关系", "相关", "相关性", "correlation", "correlations", "correlated", "correlate", "correlat*", "relationship", "relation", "related", "associated", "association", "linked", "影响",
                      "link between", "connection between", "anything to do with", "something to do with", "have to do with", "bearing on")
VERSUS = lazy(r"(?<![a-z_])(?:vs\.?|versus|against)(?![a-z_])|跟|和|与", re.I | re.A)


def columns_related(text: str) -> bool:
    """Flagged vs FuelType, are they related? / 渠道和险种有没有关系: two things said side by side and asked whether
    they are related (a test of one table's columns), never two tables compared."""
    cmp = EXPLORE_COMPARE.search(text)
    return EXPLORE_RELATION.search(text) is not None and (cmp is None or VERSUS.fullmatch(cmp.group(0).strip()) is not None)


# the rows of the first table that have no match in the second (an anti join): drivers who do not appear in deliveries
JOIN_ANTI = lazy(r"(?<![a-z_])(?:(?:does|do|did)(?: not|n't)|never) (?:appear|exist|show up|occur)s? (?:anywhere )?in(?![a-z_])|(?<![a-z_])missing from(?![a-z_])"
                 r"|(?<![a-z_])(?:with|have|has|having) no match(?:es)? in(?![a-z_])|(?<![a-z_])without (?:a |any )?match(?:es)? in(?![a-z_])"
                 r"|(?<![a-z_])not found in(?![a-z_])|(?<![a-z_])anti[- ]join(?![a-z_])|没有?出现在|从没出现在|没有?出现过|(?:匹配|对)不上的|没有?(?:匹配|对)上的"
                 r"|反连接|不在[^，,。；;]{1,16}?(?:里|中|里面|当中)(?:出现)?的"
                 # 在住户表里找不到 / 有但住户表没有的 / 住户表里查不到的: the rows the other table has no match for
                 r"|在[^，,。；;]{1,16}?(?:里|中|里面|当中)(?:都)?(?:找不到|查不到|不存在)|有但[^，,。；;]{1,16}?没有|(?:里|中)(?:都)?(?:找不到|查不到)的", re.I)
# how two tables are joined: only the rows matched on both sides, every row of both, every row of the first, or its rows with no match
JOIN_HOW: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("inner", rx("内连接", "内关联", "内联接", "inner join", "inner", "两边都有的", "两边都能匹配", "都能匹配上的", "都匹配上的", "只保留匹配上的",
                 "只要匹配上的", "只保留能匹配的", "rows in both", "in both tables", "in both files", "matching rows only", "only matching rows",
                 "only the matching rows", "only rows that match", "only the rows that match", "matched on both sides")),
    ("full", rx("全连接", "全外连接", "外连接", "全关联", "full outer join", "full join", "outer join", "full outer", "两边都保留", "两边的行都保留",
                "两边全部保留", "keep all rows of both", "keep every row of both")),
    ("left", rx("左连接", "左关联", "左外连接", "left join", "left outer join", "保留左表全部", "保留第一张表的全部")),
    ("anti", JOIN_ANTI),
)
JOIN_HOW_ANY = lazy("|".join(p.pattern for _, p in JOIN_HOW), re.I | re.A)
EXPLORE_JOIN = lazy(alt("关联起来", "关联", "join", "joined with", "joined to", "joined on", "merge", "合并", "匹配", "拼起来", "连接", "vlookup", "带过来", "拿过来", "带进来", "查过来", "对上去", "对过来", "补上去", "匹配上", "bring over", "bring in", "pull in", "look up", "lookup", "合起来", "合到一起", "合在一起", "拼到一起", "汇到一起", "combine", "stack")
                    # 按导购对上，加上级别 / 对应上: matched row by row (never 对上个月, compared with last month)
                    + r"|对(?:应)?上(?!个|一|月|周|年|季|半|期|次|回|述|面)"
                    # 把城南店跟药品目录对一下，加上生产厂家: two tables matched up, another's columns brought onto each row
                    + r"|(?:跟|和|与|同)[^，,。；;]{1,16}?对(?:一下|一对|起来)(?!\s*(?:看|比|账|数))"
                    # add their Team and Hourly Rate from technicians.csv: columns of another file, brought in
                    + r"|(?<![a-z_])add(?=\s[^.;]{1,60}?\sfrom(?:\s+[\w\-\u4e00-\u9fff]+\.(?:csv|xlsx|xls)(?![a-z_])|\s{4,}|\s*$))", re.I | re.A)  # (its name set aside)
FULL = lazy(
    rx("全面分析", "完整分析", "深入分析", "详细分析", "深度分析", "全方位", "全面", "full analysis", "comprehensive", "in-depth", "thorough analysis", "complete analysis", "full report", "analyze everything", "analyse everything").pattern
    # a word of wholeness before a word of analysis, a few words apart (完整的分析报告 / 彻底分析一遍 / a thorough, end-to-end analysis)
    + r"|(?:完整|彻底|全面|整体|详尽|深入|系统性?|从头到尾|里里外外)[^，,。；;]{0,5}(?:分析|体检|检查|梳理|报告|看一遍|过一遍)|能看的都看|都分析一下"
    r"|(?<![a-z_])(?:thorough|complete|comprehensive|full|end-to-end|in-depth|deep|overall|top-to-bottom)(?:[\s,-]+[a-z-]+){0,2}?[\s,-]+(?:analysis|review|check-?up|health check|audit|deep dive|report)(?![a-z_])"
    r"|(?<![a-z_])(?:dig into|deep dive into)(?![a-z_]).{0,60}(?<![a-z_])everything(?![a-z_])|(?<![a-z_])(?:everything|all) (?:interesting|worth knowing|you can find)(?![a-z_])",
    re.I | re.A,
)
PLAN_ONLY = lazy(
    r"先出个?方案|出个?方案|只要方案|先给我?个?方案|给个方案|先看方案|先看看方案|方案先|先给我?看看?计划|只出方案|不用执行|先别执行|别执行|"
    r"\bplan first\b|\bshow me the plan\b|\b(?:just|only) the plan\b(?!\s*(?:and\b|or\b|,|&|/|columns?\b|fields?\b|is\b|=))|\bplan only\b|\bdon'?t run\b|\bdon'?t execute\b|\bwithout running\b|\bjust (?:show|give) me (?:a|the) plan\b",
    re.I | re.A,
)
OVERWRITE = lazy(
    r"(?:保存|存|写|放)(?:到|回|进|在|入)(?:原|源)|覆盖|保存回原|存回原|写回原|直接改原|直接改掉原|原地修改|替换原文件|直接保存|改原文件|在原文件上|原表上改|"
    r"\boverwrit|\bin place\b|\bin-place\b|\bsave over\b|\breplace the original\b|\bsave it back\b|\bsave back\b|"
    # the file written is the one read: a verb of writing or replacing with the original / same file as its place
    r"(?:替换|覆盖|改|保存|存|写|save)[^，,。；;]{0,8}(?:原来的|原始|原|同一个|同名)(?:文件|表|那个文件)|(?:就|直接)在原(?:文件|表)上|"
    r"(?<![a-z_])(?:write|save|put|store)(?: [a-z']+){0,3} (?:back|over the (?:same|original)|into (?:that|the) same|to the same|in the same)(?![a-z_])|"
    r"(?<![a-z_])keep the same (?:file ?name|file|name)(?![a-z_])",
    re.I | re.A,
)
NO_OVERWRITE = lazy(r"别动原|不要动原|不动原|不要覆盖|别覆盖|不覆盖|不改原|别改原|另存|don'?t (?:touch|overwrite|change) the original|keep the original", re.I | re.A)
EXPORT_LIST = lazy(
    r"文件清单|文件列表|文件目录|表格清单|表格列表|(?:有|都有|有些)(?:哪些|啥|什么)(?:文件|表格|表)|(?:都)?有啥表|哪些文件|"
    r"\bfile list\b|\bwhat'?s in (?:this|the) (?:folder|directory|workspace)\b|\bwhat is in (?:this|the) (?:folder|directory|workspace)\b|\bfolder contents\b|\blist (?:of )?(?:the |all )?files\b|\blist (?:the )?(?:workspace|folder)\b|\b(?:what|which) (?:files|tables|spreadsheets|sheets do i have)\b|\bwhat (?:files|tables|data) (?:do i|do we) have\b|\blist (?:the |all )?(?:tables|spreadsheets)\b|\bfiles (?:are )?in (?:the |this )?(?:workspace|folder|directory)\b",
    re.I | re.A,
)
QUESTION_DATA = lazy(r"哪个|哪些.{0,6}最|多少|是多少|几次|几个|几条|几笔|几家|几人|最高|最低|最多|最少|\bwhich\b|\bhow many\b|\bhow much\b|\bwhat is the\b|\bhighest\b|\blowest\b", re.I | re.A)

# --- chat and vague requests ------------------------------------------------------------------
GREETING = lazy(r"^(?:你好|您好|嗨|哈喽|哈啰|hello|hi|hey|早上好|上午好|中午好|下午好|晚上好|早安|晚安|在吗|在不在|good (?:morning|afternoon|evening)|yo)(?:\s+there)?[呀啊哈!,.~ ]*$", re.I | re.A)
THANKS = lazy(r"谢谢|多谢|感谢|谢啦|谢了|辛苦|帮大忙|太棒了|厉害|牛|好用|thanks|thank you|\bthx\b|\bty\b|appreciate|great job|awesome|that's all|that is all|bye|再见|拜拜|没事了|没有了", re.I | re.A)
FAREWELL = lazy(r"(?:再见|拜拜|回头见|下次见|(?<![a-z_])(?:bye|bye-bye|goodbye|good bye|see you|see ya|cya)(?:\s+(?:now|then|later))?)\s*[!！.。~]*\s*$", re.I | re.A)
VENTING = lazy(r"烦|气死|累死|累了|好累|很累|太累|真累|累坏|累得|吐了|崩溃|头疼|头大|无语|郁闷|受不了|加班|心累|抓狂|难受|讨厌|好难|太难|难死|麻烦死|要疯|疯了|哭了|救命|😩|😭|😫|😤|🙃|(?<![a-z_])(?:ugh|annoying|tired|exhausted|hate|frustrat[a-z]*|sick of|so boring)(?![a-z_])", re.I | re.A)
ABOUT_ME = lazy(
    r"你是谁|你叫什么|你是什么|你能做什么|你能干什么|你会做什么|你会干什么|你会什么|你可以做什么|你都能|你能帮我做什么|你有什么功能|有什么功能|"
    r"你能帮我干[嘛啥]|你能干[嘛啥]|你会干[嘛啥]|能干[嘛啥]|会不会.{0,10}(?:覆盖|改|删|动|上传|丢|泄露)|"
    r"你支持|支持哪些|你(?:能|可以|会|能不能|可不可以)(?:处理|打开|读取?|识别|支持|看懂)|能处理(?:哪些|什么)|支持什么|你和.{1,20}(?:区别|不同|比)|你跟.{1,20}(?:区别|不同)|你会不会|你能不能.{0,6}(?:联网|上传)|会不会把|会不会改|"
    r"安全吗|隐私|上传|联网|发到|泄露|离线|数据(?:会|会不会)?(?:发|传)(?:到|给|出)|模型|问清是|怎么用你|你怎么用|传到网上|传到云|传出去|发出去|云端|服务器上|会不会.{0,10}(?:传|发给|外泄)|"
    r"\bwho are you\b|\bwhat are you\b|\bwhat can you do\b|\bwhat do you do\b|\bwhat can you help\b|\bhow do you work\b|\bdo you support\b|"
    r"\bwho (?:made|built|created|wrote) you\b|\bcan you (?:read|open|handle|process|work with|support|deal with) (?:password|encrypted|xls|xlsx|csv|excel|big|large|chinese|gbk|files?\b)|"
    r"你能做(?:些|哪些)|能做些什么|能帮(?:我|上)?(?:做|干)?(?:些|哪些)|怎么使用|使用说明|用法|"
    r"\bhow (?:do|can|should) i use (?:you|this|it)\b|\bwhat (?:file )?(?:types|kinds of files|files) (?:can|do) you\b|\bleave (?:this|my) (?:computer|machine|laptop)\b|"
    r"(?<![a-z_])what (?:\w+ ){1,4}(?:can|could) you (?:do|help)(?![a-z_])|"
    # where wenqing puts what it writes (导出来的文件一般放在哪个目录 / where do the exported files go)
    r"(?:导出|生成|输出|保存|写出)(?:来|出来)?的(?:文件|结果)[^，,。？?]{0,8}(?:放在|存在|保存在|在)哪|结果(?:放|存|保存)在哪|"
    r"(?<![a-z_])where (?:do|does|are|will|did) (?:the |my |your )?(?:results?|outputs?|exports?|exported files?|files you (?:write|export|save))(?: \w+){0,2} (?:go|saved|stored|written|end up|put)(?![a-z_])|"
    r"\bare you\b|\bsent anywhere\b|\b(?:send|sends|share|shares|upload|uploads) (?:my|our|the) (?:data|files?|tables?|spreadsheets?)\b|\b(?:is|are) (?:my|our) (?:data|files?) (?:private|safe|secure)\b|\bonline\b|\boffline\b|\bwithout (?:the )?internet\b|\b(?:delete|remove|overwrite|change|modify|touch) my (?:files?|data|spreadsheets?)\b|\bprivacy\b|\bupload|\bsafe\b|\byour name\b|\bwhat formats\b|\bwill you (?:change|modify|overwrite)\b",
    re.I | re.A,
)
# asking how something is done (the topic, Excel or a formula, is read beside it): a topic word alone asks for no how-to
HOWTO = lazy(
    r"怎么用|怎么写|怎么做|如何|什么意思|是什么|啥意思|怎么弄|怎么设置|快捷键|"
    r"\bhow (?:do|can|to|should) (?:i|you|we)?\b|\bhow to\b|\bwhat is an?\b|\bwhat does\b|\bshortcut\b",
    re.I | re.A,
)
VAGUE = lazy(
    r"弄一下|弄下|弄弄|弄|搞一下|搞下|搞|处理一下|处理下|处理|整一下|整理一下|看着办|帮个忙|帮帮忙|帮忙|帮我一下|优化一下|改一下|"
    r"^\s*(?:help|help!+|i need help|need help|please help)\s*[!.?]*\s*$|\bfix\b|\bdo something\b|\bdo the thing\b|\bhelp me\b|\bhandle\b|\bdeal with\b|\btake care of\b|\bwork on\b|\bsort (?:it|this) out\b|\bdo it\b|\bmake it better\b|\bimprove\b",
    re.I | re.A,
)
HEADER_ROW = lazy(
    r"(?:表头|标题行|列名)\s*(?:在|是|为)?\s*第\s*(\d+|[一二两三四五六七八九十]+)\s*行|第\s*(\d+|[一二两三四五六七八九十]+)\s*行(?:才)?是\s*(?:表头|标题行|列名)"
    r"|header\s+(?:is\s+)?(?:on|in|at)?\s*(?:row|line)\s*(\d+)|(?:row|line)\s*(\d+)\s+is\s+the\s+header",
    re.I | re.A,
)
# an operation told as what happened to the file, not asked for: 是教务处导出的 / 是财务周一刚发给我的 / gets exported from
# our billing system / was generated by the ERP (its verb is the story of the file, never a request to run it)
DESCRIBED = lazy(r"是(?![要不否])[^，,。；;？?！!]{1,12}?(?:导出|发|做|弄|整理|生成|下载|拿|给|传|拉)(?:来|过来|出来|出|给我|过)?的|"
                 r"(?<![a-z_])(?:gets?|got|is|was|are|were|has been|have been)(?: \w+){0,2} (?:exported|sent|generated|downloaded|pulled|made|"
                 r"created|produced|dumped|emailed|shared)(?: \w+){0,2} (?:from|by|out of|every|each|weekly|monthly|daily)(?![a-z_])", re.I | re.A)
REMARK = lazy(r"不错|挺好|很好|真好|好看|漂亮|厉害|有意思|有趣|整齐|干净|乱|哪来的|谁做的|谁给的|发我的|发给我的|发来的|给我的|传给我|传过来的|"
                    r"(?:上周|昨天|前天|今天|刚才|上个月|早上)(?:才)?(?:发|给|传)|(?:财务|同事|领导|老板|客户|助理)(?:那边)?(?:发|给|做|整理)的|"
                    r"sent (?:it |this )?(?:to )?me|gave (?:it |this )?(?:to )?me|(?:is|was) from (?:my|the|our) \w+|came from|"
                    r"looks (?:good|nice|great|fine)|nice|interesting|neat|messy|"
                    # acknowledging, not asking (这个我知道，先不用管 / 老板说没问题 / just so you know)
                    r"我知道|(?:先|暂时)?不用管|没关系|没问题|(?<![a-z_])(?:just so you know|fyi|for your information|heads up)(?![a-z_])|"
                    + DESCRIBED.pattern, re.I | re.A)
WORK_NOUN = lazy(r"表|文件|数据|报告|sheet|excel|file|data|table|spreadsheet|csv|xlsx|report|列|行", re.I | re.A)

CONFIRM_WORDS = ("继续", "好的", "好", "可以", "确认", "是的", "是", "行", "执行", "执行吧", "开始", "没问题", "对", "对的", "嗯", "嗯嗯", "确定", "同意", "冲", "搞吧", "来吧", "ok", "okay", "yes", "y", "go", "go ahead", "sure", "yep", "yeah", "confirm", "proceed", "run it", "do it", "please do", "yes please", "sounds good",
                 "就这样", "就这么办", "这么办", "跑", "跑吧", "跑一下", "ahead", "let's", "lets", "do", "it", "run", "please", "alright", "all right",
                 "fine", "go for it", "that's right", "right", "correct", "continue", "carry on", "looks good", "looks right", "perfect",
                 "good", "great", "exactly", "没错", "可以的", "对啊", "是啊")
CANCEL_WORDS = ("取消", "算了", "不用了", "不弄了", "不要了", "别弄了", "不做了", "先不", "先不用", "停", "停止", "不要", "别", "放弃", "撤销", "等等", "等一下",
                "no", "nope", "cancel", "stop", "never mind", "nevermind", "forget it", "abort", "don't", "wait", "cancel that", "cancel it")
CORRECTION = lazy(r"^\s*(?:no\s*[,，]?\s*)?not\s+[^\s,，]+\s*[,，]\s*\S+\s*$|^\s*[^\s,，]+\s*[,，]\s*not\s+\S+\s*$|改成|改为|换成|换为|改用|换用|[，,]\s*(?:而)?不是按|"
                    r"[,，]\s*not by(?![a-z_])|改一下条件|应该是|不是.{0,20}(?<![不也又])是|打错了|我说错了|其实是|不对|错了|搞错|弄错|我要的是|我说的是|我问的是|我是问|我是说|instead|change (?:it|the \w+) to|(?:change|switch)(?: it)? to(?= )|make (?:it|that) (?=top|bottom|first|last|\d)|i meant|i mean|actually"
                    r"|^\s*(?:(?:no|oh|oops|hmm|ah)\s*[,，]?\s*)?wait\s*[,，.]\s*(?=\S)|^\s*等(?:等|一下)\s*[，,]\s*(?=\S)"
                    # 金额用中位数 / 不过金额用平均数: the statistic of what ran swapped (用中位数填充 is a fill, never this)
                    r"|^[^，,。？?；;!！]{0,16}?(?<![使利作])用(?:中位数|平均数|平均值|平均|均值|合计|总和|最大值|最小值)(?:来)?(?:算|计算|看|统计)?(?:一下)?(?:吧|呢)?\s*[。.!！]?\s*$"
                    r"|^\s*(?:no|nope|wrong)\s*[,，.]\s*(?!thanks|thank|that'?s (?:all|it|fine)|nothing|never ?mind|ok|okay|good|great|fine)(?=[a-z])", re.I | re.A)
# a rejection that says nothing else: no / that's wrong / 不对 (what to change is asked, never the same thing again)
REJECTION = lazy(r"\s*(?:(?:no|nope|wrong|incorrect|not right|not quite)(?:\s*[,，.]?\s*(?:that'?s|that is|it'?s|this is)\s+(?:wrong|not (?:it|right|what i (?:want|wanted|asked for|meant))))?"
                 r"|that'?s (?:wrong|not (?:it|right|what i (?:want|wanted|asked for|meant)))|不对|不是|错了|不对吧|不是这样|不是这个|不对不对|搞错了|弄错了|有问题)"
                 r"\s*[.!。！~～]*\s*", re.I | re.A)
# words ending in 率 / rate that name an operation of their own or no figure of the rows (增长率 is a growth, 利率 a value)
WORDS_NOT_RATES = frozenset({"增长率", "环比增长率", "同比增长率", "增长", "效率", "频率", "概率", "汇率", "利率", "税率", "growth rate", "exchange rate",
                             "interest rate", "tax rate", "frame rate", "sample rate", "heart rate"})
# a value said as included too (退货的也算进去 / include Refunded too): it joins the values of that column's condition
INCLUDE_TOO = lazy(r"也(?:算上|算进去|算进来|加进来|加进去|加上|包括|包含|要|算)|一起算|一并算|(?<![a-z_])(?:too|as well)\s*[.!]?\s*$|(?<![a-z_])also include", re.I | re.A)
# a part said as an addition to what waits (还要加上… / also the average of …): it joins the parts before, never replaces them
ADDITIVE = lazy(r"再加|加一个|加个|还要|另外|同时|并且也|也要|再筛|再加上|再按|也按|加进来|加进去|也放进来|"
                r"(?:也|顺便|一起|一并)(?:都)?(?:给我|帮我|给)?(?:加上|算上|带上|列上|放上|补上|加进来|加进去|显示出来)|(?:你)?(?:没加上|没加|漏了|漏掉了?|忘了加?|少加了)|(?<![a-z_])(?:also|additionally|and also|plus|as well)(?![a-z_])"
                # 还有最大值 / and the max / add the max too: a statistic alone, said as one more figure
                r"|^\s*(?:还有|再加上?|加上|也要|(?:and|add|plus|also)\s+(?:the\s+)?)\s*(?:最大值|最小值|中位数|平均值|平均数|均值|标准差|最大|最小|合计|总和|计数"
                r"|(?:max(?:imum)?|min(?:imum)?|median|mean|average|sum|total|count|std|standard deviation)(?![a-z_]))"
                r"\s*(?:too|as well|也要|也算上)?\s*[?？.!。]?\s*$"
                r"|(?<![a-z_])(?:by|per)\s+[^,.;]{1,40}?\s+too\s*[.!]?\s*$", re.I | re.A)  # split by power kW too: one more key
# Setting the earlier request aside before a new one: 算了这个先放着，帮我…
SET_ASIDE = lazy(r"算了|取消(?:这个|那个|掉)?(?=\s*[，,。;；])|先放着|先放一放|放一放|先搁着|搁一边|先不管|不管了|先别管|这个不要了|不弄了|换个事|"
                       r"(?<![a-z_])(?:never ?mind|forget (?:it|that|about it)|scratch that|cancel (?:that|it|this)|leave (?:it|that) for now|skip that)(?![a-z_])", re.I | re.A)
# words that begin the next step of a request; a value never runs past them (华北或华南，再按城市…)
SEQUENCE_WORDS = "然后|接着|随后|之后|其次|再"
# the words before the name a file is written under (save as x.xlsx / 保存为 x.xlsx), read by the export and by the file finder
# words that only give the written file its name (… to an Excel file called x.xlsx / name the file x.xlsx / 文件名叫 x.xlsx)
NAME_LEAD = (r"(?<![a-z_])(?:(?:file|workbook|sheet|spreadsheet)\s+)?(?:called|named)(?![a-z_])|(?<![a-z_])(?:name|call)\s+(?:it|the\s+file|the\s+output|the\s+export)(?![a-z_])"
             # export that to excel as x.xlsx: the format said, then the name
             r"|(?<![a-z_])(?:save|export|write|output)(?:\s+(?:it|this|that|them))?\s+(?:to|as|into)\s+(?:an?\s+)?(?:excel|csv|xlsx)(?:\s+file)?\s+(?:as|called|named)(?![a-z_])"
             r"|命名为|文件名叫|文件名为|文件名是|名字叫|起名叫")
SAVE_AS = (r"(?:(?<![a-z_])(?:save|export|write|output)(?:\s+(?:it|this|that|them|everything|all"
           # export the pivot result / save that table / write the last summary … as x.xlsx
           r"|(?:the|this|that)(?:\s+[a-z]+){0,2}?\s+(?:result|table|summary|pivot|chart|output|list|file)s?"
           r"|[^\s\"'“”]+\.(?:csv|xlsx|xls|xlsm)))?\s+(?:as|to|into)"  # save outputs/x_summary.csv as totals.xlsx: that file, so named
           r"|" + NAME_LEAD + r"|保存为|另存为|导出为|导出成|导出到|存成|存为|保存成|保存到)")
# the start of the next step of a request, after a clause break (…，再按客户汇总 / …, then total it by agent)
NEXT_STEP = lazy(r"[，,；;。]\s*(?=" + SEQUENCE_WORDS + r"|(?:then|and then|after that|next)(?![a-z_]))", re.I | re.A)
# A follow-up that refines what just ran (那深圳的呢, 只看华南区的呢, 把广州的也去掉, now only for Online, what about York):
# the request that ran, with this part added or swapped, restated before it runs again
FOLLOW_UP = lazy(r"^\s*(?:and\s+|but\s+|so\s+)?(?:what\s+)?if\s+(?:we|you|i)\s+[^?]*?\s+first\s*\??\s*$|那[^，,。；;]{0,24}?呢|[的了]?呢\s*[?？]?\s*$|[的了]呢\s*[，,]|不只是|不光是|不仅仅?是|(?<![a-z_])not (?:just|only)(?![a-z_])|只看|只要|只留|只保留|还要|也(?:去掉|不要|不算|排除|剔除|加上|算上|算进去|算进来|加进来|加进去|包括|包含|要)|一起算|一并算|(?<![a-z_])(?:include|add)\\s+(?:the\\s+)?[\\w\\s-]{1,30}?\\s+(?:too|as well)(?![a-z_])|再(?:去掉|排除|剔除|加上)"
                 r"|的?(?:不算|不要|除外|不计|不含)\s*[。.!！]?\s*$|^\s*(?:去掉|排除|剔除|除了|不算|不要)"
                 r"|^\s*(?:再)?(?:把|将)[^，,。]{1,14}?(?:去掉|排除|剔除|删掉|拿掉)(?:再看|再算|看看|再统计|呢)?\s*[。.!！]?\s*$"
                 r"|^\s*[^，,。]{1,14}?(?:去掉|排除掉?|剔除|删掉|拿掉|不算|不要)了?\s*[，,]?\s*(?:再|重新)\s*(?:取|看|算|排|统计)(?:一下|一遍|一次|下)?\s*[。.!！]?\s*$"
                 r"|[，,]\s*(?:再|重新)\s*(?:算|统计|汇总|计算)(?:一下|一遍|一次)?\s*[。.!！]?\s*$|(?<![a-z_])(?:recalculate|recompute|redo it)(?![a-z_])"
                 r"|(?:再|重新)\s*(?:算|统计|汇总|计算|跑|做)\s*(?:一下|一遍|一次)\s*(?:吧|呢)?\s*[。.!！]?\s*$"  # 用去重后的数据再算一遍
                 r"|(?<![a-z_])(?:now|also|too|as well|what about|how about|just|instead)(?![a-z_])|^\s*(?:and|but)?\s*only(?![a-z_])"
                 r"|^\s*(?:(?:the\s+)?same|same thing|同样|一样)(?:的)?\s*(?:[,，]\s*)?(?:but|except|with|only|不过|但是|但|只)(?![a-z_])"  # same but only approved ones
                 # 按会员卡号去重以后是多少人 / after removing duplicates, how many: the count just given, of the rows deduplicated
                 r"|(?:去重|去掉重复的?|删掉重复的?)(?:以后|之后|后)\s*(?:是|有|还剩|剩)?\s*(?:多少|几)|(?<![a-z_])after (?:removing|dropping|deduping) (?:the )?duplicates(?![a-z_])"
                 r"|^\s*and\s+(?:for|in|on|with|from|at)(?![a-z_])[^,，.。]{0,40}\?\s*$|^\s*(?:and|or)\s+[^\s,，.。;]{1,24}(?:\s+[^\s,，.。;]{1,24})?\s*\??\s*$"
                 r"|^\s*(?:excluding|except|without|leave out|drop|other than|exclude|remove|ignore|skip)(?![a-z_])"
                 r"|^\s*(?:and|plus)\s+(?=[^,.;]{1,40}?(?:=|==|!=|>|<|\b(?:is|are|not|over|under|above|below)\b))"  # and gender = F: added
                 r"|^\s*(?:并且|而且|同时|再加上|另外)", re.I | re.A)
# the figure just given, now per group: break that down by plan / split it by region / 按套餐拆开看 / 再按城市分一下
BREAK_DOWN = lazy(r"(?<![a-z_])(?:break(?:s|ing)?\s+(?:that|it|this|these|those|them)\s+down|split\s+(?:that|it|this|them)\s+(?:up\s+)?by)(?![a-z_])"
                  r"|按.{1,10}?(?:拆开|拆分|分开|细分|分一下|拆一下|分别看|分别算|分别统计|分开算|各算)|分别按", re.I | re.A)
# every sheet of a workbook whose sheets are one table split (一季度/二季度…, North/South), stacked
ALL_SHEETS = lazy(r"整个(?:工作簿|文件|excel|表格文件)|(?:按|用)?(?:所有|全部|每个|各个|整个)的?\s*(?:工作表|sheet|表|页|季度)(?:\s*(?:的)?(?:合计|合起来|合在一起|加起来|加在一起|一起)(?=\s*(?:来)?算))?|(?:上下)?(?:拼起来|拼在一起|拼接起来|拼成一张)|(?:[两三四五六七八九十几]|\d+)\s*(?:个|张)\s*(?:工作表|sheet|表|季度|月|半年)"
                  r"[^，,。]{0,6}?(?:合在一起|合起来|合并|加起来|加在一起|汇总|一起)|(?:合在一起|合起来|加在一起)"
                  r"|(?<![a-z_])(?:all (?:the |of the )?(?:(?:two|three|four|five|six|\d+) )?sheets|every sheet|both sheets|(?:the )?(?:whole|entire) (?:workbook|file)|stack(?:ed|ing)? (?:the |all )?sheets|across (?:all |the |its |their )?(?:(?:two|three|four|five|six|\d+) )?sheets|all tabs)(?:\s+(?:combined|together|altogether|all together|as one))?(?![a-z_])"
                  # combine all four quarters / merge both months / all 12 months together
                  r"|(?<![a-z_])(?:combine|combining|merge|merging|stack|append|put together)\s+(?:(?:all|both|the|these|those|every)\s+)*(?:(?:two|three|four|five|six|twelve|\d{1,2})\s+)?"
                  r"(?:quarters|months|sheets|tabs|periods)(?![a-z_])"
                  r"|(?<![a-z_])(?:all|both)\s+(?:the\s+)?(?:(?:two|three|four|twelve|\d{1,2})\s+)?(?:quarters|months|tabs)(?![a-z_])"
                  r"|(?<![a-z_])(?:in\s+)?(?:each|every|per)\s+(?:quarter|month|tab|sheet)(?![a-z_])",
                  re.I | re.A)
# one figure per sheet of a workbook split by period (in each quarter / every month / per sheet): the sheets are a key
# no, by route only, not by depot / drop sheet from the grouping / 不按工作表 / 分组里去掉工作表: the sheets are no key
NOT_BY_SHEET = lazy(r"(?:不是|而不是|不要|(?<![分特区类级性个])别|不用|不再|不|(?<![a-z_])(?:not|rather than|instead of|don'?t|do not|no longer)(?![a-z_]))\s*(?:分组)?\s*"
                    r"(?:按|分|(?:group|break\s+(?:it\s+)?down|split)\s+by\s+|(?:by|per|for each|in each|each)\s+)\s*(?:每个|各个?)?\s*(?:sheet|tab|工作表)"
                    r"|(?<![a-z_])(?:instead of|rather than)\s+(?:the\s+)?(?:sheets?|tabs?)(?![a-z_])"  # by space type instead of sheet
                    r"|(?<![a-z_])(?:(?:drop|remove|take|leave)\s+)?(?:out\s+)?(?:the\s+)?(?:sheets?|tabs?)(?:\s+column)?\s+(?:out\s+)?(?:from|of)\s+(?:the\s+)?(?:group(?:ing|s)?|keys?|breakdown)"
                    r"|(?:分组|汇总|分类)(?:里|中|时)?(?:去掉|不要|删掉|去除)(?:按)?(?:工作表|sheet)|(?:去掉|不要|删掉)按?(?:工作表|sheet)(?:的)?(?:分组|这一?层)", re.I)
BY_SHEET = lazy(r"(?<![a-z_])by\s+(?:sheet|tab)(?![a-z_])|按\s*(?:工作表|sheet)(?:(?=\s*(?:分别|分开|分组|各自|汇总|统计|计算|算|来|看))|(?!\s*[\"“]?[A-Za-z0-9\u4e00-\u9fff]*(?:的|里|中)))", re.I)  # total Fee by sheet / 按工作表分组: every sheet, each one a key
EACH_SHEET = lazy(r"(?<![a-z_])(?:in\s+)?(?:each|every|per)\s+(?:quarter|month|tab|sheet)(?![a-z_])|(?<![a-z_])by\s+(?:sheet|tab)(?![a-z_])|每个?(?:季度|工作表|sheet)|各(?:个)?(?:季度|工作表)|按\s*(?:工作表|sheet)(?!\s*[\"“]?[A-Za-z0-9\u4e00-\u9fff]*(?:的|里|中))",
                  re.I | re.A)
# no grouping, to "group by which column?": one figure over every row
NO_GROUPING = lazy(r"不分组|不用分组|不要分组|不需要分组|无需分组|不分了|就要一个总数|只要一个总数|只要总数"
                   r"|(?<![a-z_])(?:no grouping|don'?t group|do not group|without grouping|ungrouped)(?![a-z_])", re.I | re.A)
# the same said as an answer to "group by which column?": 整体 / overall / one total
NO_GROUPING_ANSWER = lazy(NO_GROUPING.pattern + r"|不用分|整体|总体|一个总数|全部一起|合在一起算"
                          r"|(?<![a-z_])(?:overall|in total|no groups?|one total|just (?:the|one) total|all together|all rows)(?![a-z_])", re.I | re.A)
THEN_START = lazy(r"^\s*(?:然后|接着|之后|随后|再把|再对|再(?:加|添|增加|新增|插入)(?:一|个)?(?:列|栏)|then|and then|after that|next,)", re.I | re.A)
# a turn said as the next step of a request made in steps (然后… / 再… / then …): the table before it was a step on the way
NEXT_STEP_LEAD = lazy(r"^\s*(?:然后|接着|之后|随后|再|then(?![a-z_])|and then(?![a-z_])|after that(?![a-z_])|next(?![a-z_]))", re.I | re.A)
# The previous result as the input of this request
# 用合并那张表 / 在合并的表里 / 合并后的结果: the table a merge (a stack or a join) just made, never a merge asked again
MERGED_RESULT = r"(?:刚才|上面|前面)?(?:合并|拼接|拼|合)(?:起来)?(?:的|后的|好的|完的)(?:那|这)?(?:张|个)?(?:表|结果)|(?:合并|拼接)(?:那|这)(?:张|个)?(?:表|结果)|(?:这个|那个|这张|那张|刚才的?)(?:合并|关联|拼接|汇总|筛选|去重)(?:后的|好的|出来的)?(?:表|结果|数据)"
RESULT_REF = lazy(MERGED_RESULT + r"|(?:他们|她们|它们|这些人|这帮人)(?!公司)|(?:他|她)的(?=[^，,。]{0,8}(?:合计|总|金额|订单|单子|平均|销售|业绩|数))|这里面|这里头|这里边|按(?:这个|它)(?=\s*(?:来)?\s*(?:从|由|降序|升序|倒序|排|倒着))|(?:把|将|对|从)结果|(?<![a-z_])(?:they|them|their|her|his|him|these|those(?! (?:in|from|with|where|who|which|that|whose|of)(?![a-z_]))|that(?=\s+(?:by|per|into|as|to|for|over|across)(?![a-z_])|\s*[?.!;]|\s*$)|that (?:result|output|list|summary)|the (?:[a-z][\w-]* ){0,4}?(?:table )?result|(?<=chart of )the (?:[a-z]+ ){0,2}?(?:totals|figures|numbers|counts|sums|averages))(?![a-z_])|(?:刚才|刚刚|上一步|上面|前面|之前)的?(?:结果|输出|表)|这些(?!数据|文件|表)|这(?:几|两)(?:条|行|笔|单|个(?!月|季|年|星期|周|天|工作表|表|文件)|项|位|人|家)|这批|^\s*(?:那|那么)?\s*其中(?!的?(?:一个|一张|一份)?(?:表|文件|工作表))|(?:这个|那个|该|此)(?:结果|输出)|结果(?:表|里|中|上)|在结果|^\s*(?:再)?(?:把|将|对)它|^\s*(?:再)?(?:把|将)?(?:这个|这张表|这份)(?=\s*(?:存|导出|保存|另存|转|发|输出|下载))|^\s*(?:再)?(?:导出|保存|存|另存|输出|下载)(?:一下)?(?:为|成)?\s*(?:这个|这张表|这份)(?=\s*(?:[为成].{0,10})?\s*[。.!！]?\s*$)|第\s*\d+\s*(?:个|条|号)?\s*结果|结果\s*#?\s*\d|在(?:这个|这|此|刚才的?|上面的?)基础上|基于(?:这个|刚才的?|上面的?)(?:结果|表)"
                        r"|(?<![a-z_])(?:on|in|of|from|to|for|with|using) (?:that|this|it)(?: (?:result|table|one|output))?(?=\s*(?:now|then|again|please|too)?\s*[?.!]?\s*$)"
                        # in that, just the Card rows / of those: … — the result said first, then what to do with it
                        r"|^\s*(?:and\s+|now\s+)?(?:in|of|from|within|among|out of) (?:that|this|those|these)(?: (?:result|table|one|output|list|rows|lot))?(?=\s*[,，:;\-–—])"
                        r"|(?<![a-z_])(?:export|save|sort|filter|group|keep|chart|plot) (?:it|them|that)(?![a-z_])|(?<![a-z_])result\s*#?\s*\d"
                        # a chart of what just ran: make a chart of that / graph this / plot it as a pie / 把这个画成柱状图 / 这个透视表
                        r"|(?<![a-z_])(?:chart|graph|plot|draw|visuali[sz]e|diagram)s?\s+(?:(?:of|for|from|showing)\s+)?(?:it|that|this|them)(?![a-z_])"
                        r"|^\s*(?:再)?(?:把|将|用)?(?:这个|那个|这些|刚才的?)(?=\s*(?:画|做成|生成|绘|做个|做一个|出个|出一个)\S{0,4}图)"
                        r"|(?:这个|那个|这张|那张|刚才的?)(?:透视表|交叉表|汇总表|汇总结果|统计结果|排名)|(?<![a-z_])(?:that|this) (?:pivot(?: table)?|crosstab)(?![a-z_])|(?<![a-z_])the (?:pivot(?: table)?|crosstab)(?![a-z_])(?!\s+(?:result|output))|(?<![a-z_])(?:that|this) (?:summary|ranking)(?![a-z_])"
                        r"|(?<![a-z_])(?:the|that|this|previous|last) (?:result|output)s?(?![a-z_])"
                        r"|(?<![a-z_])(?:the|that|this) (?:joined|merged|combined|filtered) (?:table|data|rows|result|one)(?![a-z_])"
                        # 刚才关联出来的那个结果 / 合并后的结果: the result named by the step that made it
                        r"|(?:刚才|之前|上一步|前面)(?:关联|合并|连接|匹配|拼接|筛选|汇总|去重|排序)(?:出来|好|完)?(?:的|后的|之后的|以后的)(?:那个|这个|那张|这张)?(?:结果|表格|表|数据)"
                        r"|(?:关联|合并|连接|匹配|拼接|筛选|汇总|去重|排序)(?:出来|好|完)(?:的|后的)(?:那个|这个|那张|这张)?(?:结果|表格|表|数据)"
                        r"|(?:关联|合并|连接|匹配|拼接)(?:后|之后|以后)的(?:那个|这个)?结果"  # (用去重后的数据再算: rows yet to be deduplicated)
                        r"|(?:刚才|上面|前面)(?:的|那|这)?\s*\d+\s*(?:个|条|行|位|名|家|笔)(?:人|记录|数据|行)?"  # 刚才那14个人里面: the rows just shown
                        r"|(?<![a-z_])(?:is|are|was|were) (?:that|those|these|it)\s*[?.!]?\s*$"
                        r"|(?<![a-z_])(?:these|those) (?:rows|records|ones|orders|items|entries)(?![a-z_])|(?<![a-z_])(?:of|for|in) (?:these|them)(?![a-z_])", re.I | re.A)
# the previous result called by the operation that made it (这个透视表 / that pivot): a reference, never a request for that operation again
RESULT_NAMED = lazy(MERGED_RESULT + r"|(?:这个|那个|这张|那张|刚才的?|上面的?)(?:透视表|交叉表|汇总表|汇总结果|统计结果|排名)|(?<![a-z_])(?:that|this) (?:pivot(?: table)?|crosstab)(?![a-z_])|(?<![a-z_])the (?:pivot(?: table)?|crosstab)(?![a-z_])(?!\s+(?:result|output))|(?<![a-z_])(?:that|this) (?:summary|ranking)(?![a-z_])"
                    r"|(?<![a-z_])the (?:[a-z][\w-]* ){1,4}?(?:table )?result(?![a-z_])"  # the Harbour direct monthly result
                    r"|(?:这个|那个|刚才的?|上一步的?)[\u4e00-\u9fff]{1,6}?(?:后|完)的[\u4e00-\u9fff]{1,4}?(?=\s*(?:按|关联|合并|匹配|对上|里|中|[，,。]|$))"  # 这个去重后的目录
                    r"|(?:刚才|上面|前面)(?:的|那|这)?\s*\d+\s*(?:个|条|行|位|名|家|笔)(?:人|记录|数据|行)?(?:里面|里头|里|中)?", re.I | re.A)  # 刚才那14个人里面
# the last result named as one side of a join or a comparison (join that with stores.csv / 把这个结果和门店表合并 / 把它跟…关联)
JOIN_RESULT = lazy(r"(?<![a-z_])(?:join|merge|combine|match|compare|link)\s+(?:that|this|it|these|those|them|the (?:[a-z0-9][\w-]* ){0,4}?result|that result|this result|the summary)(?![a-z_])"
                   r"|(?<![a-z_])(?:that|this|these|those|the (?:[a-z0-9][\w-]* ){0,4}?result|that result|this result)\s+(?:with|to|against)\s"
                   r"|(?:把|将|拿)?(?:(?:刚才|刚刚|刚|上面|前面)?(?:的|那个|这个)?结果|刚才的?结果|上一步的?结果|这个表|这张表|它|这个"
                   r"|(?:这个|那个|这张|那张|刚才的?)(?:合并|关联|拼接|汇总|筛选|去重)(?:后的|好的|出来的)?(?:表|结果|数据))\s*(?:和|跟|与|同)"
                   # 这个结果按房号关联业主.csv: the result, then the verb and the other table
                   r"|(?:把|将|拿|用)?(?:这个|刚才的?|上一步的?|上面的?)结果\s*(?:按[^，,。]{1,12}?)?\s*(?:去)?(?:关联|合并|匹配|对上|连接|join)"
                   # 用城南店跟这个(去重后的目录)关联: the last result said second
                   r"|(?:和|跟|与|同)\s*(?:这个|刚才的?|上一步的?)(?:结果|表)?(?:[\u4e00-\u9fff]{0,6}?(?:后|完)的?[\u4e00-\u9fff]{0,4})?\s*(?:按[^，,。]{1,12}?)?(?:关联|合并|匹配|对上|连接|join)"
                   # bring in Team from technicians.csv into that / 带到这个结果里: the columns come to the last result
                   r"|(?<![a-z_])(?:into|onto|to)\s+(?:that|this|it|the (?:last |previous )?result|that result|this result)(?![a-z_])"
                   r"|(?:带到|加到|拿到|并到|补到)(?:这个结果|刚才的?结果|上一步的?结果|这个表|这张表|它|这里)"
                   r"|(?<![a-z_])(?:their|its)\s+(?=[^.;]{1,60}?\sfrom\s)|(?:他们|它们|这些人)的", re.I | re.A)  # add their Team … from B
DEICTIC = lazy(r"这个文件|这个表格?|这张表|这份|这表|那个文件|那个表格?|那张表|那份|当前文件|刚才的?文件|刚才那个|上一个文件|\bthis (?:file|table|sheet|spreadsheet|one)\b|\bthat (?:file|table|sheet)\b|\bthe same file\b|\bin there\b|\bit\b|它|这个数据|这些数据|该文件|该表|这个sheet", re.I | re.A)

# --- talk that is not about the workspace ---------------------------------------------------------
# Things other apps and services do: weather, tickets and timetables, matches, shows, music, mail, maps…
# A word here is a request for that service only when the workspace names no such file, sheet or column.
OTHER_SERVICE = lazy(
    r"天气|气温|下雨|下雪|雾霾|空气质量|火车|高铁|动车|车次|火车票|机票|航班|飞机|航空公司|酒店|宾馆|打车|叫车|滴滴|导航|怎么走|路线|公交|地铁|"
    r"比赛|赛程|联赛|比分|球赛|直播|电视剧|综艺|电影|节目|第[一二三四五六七八九十百\d]+(?:集|期|季)|放一首|播放|听歌|唱歌|音乐|歌曲|"
    r"闹钟|提醒我|日程|发短信|短信|打电话|微信|朋友圈|外卖|菜谱|做法|快递|股价|彩票|新闻|翻译|"
    r"(?<![a-z_])(?:weather|forecast|flights?|train tickets?|trains? to|hotels?|taxi|uber|navigate|directions to|play (?:a |some )?(?:song|music|video)|"
    r"songs?|movies?|tv show|episode|match score|alarm|remind me|text message|call (?:my|mom|dad)|news|translate|recipe)(?![a-z_])",
    re.I | re.A,
)
# Words naming the whole table as what an aggregate is taken over: 全公司平均, the overall average
OVERALL = r"(?:全公司|全部门|公司|整体|总体|全体|全部|全员|所有人|所有员工|大家|全表|(?<![a-z_])(?:the\s+)?(?:overall|company|whole|total)(?![a-z_]))\s*的?\s*"
# Each group's figure set beside the whole table's: 高于公司平均的部门, 与整体均值比较, how does each compare to the overall average
_AVG_WORD = r"(?:平均水平|平均值|平均数|平均|均值)"
VERSUS_OVERALL = lazy(
    r"(?:标出|标记|标注|看看|算出)?\s*(?:(?:高于|低于|超过|超出|偏离)\s*(?:" + OVERALL + r")?|(?:比|与|和|跟|同|相比|对比|比较)\s*" + OVERALL + r")"
    + _AVG_WORD + r"(?:相比|比较|对比|比)?\s*(?:高|低|多|少|差)?了?\s*(?:多少|几何)?"
    r"|(?<![a-z_])(?:(?:how does |how do )?(?:each |they |it )?(?:compares?|compared|comparison|relative|vs\.?|versus|against|above|below|with|to)\s+(?:to|with)?\s*"
    r"(?:the\s+)?(?:overall|company|total|whole)(?:\s+(?:table|company))?\s+(?:average|mean))(?![a-z_])",
    re.I | re.A,
)
# Sending, printing or uploading a table: nothing wenqing can do; it can export the table for the user to send
DELIVER = lazy(r"发邮件|发个邮件|发封邮件|邮件发|用邮件|发到(?:\S{0,6})?邮箱|邮箱发|打印(?!机)(?:出来|一下|一份)?|上传到|传到(?:网盘|群|云)|分享给|转发给|发到(?:\S{0,4})?群|发微信|"
                     r"(?<![a-z_])(?:e-?mail (?:it|this|that|them|the)|send (?:it|this|that|them|the \S+(?: \S+)?) (?:to|by e-?mail|via e-?mail)|mail (?:it|this) to|print (?:it|this|that|the)|upload (?:it|this|the))(?![a-z_])",
                     re.I | re.A)
# Questions about wenqing's own name and about undoing what it did
ABOUT_NAME = lazy(r"你叫|你的名字|问清是什么意思|问清这个名字|为什么叫问清|问清(?:是|什么)|名字(?:是什么|什么意思|的意思)|"
                        r"(?<![a-z_])(?:your name|what are you called|why (?:is it|are you) called|what does wenqing mean|who is wenqing|what is wenqing)(?![a-z_])",
                        re.I | re.A)
# how to take back what wenqing wrote (怎么把刚才生成的文件删掉 / 我是问怎么撤销上一步 / how do I delete the files you made): /undo, said
UNDO_ASKED = lazy(r"(?:怎么|如何|怎样|咋)[^，,。？?]{0,10}?(?:撤销|撤回|(?:删|清)(?:除|掉|理)[^，,。？?]{0,10}?(?:生成|导出|输出|写出?)(?:来|出来)?的?(?:文件|结果))"
                  r"|(?:怎么|如何|怎样|咋)[^，,。？?]{0,10}?(?:生成|导出|输出|写出?)(?:来|出来)?的(?:文件|结果)[^，,。？?]{0,4}?(?:删|清)(?:除|掉|理)"
                  r"|(?<![a-z_])how (?:do|can) i (?:delete|remove|undo|get rid of) (?:the )?(?:files?|results?|outputs?) (?:you|wenqing) (?:made|wrote|created|generated|saved)(?![a-z_])", re.I | re.A)
ABOUT_UNDO = lazy(r"撤销|撤回|还原|恢复(?:原|之前|刚才)|回退|反悔|后悔|(?<![a-z_])(?:undo|revert|roll ?back|take (?:it|that) back)(?![a-z_])", re.I | re.A)
# Opening an app: 打开mail, 打开微信, open spotify — not a file of the workspace
OPEN_APP = lazy(r"(?:打开|启动|开一下|open|launch|start)\s*(?P<app>mail|email|邮件|邮箱|微信|qq|淘宝|支付宝|微博|抖音|浏览器|百度|地图|相机|计算器|日历|"
                      r"音乐|网易云|spotify|outlook|gmail|browser|camera|calendar|maps?|wechat)(?![a-z_])", re.I | re.A)
# Talk about the assistant as a person: 你喜欢…, 你是不是…, 你不是…吗, 这不是你的名字吗, are you human
PERSONA = lazy(
    r"你(?:是不是|不是|真是|是个|是真人|喜欢|爱|讨厌|怕|觉得|认为|猜|多大|几岁|住在|住哪|在干|在做什么|吃饭|睡|累不累|开心|难过|生气|疯|傻|笨|聪明|可爱|漂亮|帅|"
    r"有没有(?:男|女|朋友|对象|感情)|有男朋友|有女朋友|结婚|本人|机器人|人工|真人)|你的(?:名字|年龄|性别|爱好|生日|家)|"
    r"(?<![a-z_])(?:do you (?:like|love|hate|think|feel|believe|know|remember)|are you (?:a |an )?(?:human|real|robot|bot|happy|sad|ok|okay|crazy|alive)|"
    r"how old are you|what do you think|you(?:'re| are) (?:right|wrong|funny|smart|stupid|crazy))(?![a-z_])",
    re.I | re.A,
)
# The conversation itself: 我说的倒数第三句话, 你能分析上下文吗, what did I just say
CONVERSATION = lazy(r"上下文|倒数第.{1,3}句|我(?:刚才|刚刚|之前|前面)?说的(?:话|第.{1,3}句|那句)|我(?:刚才|刚刚)说了什么|聊天记录|我们(?:刚才)?聊(?:了|到|的)|"
                          r"(?<![a-z_])(?:what did i (?:just )?say|our conversation|this conversation|chat history|remember what i said)(?![a-z_])", re.I | re.A)
# Asking what a word means, or a fact about the world: definition of X, 什么是X, X是什么意思
KNOWLEDGE = lazy(
    r"^\s*(?:什么是|什么叫)|(?:是什么意思|什么意思|的意思是|的定义|是谁|是哪国人|有多高|有多大|怎么来的|是怎么.{1,6}的)\s*[?？]?\s*$|"
    r"(?<![a-z_])(?:definition of|define|meaning of|what does \w+ mean|who (?:is|was|were)|when (?:did|was|were)|where (?:is|was)|why (?:did|do|does|is)|"
    r"how did|did you know|what (?:is|are) (?:a |an |the )?\w+(?: \w+)?\s*\??\s*$|\w+ definition\s*$)(?![a-z_])",
    re.I | re.A,
)
# A remark about the world in the first or third person: He makes…, They say…, I think the coach…, 我在想…, …对不对
STATEMENT = lazy(
    r"^\s*(?:he|she|they|his|her|their|we|it was|there (?:is|are|was|were)|yes you are|yeah|i think|i know|i guess|i'?m (?:curious|not sure)|but they|and to think)(?![a-z_])|"
    r"^\s*(?:我在想|我觉得|我猜|我认为|听说|据说)|(?:对不对|是不是啊|对吧|你说呢)\s*[?？]?\s*$|应该是.{1,16}吧",
    re.I | re.A,
)

# Why a request is asked, not what it asks: 为了…，/ …，以便… / 这有助于… / because … . Read as context, never as a
# condition, column or operation.
PURPOSE = lazy(
    r"(?:^|(?<=[。；;!?！？]))\s*为了[^，,。；;]{2,40}[，,]"
    r"|[，,]?\s*(?:以便于?|以保证|以确保|以观察|以了解|以便我们|便于我们|这有助于|这将有助于|这样可以帮助|因为这些|因为(?=[^，,。]{0,8}(?:记录|数据|行))|so that we can|in order to see)[^。；;?？]*"
    # 导出成excel，我要发给经理: who it is for, never a column (客户经理) or a file
    r"|[，,]\s*(?:我要|我得|要|好)?\s*(?:发给|交给|报给|拿给|转给|给)[\u4e00-\u9fff]{1,4}?(?:看看?|过目|审)?\s*(?:吧|的)?\s*[。.!！]?\s*$",
    re.I,
)



def about_me(text: str, data_words: Callable[[str], Iterable[str]]) -> bool:
    """A question about wenqing itself: a cue of ABOUT_ME that is not a word of the data. `data_words(text)` gives the
    casefolded cell values and column names the text could mean (ONLINE as a channel's value is data, never chat)."""
    cues = [m.group(0).strip().casefold() for m in ABOUT_ME.finditer(text)]
    if not cues:
        return False
    data = set(data_words(text))
    return any(c not in data for c in cues)


# …, rounded to 2 dp / 保留两位小数 / 四舍五入到1位: the decimals a new column is rounded to
ROUNDED_TO = lazy(r"[,，]?\s*(?:(?:and\s+)?round(?:ed)?(?:\s+it)?\s+(?:off\s+)?to\s+(?P<n>\d)\s*(?:dp|d\.p\.|decimal\s+places?|decimals?|places?)"
                   r"|(?:并|并且|结果)?(?:四舍五入)?(?:到|保留)\s*(?P<z>\d|[零一二两三四])\s*位(?:小数)?)", re.I)


def rounded_digits(m: re.Match[str]) -> int:
    """The decimals a ROUNDED_TO match says (2 of "2 dp", 2 of 保留两位)."""
    said = m.group("n") or m.group("z")
    return int(said) if said.isdigit() else {"零": 0, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4}[said]


# show me those rows / list them / 列出来 / 是哪些: the rows behind a figure just made, asked for
ROWS_ASKED = re.compile(r"^\s*(?:ok(?:ay)?\s*,?\s*|now\s+|and\s+|so\s+|can you\s+|please\s+)*(?:(?:show|list|give|display|pull up|let me see)(?:\s+me)?\s+"
                        r"(?:(?:them|those|these|the|which)(?:\s+(?:rows?|ones|records?|entries|lines|details|[a-z]+s))?(?:\s+out)?|the list)"
                        r"|list\s+(?:them|those|these)\s+out|which\s+(?:ones|rows|records)\s+(?:are\s+they|are\s+those|were\s+they|is\s+that)"
                        r"|(?:what|which)\s+are\s+(?:they|those|these))(?:\s+please)?\s*[?.!]?\s*$"
                        r"|^\s*(?:(?:把|将)?(?:这些|那些|这几|那几|它们|他们)?(?:个|条|笔|单)?(?:单子|行|记录|明细|数据|订单)?(?:都|具体)?(?:列出来|列一下|列给我|拉出来|调出来|显示出来)(?:看看|看一下|给我看看|吧)?"
                        r"|(?:都|具体|分别)?是哪些(?:单子?|行|记录|条)?(?:呢)?|(?:看看|看一下|给我看看)?(?:这些|那些)?(?:的)?明细(?:呢|看看|给我看看)?)\s*[?？。.!！]?\s*$", re.I)
ROWS_KEPT_KINDS = frozenset({"stack", "append", "filter", "dedupe", "join", "lookup", "lookup_rows", "clean", "add_column", "formula",
                             "replace", "fill_method", "if_column", "bin", "letter_case", "text_values"})
