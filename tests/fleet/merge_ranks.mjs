// Merges the per-rank files of a fleet run (sollens report TRACE --rank-summary FILE,
// one per rank) into the cross-rank sheets that `sollens report DIR` computes in one
// process: TraceLens's matching and formulas (core/analyses/ranks/README.md), in SQL.
//
//   node tests/fleet/merge_ranks.mjs SUMMARY_DIR OUT_DIR
//
// Writes OUT_DIR/nccl_long.csv (every rank's collective kernels, matched),
// OUT_DIR/nccl_implicit_sync.csv (per implicit-sync collective: comm_latency, skews,
// earliest arrival rank, avg_wait_time; the per-rank columns are in nccl_long) and
// OUT_DIR/straggler_summary.csv, and prints the straggler. The DuckDB database is in
// memory; query the CSVs with DuckDB for anything else.
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const [summaryDir, outDir] = process.argv.slice(2);
if (!summaryDir || !outDir) {
  console.error('usage: node tests/fleet/merge_ranks.mjs SUMMARY_DIR OUT_DIR');
  process.exit(2);
}
const files = readdirSync(summaryDir).filter((f) => f.endsWith('.csv')).map((f) => resolve(summaryDir, f)).sort();
if (files.length === 0) {
  console.error(`merge_ranks: no .csv file in ${summaryDir}`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
const fileList = `[${files.map(sqlString).join(', ')}]`;

// Each rank's file numbers its collectives within the rank (index_in_group by
// process group, in ts order) and says "all" for the process group when the rank has
// none and one stream. The ranks together are in TraceLens's simplified mode (matched
// by order alone) when every rank is; otherwise a missing group is "Unknown_Group".
const statements = [
  `CREATE MACRO collective_type(n) AS CASE
     WHEN n IN ('allreduce', 'allreduce_coalesced') THEN 'allreduce'
     WHEN n IN ('reducescatter', '_reduce_scatter_base', 'reduce_scatter_tensor_coalesced') THEN 'reducescatter'
     WHEN n IN ('allgather', 'all_gather', '_allgather_base', 'all_gather_into_tensor_coalesced',
                'allgather_into_tensor_coalesced') THEN 'allgather'
     WHEN n = 'all_to_all' THEN 'alltoall'
     WHEN n = 'all_to_allv' THEN 'alltoallv' END`,
  `CREATE MACRO round1(x) AS round_even(x * 10, 0) / 10`,
  `CREATE TABLE per_rank AS
     SELECT * FROM read_csv(${fileList}, all_varchar = true, union_by_name = true, header = true)
     WHERE collective_id IS NOT NULL`,
  `CREATE TABLE mode AS SELECT bool_and("Process Group Name" = 'all') AS simplified FROM per_rank`,
  `CREATE TABLE nccl_long AS
     SELECT * REPLACE (
       CASE WHEN (SELECT simplified FROM mode) THEN index_in_group
            ELSE (CASE WHEN "Process Group Name" = 'all' THEN 'Unknown_Group' ELSE "Process Group Name" END)
                 || '_' || index_in_group END AS collective_id,
       CASE WHEN (SELECT simplified FROM mode) THEN 'all'
            WHEN "Process Group Name" = 'all' THEN 'Unknown_Group'
            ELSE "Process Group Name" END AS "Process Group Name")
     FROM per_rank`,
  `CREATE TABLE kernels AS
     SELECT collective_id, CAST(rank AS BIGINT) AS rank, "Collective name" AS name,
            CAST(ts AS DOUBLE) AS ts, CAST(dur AS DOUBLE) AS dur
     FROM nccl_long`,
  // Implicit-sync collectives, by the lowest rank's name; in simplified mode also
  // the unnamed ones.
  `CREATE TABLE sync_ids AS
     SELECT collective_id, first(name ORDER BY rank) AS name FROM kernels GROUP BY collective_id
     HAVING CASE WHEN collective_type(first(name ORDER BY rank)) IS NOT NULL
                 THEN collective_type(first(name ORDER BY rank)) <> 'alltoallv'
                 ELSE (SELECT simplified FROM mode) END`,
  `CREATE TABLE waits AS
     SELECT k.*, max(ts) OVER (PARTITION BY collective_id) - ts AS wait
     FROM kernels k WHERE collective_id IN (SELECT collective_id FROM sync_ids)`,
  `CREATE TABLE nccl_implicit_sync AS
     SELECT collective_id, first(name ORDER BY rank) AS "Collective name",
            min(dur) AS comm_latency, max(wait) AS "skew in start time",
            first(rank ORDER BY wait DESC, rank DESC) AS "earliest arrival rank",
            avg(wait) AS avg_wait_time,
            max(ts + dur) - min(ts + dur) AS "skew in end time",
            first(rank ORDER BY wait, rank) AS last_rank,
            min(rank) AS first_rank_seen
     FROM waits GROUP BY collective_id`,
  `CREATE TABLE straggler_summary AS
     WITH n AS (SELECT count(*)::DOUBLE AS n FROM nccl_implicit_sync),
          nccl AS (SELECT rank, sum(dur) AS dur FROM kernels GROUP BY rank)
     SELECT w.rank,
            round1(sum(wait)) AS total_wait_time_us,
            round1(avg(wait)) AS mean_wait_time_us,
            (SELECT count(*) FROM nccl_implicit_sync s WHERE s.last_rank = w.rank) AS times_arrived_last,
            (SELECT count(*) FROM nccl_implicit_sync s WHERE s."earliest arrival rank" = w.rank) AS times_arrived_first,
            round1(100.0::DOUBLE * (SELECT count(*) FROM nccl_implicit_sync s WHERE s.last_rank = w.rank) / (SELECT n FROM n))
              AS pct_arrived_last,
            (SELECT n FROM n)::BIGINT AS num_collectives,
            round1((SELECT dur FROM nccl WHERE nccl.rank = w.rank)) AS total_nccl_dur_us
     FROM waits w GROUP BY w.rank ORDER BY total_wait_time_us, w.rank`,
  `COPY (SELECT * FROM nccl_long ORDER BY CAST(rank AS BIGINT), CAST(ts AS DOUBLE))
     TO ${sqlString(join(outDir, 'nccl_long.csv'))} (HEADER)`,
  `COPY (SELECT * EXCLUDE (last_rank, first_rank_seen) FROM nccl_implicit_sync ORDER BY first_rank_seen, collective_id)
     TO ${sqlString(join(outDir, 'nccl_implicit_sync.csv'))} (HEADER)`,
  `COPY (SELECT * FROM straggler_summary ORDER BY total_wait_time_us, rank)
     TO ${sqlString(join(outDir, 'straggler_summary.csv'))} (HEADER)`,
];

const db = await DuckDBInstance.create(':memory:');
const connection = await db.connect();
for (const sql of statements) await connection.run(sql);
const ranks = await connection.runAndReadAll('SELECT count(DISTINCT rank) AS ranks, count(*) AS kernels FROM kernels');
const [{ ranks: rankCount, kernels }] = ranks.getRowObjects();
const straggler = await connection.runAndReadAll('SELECT rank, total_wait_time_us FROM straggler_summary LIMIT 1');
console.error(`merge_ranks: ${files.length} files, ${rankCount} ranks, ${kernels} collective kernels -> ${outDir}`);
for (const row of straggler.getRowObjects())
  console.error(`  straggler (least total wait): rank ${row.rank} (${row.total_wait_time_us} us)`);
