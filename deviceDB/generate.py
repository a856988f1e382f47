#!/usr/bin/env python3
"""Writes deviceDB/<id>.json, one file per GPU, from deviceDB/devices.csv (a verbatim copy
of the project's reference table) plus the identification keys and the few extra
figures listed below. Run it after editing devices.csv or the tables in this file:

    python3 deviceDB/generate.py

The JSON files are committed; the build embeds them (deviceDB/embed.cmake),
so nothing reads them at run time. See deviceDB/README.md for the schema and the sources.
"""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# devices.csv column -> dense peak key in the JSON (TFLOPS; int8 in TOPS).
DENSE_COLUMNS = [
    ("fp64_vector_tflops", "fp64_vector"),
    ("fp64_matrix_tflops", "fp64_matrix"),
    ("fp32_vector_tflops", "fp32_vector"),
    ("fp32_matrix_tflops", "fp32_matrix"),
    ("tf32_dense_tflops", "tf32"),
    ("fp16_dense_tflops", "fp16"),
    ("bf16_dense_tflops", "bf16"),
    ("fp8_dense_tflops", "fp8"),
    ("fp6_dense_tflops", "fp6"),
    ("fp4_dense_tflops", "fp4"),
    ("int8_dense_tops", "int8"),
]

# Sparse figures: devices.md "Dense vs sparse": 2:4 structured sparsity doubles the
# tensor-core dtypes. Only for architectures that have it (NVIDIA Ampere and later,
# AMD CDNA3 and later; CDNA2 and Volta have none). CDNA4 FP6/FP4: the vendor wording is ambiguous
# (devices.csv notes for MI355X), so left out.
SPARSE_KEYS = ["tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8"]
SPARSE_EXCLUDE = {"MI250X": SPARSE_KEYS, "MI250": SPARSE_KEYS, "MI210": SPARSE_KEYS, "V100_SXM2": SPARSE_KEYS,
                  "MI350X": ["fp6", "fp4"], "MI355X": ["fp6", "fp4"]}

# TraceLens arch files (devices.md conflict 4, source S24): measured max-achievable
# TFLOPS, kept apart from the peaks (TraceLens-compatible ceiling).
MAF = {
    "MI300X": {"mem_bw_gbps": 5300, "memory_gb": 192, "max_achievable_tflops": {
        "matrix_fp16": 654, "matrix_bf16": 708, "matrix_fp32": 163, "matrix_fp64": 81,
        "matrix_fp8": 1273, "matrix_int8": 2600, "vector_fp16": 163, "vector_bf16": 163,
        "vector_fp32": 81, "vector_fp64": 40}},
    "MI325X": {"mem_bw_gbps": 6000, "memory_gb": 256, "max_achievable_tflops": {
        "matrix_fp16": 794, "matrix_bf16": 843, "matrix_fp32": 194, "matrix_fp64": 97,
        "matrix_fp8": 1519, "matrix_int8": 3094, "vector_fp16": 194, "vector_bf16": 194,
        "vector_fp32": 97, "vector_fp64": 48}},
}

# Identification keys, matched against a trace's deviceProperties (devices.md "Using
# the table in the analyzer"; observed values from the fixtures under tests/fixtures/traces
# and S26). name_patterns / name_excludes: case-insensitive, whole words (A-Z0-9 runs),
# separators (space - _ /) equivalent. sm_count is per device as the trace lists it
# (one GCD for MI250X). memory_gib: [min, max] of totalGlobalMem in GiB (usable memory
# is below the marketed size). match_without_name: cc + SMs + memory alone may identify
# it when the name is empty or generic (AMD only, where those keys are unambiguous).
IDENTIFY = {
    "H100_SXM5_80GB": dict(vendor="NVIDIA", name_patterns=["H100 80GB HBM3", "H100 SXM5", "H100 SXM"],
                           name_excludes=["PCIE", "NVL"], compute_capability=[9, 0], sm_count=132,
                           memory_gib=[70, 82]),
    "H100_PCIe_80GB": dict(vendor="NVIDIA", name_patterns=["H100 PCIE"], name_excludes=["NVL"],
                           compute_capability=[9, 0], sm_count=114, memory_gib=[70, 82]),
    "H200_SXM_141GB": dict(vendor="NVIDIA", name_patterns=["H200"], name_excludes=["NVL"],
                           compute_capability=[9, 0], sm_count=132, memory_gib=[125, 145]),
    "B200_HGX_1000W": dict(vendor="NVIDIA", name_patterns=["B200"], compute_capability=[10, 0],
                           sm_count=148, memory_gib=[165, 185]),
    "GB200_per_GPU": dict(vendor="NVIDIA", name_patterns=["GB200"], compute_capability=[10, 0],
                          sm_count=148, memory_gib=[165, 195]),
    "A100_SXM4_40GB": dict(vendor="NVIDIA", name_patterns=["A100"], name_excludes=["PCIE"],
                           compute_capability=[8, 0], sm_count=108, memory_gib=[30, 45]),
    "A100_SXM4_80GB": dict(vendor="NVIDIA", name_patterns=["A100"], name_excludes=["PCIE"],
                           compute_capability=[8, 0], sm_count=108, memory_gib=[70, 85]),
    "L40S": dict(vendor="NVIDIA", name_patterns=["L40S"], compute_capability=[8, 9], sm_count=142,
                 memory_gib=[40, 50]),
    "MI250X": dict(vendor="AMD", name_patterns=["MI250X"], gfx="gfx90a", compute_capability=[9, 0],
                   sm_count=110, memory_gib=[60, 66], match_without_name=True),
    "MI300X": dict(vendor="AMD", name_patterns=["MI300X"], gfx="gfx942", compute_capability=[9, 4],
                   sm_count=304, memory_gib=[176, 224], match_without_name=True),
    "MI325X": dict(vendor="AMD", name_patterns=["MI325X"], gfx="gfx942", compute_capability=[9, 4],
                   sm_count=304, memory_gib=[240, 272], match_without_name=True),
    "MI350X": dict(vendor="AMD", name_patterns=["MI350X"], gfx="gfx950", compute_capability=[9, 5],
                   sm_count=256, memory_gib=[270, 290]),
    "MI355X": dict(vendor="AMD", name_patterns=["MI355X"], gfx="gfx950", compute_capability=[9, 5],
                   sm_count=256, memory_gib=[270, 290]),
}

# Short names accepted by --device besides the id (case-insensitive).
ALIASES = {
    "H100_SXM5_80GB": ["H100 SXM"], "H100_PCIe_80GB": ["H100 PCIe"], "H200_SXM_141GB": ["H200"],
    "B200_HGX_1000W": ["B200"], "GB200_per_GPU": ["GB200"], "A100_SXM4_40GB": ["A100 40GB"],
    "A100_SXM4_80GB": ["A100 80GB"],
}

# Scale-up link of each GPU (deviceDB/README.md "Links", sources S30-S35): the GPU-to-GPU
# fabric inside one node (NVLink through NVSwitch, AMD Infinity Fabric mesh). Vendors quote
# the bidirectional total; the figures here are PER DIRECTION (half of it), the rate one
# GPU can send while it receives as much, which is what NCCL's bus bandwidth is compared
# with. topology "switch": every GPU of the domain reaches every other at the full per-GPU
# rate; "mesh": one direct link per peer, so a group of n GPUs uses min(n - 1, links) of
# them. gpus: the size of the domain (the HGX / OAM baseboard, or the NVL72 rack).
# Left out (no entry): PCIe cards (H100 PCIe, L40S: their peer path depends on the
# server's PCIe switches; the H100 PCIe NVLink bridge joins only pairs), MI250X (two GCDs
# per package with unequal links between them), MI350X / MI355X (no sourced link figure).
SCALE_UP = {
    "A100_SXM4_40GB": dict(name="NVLink 3 (NVSwitch)", topology="switch", gpus=8, links=12,
                           link_GBps_per_direction=25, GBps_per_direction=300, sources=["S30", "S32"]),
    "A100_SXM4_80GB": dict(name="NVLink 3 (NVSwitch)", topology="switch", gpus=8, links=12,
                           link_GBps_per_direction=25, GBps_per_direction=300, sources=["S30", "S32"]),
    "H100_SXM5_80GB": dict(name="NVLink 4 (NVSwitch)", topology="switch", gpus=8, links=18,
                           link_GBps_per_direction=25, GBps_per_direction=450, sources=["S31", "S32"]),
    "H200_SXM_141GB": dict(name="NVLink 4 (NVSwitch)", topology="switch", gpus=8, links=18,
                           link_GBps_per_direction=25, GBps_per_direction=450, sources=["S31", "S32"]),
    "B200_HGX_1000W": dict(name="NVLink 5 (NVSwitch)", topology="switch", gpus=8, links=18,
                           link_GBps_per_direction=50, GBps_per_direction=900, sources=["S31", "S33"]),
    "GB200_per_GPU": dict(name="NVLink 5 (NVL72 NVLink Switch)", topology="switch", gpus=72, links=18,
                          link_GBps_per_direction=50, GBps_per_direction=900, sources=["S31", "S33"]),
    "MI300X": dict(name="Infinity Fabric (xGMI mesh)", topology="mesh", gpus=8, links=7,
                   link_GBps_per_direction=64, GBps_per_direction=448, sources=["S34"]),
    "MI325X": dict(name="Infinity Fabric (xGMI mesh)", topology="mesh", gpus=8, links=7,
                   link_GBps_per_direction=64, GBps_per_direction=448, sources=["S34", "S35"]),
}

# A package that the driver exposes as several devices (devices.md: "halve it per device").
DEVICES_PER_PACKAGE = {"MI250X": 2}

# GPUs seen in the shared fixtures that have no row in devices.csv, with dense peaks from
# public datasheets (deviceDB/README.md, sources S36-S41), in devices.csv's columns so they
# go through the same path as its rows (devices.csv itself stays a verbatim copy).
# Dense = what the datasheets quote: CDNA2 and Volta have no structured sparsity.
EXTRA_ROWS = [
    dict(id="V100_SXM2", vendor="NVIDIA", arch="Volta sm_70", variant="SXM2 16/32 GB (also DGXS)",
         fp64_vector_tflops="7.8", fp32_vector_tflops="15.7", fp16_dense_tflops="125", mem_bw_TBps="0.9",
         mem_GB="32", mem_type="HBM2", sm_or_cu="80", boost_clock_MHz="1530", l2_MB="6", tdp_W="300",
         confidence="high (datasheet figures, arithmetic-consistent)", sources="S36;S37;S38",
         notes="NVIDIA V100 datasheet SXM2 column: FP64 7.8, FP32 15.7, Tensor 125 TFLOPS, 900 GB/s, "
               "16 or 32 GB HBM2, 300 W (S36, S38). Checks: 80 SM * 64 FP32 * 2 * 1.53 GHz = 15.7; "
               "640 tensor cores * 64 FMA * 2 * 1.53 GHz = 125.3. fp16 = tensor cores (FP16 in, FP32 "
               "accumulate); no BF16/TF32 on Volta. L2 6144 KB (S37). The DGX Station's V100-DGXS is the "
               "NVLink (SXM2-class) module; NVIDIA's datasheet has only SXM2 and PCIe columns, so it gets "
               "the SXM2 figures. V100 PCIe (14 / 112 TFLOPS, 250 W) is not this entry."),
    dict(id="MI210", vendor="AMD", arch="CDNA2 gfx90a", variant="PCIe",
         fp64_vector_tflops="22.6", fp64_matrix_tflops="45.3", fp32_vector_tflops="22.6",
         fp32_matrix_tflops="45.3", fp16_dense_tflops="181", bf16_dense_tflops="181", int8_dense_tops="181",
         mem_bw_TBps="1.6384", mem_GB="64", mem_type="HBM2e", sm_or_cu="104", boost_clock_MHz="1700",
         l2_MB="8", tdp_W="300", confidence="high (vendor table reproduced, arithmetic-consistent)",
         sources="S39;S41;S13",
         notes="AMD's MI200 table as reproduced by AnandTech (S39): FP64/FP32 vector 22.6, matrix 45.3, FP16 "
               "matrix 181, INT8 181 TOPS, 1.6 TB/s (4096-bit HBM2e at 3.2 Gbps = 1.6384 TB/s), 64 GB, 300 W; "
               "BF16 181 (S41). Checks: 104 CU * 1.7 GHz * 1024 = 181.0 FP16; * 128 = 22.6 FP64. L2 8 MB (S13)."),
    dict(id="MI250", vendor="AMD", arch="CDNA2 gfx90a", variant="OAM (2 GCDs)",
         fp64_vector_tflops="45.3", fp64_matrix_tflops="90.5", fp32_vector_tflops="45.3",
         fp32_matrix_tflops="90.5", fp16_dense_tflops="362.1", bf16_dense_tflops="362.1", int8_dense_tops="362.1",
         mem_bw_TBps="3.2768", mem_GB="128", mem_type="HBM2e", sm_or_cu="208", boost_clock_MHz="1700",
         l2_MB="16", tdp_W="500", confidence="high (vendor table reproduced, arithmetic-consistent)",
         sources="S39;S40;S13",
         notes="AMD's MI250 figures (S39, S40: FP16 | bf16 362.1, INT8 362.1 TOPS): FP64/FP32 vector 45.3, "
               "matrix 90.5, 128 GB HBM2e at 3.2 TB/s (8192-bit at 3.2 Gbps = 3.2768), 500 W (560 W peak). "
               "Two GCDs appear as 2 devices (104 CU, 64 GB, 1.64 TB/s, 8 MB L2 each, S13). Checks: 208 CU * "
               "1.7 GHz * 1024 = 362.1 FP16. Per device the peaks equal MI210's, so an unnamed 104-CU CDNA2 "
               "device gets the same ceilings either way."),
]
EXTRA_ALIASES = {"V100_SXM2": ["V100", "V100 SXM2"]}
EXTRA_IDENTIFY = {
    "V100_SXM2": dict(vendor="NVIDIA", name_patterns=["V100 SXM2", "V100 DGXS"], name_excludes=["PCIE"],
                      compute_capability=[7, 0], sm_count=80, memory_gib=[14, 34]),
    "MI210": dict(vendor="AMD", name_patterns=["MI210"], gfx="gfx90a", compute_capability=[9, 0], sm_count=104),
    "MI250": dict(vendor="AMD", name_patterns=["MI250", "AMD Radeon Graphics"], gfx="gfx90a",
                  compute_capability=[9, 0], sm_count=104, memory_gib=[60, 66]),
}
EXTRA_DEVICES_PER_PACKAGE = {"MI250": 2}

# L2 (on-chip) size where devices.csv leaves it blank (MB as the source quotes it).
EXTRA_L2_MB = {
    "B200_HGX_1000W": (126, "S42"), "GB200_per_GPU": (126, "S42"), "L40S": (96, "S43"),
}

# Sustained L2 read bandwidth of the whole package, TB/s: the best rate measured for working
# sets between a quarter and three quarters of the L2 (te42kyfo/gpu-benches gpu-l2-cache, S44).
# Only GPUs measured there, or the same chip at the same clocks (noted); absent elsewhere.
L2_BANDWIDTH = {
    "H200_SXM_141GB": (9.9, "S44: gpu-l2-cache/h200.txt, 9.6-9.9 TB/s for 12-34 MB"),
    "H100_SXM5_80GB": (9.9, "S44: measured on H200, the same GH100 with 132 SMs, 50 MB L2 and clocks (devices.csv notes)"),
    "H100_PCIe_80GB": (7.0, "S44: gpu-l2-cache/h100_pcie.txt, 6.8-7.0 TB/s for 12-33 MB"),
    "A100_SXM4_80GB": (5.4, "S44: gpu-l2-cache/a100_80.txt, 5.2-5.4 TB/s for 10-28 MB"),
    "A100_SXM4_40GB": (5.4, "S44: measured on A100 80 GB, the same GA100 with 108 SMs, 40 MB L2 and 1410 MHz"),
    "MI210": (5.1, "S44: gpu-l2-cache/mi210.txt, 4.8-5.1 TB/s for 2-6 MB"),
}

def num(text):
    text = text.strip()
    if not text:
        return None
    v = float(text)
    return int(v) if v.is_integer() and "." not in text else v


def add_l2(entry):
    memory, rid = entry["memory"], entry["id"]
    if memory["l2_MB"] is None and rid in EXTRA_L2_MB:
        memory["l2_MB"], source = EXTRA_L2_MB[rid]
        memory["l2_source"] = source
    if rid in L2_BANDWIDTH:
        memory["l2_bandwidth_TBps"], memory["l2_bandwidth_source"] = L2_BANDWIDTH[rid]


def display_name(row):
    vendor, rid = row["vendor"], row["id"]
    names = {
        "H100_SXM5_80GB": "NVIDIA H100 SXM5 80GB", "H100_PCIe_80GB": "NVIDIA H100 PCIe 80GB",
        "H200_SXM_141GB": "NVIDIA H200 SXM 141GB", "B200_HGX_1000W": "NVIDIA B200 (HGX, 1000 W)",
        "GB200_per_GPU": "NVIDIA GB200 (per GPU, NVL72)", "A100_SXM4_40GB": "NVIDIA A100 SXM4 40GB",
        "A100_SXM4_80GB": "NVIDIA A100 SXM4 80GB", "L40S": "NVIDIA L40S",
        "V100_SXM2": "NVIDIA Tesla V100 SXM2", "MI250": "AMD Instinct MI250 (2 GCDs)",
    }
    return names.get(rid, ("AMD Instinct " if vendor == "AMD" else vendor + " ") + rid)


def main():
    with open(os.path.join(HERE, "devices.csv"), newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        columns = reader.fieldnames
    rows += [{c: extra.get(c, "") for c in columns} for extra in EXTRA_ROWS]
    IDENTIFY.update(EXTRA_IDENTIFY)
    ALIASES.update(EXTRA_ALIASES)
    DEVICES_PER_PACKAGE.update(EXTRA_DEVICES_PER_PACKAGE)
    written = []
    for row in rows:
        rid = row["id"]
        dense = {key: num(row[col]) for col, key in DENSE_COLUMNS if num(row[col]) is not None}
        sparse_src = "2 x dense for the tensor-core dtypes (devices.md, 'Dense vs sparse')"
        sparse = {k: round(2 * dense[k], 4) for k in SPARSE_KEYS
                  if k in dense and k not in SPARSE_EXCLUDE.get(rid, [])}
        entry = {
            "id": rid,
            "name": display_name(row),
            "aliases": ALIASES.get(rid, []),
            "vendor": row["vendor"],
            "arch": row["arch"],
            "variant": row["variant"],
            "devices_per_package": DEVICES_PER_PACKAGE.get(rid, 1),
            "dense_tflops": dense,
            "sparse_tflops": sparse,
            "sparse_source": sparse_src if sparse else "",
            "memory": {
                "bandwidth_TBps": num(row["mem_bw_TBps"]), "size_GB": num(row["mem_GB"]),
                "type": row["mem_type"], "l2_MB": num(row["l2_MB"]), "llc_MB": num(row["llc_MB"]),
            },
            "sm_or_cu": num(row["sm_or_cu"]),
            "boost_clock_MHz": num(row["boost_clock_MHz"]),
            "tdp_W": num(row["tdp_W"]),
            "confidence": row["confidence"],
            "sources": row["sources"].split(";"),
            "source": ("devices.csv row " + rid + " (tests' reference table, see README.md)"
                       if rid not in [e["id"] for e in EXTRA_ROWS] else
                       "generate.py EXTRA_ROWS " + rid + " (public datasheets, see README.md)"),
            "notes": row["notes"],
            "identify": IDENTIFY[rid],
        }
        add_l2(entry)
        if rid in SCALE_UP:
            entry["scale_up_link"] = SCALE_UP[rid]
        if rid in MAF:
            entry["tracelens_arch"] = dict(MAF[rid], source="S24: TraceLens arch/" + rid +
                                           ".json @171dd747 (measured MAF, not peaks)")
        written.append(entry)
    for old in os.listdir(HERE):
        if old.endswith(".json"):
            os.remove(os.path.join(HERE, old))
    for entry in written:
        with open(os.path.join(HERE, entry["id"] + ".json"), "w") as f:
            json.dump(entry, f, indent=2, ensure_ascii=False)
            f.write("\n")
    print("wrote", len(written), "files")


if __name__ == "__main__":
    main()
