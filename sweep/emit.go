package sweep

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// EmitOptions are the settings of the cluster scripts. The sweep file, its model and Out
// must be on a file system every node (or pod) sees.
type EmitOptions struct {
	SweepFile string // the sweep file as the jobs name it (relative to Dir)
	Out       string // the output directory as the jobs name it (relative to Dir)
	Dir       string // Slurm: the jobs' working directory (--chdir); Kubernetes: the volume's mount path [/data]
	Shards    int    // array tasks or completions (n of --shard i/n)
	Workers   int    // concurrent runs per task (--cpus-per-task, the container's cpu request) [1]
	Linkage   string // Slurm: the linkage command [${LINKAGE:-linkage}]
	Image     string // Kubernetes: the container image with linkage on its PATH
	Claim     string // Kubernetes: the PersistentVolumeClaim holding the sweep, model and results
}

// quote returns s as one single-quoted shell word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// jobName turns the sweep's name into a DNS-1123 label (Kubernetes object names, Slurm job
// names): lower case, digits and '-', at most 50 characters so that Kubernetes' pod
// hostnames "$(job)-$(index)" stay within 63.
func (s *Spec) jobName() string {
	name := strings.ToLower(s.Name)
	name = regexp.MustCompile(`[^a-z0-9-]+`).ReplaceAllString(name, "-")
	name = strings.Trim("linkage-sweep-"+name, "-")
	if len(name) > 50 {
		name = strings.TrimRight(name[:50], "-")
	}
	return name
}

func (o *EmitOptions) check() error {
	if o.Shards < 1 {
		return fmt.Errorf("sweep: %d shards; want at least 1", o.Shards)
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	if o.Workers < 1 {
		return fmt.Errorf("sweep: %d workers; want at least 1", o.Workers)
	}
	return nil
}

// EmitSlurm writes a Slurm job-array script: task $SLURM_ARRAY_TASK_ID runs shard
// $SLURM_ARRAY_TASK_ID of o.Shards, then `linkage sweep merge` joins the parts.
func (s *Spec) EmitSlurm(w io.Writer, o EmitOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	n, err := s.NumRuns()
	if err != nil {
		return err
	}
	linkage := o.Linkage
	if linkage == "" {
		linkage = `"${LINKAGE:-linkage}"`
	} else {
		linkage = quote(linkage)
	}
	fmt.Fprintf(w, `#!/bin/bash
# %d runs of %s in %d shards as a Slurm job array (linkage sweep --emit slurm).
# The sweep file, its model and %s must be on a file system all nodes share.
# Submit, then merge the parts once every task has finished:
#   jid=$(sbatch --parsable THIS_FILE)
#   sbatch --dependency=afterok:$jid --wrap "linkage sweep merge %s --out %s"
# A task that failed (or was cancelled) is run again with sbatch --array=ID THIS_FILE:
# its part file resumes. Runs that fail numerically are rows of the table, not task failures.
#SBATCH --job-name=%s
#SBATCH --array=0-%d
#SBATCH --cpus-per-task=%d
#SBATCH --output=%s/slurm-%%A_%%a.out
`, n, s.file, o.Shards, o.Out, o.SweepFile, o.Out, s.jobName(), o.Shards-1, o.Workers, o.Out)
	if o.Dir != "" {
		fmt.Fprintf(w, "#SBATCH --chdir=%s\n", o.Dir)
	}
	_, err = fmt.Fprintf(w, `set -euo pipefail
exec %s sweep %s --shard "${SLURM_ARRAY_TASK_ID}/%d" --out %s --workers "${SLURM_CPUS_PER_TASK:-%d}" --progress=false
`, linkage, quote(o.SweepFile), o.Shards, quote(o.Out), o.Workers)
	return err
}

// EmitK8s writes a Kubernetes Indexed Job (batch/v1): pod $JOB_COMPLETION_INDEX runs
// that shard of o.Shards in the directory where o.Claim is mounted, writing its part
// under o.Out there.
func (s *Spec) EmitK8s(w io.Writer, o EmitOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.Image == "" || o.Claim == "" {
		return fmt.Errorf("sweep: a Kubernetes job needs an image (--image) with linkage on its PATH and a PersistentVolumeClaim (--claim) holding the sweep")
	}
	if o.Dir == "" {
		o.Dir = "/data"
	}
	n, err := s.NumRuns()
	if err != nil {
		return err
	}
	name := s.jobName()
	_, err = fmt.Fprintf(w, `# %d runs of %s in %d shards as a Kubernetes Indexed Job (linkage sweep --emit k8s).
# The sweep file, its model and the results live on the volume of claim %s (ReadWriteMany),
# mounted at %s in every pod. Run, wait, then merge in any pod that mounts the claim:
#   kubectl apply -f THIS_FILE
#   kubectl wait --for=condition=complete job/%s --timeout=24h
#   linkage sweep merge %s --out %s
# A failed index is retried (backoffLimitPerIndex); its part file resumes.
apiVersion: batch/v1
kind: Job
metadata:
  name: %s
  labels:
    app.kubernetes.io/name: linkage-sweep
spec:
  completionMode: Indexed
  completions: %d
  parallelism: %d
  backoffLimitPerIndex: 2
  template:
    metadata:
      labels:
        app.kubernetes.io/name: linkage-sweep
    spec:
      restartPolicy: Never
      containers:
        - name: sweep
          image: %q
          workingDir: %q
          command: ["linkage"]
          args: ["sweep", %q, "--shard", "$(JOB_COMPLETION_INDEX)/%d", "--out", %q, "--workers", "%d", "--progress=false"]
          resources:
            requests:
              cpu: "%d"
          volumeMounts:
            - name: data
              mountPath: %q
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: %q
`, n, s.file, o.Shards, o.Claim, o.Dir, name, o.SweepFile, o.Out,
		name, o.Shards, o.Shards, o.Image, o.Dir, o.SweepFile, o.Shards, o.Out, o.Workers, o.Workers, o.Dir, o.Claim)
	return err
}
