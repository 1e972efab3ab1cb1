"""Build benchmarks/tuning/workspace/: eight spreadsheet files for the tuning decision set.

Deterministic: one fixed seed, no clock, no network. Run with the project's interpreter:

    .venv/bin/python benchmarks/tuning/make_workspace.py

The files are rewritten on every run; nothing else is touched.
"""
from __future__ import annotations

import re
import shutil
import zipfile
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20240917
HERE = Path(__file__).resolve().parent
OUT = HERE / "workspace"


def days(rng: np.random.Generator, start: date, end: date, n: int) -> list[date]:
    span = (end - start).days
    return sorted(start + timedelta(days=int(d)) for d in rng.integers(0, span + 1, n))


def blank_out(rng: np.random.Generator, values: list, share: float) -> list:
    return [None if rng.random() < share else v for v in values]


# 1. restaurant chain daily orders (csv, Chinese headers, UTF-8 with BOM as Excel writes it)
def restaurant_orders(rng: np.random.Generator) -> pd.DataFrame:
    menu = {"宫保鸡丁": 38, "鱼香肉丝": 32, "麻婆豆腐": 26, "水煮鱼": 68, "酸菜鱼": 72,
            "回锅肉": 42, "干锅花菜": 28, "小龙虾": 128, "米饭": 3, "酸梅汤": 12}
    stores = ["望京店", "国贸店", "五道口店", "西单店"]
    pays = ["微信", "支付宝", "现金", "银行卡", "美团外卖"]
    n = 254
    dishes = rng.choice(list(menu), n, p=[.13, .11, .1, .09, .1, .09, .08, .06, .16, .08])
    qty = [int(rng.integers(2, 9)) if d == "米饭" else int(rng.integers(1, 5)) for d in dishes]
    rows = pd.DataFrame({
        "订单号": [f"DD{240401 + i:06d}" for i in range(n)],
        "门店": rng.choice(stores, n, p=[.3, .28, .24, .18]),
        "日期": [d.isoformat() for d in days(rng, date(2024, 4, 1), date(2024, 6, 30), n)],
        "菜品": dishes,
        "份数": qty,
        "单价": [menu[d] for d in dishes],
    })
    rows["金额"] = rows["份数"] * rows["单价"]
    rows["支付方式"] = blank_out(rng, list(rng.choice(pays, n, p=[.38, .27, .07, .1, .18])), .05)
    dup = rows.iloc[rng.choice(n, 6, replace=False)]  # the till exported a few orders twice
    return pd.concat([rows, dup]).sort_values(["日期", "订单号"]).reset_index(drop=True)


# 2. fleet fuel log (xlsx, English headers)
def fleet_fuel(rng: np.random.Generator) -> pd.DataFrame:
    fleet = {"TRK-01": ("Li Wei", "Diesel"), "TRK-02": ("Tom Baker", "Diesel"),
             "TRK-03": ("Ahmed Khan", "Diesel"), "TRK-04": ("Chen Jie", "Diesel"),
             "VAN-01": ("Maria Lopez", "Gasoline 95"), "VAN-02": ("Zhang Min", "Gasoline 92"),
             "VAN-03": ("Olga Petrova", "Gasoline 95"), "CAR-01": ("Sam Carter", "Gasoline 95")}
    price = {"Diesel": 7.62, "Gasoline 92": 7.81, "Gasoline 95": 8.32}
    stations = ["Shell Nanshan", "Sinopec Futian", "PetroChina Bao'an", "BP Longgang"]
    n = 184
    when = days(rng, date(2024, 1, 2), date(2024, 6, 28), n)
    vids = rng.choice(list(fleet), n, p=[.16, .15, .15, .14, .11, .11, .1, .08])
    odo = {v: int(rng.integers(40_000, 160_000)) for v in fleet}
    out = []
    for d, v in zip(when, vids, strict=True):
        driver, fuel = fleet[v]
        litres = round(float(rng.uniform(90, 185) if v.startswith("TRK") else rng.uniform(22, 65)), 1)
        odo[v] += int(litres * (rng.uniform(2.6, 3.4) if v.startswith("TRK") else rng.uniform(9, 13)))
        ppl = round(price[fuel] + float(rng.normal(0, .12)), 2)
        out.append({"date": d, "vehicle_id": v, "driver": driver, "fuel_type": fuel,
                    "station": stations[int(rng.integers(0, 4))] if rng.random() > .06 else None,
                    "liters": litres, "price_per_liter": ppl, "total_cost": round(litres * ppl, 2),
                    "odometer_km": odo[v],
                    "notes": rng.choice(["receipt missing", "paid cash, card declined", "highway trip"])
                    if rng.random() < .07 else None})
    df = pd.DataFrame(out)
    df["date"] = pd.to_datetime(df["date"])
    return df


# 3. university course enrollment, two sheets with the same columns
def enrollment(rng: np.random.Generator, n: int, first_id: int) -> pd.DataFrame:
    courses = {"高等数学": (4, "周建国"), "线性代数": (3, "吴敏"), "大学英语": (2, "Sarah Miller"),
               "数据结构": (4, "郑海涛"), "微观经济学": (3, "林晓"), "概率论与数理统计": (3, "吴敏"),
               "Python程序设计": (2, "郑海涛"), "中国近现代史纲要": (2, "何文")}
    schools = ["计算机学院", "经济管理学院", "外国语学院", "数学学院", "机械工程学院"]
    surnames = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高")
    given = ["子涵", "浩然", "欣怡", "宇轩", "雨桐", "梓萱", "俊杰", "思远", "一诺", "晨阳", "佳琪", "明哲"]
    course = rng.choice(list(courses), n)
    score = np.clip(rng.normal(76, 12, n), 28, 100).round().astype(int)
    return pd.DataFrame({
        "学号": [f"2022{first_id + int(i):04d}" for i in rng.integers(0, 400, n)],
        "姓名": [rng.choice(surnames) + rng.choice(given) for _ in range(n)],
        "学院": rng.choice(schools, n),
        "课程名称": course,
        "学分": [courses[c][0] for c in course],
        "任课教师": [courses[c][1] for c in course],
        "成绩": blank_out(rng, [int(s) for s in score], .04),  # blank = 缓考
    })


# 4. property management fee ledger (Chinese; blanks and amounts typed as text)
def property_fees(rng: np.random.Generator) -> pd.DataFrame:
    surnames = list("王李张刘陈杨黄赵吴周徐孙马朱胡")
    units = []
    for b in range(1, 7):
        rooms = sorted({f"{int(rng.integers(2, 19))}{int(rng.integers(1, 5)):02d}" for _ in range(7)}, key=int)
        for room in rooms[:6]:
            units.append((f"{b}栋", room, rng.choice(surnames) + rng.choice(["先生", "女士"]),
                          round(float(rng.uniform(62, 146)), 2), int(rng.choice([0, 0, 300, 500]))))
    units = units[:35]
    rows = []
    for month in range(1, 7):
        for bld, room, owner, area, parking in units:
            due = round(area * 5.2 + parking, 2)
            r = rng.random()
            if r < .12:
                paid, when, how, memo = None, None, None, "欠费催缴中"
            elif r < .18:
                part = round(due * .5)
                paid, when, how, memo = f"{part:,}元", date(2024, month, int(rng.integers(5, 28))), "现金", "部分缴纳"
            else:
                style = rng.random()
                paid = due if style < .55 else (f"{due:,.2f}元" if style < .85 else f"{round(due):,}")
                when = date(2024, month, int(rng.integers(1, 28)))
                how = rng.choice(["微信", "支付宝", "银行转账", "现金"], p=[.45, .2, .3, .05])
                memo = "空置房" if rng.random() < .04 else None
            rows.append({"楼栋": bld, "房号": room, "业主姓名": owner, "建筑面积": area,
                         "车位管理费": parking, "计费月份": f"2024-{month:02d}", "应缴金额": due, "实缴金额": paid,
                         "缴费日期": when, "缴费方式": how, "备注": memo})
    return pd.DataFrame(rows)


# 5. SaaS subscriptions (csv, English)
def saas(rng: np.random.Generator) -> pd.DataFrame:
    stems = ["Acme", "Bluefin", "Cobalt", "Driftwood", "Everlane", "Foxglove", "Granite", "Harbor",
             "Ironleaf", "Juniper", "Kestrel", "Lumen", "Meridian", "Northwind", "Orchid", "Pinecrest",
             "Quasar", "Redwood", "Sable", "Tidewater", "Umber", "Vantage", "Willow", "Zenith"]
    tails = ["Labs", "Health", "Logistics", "Media", "Retail", "Capital", "Foods", "Works"]
    names = sorted({f"{s} {t}" for s in stems for t in tails})
    n = 158
    cust = list(rng.choice(names, n, replace=False))
    plan = rng.choice(["Starter", "Pro", "Business", "Enterprise"], n, p=[.34, .33, .2, .13])
    per_seat = {"Starter": 12, "Pro": 29, "Business": 49, "Enterprise": 89}
    seats = [int(rng.integers(3, 15) if p == "Starter" else rng.integers(8, 60) if p != "Enterprise"
                 else rng.integers(50, 400)) for p in plan]
    start = days(rng, date(2022, 1, 10), date(2024, 6, 20), n)
    churned = rng.random(n) < .19
    return pd.DataFrame({
        "customer": cust, "plan": plan, "seats": seats,
        "mrr": [s * per_seat[p] for s, p in zip(seats, plan, strict=True)],
        "start_date": [d.isoformat() for d in start],
        "churned": np.where(churned, "yes", "no"),
        "churn_date": [(d + timedelta(days=int(rng.integers(60, 500)))).isoformat() if c else None
                       for d, c in zip(start, churned, strict=True)],
        "region": rng.choice(["North America", "EMEA", "APAC", "LATAM"], n, p=[.4, .3, .2, .1]),
        "industry": blank_out(rng, list(rng.choice(["Retail", "Fintech", "Healthcare", "Education",
                                                    "Logistics", "Media"], n)), .06),
    })


# 6–7. quarterly receivables collected, same layout in two files
CLIENTS = ["华东精密机械有限公司", "深圳星河电子有限公司", "成都蜀锦文化传媒有限公司", "北京云帆科技有限公司",
           "杭州绿源食品有限公司", "广州南粤物流有限公司", "苏州恒通建材有限公司", "重庆山城汽配有限公司",
           "上海博远医疗器械有限公司", "天津港湾贸易有限公司", "武汉光谷软件有限公司", "厦门海岸家居有限公司"]
REPS = {"王磊": "华东", "刘洋": "华南", "陈静": "华北", "赵敏": "西南", "孙浩": "华东"}


def receivables(rng: np.random.Generator, quarter: int, n: int) -> pd.DataFrame:
    first = date(2024, 3 * quarter - 2, 1)
    last = date(2024, 3 * quarter, 31 if quarter == 1 else 30)
    rep = rng.choice(list(REPS), n)
    contract = (rng.lognormal(11.6, .6, n) / 1000).round() * 1000
    return pd.DataFrame({
        "合同编号": [f"HT2024-{int(i):03d}" for i in rng.integers(1, 160, n)],
        "客户名称": rng.choice(CLIENTS, n),
        "销售员": rep,
        "区域": [REPS[r] for r in rep],
        "合同金额": contract,
        "回款金额": (contract * rng.choice([.3, .5, 1.0], n, p=[.35, .3, .35])).round(2),
        "回款日期": pd.to_datetime(days(rng, first, last, n)),
        "回款方式": rng.choice(["银行转账", "承兑汇票", "支票"], n, p=[.72, .2, .08]),
        "开票状态": blank_out(rng, list(rng.choice(["已开票", "未开票"], n, p=[.8, .2])), .05),
    })


# 8. employee training log (csv, mixed Chinese/English headers)
def training(rng: np.random.Generator) -> pd.DataFrame:
    people = [("E1001", "Zhou Yang", "研发部"), ("E1002", "Lisa Wang", "市场部"), ("E1003", "Chen Hao", "研发部"),
              ("E1004", "Kevin Li", "销售部"), ("E1005", "Liu Fang", "财务部"), ("E1006", "Grace Xu", "人力资源部"),
              ("E1007", "Ma Tao", "客服部"), ("E1008", "Emily Zhao", "销售部"), ("E1009", "He Jun", "研发部"),
              ("E1010", "Sun Li", "财务部"), ("E1011", "Jason Hu", "市场部"), ("E1012", "Wu Qian", "客服部"),
              ("E1013", "Daniel Guo", "研发部"), ("E1014", "Luo Ying", "销售部"), ("E1015", "Peng Bo", "人力资源部"),
              ("E1016", "Amy Lin", "研发部"), ("E1017", "Xie Nan", "客服部"), ("E1018", "Frank Deng", "销售部")]
    courses = {"Excel Advanced": (6, "Joyce Tan"), "Information Security": (3, "IT Dept"),
               "Leadership Basics": (8, "Robert King"), "Business Writing": (4, "Joyce Tan"),
               "First Aid": (2, "Red Cross Shenzhen"), "Project Management": (12, "Robert King")}
    n = 192
    who = rng.integers(0, len(people), n)
    course = rng.choice(list(courses), n)
    status = rng.choice(["completed", "in progress", "no-show"], n, p=[.78, .14, .08])
    score = [int(np.clip(rng.normal(81, 10), 35, 100)) if s == "completed" else None for s in status]
    return pd.DataFrame({
        "工号": [people[i][0] for i in who], "name": [people[i][1] for i in who],
        "部门": [people[i][2] for i in who], "course": course,
        "培训日期": [d.isoformat() for d in days(rng, date(2024, 1, 8), date(2024, 8, 30), n)],
        "hours": [courses[c][0] for c in course], "score": score, "status": status,
        "trainer": [courses[c][1] for c in course],
    })


def pin_xlsx(path: Path) -> None:
    """Make an xlsx byte-identical across runs: fixed zip times and fixed document dates."""
    with zipfile.ZipFile(path) as z:
        parts = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:(created|modified)[^>]*>)[^<]*", rb"\g<1>2024-09-01T09:00:00Z", data)
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 9, 1, 9, 0, 0)), data, zipfile.ZIP_DEFLATED)


def main() -> None:
    rng = np.random.default_rng(SEED)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    restaurant_orders(rng).to_csv(OUT / "餐厅订单.csv", index=False, encoding="utf-8-sig")
    with pd.ExcelWriter(OUT / "fleet_fuel_log.xlsx", engine="openpyxl") as w:
        fleet_fuel(rng).to_excel(w, sheet_name="fuel_log", index=False)
    with pd.ExcelWriter(OUT / "选课名单.xlsx", engine="openpyxl") as w:
        enrollment(rng, 118, 100).to_excel(w, sheet_name="春季", index=False)
        enrollment(rng, 134, 100).to_excel(w, sheet_name="秋季", index=False)
    with pd.ExcelWriter(OUT / "物业费台账.xlsx", engine="openpyxl") as w:
        property_fees(rng).to_excel(w, sheet_name="缴费台账", index=False)
    saas(rng).to_csv(OUT / "saas_subscriptions.csv", index=False)
    for q, n in [(1, 86), (2, 97)]:
        with pd.ExcelWriter(OUT / f"销售回款_Q{q}.xlsx", engine="openpyxl") as w:
            receivables(rng, q, n).to_excel(w, sheet_name="回款明细", index=False)
    training(rng).to_csv(OUT / "training_log.csv", index=False)
    for book in OUT.glob("*.xlsx"):
        pin_xlsx(book)
    for p in sorted(OUT.iterdir()):
        print(p.name)


if __name__ == "__main__":
    main()
