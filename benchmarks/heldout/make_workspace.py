#!/usr/bin/env python3
"""Generate the held-out workspace (benchmarks/heldout/workspace/).

Fixed seed, so the files are the same on every run. Run from anywhere:

    .venv/bin/python benchmarks/heldout/make_workspace.py

Files (all invented):
  员工花名册.xlsx      HR roster, sheets 在职 / 离职, Chinese headers
  门店销售_2024.xlsx   store sales by month, sheets 明细 / 门店信息, Chinese headers
  inventory.csv        product inventory, English headers, a few exact duplicate rows
  customers.csv        customer list, English headers, a few duplicate emails
  报销记录.csv          expense log, Chinese headers, UTF-8 with BOM
  采购单_2023.xlsx     purchase orders 2023  } a vague "采购单" fits both
  采购单_2024.xlsx     purchase orders 2024  }
  project_budget.xlsx  project budget, sheets Budget / Actuals, English headers
"""
import random
from datetime import date, timedelta
from pathlib import Path

import pandas as pd

SEED = 20240617
OUT = Path(__file__).resolve().parent / "workspace"


def rdate(rng, start, end):
    span = (end - start).days
    return start + timedelta(days=rng.randint(0, span))


SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "秀英", "霞", "平",
         "刚", "桂英", "婷", "浩然", "子涵", "一鸣", "思远", "雨桐", "梓轩", "欣怡", "晓东", "建国", "海燕", "文博", "佳琪", "嘉怡"]


def cname(rng):
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


def roster(rng):
    depts = {"销售部": ["销售代表", "大客户经理", "销售主管"],
             "技术部": ["后端工程师", "前端工程师", "测试工程师", "架构师"],
             "财务部": ["会计", "出纳", "财务分析师"],
             "人事部": ["HRBP", "招聘专员", "薪酬专员"],
             "市场部": ["品牌专员", "市场经理", "新媒体运营"],
             "客服部": ["客服专员", "客服组长"]}
    base = {"P1": 6500, "P2": 9000, "P3": 13000, "P4": 18000, "P5": 26000, "P6": 36000, "P7": 48000}
    cities = ["北京", "上海", "深圳", "成都", "杭州"]
    edu = ["大专", "本科", "本科", "本科", "硕士", "硕士", "博士"]
    rows, left = [], []
    for i in range(1, 176):
        d = rng.choice(list(depts))
        lvl = rng.choice(["P1", "P2", "P2", "P3", "P3", "P3", "P4", "P4", "P5", "P6", "P7"])
        pay = int(round(base[lvl] * rng.uniform(0.85, 1.2), -2))
        r = {"工号": f"E{i:04d}", "姓名": cname(rng), "部门": d, "岗位": rng.choice(depts[d]), "职级": lvl,
             "入职日期": rdate(rng, date(2014, 3, 1), date(2024, 5, 31)), "工作城市": rng.choice(cities),
             "月薪": pay, "性别": rng.choice(["男", "女"]), "学历": rng.choice(edu)}
        if i <= 140:
            rows.append(r)
        else:
            r["离职日期"] = rdate(rng, r["入职日期"] + timedelta(days=120), date(2024, 6, 10))
            r["离职原因"] = rng.choice(["个人发展", "薪资", "家庭原因", "合同到期", "转行", "搬迁"])
            left.append(r)
    return pd.DataFrame(rows), pd.DataFrame(left)


def store_sales(rng):
    stores = [("南京西路店", "华东", "上海"), ("徐家汇店", "华东", "上海"), ("西湖店", "华东", "杭州"),
              ("三里屯店", "华北", "北京"), ("望京店", "华北", "北京"), ("天河店", "华南", "广州"),
              ("福田店", "华南", "深圳"), ("春熙路店", "西南", "成都")]
    cats = {"服装": 1.0, "鞋包": 0.6, "配饰": 0.3}
    rows = []
    for m in range(1, 13):
        season = 1.0 + 0.25 * (m in (1, 2, 11, 12)) - 0.1 * (m in (3, 4))
        for s, region, _ in stores:
            size = rng.uniform(0.7, 1.4)
            for c, w in cats.items():
                sales = round(180000 * w * size * season * rng.uniform(0.8, 1.2), 2)
                orders = int(sales / rng.uniform(260, 420))
                rows.append({"月份": f"2024-{m:02d}", "门店": s, "区域": region, "品类": c,
                             "销售额": sales, "订单数": orders, "毛利": round(sales * rng.uniform(0.32, 0.55), 2)})
    info = []
    for s, region, city in stores:
        info.append({"门店": s, "区域": region, "城市": city, "店长": cname(rng),
                     "开业日期": rdate(rng, date(2012, 1, 1), date(2022, 12, 31)),
                     "面积(平方米)": rng.choice([180, 220, 260, 300, 350, 420])})
    return pd.DataFrame(rows), pd.DataFrame(info)


def inventory(rng):
    cats = {"Electronics": ["USB-C Hub", "Wireless Mouse", "Keyboard", "Monitor 24in", "Webcam", "Headset", "Power Bank"],
            "Office Supplies": ["A4 Paper Box", "Stapler", "Gel Pen (12)", "Sticky Notes", "Binder Clips", "Whiteboard Marker"],
            "Furniture": ["Desk Lamp", "Office Chair", "Standing Desk", "Filing Cabinet", "Bookshelf"],
            "Kitchen": ["Coffee Beans 1kg", "Paper Cups (100)", "Kettle", "Water Filter"],
            "Outdoor": ["Umbrella", "Folding Table", "Camping Chair"]}
    suppliers = ["Acme Supply", "Brightway Ltd", "Delta Trading", "Nordic Goods", "Sunrise Imports"]
    rows = []
    n = 0
    for wh in ["North", "South", "East", "West"]:
        for c, items in cats.items():
            for it in rng.sample(items, k=min(len(items), rng.randint(3, 6))):
                n += 1
                cost = round(rng.uniform(1.5, 320), 2)
                rows.append({"sku": f"SKU-{n:04d}", "product_name": it, "category": c, "warehouse": wh,
                             "qty_on_hand": rng.randint(0, 600), "unit_cost": cost,
                             "unit_price": round(cost * rng.uniform(1.2, 2.1), 2),
                             "reorder_point": rng.choice([20, 30, 50, 80, 100]), "supplier": rng.choice(suppliers),
                             "last_restock": rdate(rng, date(2023, 9, 1), date(2024, 6, 1)).isoformat()})
    df = pd.DataFrame(rows)
    dups = df.sample(n=6, random_state=SEED)
    df = pd.concat([df, dups]).sample(frac=1, random_state=SEED).reset_index(drop=True)
    return df


def customers(rng):
    first = ["Alice", "Brian", "Chloe", "David", "Emma", "Farid", "Grace", "Hiro", "Isabel", "Jonas", "Karen", "Liam",
             "Maya", "Noah", "Olivia", "Priya", "Quinn", "Rafael", "Sofia", "Tom", "Uma", "Victor", "Wen", "Yusuf", "Zoe"]
    last = ["Smith", "Chen", "Garcia", "Müller", "Tanaka", "Brown", "Singh", "Rossi", "Kim", "Novak", "Lopez", "Walker"]
    words = ["Blue", "River", "Summit", "Oak", "Pixel", "Harbor", "Nimbus", "Atlas", "Cedar", "Vertex", "Maple", "Orbit"]
    kinds = ["Foods", "Logistics", "Health", "Labs", "Retail", "Capital", "Works", "Learning"]
    countries = {"US": ["North", "South", "East", "West"], "Canada": ["East", "West"], "UK": ["North", "South"],
                 "Germany": ["North", "South", "West"], "Singapore": ["East"], "Australia": ["East", "West", "South"]}
    inds = ["Retail", "Manufacturing", "Healthcare", "Finance", "Education", "Logistics"]
    rows = []
    for i in range(1, 181):
        fn, ln = rng.choice(first), rng.choice(last)
        co = f"{rng.choice(words)} {rng.choice(kinds)}"
        country = rng.choice(list(countries))
        rows.append({"customer_id": f"C{i:05d}", "company": co, "contact_name": f"{fn} {ln}",
                     "email": f"{fn.lower()}.{ln.lower().replace('ü', 'u')}@{co.lower().replace(' ', '')}.com",
                     "country": country, "region": rng.choice(countries[country]), "industry": rng.choice(inds),
                     "signup_date": rdate(rng, date(2019, 1, 1), date(2024, 5, 31)).isoformat(),
                     "annual_spend": round(rng.lognormvariate(10, 0.8), 2),
                     "status": rng.choice(["active", "active", "active", "churned"])})
    df = pd.DataFrame(rows)
    # a few customers entered twice under a new id
    extra = df.sample(n=5, random_state=SEED).copy()
    extra["customer_id"] = [f"C{i:05d}" for i in range(181, 186)]
    return pd.concat([df, extra]).reset_index(drop=True)


def expenses(rng, staff):
    cats = {"差旅": (300, 6000), "餐饮": (50, 1200), "交通": (15, 400), "办公用品": (20, 900), "培训": (500, 5000), "招待": (200, 3000)}
    notes = {"差旅": ["出差深圳", "客户拜访", "北京参会", "成都项目驻场"], "餐饮": ["加班餐", "团队聚餐", "客户午餐"],
             "交通": ["打车", "地铁", "机场大巴"], "办公用品": ["打印纸", "键盘鼠标", "文件夹"], "培训": ["外部课程", "认证考试"],
             "招待": ["客户晚宴", "供应商接待"]}
    rows = []
    people = staff.sample(n=45, random_state=SEED)[["姓名", "部门"]].values.tolist()
    for i in range(1, 221):
        name, dept = rng.choice(people)
        c = rng.choice(list(cats))
        lo, hi = cats[c]
        rows.append({"单号": f"BX2024{i:04d}", "提交日期": rdate(rng, date(2024, 1, 2), date(2024, 12, 20)).isoformat(),
                     "姓名": name, "部门": dept, "费用类别": c, "金额": round(rng.uniform(lo, hi), 2),
                     "审批状态": rng.choice(["已通过", "已通过", "已通过", "待审批", "已驳回"]),
                     "备注": rng.choice(notes[c] + [""])})
    return pd.DataFrame(rows)


def purchases(rng, year, n):
    vendors = ["华信电子", "恒通物流", "万达包装", "联创五金", "瑞丰纸业", "科达仪器"]
    items = {"华信电子": ["电源模块", "主板", "显示屏"], "恒通物流": ["周转箱", "托盘"], "万达包装": ["纸箱", "气泡膜", "胶带"],
             "联创五金": ["螺丝", "合页", "导轨"], "瑞丰纸业": ["A4纸", "牛皮纸"], "科达仪器": ["卡尺", "万用表"]}
    rows = []
    for i in range(1, n + 1):
        v = rng.choice(vendors)
        q = rng.randint(10, 2000)
        p = round(rng.uniform(0.5, 900), 2)
        rows.append({"采购单号": f"PO{year}{i:04d}", "下单日期": rdate(rng, date(year, 1, 3), date(year, 12, 28)),
                     "供应商": v, "物料名称": rng.choice(items[v]), "数量": q, "单价": p, "金额": round(q * p, 2),
                     "到货状态": rng.choice(["已到货", "已到货", "部分到货", "未到货"])})
    return pd.DataFrame(rows)


def budget(rng):
    names = ["CRM Migration", "Warehouse Scanner Rollout", "Website Redesign", "Data Lake", "Mobile App v3",
             "Payroll Automation", "Supplier Portal", "Security Audit", "Call Center AI", "ERP Upgrade",
             "Store POS Refresh", "BI Dashboards", "Onboarding Revamp", "Email Marketing Suite", "Network Upgrade",
             "Loyalty Program", "Returns Portal", "HR Self-Service", "Cloud Cost Review", "Chatbot Pilot"]
    owners = ["Li Na", "Mark Evans", "Zhou Wei", "Sara Lind", "Ken Ito", "Ana Costa"]
    depts = ["IT", "Marketing", "Operations", "Finance", "HR", "Sales"]
    b, a = [], []
    for i, n in enumerate(names, 1):
        pid = f"PRJ-{i:03d}"
        bud = rng.choice([40, 60, 80, 120, 150, 200, 250, 400]) * 1000
        b.append({"project_id": pid, "project": n, "owner": rng.choice(owners), "department": rng.choice(depts),
                  "start_date": rdate(rng, date(2023, 6, 1), date(2024, 3, 1)), "budget_usd": bud,
                  "status": rng.choice(["On track", "On track", "At risk", "Delayed", "Done"])})
        for m in range(1, 7):
            a.append({"project_id": pid, "month": f"2024-{m:02d}", "spend_usd": round(bud / 8 * rng.uniform(0.4, 1.6), 2)})
    return pd.DataFrame(b), pd.DataFrame(a)


def main():
    rng = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    active, left = roster(rng)
    with pd.ExcelWriter(OUT / "员工花名册.xlsx", engine="openpyxl") as w:
        active.to_excel(w, sheet_name="在职", index=False)
        left.to_excel(w, sheet_name="离职", index=False)
    detail, info = store_sales(rng)
    with pd.ExcelWriter(OUT / "门店销售_2024.xlsx", engine="openpyxl") as w:
        detail.to_excel(w, sheet_name="明细", index=False)
        info.to_excel(w, sheet_name="门店信息", index=False)
    inventory(rng).to_csv(OUT / "inventory.csv", index=False, encoding="utf-8")
    customers(rng).to_csv(OUT / "customers.csv", index=False, encoding="utf-8")
    expenses(rng, active).to_csv(OUT / "报销记录.csv", index=False, encoding="utf-8-sig")
    for year, n in ((2023, 85), (2024, 96)):
        with pd.ExcelWriter(OUT / f"采购单_{year}.xlsx", engine="openpyxl") as w:
            purchases(rng, year, n).to_excel(w, sheet_name="采购明细", index=False)
    bud, act = budget(rng)
    with pd.ExcelWriter(OUT / "project_budget.xlsx", engine="openpyxl") as w:
        bud.to_excel(w, sheet_name="Budget", index=False)
        act.to_excel(w, sheet_name="Actuals", index=False)
    for p in sorted(OUT.iterdir()):
        print(p.name)


if __name__ == "__main__":
    main()
