#!/usr/bin/env bash
# sollens report's report.json and report.xlsx, and --device, end to end.
# usage: report_outputs_test.sh SOLLENS FIXTURES_DIR
set -u
sollens=$1
fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAILED: $*"; failed=1; }

triton=$fixtures/traces/tracelens-mi300x-compile-triton/trace.json.gz
# A GPU deviceDB does not have (GeForce RTX 2080 Ti): no roofline, no SOL.
unknown_gpu=$fixtures/traces/param-et-linear/linear_kineto.json.gz

out=$("$sollens" report "$triton" --out "$tmp/r" 2>&1) || fail "report exited $?: $out"
grep -q "wrote .*report.json" <<<"$out" || fail "no 'wrote report.json' line: $out"
grep -q "wrote .*report.xlsx" <<<"$out" || fail "no 'wrote report.xlsx' line: $out"
grep -q "device: MI300X" <<<"$out" || fail "MI300X not identified: $out"

# The workbook: a valid zip with one worksheet per CSV, named after it, and the
# values of gpu_timeline.csv in its first sheet; the JSON document has the same sheets.
python3 - "$tmp/r" <<'PY' || failed=1
import csv, json, os, re, sys, zipfile
d = sys.argv[1]
csvs = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".csv"))
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAILED:", what); ok = False
z = zipfile.ZipFile(os.path.join(d, "report.xlsx"))
check(z.testzip() is None, "report.xlsx has a bad member")
names = z.namelist()
for part in ("[Content_Types].xml", "xl/workbook.xml", "xl/styles.xml"):
    check(part in names, "report.xlsx lacks " + part)
sheets = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
# Excel's names stop at 31 characters (cuda_kernel_launch_stats_other_apis, ...).
check(sorted(sheets) == sorted(c[:31] for c in csvs), "worksheets %s != CSVs %s" % (sheets, csvs))
check(all(len(s) <= 31 for s in sheets), "a sheet name is over 31 characters")
check(len([n for n in names if n.startswith("xl/worksheets/sheet")]) == len(sheets),
      "worksheet parts do not match the sheet list")
first = sheets.index("gpu_timeline") + 1
xml = z.read("xl/worksheets/sheet%d.xml" % first).decode()
rows = list(csv.reader(open(os.path.join(d, "gpu_timeline.csv"))))
check('<c r="A1" s="1" t="inlineStr"><is><t>type</t></is></c>' in xml, "A1 is not the bold header 'type'")
check("<is><t>%s</t></is>" % rows[1][0] in xml, "A2 is not %r" % rows[1][0])
m = re.search(r'<c r="B2"><v>([^<]+)</v></c>', xml)
check(m is not None and abs(float(m.group(1)) - float(rows[1][1])) <= 1e-12 * max(1, abs(float(rows[1][1]))),
      "B2 is not the number %s" % rows[1][1])
doc = json.load(open(os.path.join(d, "report.json")))
check(sorted(doc["sheets"]) == csvs, "report.json sheets %s != CSVs" % sorted(doc["sheets"]))
# The workbook is written sheet by sheet as the report is computed: the same order as
# report.json, and every worksheet with its CSV's rows (header included).
check(sheets == [n[:31] for n in doc["sheets"]], "worksheet order %s != report.json order" % sheets)
# Every part is well-formed XML, and the package lists and links every worksheet.
import xml.etree.ElementTree as ET
for n in names:
    try:
        ET.fromstring(z.read(n))
    except ET.ParseError as e:
        check(False, "%s is not well-formed XML: %s" % (n, e))
types = z.read("[Content_Types].xml").decode()
rels = z.read("xl/_rels/workbook.xml.rels").decode()
for i in range(1, len(sheets) + 1):
    check('PartName="/xl/worksheets/sheet%d.xml"' % i in types, "[Content_Types].xml lacks sheet%d" % i)
    check('Target="worksheets/sheet%d.xml"' % i in rels, "workbook rels lack sheet%d" % i)
    xml = z.read("xl/worksheets/sheet%d.xml" % i).decode()
    check('state="frozen"' in xml, "sheet%d has no frozen header row" % i)
    header = re.search(r'<row r="1">(.*?)</row>', xml)
    if header is None:  # a sheet without columns has no rows at all
        check("<sheetData/>" in xml, "sheet%d has rows but no header row" % i)
    else:
        check(all(' s="1"' in c for c in re.findall(r"<c [^>]*>", header.group(1))),
              "sheet%d's header row is not bold" % i)
check(not any(f.endswith(".partial") for f in os.listdir(d)), "a .partial workbook was left behind")
for i, name in enumerate(doc["sheets"], 1):  # the full names: the CSVs'
    xml = z.read("xl/worksheets/sheet%d.xml" % i).decode()
    with open(os.path.join(d, name + ".csv"), newline="") as f:
        lines = sum(1 for row in csv.reader(f) if row)  # a sheet without columns is one empty line
    check(xml.count("<row ") == lines, "worksheet %s has %d rows, its CSV %d" % (name, xml.count("<row "), lines))
check(doc["sheets"]["gpu_timeline"][0]["type"] == rows[1][0], "report.json gpu_timeline row 0")
check(len(doc["sheets"]["gpu_timeline"]) == len(rows) - 1, "report.json gpu_timeline row count")
check(doc["metadata"]["device"]["id"] == "MI300X", "report.json device")
check(doc["metadata"]["trace"]["deviceProperties"][0]["numSms"] == 304, "report.json deviceProperties")
print("report outputs: %d sheets checked" % len(sheets))
sys.exit(0 if ok else 1)
PY

# --no-json / --no-xlsx
"$sollens" report "$triton" --out "$tmp/n" --no-json --no-xlsx >/dev/null 2>&1 || fail "report --no-json --no-xlsx"
[[ -e $tmp/n/report.json || -e $tmp/n/report.xlsx ]] && fail "--no-json/--no-xlsx still wrote them"
[[ -e $tmp/n/gpu_timeline.csv ]] || fail "--no-json/--no-xlsx wrote no CSV"

# Roofline columns on the identified MI300X; --no-roofline gives TraceLens's no-arch header.
head -1 "$tmp/n/unified_perf_summary.csv" | grep -q ",Compute Spec,Roofline Bound," || fail "no Roofline Bound in unified_perf_summary"
head -1 "$tmp/n/GEMM.csv" | grep -q ",Compute Spec,Roofline Time (µs)_first,Roofline Bound_first," || fail "no roofline columns in GEMM"
"$sollens" report "$triton" --out "$tmp/nr" --no-json --no-xlsx --no-roofline >/dev/null 2>&1 || fail "report --no-roofline"
grep -l "Roofline" "$tmp"/nr/*.csv && fail "--no-roofline still wrote roofline columns"
head -1 "$tmp/nr/unified_perf_summary.csv" | grep -q ",Compute Spec,TB/s_mean," || fail "--no-roofline: unified header"

# --device: a known name (any case), an unknown one, and a GPU not in the database.
out=$("$sollens" info "$triton" --device h100_sxm5_80gb 2>&1) || fail "info --device exited $?"
grep -q "^gpu: *H100_SXM5_80GB" <<<"$out" || fail "info --device h100_sxm5_80gb: $out"
grep -q "^peaks: .*bf16 989.4" <<<"$out" || fail "info peaks: $out"
out=$("$sollens" report "$triton" --device NoSuchGPU --out "$tmp/x" 2>&1); rc=$?
[[ $rc == 2 ]] || fail "report --device NoSuchGPU exited $rc, wanted 2"
grep -q "unknown device 'NoSuchGPU' for --device (known, case-insensitive: .*MI300X" <<<"$out" || fail "unknown --device message: $out"
out=$("$sollens" info "$triton" --device 2>&1); rc=$?
[[ $rc == 2 ]] || fail "info --device without a name exited $rc"
out=$("$sollens" report "$unknown_gpu" --out "$tmp/m" 2>&1) || fail "report on the RTX 2080 Ti exited $?"
out_unknown=$out
grep -q "warning: .*RTX 2080 Ti.*no roofline columns.* \[device_unidentified\]$" <<<"$out" || fail "no unknown-GPU notice: $out"
out=$("$sollens" info "$unknown_gpu" 2>&1)
grep -q "^gpu: *no roofline: .*RTX 2080 Ti" <<<"$out" || fail "info on the RTX 2080 Ti: $out"
grep -q "report.json" <(python3 -c "import json,sys; d=json.load(open('$tmp/m/report.json')); print('report.json' if d['metadata']['device']['status']=='unknown' else 'bad')") || fail "unknown-GPU report.json device status"

# SOL sheets: after TraceLens's on the identified MI300X, before HTA's (the workbook check
# above covers them too); none with --no-sol or --no-roofline; a warning and none without
# a GPU with peaks.
[[ -s $tmp/n/sol_metrics.csv && -s $tmp/n/sol_by_layer_type.csv ]] || fail "no SOL sheets on the MI300X"
python3 - "$tmp/r/report.json" <<'PY' || fail "report.json: SOL sheets not after every TraceLens sheet and before HTA's"
import json, sys
names = list(json.load(open(sys.argv[1]))["sheets"])
first = next(i for i, n in enumerate(names) if n.startswith("sol_"))
end = next((i for i in range(first, len(names)) if not names[i].startswith("sol_")), len(names))
after = names[end:]  # HTA's sheets, first of them temporal_breakdown
sys.exit(0 if names[first] == "sol_metrics" and (not after or after[0] == "temporal_breakdown")
         and not any(n.startswith("sol_") for n in after) else 1)
PY
ls "$tmp"/nr/sol_*.csv >/dev/null 2>&1 && fail "--no-roofline still wrote SOL sheets"
"$sollens" report "$triton" --out "$tmp/ns" --no-json --no-xlsx --no-sol >/dev/null 2>&1 || fail "report --no-sol"
ls "$tmp"/ns/sol_*.csv >/dev/null 2>&1 && fail "--no-sol still wrote SOL sheets"
[[ -s $tmp/ns/gpu_timeline.csv ]] || fail "--no-sol wrote no CSV"
grep -q "warning: no SOL sheets: no GPU with known peaks.* \[no_sol_sheets\]$" <<<"$out_unknown" || fail "no SOL warning on the RTX 2080 Ti: $out_unknown"
ls "$tmp"/m/sol_*.csv >/dev/null 2>&1 && fail "SOL sheets without a GPU with peaks"
out=$("$sollens" report "$triton" --efficiency 2 --out "$tmp/e" 2>&1); rc=$?
[[ $rc == 2 ]] || fail "report --efficiency 2 exited $rc, wanted 2"

[[ $failed == 0 ]] && echo "report outputs: all passed"
exit $failed
