#!/usr/bin/env python3
"""Generate the round-2 held-out workspace (benchmarks/heldout/round2/workspace/).

Fixed seed, so the data is the same on every run. Run from anywhere:

    .venv/bin/python benchmarks/heldout/round2/make_workspace.py

Files (all invented):
  期末成绩_2024.xlsx   exam scores, sheets 上学期 / 下学期 with the same columns, Chinese headers
  shipments.csv        logistics shipment log, English headers, blanks in delivered_date
  门诊就诊记录.xlsx     hospital outpatient visits, sheet 就诊明细, Chinese headers, dates
  campaigns.xlsx       marketing campaigns, sheet Campaigns, English headers
  租房房源.xlsx         rental listings, sheet 房源, text address column, empty cells
  考勤_10月.xlsx       attendance summary October  } a vague "考勤表" fits both
  考勤_11月.xlsx       attendance summary November }
  图书借阅.csv          library loans, Chinese headers, GBK-encoded
  support_tickets.csv  customer support tickets, English headers, some duplicate rows
"""
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

SEED = 20241118
OUT = Path(__file__).resolve().parent / "workspace"

SURNAMES = list("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾田董潘袁蔡蒋余杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴孔汤")
GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "霞", "平",
         "刚", "婷", "浩然", "子涵", "一鸣", "思远", "雨桐", "梓轩", "欣怡", "晓东", "佳琪", "嘉怡", "宇航", "诗涵", "俊杰",
         "梦瑶", "博文", "子墨", "若汐", "天佑", "语嫣"]
EN_FIRST = ["Alice", "Brian", "Chloe", "Daniel", "Emma", "Frank", "Grace", "Henry", "Ivy", "Jason", "Karen", "Leo",
            "Mia", "Nathan", "Olivia", "Peter", "Queenie", "Ryan", "Sophia", "Tom"]
EN_LAST = ["Wang", "Li", "Chen", "Zhang", "Liu", "Smith", "Brown", "Lee", "Garcia", "Walker"]


def cname(rng):
    return SURNAMES[rng.randint(len(SURNAMES))] + GIVEN[rng.randint(len(GIVEN))]


def pick(rng, seq, p=None):
    return seq[rng.choice(len(seq), p=p)]


def rday(rng, start, end):
    return start + timedelta(days=int(rng.randint(0, (end - start).days + 1)))


# ---------------------------------------------------------------- 期末成绩_2024.xlsx
def exam_scores(rng):
    classes = [f"高二({i})班" for i in range(1, 7)]
    students = []
    for i in range(1, 181):
        students.append({"学号": f"2023{i:04d}", "姓名": cname(rng), "性别": pick(rng, ["男", "女"]),
                         "班级": classes[(i - 1) // 30], "ability": rng.normal(0, 1)})
    subjects = {"语文": 150, "数学": 150, "英语": 150, "物理": 100, "化学": 100, "生物": 100}
    sheets = {}
    for term, drift in (("上学期", 0.0), ("下学期", 0.15)):
        rows = []
        for s in students:
            r = {k: s[k] for k in ("学号", "姓名", "性别", "班级")}
            total = 0
            for sub, full in subjects.items():
                mean = 0.68 * full + (s["ability"] + drift) * 0.12 * full
                v = int(np.clip(round(rng.normal(mean, 0.08 * full)), 0.2 * full, full))
                if rng.rand() < 0.012:  # 缺考
                    r[sub] = None
                else:
                    r[sub] = v
                    total += v
            r["总分"] = total
            rows.append(r)
        sheets[term] = pd.DataFrame(rows)
    with pd.ExcelWriter(OUT / "期末成绩_2024.xlsx", engine="openpyxl") as w:
        for name, df in sheets.items():
            df.to_excel(w, sheet_name=name, index=False)


# ---------------------------------------------------------------- shipments.csv
def shipments(rng):
    cities = ["Shanghai", "Beijing", "Shenzhen", "Guangzhou", "Chengdu", "Wuhan", "Hangzhou", "Xi'an", "Tianjin"]
    carriers = ["SF Express", "JD Logistics", "ZTO", "YTO", "DHL"]
    customers = ["Acme Trading", "Blue Ocean Foods", "Northwind Retail", "Kingsway Electronics", "Lotus Pharma",
                 "Greenfield Farms", "Summit Apparel", "Harbor Tools"]
    rows = []
    for i in range(1, 261):
        od = rday(rng, date(2024, 7, 1), date(2024, 10, 31))
        sd = od + timedelta(days=int(rng.randint(0, 3)))
        origin = pick(rng, cities)
        dest = pick(rng, [c for c in cities if c != origin])
        level = pick(rng, ["Standard", "Express", "Economy"], p=[0.55, 0.3, 0.15])
        status = pick(rng, ["Delivered", "In Transit", "Delayed", "Returned", "Lost"], p=[0.72, 0.12, 0.1, 0.05, 0.01])
        weight = round(float(rng.gamma(2.0, 6.0)) + 0.3, 1)
        rate = {"Express": 9.5, "Standard": 5.2, "Economy": 3.1}[level]
        cost = round(12 + weight * rate * rng.uniform(0.9, 1.15), 2)
        delivered = ""
        if status in ("Delivered", "Returned"):
            delivered = (sd + timedelta(days=int(rng.randint(1, 6)))).isoformat()
        rows.append({"shipment_id": f"SHP-{24000 + i}", "order_date": od.isoformat(), "ship_date": sd.isoformat(),
                     "delivered_date": delivered, "origin_city": origin, "destination_city": dest,
                     "carrier": pick(rng, carriers), "service_level": level, "weight_kg": weight,
                     "pieces": int(rng.randint(1, 12)), "freight_cost": cost, "status": status,
                     "customer": pick(rng, customers)})
    pd.DataFrame(rows).to_csv(OUT / "shipments.csv", index=False, encoding="utf-8")


# ---------------------------------------------------------------- 门诊就诊记录.xlsx
def outpatient(rng):
    depts = {"内科": ["上呼吸道感染", "高血压", "2型糖尿病", "胃炎", "头痛"],
             "外科": ["软组织挫伤", "阑尾炎", "腰椎间盘突出", "骨折复查"],
             "儿科": ["小儿发热", "支气管炎", "腹泻", "手足口病"],
             "妇产科": ["产前检查", "盆腔炎", "月经不调"],
             "眼科": ["结膜炎", "干眼症", "屈光不正"],
             "口腔科": ["龋齿", "牙周炎", "智齿冠周炎"],
             "皮肤科": ["湿疹", "荨麻疹", "痤疮"],
             "耳鼻喉科": ["过敏性鼻炎", "中耳炎", "咽炎"]}
    doctors = {d: [cname(rng) for _ in range(3)] for d in depts}
    rows = []
    for i in range(1, 241):
        d = pick(rng, list(depts), p=[0.24, 0.14, 0.16, 0.1, 0.08, 0.1, 0.1, 0.08])
        age = int(rng.randint(1, 14)) if d == "儿科" else int(rng.randint(16, 88))
        sex = "女" if d == "妇产科" else pick(rng, ["男", "女"])
        reg = pick(rng, [10, 20, 50], p=[0.6, 0.3, 0.1])
        drug = round(float(rng.gamma(2.0, 60.0)), 2)
        exam = 0.0 if rng.rand() < 0.35 else round(float(rng.gamma(1.6, 120.0)), 2)
        day = rday(rng, date(2024, 9, 1), date(2024, 11, 30))
        t = datetime(day.year, day.month, day.day, int(rng.randint(8, 17)), int(rng.choice([0, 10, 20, 30, 40, 50])))
        rows.append({"就诊号": f"MZ{20240000 + i}", "就诊时间": t, "科室": d, "医生": pick(rng, doctors[d]),
                     "患者编号": f"P{int(rng.randint(10000, 99999))}", "性别": sex, "年龄": age,
                     "就诊类型": pick(rng, ["初诊", "复诊"], p=[0.62, 0.38]), "诊断": pick(rng, depts[d]),
                     "医保类型": pick(rng, ["职工医保", "居民医保", "自费"], p=[0.5, 0.32, 0.18]),
                     "挂号费": reg, "药费": drug, "检查费": exam, "总费用": round(reg + drug + exam, 2),
                     "候诊时长(分钟)": int(rng.randint(5, 95))})
    df = pd.DataFrame(rows).sort_values("就诊时间").reset_index(drop=True)
    df.to_excel(OUT / "门诊就诊记录.xlsx", sheet_name="就诊明细", index=False)


# ---------------------------------------------------------------- campaigns.xlsx
def campaigns(rng):
    channels = ["Email", "Search", "Social", "Display", "Video", "Affiliate"]
    themes = ["Back to School", "Singles Day", "Autumn Sale", "New Arrivals", "Loyalty Boost", "Brand Awareness",
              "Black Friday", "Year End Clearance", "App Install", "Webinar Signup", "Referral Push", "Holiday Gifts"]
    owners = ["Alice Chen", "Brian Li", "Chloe Wang", "Daniel Zhang", "Emma Liu"]
    rows = []
    for i in range(1, 73):
        ch = pick(rng, channels)
        start = rday(rng, date(2024, 6, 1), date(2024, 11, 15))
        end = start + timedelta(days=int(rng.randint(7, 45)))
        budget = int(rng.choice([5000, 8000, 10000, 15000, 20000, 30000, 50000]))
        spend = round(budget * rng.uniform(0.55, 1.12), 2)
        ctr = {"Email": 0.035, "Search": 0.05, "Social": 0.012, "Display": 0.004, "Video": 0.008, "Affiliate": 0.02}[ch]
        impressions = int(spend * rng.uniform(40, 160))
        clicks = int(impressions * ctr * rng.uniform(0.6, 1.4))
        conv = int(clicks * rng.uniform(0.01, 0.08))
        rows.append({"campaign_id": f"CMP-{i:03d}", "campaign_name": f"{pick(rng, themes)} - {ch}",
                     "channel": ch, "region": pick(rng, ["North", "South", "East", "West"]),
                     "start_date": pd.Timestamp(start), "end_date": pd.Timestamp(end), "budget": budget,
                     "spend": spend, "impressions": impressions, "clicks": clicks, "conversions": conv,
                     "revenue": round(conv * rng.uniform(60, 260), 2), "owner": pick(rng, owners)})
    pd.DataFrame(rows).to_excel(OUT / "campaigns.xlsx", sheet_name="Campaigns", index=False)


# ---------------------------------------------------------------- 租房房源.xlsx
def rentals(rng):
    districts = {"朝阳区": ["望京西园", "团结湖北里", "双井小区", "大屯路东"], "海淀区": ["世纪城", "万柳书院", "五道口嘉园"],
                 "东城区": ["东四十条", "和平里"], "西城区": ["月坛北街", "德胜里"], "丰台区": ["方庄芳古园", "科技园小区"],
                 "通州区": ["梨园新村", "运河湾"], "昌平区": ["回龙观龙泽苑", "天通苑东三区"]}
    base = {"朝阳区": 115, "海淀区": 125, "东城区": 130, "西城区": 135, "丰台区": 85, "通州区": 65, "昌平区": 60}
    layouts = [("一室一厅", 32, 55), ("两室一厅", 55, 90), ("两室两厅", 75, 105), ("三室一厅", 85, 130), ("三室两厅", 100, 160)]
    rows = []
    for i in range(1, 151):
        dist = pick(rng, list(districts))
        estate = pick(rng, districts[dist])
        lay, lo, hi = layouts[rng.randint(len(layouts))]
        area = round(float(rng.uniform(lo, hi)), 1)
        total_fl = int(rng.choice([6, 11, 18, 24, 28, 32]))
        addr = f"北京市{dist}{estate}{int(rng.randint(1, 30))}号楼{int(rng.randint(1, 6))}单元{int(rng.randint(101, 2802))}"
        phone = f"13{int(rng.randint(0, 10))}{int(rng.randint(10000000, 99999999))}"
        rows.append({"房源编号": f"FY{3000 + i}", "小区名称": estate, "行政区": dist,
                     "详细地址": None if rng.rand() < 0.1 else addr, "户型": lay, "面积(㎡)": area,
                     "月租金": int(round(area * base[dist] * rng.uniform(0.85, 1.2), -1)),
                     "楼层": int(rng.randint(1, total_fl + 1)), "总楼层": total_fl,
                     "朝向": pick(rng, ["南", "南北", "东", "西", "北", "东南"]),
                     "装修": None if rng.rand() < 0.12 else pick(rng, ["精装", "简装", "毛坯"], p=[0.55, 0.38, 0.07]),
                     "电梯": "有" if total_fl > 6 else "无",
                     "挂牌日期": pd.Timestamp(rday(rng, date(2024, 8, 1), date(2024, 11, 20))),
                     "状态": pick(rng, ["在租", "已租", "下架"], p=[0.6, 0.32, 0.08]),
                     "联系人": cname(rng), "联系电话": None if rng.rand() < 0.15 else phone})
    pd.DataFrame(rows).to_excel(OUT / "租房房源.xlsx", sheet_name="房源", index=False)


# ---------------------------------------------------------------- 考勤_10月.xlsx / 考勤_11月.xlsx
def attendance(rng):
    depts = ["研发部", "销售部", "财务部", "行政部", "市场部"]
    staff = [{"工号": f"G{1000 + i}", "姓名": cname(rng), "部门": pick(rng, depts, p=[0.35, 0.25, 0.12, 0.12, 0.16])}
             for i in range(1, 65)]
    for month, workdays in (("10月", 18), ("11月", 21)):
        rows = []
        for s in staff:
            leave = float(rng.choice([0, 0, 0, 0, 0.5, 1, 1, 2, 3]))
            absent = int(rng.choice([0] * 12 + [1]))
            late = int(rng.poisson(1.1))
            note = None
            if leave >= 2:
                note = pick(rng, ["病假", "年假", "事假"])
            elif absent:
                note = "旷工待核实"
            rows.append({**s, "应出勤天数": workdays, "实际出勤天数": workdays - leave - absent,
                         "迟到次数": late, "早退次数": int(rng.poisson(0.4)), "缺卡次数": int(rng.poisson(0.5)),
                         "请假天数": leave, "加班时长(小时)": round(float(rng.gamma(2.0, 5.0)), 1)
                         if s["部门"] in ("研发部", "销售部") else round(float(rng.gamma(1.2, 3.0)), 1),
                         "备注": note})
        pd.DataFrame(rows).to_excel(OUT / f"考勤_{month}.xlsx", sheet_name="汇总", index=False)


# ---------------------------------------------------------------- 图书借阅.csv (GBK)
def library(rng):
    books = {"文学": ["活着", "围城", "平凡的世界", "百年孤独", "红楼梦"],
             "历史": ["万历十五年", "明朝那些事儿", "人类简史"],
             "计算机": ["算法导论", "深入理解计算机系统", "Python编程"],
             "经济": ["国富论", "薛兆丰经济学讲义", "货币战争"],
             "艺术": ["艺术的故事", "写给大家的西方美术史"],
             "科普": ["时间简史", "自私的基因", "万物简史"]}
    readers = [(f"R{5000 + i}", cname(rng), pick(rng, ["学生", "教师", "校外"], p=[0.7, 0.22, 0.08])) for i in range(1, 61)]
    rows = []
    for i in range(1, 181):
        rid, rname, rtype = readers[rng.randint(len(readers))]
        cat = pick(rng, list(books))
        out = rday(rng, date(2024, 9, 1), date(2024, 11, 25))
        due = out + timedelta(days=60 if rtype == "教师" else 30)
        ret, overdue = "", 0
        if rng.rand() < 0.78:
            r = out + timedelta(days=int(rng.randint(3, 50)))
            if r <= date(2024, 11, 30):
                ret = r.isoformat()
                overdue = max(0, (r - due).days)
        rows.append({"借阅号": f"JY{24090 + i}", "读者证号": rid, "读者姓名": rname, "读者类型": rtype,
                     "书名": pick(rng, books[cat]), "图书分类": cat, "借出日期": out.isoformat(),
                     "应还日期": due.isoformat(), "归还日期": ret, "逾期天数": overdue,
                     "罚金(元)": round(overdue * 0.1, 2)})
    pd.DataFrame(rows).to_csv(OUT / "图书借阅.csv", index=False, encoding="gbk")


# ---------------------------------------------------------------- support_tickets.csv
def tickets(rng):
    agents = [f"{f} {l}" for f, l in zip(EN_FIRST[:8], EN_LAST[:8])]
    rows = []
    for i in range(1, 215):
        created = datetime(2024, 9, 1) + timedelta(minutes=int(rng.randint(0, 60 * 24 * 90)))
        status = pick(rng, ["Open", "Pending", "Resolved", "Closed"], p=[0.12, 0.1, 0.3, 0.48])
        closed = ""
        if status in ("Resolved", "Closed"):
            closed = (created + timedelta(hours=float(rng.gamma(1.5, 20.0)))).strftime("%Y-%m-%d %H:%M")
        sat = ""
        if status == "Closed" and rng.rand() < 0.7:
            sat = int(rng.choice([1, 2, 3, 4, 5], p=[0.06, 0.09, 0.2, 0.35, 0.3]))
        rows.append({"ticket_id": f"TK-{7000 + i}", "created_at": created.strftime("%Y-%m-%d %H:%M"),
                     "closed_at": closed, "channel": pick(rng, ["Email", "Phone", "Chat", "Web"]),
                     "category": pick(rng, ["Billing", "Login", "Bug", "Feature Request", "Shipping", "Other"]),
                     "priority": pick(rng, ["Low", "Medium", "High", "Urgent"], p=[0.3, 0.4, 0.22, 0.08]),
                     "agent": pick(rng, agents), "customer_tier": pick(rng, ["Free", "Pro", "Enterprise"], p=[0.5, 0.35, 0.15]),
                     "status": status, "first_response_min": int(rng.gamma(1.8, 25.0)) + 1,
                     "satisfaction": sat})
    df = pd.DataFrame(rows)
    dup = df.sample(6, random_state=rng).copy()  # a few exact duplicate rows (double import)
    df = pd.concat([df, dup]).sort_values("created_at").reset_index(drop=True)
    df.to_csv(OUT / "support_tickets.csv", index=False, encoding="utf-8")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(SEED)
    for make in (exam_scores, shipments, outpatient, campaigns, rentals, attendance, library, tickets):
        make(rng)
    for p in sorted(OUT.iterdir()):
        print(p.name)


if __name__ == "__main__":
    main()
