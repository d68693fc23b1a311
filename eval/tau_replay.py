"""Replays golden actions against a tau-bench domain's real Python tools.

Usage: python3 tau_replay.py TOOLS_DIR DB_DIR TASKS_FILE [TASKS_FILE ...]

TOOLS_DIR is the domain's tools package (each module a class with a static
``invoke(data, **kwargs)`` and ``get_info()``; the package lists them in ALL_TOOLS).
DB_DIR holds one JSON file per collection. Every task starts from a fresh copy of the
database; its actions run in order. One JSON line per action goes to stdout:

  {"task": "<file>#<n>", "step": i, "tool": name, "arguments": {...},
   "error": bool, "answer": <parsed JSON or the raw string>,
   "changed": [{"collection", "key", "fields": [top-level fields], "after": entity}]}

Nothing of the dataset is copied here: the package is imported from where it lies.
"""

import importlib
import json
import os
import sys
import types


def stub_tool_base():
    # The tools subclass tau_bench.envs.tool.Tool, which only declares the interface;
    # an empty class of that name lets them import without the rest of tau-bench.
    class Tool:
        pass

    names = ["tau_bench", "tau_bench.envs", "tau_bench.envs.tool"]
    for name in names:
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["tau_bench.envs.tool"].Tool = Tool


def load_tools(tools_dir):
    stub_tool_base()
    parent, package = os.path.split(os.path.abspath(tools_dir))
    sys.path.insert(0, parent)
    module = importlib.import_module(package)
    return {cls.get_info()["function"]["name"]: cls for cls in module.ALL_TOOLS}


def load_db(db_dir):
    db = {}
    for name in sorted(os.listdir(db_dir)):
        if name.endswith(".json"):
            with open(os.path.join(db_dir, name), encoding="utf-8") as handle:
                db[name[: -len(".json")]] = json.load(handle)
    return db


def fingerprints(db):
    return {
        collection: {key: json.dumps(entity) for key, entity in entities.items()}
        for collection, entities in db.items()
        if isinstance(entities, dict)
    }


def changes(db, before):
    found = []
    for collection, entities in db.items():
        if not isinstance(entities, dict):
            continue
        old = before.get(collection, {})
        for key, entity in entities.items():
            if old.get(key) == json.dumps(entity):
                continue
            previous = json.loads(old[key]) if key in old else {}
            fields = sorted(
                field
                for field in set(previous) | set(entity if isinstance(entity, dict) else {})
                if not isinstance(entity, dict) or previous.get(field) != entity.get(field)
            )
            found.append({"collection": collection, "key": key, "fields": fields, "after": entity})
    return found


def parse_answer(text):
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    tools = load_tools(argv[1])
    db_text = json.dumps(load_db(argv[2]))
    initial = fingerprints(json.loads(db_text))
    for tasks_file in argv[3:]:
        label = os.path.basename(tasks_file)
        with open(tasks_file, encoding="utf-8") as handle:
            tasks = json.load(handle)
        for number, task in enumerate(tasks):
            db = json.loads(db_text)
            before = initial
            for step, action in enumerate(task.get("actions", [])):
                name = action["name"]
                arguments = action.get("kwargs", {})
                tool = tools.get(name)
                if tool is None:
                    answer, error = "Error: no such tool " + name, True
                else:
                    try:
                        answer = tool.invoke(db, **arguments)
                        error = isinstance(answer, str) and answer.startswith("Error")
                    except Exception as exc:  # the real tool crashed: record it as its answer
                        answer, error = "Error: " + type(exc).__name__ + ": " + str(exc), True
                changed = changes(db, before)
                if changed:
                    before = fingerprints(db)
                line = {
                    "task": label + "#" + str(number),
                    "step": step,
                    "tool": name,
                    "arguments": arguments,
                    "error": error,
                    "answer": parse_answer(answer),
                    "changed": changed,
                }
                sys.stdout.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
