package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"linkage/integrate"
	"linkage/output"
	"linkage/problems"
)

func runProblems(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("problems", "problems", stderr)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, p := range problems.List() {
		nq, nc := p.System.Size()
		fmt.Fprintf(stdout, "%-10s %s\n           nq=%d nc=%d, t in [%g, %g]\n           source: %s\n           reference: %s\n",
			p.Name, p.Title, nq, nc, p.T0, p.TEnd, p.Source, p.Ref.Source)
	}
	fmt.Fprintf(stdout, "\nlinearly implicit problems K y' = φ(t, y) (dae.LinearlyImplicit; methods: %s):\n", strings.Join(integrate.ImplicitMethods(), ", "))
	for _, name := range problems.ImplicitNames() {
		p, _ := problems.GetImplicit(name)
		fmt.Fprintf(stdout, "%-10s %s\n           n=%d, t in [%g, %g]\n           source: %s\n           reference: %s\n",
			p.Name, p.Title, p.System.Dim(), p.T0, p.TEnd, p.Source, p.Ref.Source)
	}
	fmt.Fprintln(stdout, "\nsized problems (the size in the name, e.g. 'linkage solve chain-bars:100'):")
	for _, s := range problems.Sized() {
		fmt.Fprintln(stdout, "  "+s)
	}
	return nil
}

func runMethods(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("methods", "methods [NAME]   (NAME: one method, one field a line)", stderr)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	header := []string{"name", "seed", "equations", "formulations", "order q/v/λ", "adaptive", "states X", "K y'=φ", "f(λ)", "A v+b=0", "Lie group", "options", "title"}
	switch len(pos) {
	case 0:
	case 1:
		e, err := integrate.Lookup(pos[0])
		if err != nil {
			return usagef("%v", err)
		}
		row := methodRow(e)
		if e.Tolerance != "" {
			header, row = append(header, "tolerance"), append(row, e.Tolerance)
		}
		return writeMethod(stdout, header, row)
	default:
		return usagef("methods takes at most one method name, got %q", pos)
	}
	t := output.Table{Header: header}
	for _, e := range integrate.Methods() {
		t.Add(methodRow(e)...)
	}
	if err := t.Write(stdout); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "\nEvery method takes algebraic variables besides λ (dae.Algebraic: massless coordinates such as a cam\n"+
		"joint's contact parameter; they need M positive definite on ker G, seed 002 Lemma 1) and user variables\n"+
		"V(t, q, v, X) (dae.UserVariables, seed 004 eq. 8b: computed channels, no unknowns).\n"+
		"`linkage methods NAME` shows one method, a field a line.")
	return err
}

// methodRow is method e's row of `linkage methods`, in the order of its header.
func methodRow(e integrate.Entry) []any {
	var forms []string
	for _, f := range e.Formulations {
		forms = append(forms, string(f))
	}
	var opts []string
	for _, p := range e.Params {
		opts = append(opts, fmt.Sprintf("%s %s [%g]", p.Name, p.Range(), p.Default))
	}
	return []any{e.Name, e.Seed, e.Equations, strings.Join(forms, ","),
		fmt.Sprintf("%d/%d/%d", e.Order.Q, e.Order.V, e.Order.Lambda), e.Adaptive, e.States, e.Implicit, reactionColumn(e), pfaffianColumn(e), e.Lie, strings.Join(opts, "; "), e.Title}
}

// writeMethod writes one method's row as "field  value" lines, the fields aligned.
func writeMethod(w io.Writer, header []string, row []any) error {
	width := 0
	for _, h := range header {
		width = max(width, utf8.RuneCountInString(h))
	}
	for i, h := range header {
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(h))
		if _, err := fmt.Fprintf(w, "%s%s  %v\n", h, pad, row[i]); err != nil {
			return err
		}
	}
	return nil
}

// reactionColumn says whether e takes λ-dependent forces, and in which formulations not.
func reactionColumn(e integrate.Entry) string {
	if !e.ReactionForces || len(e.ReactionRefused) == 0 {
		return fmt.Sprint(e.ReactionForces)
	}
	var s []string
	for _, f := range e.ReactionRefused {
		s = append(s, string(f))
	}
	return "true, not " + strings.Join(s, ",")
}

// pfaffianColumn says in which formulations method e takes nonholonomic constraints
// (integrate.Entry.Nonholonomic): "all", a list, or "no".
func pfaffianColumn(e integrate.Entry) string {
	switch len(e.Nonholonomic) {
	case 0:
		return "no"
	case len(e.Formulations):
		return "all"
	}
	var s []string
	for _, f := range e.Nonholonomic {
		s = append(s, string(f))
	}
	return strings.Join(s, ",")
}
