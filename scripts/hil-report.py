#!/usr/bin/env python3
"""The hardware-in-the-loop report: reads the Swift Testing event stream of a HardwareTests
run and writes, per scenario, settled / disproved (with what was seen) / skipped (with the
reason) / not genuine, as Markdown and JSON, and prints the table.

    hil-report.py EVENTS.jsonl OUT_DIR "reader description"

Exit status 1 when a scenario was disproved (an issue recorded), 0 otherwise."""
import json, os, sys

events_path, out_dir, reader = sys.argv[1], sys.argv[2], sys.argv[3]
names, order, outcome = {}, [], {}
for line in open(events_path, encoding="utf-8"):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    payload = record.get("payload", {})
    if record.get("kind") == "test" and payload.get("kind") == "function":
        names[payload["id"]] = payload["displayName"] or payload["name"]
        order.append(payload["id"])
        continue
    if record.get("kind") != "event":
        continue
    kind, test = payload.get("kind"), payload.get("testID")
    if test is None:
        continue
    entry = outcome.setdefault(test, {"issues": [], "skip": None, "cases": 0, "case_skips": []})
    comments = payload.get("_comments") or [m["text"] for m in payload.get("messages", [])]
    reason = " ".join(comments).strip() or "skipped without a reason"
    if kind == "issueRecorded" and not payload.get("issue", {}).get("isKnown", False):
        text = " ".join(m["text"] for m in payload.get("messages", []) if m.get("symbol") in ("fail", "details"))
        entry["issues"].append(text.strip())
    elif kind == "testCaseStarted":
        # A parameterized scenario (one case per emulated tag, or the reader's one tag).
        entry["cases"] += 1
    elif kind == "testCaseCancelled" and payload.get("_testCase"):
        entry["case_skips"].append((payload["_testCase"].get("displayName", "").strip(chr(34)), reason))
    elif kind in ("testCancelled", "testCaseCancelled", "testSkipped"):
        entry["skip"] = reason

rows = []
for test in order:
    entry = outcome.get(test, {"issues": [], "skip": None, "cases": 0, "case_skips": []})
    named = [f"{name}: {reason}" for name, reason in entry["case_skips"]]
    if not entry["skip"] and entry["case_skips"] and len(entry["case_skips"]) >= entry["cases"]:
        # Skipped on every tag: one reason said once (an outcome such as "not genuine" stays one).
        reasons = {reason for _, reason in entry["case_skips"]}
        entry["skip"] = reasons.pop() if len(reasons) == 1 else " / ".join(named)
    if entry["issues"]:
        result, detail = "disproved", " / ".join(entry["issues"])
    elif not entry["skip"] and entry["case_skips"]:
        # Ran on some tags, skipped on the others: settled where it ran.
        ran = entry["cases"] - len(entry["case_skips"])
        result = "settled"
        detail = f"on {ran} of {entry['cases']} tags; skipped on " + " / ".join(named)
    elif entry["skip"] and entry["skip"].startswith("outcome: "):
        result, detail = entry["skip"][len("outcome: "):].split(" — ")[0], entry["skip"][len("outcome: "):]
    elif entry["skip"]:
        result, detail = "skipped", entry["skip"]
    else:
        result, detail = "settled", ""
    rows.append({"scenario": names[test], "id": test, "result": result, "detail": detail})

os.makedirs(out_dir, exist_ok=True)
counts = {}
for row in rows:
    counts[row["result"]] = counts.get(row["result"], 0) + 1
summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")
lines = [f"# NFCTagKit hardware-in-the-loop report", "", f"Reader: {reader}  ", f"Result: {summary}", "",
         "| scenario | result | seen / reason |", "|---|---|---|"]
lines += [f"| {cell(r['scenario'])} | {r['result']} | {cell(r['detail'])} |" for r in rows]

def load(name):
    try:
        with open(os.path.join(out_dir, name), encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None

def differences(before, after):
    """What changed between two nfctag JSON documents: list items (pages, blocks, files, key
    versions) by index, other keys by name."""
    changed = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if isinstance(old, list) and isinstance(new, list):
            for index in range(max(len(old), len(new))):
                a = old[index] if index < len(old) else None
                b = new[index] if index < len(new) else None
                if a != b:
                    show = (lambda v: v if isinstance(v, str) or v is None else json.dumps(v))
                    number = (a if isinstance(a, dict) else b if isinstance(b, dict) else {}).get("file", index)
                    changed.append(f"{key.rstrip('s')} {number}: {show(a)} → {show(b)}")
        elif old != new:
            changed.append(f"{key}: {json.dumps(old)} → {json.dumps(new)}")
    return changed

# The tag as found and as left (scripts/hil reads it before and after the suite).
tag_lines, tag_report = [], {}
for label, prefix in (("memory image", "tag"), ("NDEF message", "ndef"),
                      ("NTAG 424 DNA file settings and key versions", "ntag424")):
    before, after = load(f"{prefix}-before.json"), load(f"{prefix}-after.json")
    if before is None or after is None:
        continue
    if prefix == "tag" and str(before.get("chip", "")).startswith("felica-lite"):
        # A Lite's WCNT counts every write, a block written back as it was too.
        for document in (before, after):
            for service in document.get("services", []):
                service["blocks"] = [b for b in service.get("blocks", []) if b.get("block") != 0x90]
    if prefix == "ntag424" and before.get("random_id"):
        # A random ID is new at every power-up: not a change the run made.
        before.pop("uid", None)
        after.pop("uid", None)
    changed = differences(before, after)
    tag_report[label] = changed
    tag_lines.append(f"- {label}: " + ("left as found" if not changed else "changed: " + "; ".join(changed)))
if tag_lines:
    lines += ["", "## The tag, before and after the run", ""] + tag_lines
    lines += ["", "(Reads advance an NTAG21x's NFC counter where it is on; a write scenario puts back what it "
              "changed unless its row says otherwise.)"]
with open(os.path.join(out_dir, "report.json"), "w", encoding="utf-8") as file:
    document = {"reader": reader, "counts": counts, "scenarios": rows, "tag": tag_report}
    json.dump(document, file, indent=2, ensure_ascii=False)
with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as file:
    file.write("\n".join(lines) + "\n")
width = max((len(r["scenario"]) for r in rows), default=10)
for row in rows:
    detail = f"  {row['detail']}" if row["detail"] else ""
    print(f"{row['result']:<10} {row['scenario'][:70]:<70}{detail[:140]}")
for line in tag_lines:
    print(line[:220])
print(f"\nhil: {summary} — {os.path.join(out_dir, 'report.md')} and report.json")
sys.exit(1 if counts.get("disproved") else 0)
