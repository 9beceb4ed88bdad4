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
    entry = outcome.setdefault(test, {"issues": [], "skip": None})
    if kind == "issueRecorded" and not payload.get("issue", {}).get("isKnown", False):
        text = " ".join(m["text"] for m in payload.get("messages", []) if m.get("symbol") in ("fail", "details"))
        entry["issues"].append(text.strip())
    elif kind in ("testCancelled", "testCaseCancelled", "testSkipped"):
        comments = payload.get("_comments") or [m["text"] for m in payload.get("messages", [])]
        entry["skip"] = " ".join(comments).strip() or "skipped without a reason"

rows = []
for test in order:
    entry = outcome.get(test, {"issues": [], "skip": None})
    if entry["issues"]:
        result, detail = "disproved", " / ".join(entry["issues"])
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
with open(os.path.join(out_dir, "report.json"), "w", encoding="utf-8") as file:
    json.dump({"reader": reader, "counts": counts, "scenarios": rows}, file, indent=2, ensure_ascii=False)
def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")
lines = [f"# NFCTagKit hardware-in-the-loop report", "", f"Reader: {reader}  ", f"Result: {summary}", "",
         "| scenario | result | seen / reason |", "|---|---|---|"]
lines += [f"| {cell(r['scenario'])} | {r['result']} | {cell(r['detail'])} |" for r in rows]
with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as file:
    file.write("\n".join(lines) + "\n")
width = max((len(r["scenario"]) for r in rows), default=10)
for row in rows:
    detail = f"  {row['detail']}" if row["detail"] else ""
    print(f"{row['result']:<10} {row['scenario'][:70]:<70}{detail[:140]}")
print(f"\nhil: {summary} — {os.path.join(out_dir, 'report.md')} and report.json")
sys.exit(1 if counts.get("disproved") else 0)
