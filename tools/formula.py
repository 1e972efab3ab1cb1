"""Formula columns: arithmetic over columns and numbers, read through a small whitelist of syntax, never evaluated as code.

A formula may hold column names (Chinese or not, optionally in [方括号] or `backticks`), numbers, a percent sign
after a number (10% = 0.1), parentheses and + - × ÷ (also * / − ＋ －). Anything else is refused by name.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass

import pandas as pd

from tools.errors import ColumnMissing, ToolArgError
from tools.fmt import rnd
from tools.ops import _need_columns, _sample, check_digits, date_unit
from tools.registry import ToolResult, tool
from tools.values import as_dates, as_numbers

MAX_LEN = 400
SYMBOLS = str.maketrans({"×": "*", "÷": "/", "−": "-", "－": "-", "＋": "+", "（": "(", "）": ")", "＊": "*", "／": "/", "％": "%",
                         "，": ",", "　": " "})
PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
WORDS = [("乘以", "*"), ("除以", "/"), ("加上", "+"), ("减去", "-")]
REFUSED = {
    ast.Call: ("函数调用", "function calls"), ast.Attribute: ("属性访问（.）", "attribute access (.)"),
    ast.Subscript: ("下标", "subscripts"), ast.Lambda: ("lambda", "lambda"), ast.Compare: ("比较", "comparisons"),
    ast.BoolOp: ("逻辑运算", "boolean operators"), ast.Pow: ("乘方（**）", "powers (**)"), ast.Mod: ("取余（%）", "modulo (%)"),
    ast.FloorDiv: ("整除（//）", "floor division (//)"), ast.IfExp: ("条件表达式", "conditional expressions"),
}


class FormulaRefused(ToolArgError):
    code = "formula_refused"


@dataclass(frozen=True)
class Formula:
    """A checked formula: its syntax tree over placeholders and the columns they stand for."""

    text: str
    tree: ast.Expression
    columns: dict[str, str]  # placeholder -> column name


def _refuse(zh: str, en: str) -> FormulaRefused:
    return FormulaRefused(f"公式无法使用：{zh}。公式里只能有列名、数字、括号和 + - × ÷ 以及数字后的 %。",
                          f"Formula refused: {en}. A formula may only hold column names, numbers, parentheses, + - × ÷ and % after a number.")


def parse_formula(text: str, columns: list[str]) -> Formula:
    """Check a formula against the whitelist and the table's columns; raise FormulaRefused or ColumnMissing otherwise."""
    if len(text) > MAX_LEN:
        raise _refuse(f"公式太长（{len(text)} 个字符，最多 {MAX_LEN}）", f"too long ({len(text)} characters, at most {MAX_LEN})")
    expr = text.translate(SYMBOLS).strip()
    for w, op in WORDS:
        expr = expr.replace(w, op)
    mapping: dict[str, str] = {}

    def hold(col: str) -> str:
        ph = next((k for k, v in mapping.items() if v == col), None) or f"_c{len(mapping)}_"
        mapping[ph] = col
        return f" {ph} "

    expr = re.sub(r"\[([^\[\]]+)\]|`([^`]+)`", lambda m: hold(_known((m.group(1) or m.group(2)).strip(), columns)), expr)
    for col in sorted((str(c) for c in columns), key=len, reverse=True):
        if col and col in expr and not col.isdigit():
            pattern = r"(?<![\w])" + re.escape(col) + r"(?![\w])" if col.isascii() else re.escape(col)
            if re.search(pattern, expr):
                expr = re.sub(pattern, hold(col), expr)
    expr = PERCENT.sub(r"(\1/100)", expr).strip()
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        leftover = re.findall(r"[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]*", expr)
        unknown = [w for w in leftover if w not in mapping]
        if unknown:
            raise _missing(unknown, columns) from e
        raise _refuse("写法看不懂（括号不配对或运算符连写？）", "it does not parse (unbalanced parentheses or two operators in a row?)") from e
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.UAdd, ast.USub, ast.Load)):
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            continue
        if isinstance(node, ast.Name):
            if node.id in mapping:
                continue
            if node.id.startswith("_"):
                raise _refuse(f"不认识的名字 {node.id}", f"unknown name {node.id}")
            raise _missing([node.id], columns)
        what = next((v for k, v in REFUSED.items() if isinstance(node, k)), (type(node).__name__, type(node).__name__))
        raise _refuse(f"不允许{what[0]}", f"{what[1]} are not allowed")
    if not any(isinstance(n, ast.Name) for n in ast.walk(tree)):
        raise _refuse("公式里没有任何列", "the formula names no column")
    return Formula(text, tree, mapping)


def _known(name: str, columns: list[str]) -> str:
    if name not in [str(c) for c in columns]:
        raise _missing([name], columns)
    return name


def _missing(names: list[str], columns: list[str]) -> ColumnMissing:
    cols = [str(c) for c in columns]
    close = {n: difflib.get_close_matches(n, cols, n=3, cutoff=0.3) for n in names}
    hint = "；".join(f"“{n}”最接近：{'、'.join(v) or '无'}" for n, v in close.items())
    return ColumnMissing(f"公式里的 {'、'.join(names)} 不是表里的列（{hint}）。", f"{', '.join(names)} in the formula is not a column.",
                         missing=names, closest=close)


def _dates(s: pd.Series) -> pd.Series | None:
    """A column of dates as dates (a column of dates, or of text most of which reads as dates and not as numbers), else None."""
    if pd.api.types.is_datetime64_any_dtype(s):
        return s
    if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
        return None
    held = max(1, int(s.notna().sum() * 0.8))
    if as_numbers(s).notna().sum() >= held:
        return None  # "12.5" / "1,234": numbers written as text
    try:
        d = as_dates(s)
    except (ValueError, OverflowError, pd.errors.OutOfBoundsDatetime):
        return None
    return d if d.notna().sum() >= held else None


def _operand(s: pd.Series, secs: float) -> pd.Series:
    """A column as the numbers a formula computes with: a column of dates as the time since 1970 in the formula's unit
    (Follow-up Date - Visit Date: days between them; a blank date stays blank), never its clock ticks."""
    d = _dates(s)
    if d is not None:
        return (d - pd.Timestamp(0)).dt.total_seconds() / secs
    return as_numbers(s).astype(float)


def evaluate(f: Formula, table: pd.DataFrame, secs: float = 86400.0) -> tuple[pd.Series, int]:
    """The formula's values per row, and how many rows divided by zero (those become blank)."""
    zero = pd.Series(False, index=table.index)

    def ev(node: ast.AST) -> pd.Series | float:
        nonlocal zero
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return float(node.value)  # type: ignore[arg-type]  # parse_formula admits numbers only
        if isinstance(node, ast.Name):
            return _operand(table[f.columns[node.id]], secs)
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(b, pd.Series):
                z = b.eq(0)
                zero = zero | (z & (a.notna() if isinstance(a, pd.Series) else True))
                return a / b.mask(z)
            if b == 0:
                raise _refuse("除以 0", "division by zero")
            return a / b
        raise _refuse(type(node).__name__, type(node).__name__)  # unreachable after parse_formula

    val = ev(f.tree)
    if not isinstance(val, pd.Series):
        val = pd.Series(val, index=table.index)
    return val, int(zero.sum())


@tool
def formula_column(table: pd.DataFrame, name: str, expression: str, digits: int | None = None) -> ToolResult:
    """Add a column computed by a formula over columns and numbers (e.g. 毛利率 = (销售额 - 成本) / 销售额 × 100), rounded to
    `digits` decimals when given."""
    check_digits(digits)
    name = name.strip()
    if not name:
        raise ToolArgError("新列叫什么名字？", "What should the new column be called?")
    if name in table.columns:
        raise ToolArgError(f"已经有名为 {name} 的列了，请换一个名字。", f"There is already a column named {name}.")
    f = parse_formula(expression, [str(c) for c in table.columns])
    _need_columns(table, list(f.columns.values()))
    unit, secs = date_unit(name)
    val, div_zero = evaluate(f, table, secs)
    out = table.copy()
    val = val.round(int(digits) if digits is not None else 6)
    out[name] = val
    blanks = int(val.isna().sum())
    dated = any(_dates(table[c]) is not None for c in set(f.columns.values()))
    facts = {"rows_in": len(table), "rows_out": len(out), "added": name, "expression": expression, "uses": sorted(set(f.columns.values())),
             "div_by_zero": div_zero, "blank_results": blanks, "mean": rnd(val.mean()), "total": rnd(val.sum()), **({"date_unit": unit} if dated else {}),
             **({"digits": int(digits)} if digits is not None else {})}
    return ToolResult(out, facts, {"sample": _sample(out)})
