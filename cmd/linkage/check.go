package main

import (
	"fmt"
	"io"
	"strings"

	"linkage/modelfile"
)

const checkSynopsis = "check MODEL.yaml|FILE.urdf"

// runCheck validates a model file, assembles it, makes its initial guess consistent and
// reports the degrees of freedom and any redundant constraints.
func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", checkSynopsis, stderr)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one MODEL file, got %d; usage: linkage %s", len(pos), checkSynopsis)
	}
	doc, err := loadModel(pos[0], stderr)
	if err != nil {
		return err
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		return err
	}
	nq, nc := b.Size()
	fmt.Fprintf(stdout, "%s: valid\n", doc.File)
	if name := doc.Model.Name; name != "" {
		fmt.Fprintf(stdout, "model       %s\n", name)
	}
	fmt.Fprintf(stdout, "size        %d bodies, %d coordinates, %d constraint rows\n", doc.NumBodies(), nq, nc)
	fmt.Fprintf(stdout, "dof         %d\n", b.DOF())
	if r := b.RotationsReport(); r != "" {
		fmt.Fprintf(stdout, "rotations   %s\n", r)
	}
	red := b.RedundantJoints()
	if len(red) == 0 {
		fmt.Fprintln(stdout, "redundant   none")
	} else {
		fmt.Fprintf(stdout, "redundant   %d: %s (dropped from the integrated equations; their reactions are not determined)\n", len(red), strings.Join(red, ", "))
	}
	fmt.Fprintf(stdout, "initial     %s\n", b.Consistent.Report(b.Full()))
	return nil
}
