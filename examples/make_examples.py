"""Build the bundled example files with a fixed seed: python examples/make_examples.py"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
CITIES = ["上海", "北京", "广州", "深圳", "杭州"]
PRODUCTS = {"笔记本": 5200.0, "显示器": 1299.0, "键盘": 199.0, "鼠标": 89.0, "耳机": 399.0}


def orders_and_customers(rng: random.Random) -> tuple[pd.DataFrame, pd.DataFrame]:
    customers = []
    for i in range(1, 31):
        customers.append(
            {"客户ID": f"C{i:03d}", "客户名称": f"客户{i:02d}", "城市": rng.choice(CITIES), "等级": rng.choice("AABBC")}
        )
    orders = []
    start = date(2024, 1, 1)
    for i in range(1, 121):
        product = rng.choice(list(PRODUCTS))
        qty = rng.randint(1, 20)
        cust = rng.choice(customers)
        orders.append(
            {
                "订单号": f"SO{i:04d}",
                "日期": pd.Timestamp(start + timedelta(days=rng.randint(0, 180))),
                "城市": cust["城市"],
                "产品": product,
                "数量": qty,
                "单价": PRODUCTS[product],
                "金额": round(qty * PRODUCTS[product], 2),
                "客户ID": cust["客户ID"],
            }
        )
    orders += [dict(orders[3]), dict(orders[10])]  # two duplicated rows, for deduplication
    return pd.DataFrame(orders), pd.DataFrame(customers)


def poi(rng: random.Random, city: str, districts: list[str], n: int) -> pd.DataFrame:
    kinds = ["咖啡", "面馆", "火锅", "书店", "烘焙", "茶饮"]
    rows = []
    for i in range(n):
        d = rng.choice(districts)
        rows.append(
            {
                "名称": f"{city}{rng.choice(kinds)}{i + 1:02d}号店",
                "区": d,
                "地址": "" if rng.random() < 0.2 else f"{d}{rng.choice(['人民', '建设', '解放', '中山'])}路{rng.randint(1, 999)}号",
                "评分": round(rng.uniform(3.0, 5.0), 1),
                "人均消费": rng.randint(20, 400),
                "电话": None if rng.random() < 0.25 else f"021-{rng.randint(10000000, 99999999)}",
            }
        )
    return pd.DataFrame(rows)


def inventory(rng: random.Random) -> pd.DataFrame:
    rows = []
    for i in range(1, 41):
        name = rng.choice(list(PRODUCTS))
        rows.append(
            {
                "商品编号": f"{i:05d}",
                "商品名称": f"{name}-{rng.choice(['标准', '高配', '入门'])}款",
                "仓库": rng.choice(["华东仓", "华北仓", "华南仓"]),
                "库存数量": rng.randint(0, 300),
                "安全库存": rng.choice([20, 50, 80]),
                "单价": PRODUCTS[name],
            }
        )
    return pd.DataFrame(rows)


def main() -> None:
    rng = random.Random(20261129)
    orders, customers = orders_and_customers(rng)
    with pd.ExcelWriter(HERE / "sample_data.xlsx", engine="openpyxl") as w:
        orders.to_excel(w, sheet_name="订单", index=False)
        customers.to_excel(w, sheet_name="客户", index=False)
    poi(rng, "上海", ["浦东新区", "徐汇区", "静安区", "黄浦区", "长宁区"], 60).to_excel(
        HERE / "上海_poi.xlsx", index=False, engine="openpyxl"
    )
    poi(rng, "北京", ["朝阳区", "海淀区", "东城区", "西城区"], 45).to_excel(
        HERE / "北京_poi.xlsx", index=False, engine="openpyxl"
    )
    inventory(rng).to_csv(HERE / "库存明细.csv", index=False, encoding="utf-8-sig")
    print("examples written to", HERE)


if __name__ == "__main__":
    main()
