#!/usr/bin/env python3
"""The C header's ABI as plain text, for the bindings' checks: what they declare must agree with it.

  scripts/header-abi.py [HEADER]      (default include/blinkengage.h)

One line per item, sorted within its kind:
  fn NAME RET PARAM...                  each type as its ABI kind: void i32 u32 u64 usize f64 ptr fn
  const NAME VALUE                      a #define or enum member with an integer or string value
  field STRUCT NAME KIND                each member of a struct, in order
Kinds say how a value is passed, not what it means: every enum of the header is an int (i32), every pointer
is ptr, every function-pointer typedef is fn. A type the script does not know stops it, so a new kind of
parameter cannot pass the check unnoticed.
"""
import os
import re
import sys

SCALARS = {"void": "void", "int": "i32", "uint32_t": "u32", "uint64_t": "u64", "size_t": "usize", "double": "f64"}


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "include", "blinkengage.h")
    text = strip_comments(open(path, encoding="utf-8").read())
    enums = set(re.findall(r"typedef\s+enum\s+\w+\s*\{[^}]*\}\s*(\w+)\s*;", text))
    fn_types = set(re.findall(r"typedef\s+[\w\s\*]+\(\s*\*\s*(\w+)\s*\)", text))

    def kind(c_type):
        c_type = re.sub(r"\bconst\b", " ", c_type).strip()
        if "*" in c_type:
            return "ptr"
        base = " ".join(c_type.split())
        if base in SCALARS:
            return SCALARS[base]
        if base in enums:
            return "i32"
        if base in fn_types:
            return "fn"
        sys.exit(f"header-abi: unknown type {base!r}")

    lines = []
    body = re.sub(r"typedef[^;{]*\{[^}]*\}[^;]*;", " ", text)  # struct and enum definitions are not prototypes
    body = re.sub(r"typedef[^;]*;", " ", body)
    body = re.sub(r"^\s*#.*$", " ", body, flags=re.M)
    for ret, name, params in re.findall(r"([\w\s\*]+?)\b(be_\w+)\s*\(([^()]*)\)\s*;", body):
        kinds = []
        for param in params.split(","):
            param = param.strip()
            if param in ("void", ""):
                continue
            param_type = re.sub(r"\b\w+\s*$", "", param) if re.search(r"[\w\*]\s*\b\w+$", param) else param
            kinds.append(kind(param_type))
        lines.append(" ".join(["fn", name, kind(ret)] + kinds))
    for name, value in re.findall(r"^\s*#define\s+(BE_\w+)\s+(-?\d+|\"[^\"]*\")\s*$", text, flags=re.M):
        lines.append(f"const {name} {value}")
    for members in re.findall(r"typedef\s+enum\s+\w+\s*\{([^}]*)\}", text):
        value = -1
        for member in members.split(","):
            member = member.strip()
            if not member:
                continue
            name, _, given = (part.strip() for part in member.partition("="))
            value = int(given) if given else value + 1
            lines.append(f"const {name} {value}")
    fields = []
    for members, struct in re.findall(r"typedef\s+struct\s+\w+\s*\{([^}]*)\}\s*(\w+)\s*;", text):
        for member in members.split(";"):
            member = " ".join(member.split())
            if member:
                match = re.match(r"(.*?)\s*\b(\w+)$", member)
                fields.append(f"field {struct} {match.group(2)} {kind(match.group(1))}")
    print("\n".join(sorted(lines) + fields))


if __name__ == "__main__":
    main()
