"""Counts the untyped spots of the generated clients (.ci/clients): a client author meets no
``Any`` and no ``unknown`` where the API sends or takes a known shape.

* Python (openapi-python-client): a model's field annotated with ``Any`` (the
  ``additional_properties: dict[str, Any]`` every model has, and the ``to_dict``/``from_dict``
  internals, are not fields), and a model that has no field but ``additional_properties`` of
  ``Any`` (a free map);
* TypeScript (openapi-typescript's ``schema.d.ts``): ``unknown``, ``Record<string, never>``,
  ``[key: string]: unknown``; but for the generator's own: the ``[name: string]: unknown`` it
  adds to every response's ``headers`` (the headers a response may have beyond those
  declared), and its empty ``webhooks`` and ``$defs``.

Usage: python .ci/untyped_spots.py PYTHON_PACKAGE_DIR SCHEMA_D_TS. Prints each spot and the
counts; exits 1 when there is any.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

TS_UNTYPED = re.compile(r"\bunknown\b|Record<string, never>")


def python_spots(package: Path) -> list[str]:
    spots = []
    for path in sorted((package / "models").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            fields = {
                getattr(statement.target, "id", ""): ast.unparse(statement.annotation)
                for statement in node.body
                if isinstance(statement, ast.AnnAssign)
            }
            extra = fields.pop("additional_properties", "")
            for name, annotation in fields.items():
                if re.search(r"\bAny\b", annotation):
                    spots.append(f"{path.name}: {node.name}.{name}: {annotation}")
            if not fields and re.search(r"\bAny\b", extra):
                spots.append(f"{path.name}: {node.name} is a free map: {extra}")
    return spots


GENERATORS_OWN = (
    "export type webhooks = Record<string, never>;",
    "export type $defs = Record<string, never>;",
)


def typescript_spots(schema: Path) -> list[str]:
    spots = []
    blocks: list[str] = []  # the line that opened each enclosing ``{``
    for number, line in enumerate(schema.read_text().splitlines(), 1):
        text = line.strip()
        comment = text.startswith(("*", "/*", "//"))
        in_headers = bool(blocks) and blocks[-1].startswith("headers:")
        header_catch_all = in_headers and text == "[name: string]: unknown;"
        generators_own = header_catch_all or text in GENERATORS_OWN
        if not comment and not generators_own and TS_UNTYPED.search(text):
            spots.append(f"{schema.name}:{number}: {text}")
        if not comment:
            for _ in range(text.count("}")):
                if blocks:
                    blocks.pop()
            blocks.extend([text] * text.count("{"))
    return spots


def main(package: str, schema: str) -> int:
    python, typescript = python_spots(Path(package)), typescript_spots(Path(schema))
    for spot in [*python, *typescript]:
        print("untyped:", spot)
    print(f"Untyped spots: Python client {len(python)}, TypeScript client {len(typescript)}.")
    return 1 if python or typescript else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
