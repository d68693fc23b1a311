"""Replays the ground truth of BFCL multi-turn entries on the real API classes.

Usage:
  python3 bfcl_replay.py replay REAL_DIR ENTRIES_FILE ANSWERS_FILE [CLASSES]
  python3 bfcl_replay.py probe  REAL_DIR ENTRIES_FILE ANSWERS_FILE [CLASSES] < PROBES

REAL_DIR holds the real classes, one module per file (each class loads an entry's
``initial_config[ClassName]`` with ``_load_scenario``). CLASSES (comma-separated) restricts
the replay to calls of those classes; calls of classes REAL_DIR lacks are skipped and said so.
Nothing of the dataset is copied here: the modules are imported from where they lie.

Standard library only. Two substitutions, both reported in the first output line:
- the modules import a helper module under a package path
  (``....func_source_code.long_context``); the file of that name in REAL_DIR is registered
  under it;
- ``mpmath`` (used for a logarithm) is replaced by the standard ``math.log``.

replay: one JSON line per task ({"kind": "task", ...}: the initial state per class) and per
call ({"kind": "call", ...}): the arguments named by the method's signature, the answer, whether
it is an error (a dict with an "error" key, or an exception), the class's state after the call,
the same from two more runs with every random generator seeded differently ("salted": what
differs between them is random), and, for a call that changed no public attribute, the answer
of the same call on a fresh instance ("fresh"). A state is the class's public attributes, written back in the configuration's shape
(see ``plain``).

probe: reads JSON lines {"id", "task", "step", "method", "arguments"} and, for each, replays
the task's calls before ``step`` on fresh instances, then makes the probe call; one JSON line
{"kind": "probe", "id", "error", "answer"} per probe.
"""

import ast
import copy
import datetime
import importlib.util
import inspect
import json
import math
import os
import random
import sys
import types

HELPER_PACKAGE = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
SALT = None  # None: the classes' own seeds; a string: every seed changed by it


class SaltedRandom(random.Random):
    """random.Random whose seed is changed by SALT, to tell random values from the rest."""

    def seed(self, a=None, version=2):
        if SALT is not None:
            a = "%s|%s" % (a, SALT)
        super().seed(a, version)


def install_substitutions(real_dir):
    random.Random = SaltedRandom
    parts = HELPER_PACKAGE.split(".")
    for i in range(1, len(parts) + 1):
        sys.modules.setdefault(".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
    notes = []
    helper = os.path.join(real_dir, "long_context.py")
    if os.path.exists(helper):
        load_module(HELPER_PACKAGE + ".long_context", helper)
        notes.append("%s.long_context registered from %s" % (HELPER_PACKAGE, helper))
    mpmath = types.ModuleType("mpmath")
    mpmath.mp = types.SimpleNamespace(dps=15)
    mpmath.log = math.log
    sys.modules["mpmath"] = mpmath
    notes.append("mpmath replaced by math.log (a logarithm's precision argument is ignored)")
    return notes


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_classes(real_dir):
    classes = {}
    for file in sorted(os.listdir(real_dir)):
        if not file.endswith(".py") or file == "long_context.py":
            continue
        module = load_module("bfcl_real_" + file[:-3], os.path.join(real_dir, file))
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                classes[name] = value
    return classes


# ── state in the configuration's shape ─────────────────────────────────────────


BACK_REFERENCES = set()  # (class, attribute) pairs seen pointing back to an ancestor
MIXED = set()  # classes whose objects share a container with objects of another class


def plain(value, key=None, ancestors=()):
    """A value as JSON. Objects become their public attributes, without attributes that point
    back to an ancestor (in any object of the class: a tree's root has no parent, its children
    do) and without a `name` equal to the key the object is stored under; objects of classes
    that share a container (files and folders in one folder) carry their class name in lower
    case as `type`; an object held directly by an attribute is keyed by its name. Keys become
    strings, sets sorted lists, non-finite numbers strings."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        note_mixed(value.values())
        return {str(k): plain(v, str(k), ancestors) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        note_mixed(value)
        return [plain(v, None, ancestors) for v in value]
    if isinstance(value, (set, frozenset)):
        return [plain(v, None, ancestors) for v in sorted(value, key=repr)]
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if hasattr(value, "__dict__"):
        if any(value is a for a in ancestors):
            return None
        out = {"type": type(value).__name__.lower()} if type(value) in MIXED else {}
        for name, attribute in vars(value).items():
            if any(attribute is a for a in ancestors + (value,)):
                BACK_REFERENCES.add((type(value), name))
            if name.startswith("_") or (type(value), name) in BACK_REFERENCES:
                continue
            if name == "name" and key is not None and attribute == key:
                continue
            out[name] = plain(attribute, None, ancestors + (value,))
        return out
    return repr(value)


def note_mixed(items):
    kinds = {type(item) for item in items if hasattr(item, "__dict__")}
    if len(kinds) > 1:
        MIXED.update(kinds)


def learn_shapes(classes, entries):
    """Writes every entry's initial state once, so that back references and classes sharing a
    container are known before the first state is written out."""
    for entry in entries:
        names = [str(c) for c in entry.get("involved_classes", []) if str(c) in classes]
        for instance in fresh_instances(classes, entry, names).values():
            state_once(instance)


def state_of(instance):
    """The public attributes in the configuration's shape (written twice: the first pass finds
    the back references)."""
    state_once(instance)
    return state_once(instance)


def state_once(instance):
    state = {}
    for name, value in vars(instance).items():
        if name.startswith("_"):
            continue
        if hasattr(value, "__dict__") and isinstance(getattr(value, "name", None), str):
            state[name] = {value.name: plain(value, value.name, (instance,))}
        else:
            state[name] = plain(value, None, (instance,))
    return state


# ── replay ─────────────────────────────────────────────────────────────────────


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def parse_call(text):
    node = ast.parse(text.strip(), mode="eval").body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError("not a call of a plain name: " + text)
    positional = [ast.literal_eval(a) for a in node.args]
    keywords = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
    return node.func.id, positional, keywords


def fresh_instances(classes, entry, names):
    instances = {}
    config = entry.get("initial_config", {})
    for name in names:
        instance = classes[name]()
        if hasattr(instance, "_load_scenario"):
            instance._load_scenario(copy.deepcopy(config.get(name, {})), long_context=False)
        instances[name] = instance
    return instances


def owner_of(method, instances, order):
    for name in order:
        if name in instances and callable(getattr(instances[name], method, None)) and not method.startswith("_"):
            return name
    return None


def invoke(instance, method, arguments):
    try:
        answer = getattr(instance, method)(**copy.deepcopy(arguments))
        answer = plain(answer)
        return answer, isinstance(answer, dict) and "error" in answer
    except Exception as exc:  # the real method raised: that is its answer
        return {"exception": type(exc).__name__ + ": " + str(exc)}, True


def canonical(value):
    return json.dumps(value, sort_keys=True)


def task_calls(entry, answer, classes, selected):
    """The entry's ground-truth calls in order: (turn, method, arguments, class or None, why skipped)."""
    involved = [str(c) for c in entry.get("involved_classes", [])]
    real = [c for c in involved if c in classes]
    probe = fresh_instances(classes, entry, real)
    calls = []
    for turn, step in enumerate(answer.get("ground_truth", [])):
        for text in step:
            method, positional, keywords = parse_call(text)
            owner = owner_of(method, probe, real)
            if owner is None:
                calls.append((turn, method, keywords, None, "no real class of the entry has " + method))
                continue
            bound = inspect.signature(getattr(probe[owner], method)).bind_partial(*positional, **keywords)
            arguments = dict(bound.arguments)
            if selected and owner not in selected:
                calls.append((turn, method, arguments, owner, "class not selected"))
            else:
                calls.append((turn, method, arguments, owner, None))
    return involved, real, calls


def unlike_config(entry, initial):
    """Per class, the configuration's keys whose attribute, written back, differs from the
    configuration: a check that `plain` gives states in the configuration's shape."""
    config = entry.get("initial_config", {})
    out = {}
    for name, state in initial.items():
        given = config.get(name, {})
        keys = [k for k in given if k in state and canonical(state[k]) != canonical(given[k])]
        if keys:
            out[name] = keys
    return out


def run_task(classes, entry, involved, real, calls):
    """Runs the calls on fresh instances; per call (answer, error, state of its class after it)."""
    instances = fresh_instances(classes, entry, real)
    results = []
    for turn, method, arguments, owner, skipped in calls:
        if skipped:
            results.append(None)
            continue
        answer, error = invoke(instances[owner], method, arguments)
        results.append((answer, error, state_of(instances[owner])))
    return instances, results


SALTS = ("one", "two")  # two more runs, each with every seed changed: what differs between them is random


def replay(classes, entries, answers, selected, notes):
    global SALT
    write({"kind": "driver", "notes": notes, "classes": sorted(classes)})
    for entry in entries:
        answer = answers.get(entry["id"])
        if answer is None:
            continue
        involved, real, calls = task_calls(entry, answer, classes, selected)
        if not any(owner and not skipped for _, _, _, owner, skipped in calls):
            continue
        SALT = None
        random.seed(0)
        _, results = run_task(classes, entry, involved, real, calls)
        salted = []
        for n, salt in enumerate(SALTS):
            SALT = salt
            random.seed(n + 1)
            salted.append(run_task(classes, entry, involved, real, calls)[1])
        SALT = None
        initial = {name: state_of(i) for name, i in fresh_instances(classes, entry, real).items()}
        write({"kind": "task", "task": entry["id"], "involved": involved, "real": real, "initial": initial,
               "unlike": unlike_config(entry, initial)})
        before = dict(initial)
        for step, call in enumerate(calls):
            turn, method, arguments, owner, skipped = call
            line = {"kind": "call", "task": entry["id"], "step": step, "turn": turn, "method": method,
                    "class": owner, "arguments": plain(arguments)}
            if skipped:
                line["skipped"] = skipped
                write(line)
                continue
            answer, error, state = results[step]
            line.update({"error": error, "answer": answer, "state": state,
                         "salted": [{"answer": run[step][0], "error": run[step][1], "state": run[step][2]}
                                    for run in salted]})
            if canonical(state) == canonical(before[owner]):
                fresh = fresh_instances(classes, entry, [owner])[owner]
                line["fresh"], line["freshError"] = invoke(fresh, method, arguments)
            before[owner] = state
            write(line)


def probe(classes, entries, answers, selected, requests):
    by_id = {entry["id"]: entry for entry in entries}
    for request in requests:
        entry = by_id[request["task"]]
        involved, real, calls = task_calls(entry, answers[entry["id"]], classes, selected)
        instances, _ = run_task(classes, entry, involved, real, calls[: request["step"]])
        owner = owner_of(request["method"], instances, real)
        answer, error = invoke(instances[owner], request["method"], request["arguments"])
        write({"kind": "probe", "id": request["id"], "error": error, "answer": answer})


def write(line):
    sys.stdout.write(json.dumps(line) + "\n")


def main(argv):
    if len(argv) < 5 or argv[1] not in ("replay", "probe"):
        sys.stderr.write(__doc__)
        return 2
    mode, real_dir, entries_file, answers_file = argv[1:5]
    selected = set(argv[5].split(",")) if len(argv) > 5 and argv[5] else set()
    notes = install_substitutions(real_dir)
    classes = load_classes(real_dir)
    entries = read_lines(entries_file)
    answers = {a["id"]: a for a in read_lines(answers_file)}
    learn_shapes(classes, entries)
    if mode == "replay":
        replay(classes, entries, answers, selected, notes)
    else:
        requests = [json.loads(line) for line in sys.stdin if line.strip()]
        probe(classes, entries, answers, selected, requests)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
