// Package sweep runs parameter studies of a model file: a sweep file names a base model,
// parameters addressed by their path in it (forces.spring1.k, simulation.h,
// parameters.L) and a design (full grid, list, Latin hypercube, Monte Carlo with a seed).
// The design expands deterministically, so run i is the same run on every machine; runs
// execute on a pool of workers, failed runs are recorded with their error, and the
// results are one table (CSV and Parquet) with a row per run.
//
// Beyond one machine the runs are cut into n deterministic shards (Shard); each shard
// writes its part, and Merge joins the parts into the table a local run gives. The
// scripts for Slurm job arrays and Kubernetes Indexed Jobs come from EmitSlurm and
// EmitK8s: linkage never schedules a cluster itself (DESIGN.md, "Beyond one run").
//
//	spec.go    sweep file ⇒ Spec (decode, validate, resolve the model's path)
//	model.go   base model text + run values ⇒ model text of one run (values spliced in)
//	design.go  Spec ⇒ the values of run i (grid, list, latin-hypercube, monte-carlo)
//	run.go     runs ⇒ rows, on a worker pool, journaled so that a re-run resumes
//	table.go   rows ⇒ CSV and Parquet tables; CSV ⇒ rows (resume, merge)
//	shard.go   shard ranges and Merge
//	emit.go    Slurm job-array script and Kubernetes Indexed Job manifest
//	plot.go    outputs against parameters
package sweep
