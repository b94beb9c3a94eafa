package modelfile

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"linkage/dae"
)

// TestConsistentPosesTakesSatisfiedGuess: the joint routes read their joint coordinates
// from the body route's start, which Built.consistentPoses takes from the guess where the
// guess satisfies every row. On every example in body coordinates (planar and 3D) the
// guess is checked against dae.Initialize's start (Built.initialize, the path before the
// skip): where dae.Satisfied holds, the positions are the guess exactly and the
// velocities agree to rounding, so the joint start is the one the full initialization
// gives; the chains of the Simbody comparison must take the skip, and the examples whose
// guess is off must not.
func TestConsistentPosesTakesSatisfiedGuess(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	taken := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		doc, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		assembleBody := assemble
		if doc.Spatial != nil {
			assembleBody = assemble3
		}
		if routeOf(doc).coordinates == CoordinatesNatural {
			continue
		}
		b, sys, err := assembleBody(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		q0, v0 := sys.InitialGuess()
		t0 := doc.Model.Initial.Time
		if doc.Spatial != nil {
			t0 = doc.Spatial.Initial.Time
		}
		sat := dae.Satisfied(sys, t0, q0, v0)
		taken[name] = sat
		if err := b.initialize(sys); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sat {
			continue
		}
		for i := range q0 {
			if b.Start.Q[i] != q0[i] {
				t.Errorf("%s: %s: satisfied guess %v, Initialize's start %v", name, sys.CoordinateName(i), q0[i], b.Start.Q[i])
			}
			if d := math.Abs(b.Start.V[i] - v0[i]); d > 1e-13*(1+math.Abs(v0[i])) {
				t.Errorf("%s: velocity of %s: satisfied guess %v, Initialize's start %v", name, sys.CoordinateName(i), v0[i], b.Start.V[i])
			}
		}
	}
	for name, want := range map[string]bool{"chain-bars": true, "chain3d": true, "four-bar-joint": false} {
		if got, ok := taken[name]; !ok || got != want {
			t.Errorf("%s: guess satisfied %v (checked %v), want %v", name, got, ok, want)
		}
	}
	t.Logf("guess satisfied: %v", taken)
}
