package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// experiment is one reproducible experiment of a seed paper.
type experiment struct {
	summary string
	run     func(outDir string, stdout io.Writer) error
}

func experiments() map[string]experiment {
	return map[string]experiment{}
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	exps := experiments()
	var names []string
	for n := range exps {
		names = append(names, n)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, n := range names {
		fmt.Fprintf(&list, "\n  %-16s %s", n, exps[n].summary)
	}
	fs := newFlagSet("reproduce", "reproduce EXPERIMENT [--out DIR]\n\nexperiments:"+list.String(), stderr)
	outDir := fs.String("out", ".", "directory for plots and CSV files")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want exactly one EXPERIMENT; valid: %s", errUsage, strings.Join(names, ", "))
	}
	e, ok := exps[pos[0]]
	if !ok {
		return fmt.Errorf("%w: unknown experiment %q; valid: %s", errUsage, pos[0], strings.Join(names, ", "))
	}
	return e.run(*outDir, stdout)
}
