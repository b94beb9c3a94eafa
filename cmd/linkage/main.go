// Command linkage simulates constrained multibody systems and compares integrators.
//
//	linkage problems                      list the benchmark problems
//	linkage methods                       list the integrators
//	linkage solve PROBLEM [flags]         solve a benchmark problem and report accuracy and work
//	linkage workprecision PROBLEM [flags] compare methods over a range of tolerances
//	linkage reproduce EXPERIMENT [flags]  regenerate a seed paper's experiment
//	linkage run MODEL.yaml [flags]        simulate a model file (CSV, plot, --html viewer); MODEL.urdf
//	                                      converts a URDF robot description first
//	linkage import FILE.urdf [-o M.yaml]  convert a URDF robot description to a model file
//	linkage view MODEL.yaml RESULTS.csv --html view.html
//	                                      the viewer of a finished run
//	linkage sweep SWEEP.yaml [flags]      a parameter study: a results table with a row per run
//
// Run `linkage help COMMAND` for the flags of a command.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"problems":      {"list the benchmark problems with their sources", runProblems},
		"methods":       {"list the integrators with their seeds, equations, orders and capabilities (methods NAME: one)", runMethods},
		"solve":         {"solve a benchmark problem; report scd, work and constraint residuals", runSolve},
		"workprecision": {"run methods over a range of tolerances; print a table (with the test set's published runs where stored) and plot scd vs time", runWorkPrecision},
		"reproduce":     {"regenerate an experiment of a seed paper as a table and a plot", runReproduce},
		"run":           {"simulate a model file; write results (CSV), a plot and a summary", runRun},
		"check":         {"validate a model file; report degrees of freedom and redundant constraints", runCheck},
		"import":        {"convert a URDF robot description to a model file (3D, joint coordinates) to read and edit", runImport},
		"view":          {"write the animated HTML viewer of a finished run from its model file and CSV results", runView},
		"sweep":         {"run a parameter sweep on all cores, or as shards for Slurm job arrays and Kubernetes Indexed Jobs", runSweep},
	}
}

// usageError is a mistake in the command line (exit status 2); its message says what
// is wrong and lists the valid choices.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errReported marks a failure the command has already reported on its output (exit status 1).
var errReported = errors.New("failure reported")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		usage(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	name := args[0]
	if name == "help" {
		name, args = args[1], []string{args[1], "-help"}
	}
	c, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "linkage: unknown command %q; valid commands: %s\n", name, strings.Join(sortedNames(cmds), ", "))
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, errHelp) {
			return 0
		}
		if errors.Is(err, errReported) {
			return 1
		}
		fmt.Fprintf(stderr, "linkage %s: %v\n", name, err)
		var ue *usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "linkage: multibody dynamics with DAE integrators")
	fmt.Fprintln(w, "\nusage: linkage COMMAND [arguments]\n\ncommands:")
	for _, n := range sortedNames(cmds) {
		fmt.Fprintf(w, "  %-14s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'linkage help COMMAND' for a command's flags.")
}

func sortedNames(cmds map[string]command) []string {
	var names []string
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
