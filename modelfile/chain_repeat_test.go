package modelfile

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// barChainRepeated is a planar chain of N bars of length L pinned end to end, the first to
// the ground, written with repeat blocks; the bars start along the direction (c, s) at the
// angle th, turning at w rad/s about the ground pin.
const barChainRepeated = `
parameters: {N: %d, L: 0.5, m: 1.2, w: 0.7, c: 0.6, s: -0.8, th: -0.9272952180016122}
gravity: [0, -9.81]
bodies:
  - repeat: {i: 1..N}
    each: {name: "bar${i}", mass: "${m}", inertia: "${m*L^2/12}"}
markers:
  - {name: O, body: ground}
  - repeat: {i: 1..N}
    each:
      - {name: "bar${i}.A", body: "bar${i}", point: ["${-L/2}", 0]}
      - {name: "bar${i}.B", body: "bar${i}", point: ["${L/2}", 0]}
joints:
  - {name: pin1, type: revolute, i: O, j: bar1.A}
  - repeat: {i: 2..N}
    each: {name: "pin${i}", type: revolute, i: "bar${i-1}.B", j: "bar${i}.A"}
initial:
  bodies:
    - repeat: {i: 1..N}
      each:
        bar${i}:
          position: ["${(i-0.5)*L*c}", "${(i-0.5)*L*s}"]
          angle: "${th}"
          velocity: ["${-w*(i-0.5)*L*s}", "${w*(i-0.5)*L*c}"]
          angular_velocity: "${w}"
simulation: {method: hht, tol: 1.0e-6, t_end: 0.05}
`

// barChainFull writes the chain of barChainRepeated out in full, as one would without
// repeat blocks. The numbers are computed in float64 in the order the file's expressions
// evaluate them (Go would fold constant expressions exactly instead).
func barChainFull(n int) string {
	l, m, w, c, s := 0.5, 1.2, 0.7, 0.6, -0.8
	var b strings.Builder
	b.WriteString("gravity: [0, -9.81]\nbodies:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: bar%d, mass: %v, inertia: %v}\n", i, m, m*math.Pow(l, 2)/12)
	}
	b.WriteString("markers:\n  - {name: O, body: ground}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: bar%d.A, body: bar%d, point: [%v, 0]}\n", i, i, -l/2)
		fmt.Fprintf(&b, "  - {name: bar%d.B, body: bar%d, point: [%v, 0]}\n", i, i, l/2)
	}
	b.WriteString("joints:\n  - {name: pin1, type: revolute, i: O, j: bar1.A}\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: pin%d, type: revolute, i: bar%d.B, j: bar%d.A}\n", i, i-1, i)
	}
	b.WriteString("initial:\n  bodies:\n")
	for i := 1; i <= n; i++ {
		fi := float64(i)
		fmt.Fprintf(&b, "    bar%d: {position: [%v, %v], angle: -0.9272952180016122, velocity: [%v, %v], angular_velocity: %v}\n",
			i, (fi-0.5)*l*c, (fi-0.5)*l*s, -w*(fi-0.5)*l*s, w*(fi-0.5)*l*c, w)
	}
	b.WriteString("simulation: {method: hht, tol: 1.0e-6, t_end: 0.05}\n")
	return b.String()
}

// rodChainRepeated is a 3D chain of N rods on spherical joints (as Exudyn's chain
// benchmark), written with repeat blocks: rods along +x, spinning at w about the vertical.
const rodChainRepeated = `
dimension: 3
parameters: {N: %d, L: 0.4, m: 0.8, r: 0.01, w: 1.5}
gravity: [0, 0, -9.81]
bodies:
  - repeat: {i: 1..N}
    each: {name: "rod${i}", mass: "${m}", inertia: ["${m*r^2/2}", "${m*L^2/12}", "${m*L^2/12}"]}
markers:
  - {name: O, body: ground}
  - repeat: {i: 1..N}
    each:
      - {name: "rod${i}.A", body: "rod${i}", point: ["${-L/2}", 0, 0]}
      - {name: "rod${i}.B", body: "rod${i}", point: ["${L/2}", 0, 0]}
joints:
  - {name: ball1, type: spherical, i: O, j: rod1.A}
  - repeat: {i: 2..N}
    each: {name: "ball${i}", type: spherical, i: "rod${i-1}.B", j: "rod${i}.A"}
initial:
  bodies:
    - repeat: {i: 1..N}
      each:
        rod${i}: {position: ["${(i-0.5)*L}", 0, 0], velocity: [0, "${w*(i-0.5)*L}", 0], angular_velocity: [0, 0, "${w}"]}
simulation: {method: hht, tol: 1.0e-6, t_end: 0.05}
`

// rodChainFull writes the chain of rodChainRepeated out in full.
func rodChainFull(n int) string {
	l, m, r, w := 0.4, 0.8, 0.01, 1.5
	var b strings.Builder
	b.WriteString("dimension: 3\ngravity: [0, 0, -9.81]\nbodies:\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: rod%d, mass: %v, inertia: [%v, %v, %v]}\n", i, m, m*math.Pow(r, 2)/2, m*math.Pow(l, 2)/12, m*math.Pow(l, 2)/12)
	}
	b.WriteString("markers:\n  - {name: O, body: ground}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: rod%d.A, body: rod%d, point: [%v, 0, 0]}\n", i, i, -l/2)
		fmt.Fprintf(&b, "  - {name: rod%d.B, body: rod%d, point: [%v, 0, 0]}\n", i, i, l/2)
	}
	b.WriteString("joints:\n  - {name: ball1, type: spherical, i: O, j: rod1.A}\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "  - {name: ball%d, type: spherical, i: rod%d.B, j: rod%d.A}\n", i, i-1, i)
	}
	b.WriteString("initial:\n  bodies:\n")
	for i := 1; i <= n; i++ {
		fi := float64(i)
		fmt.Fprintf(&b, "    rod%d: {position: [%v, 0, 0], velocity: [0, %v, 0], angular_velocity: [0, 0, %v]}\n", i, (fi-0.5)*l, w*(fi-0.5)*l, w)
	}
	b.WriteString("simulation: {method: hht, tol: 1.0e-6, t_end: 0.05}\n")
	return b.String()
}

// TestRepeatedChainsEqualFull: a chain written with repeat blocks builds the same system
// as the chain written out in full, bit for bit: coordinates and their names, the
// consistent start, the constraint rows and their Jacobian, and the state after a short
// run (the same arithmetic on the same numbers; any difference is a wrong copy).
func TestRepeatedChainsEqualFull(t *testing.T) {
	for _, c := range []struct {
		name           string
		repeated, full string
		nq, nc         int
	}{
		{"planar 12 bars", fmt.Sprintf(barChainRepeated, 12), barChainFull(12), 36, 24},
		{"3D 8 rods", fmt.Sprintf(rodChainRepeated, 8), rodChainFull(8), 56, 32}, // 7 coordinates, 3 + 1 rows per rod
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, full := buildText(t, "repeated.yaml", c.repeated), buildText(t, "full.yaml", c.full)
			sr, sf := rep.Integrated, full.Integrated
			nq, nc := sr.Size()
			if nqf, ncf := sf.Size(); nq != c.nq || nc != c.nc || nqf != nq || ncf != nc {
				t.Fatalf("sizes: repeated (%d, %d), full (%d, %d), want (%d, %d)", nq, nc, nqf, ncf, c.nq, c.nc)
			}
			if got, want := names(sr, nq, nc), names(sf, nq, nc); got != want {
				t.Errorf("names differ:\n  %s\n  %s", got, want)
			}
			for _, v := range []struct {
				what string
				a, b []float64
			}{{"q", rep.Start.Q, full.Start.Q}, {"v", rep.Start.V, full.Start.V}, {"a", rep.Start.A, full.Start.A},
				{"lambda", rep.Start.Lambda, full.Start.Lambda}} {
				if !slices.Equal(v.a, v.b) {
					t.Errorf("consistent start: %s differs:\n  %v\n  %v", v.what, v.a, v.b)
				}
			}
			// The rows at a pose off the constraint manifold, so that g is not zero.
			q := slices.Clone(rep.Start.Q)
			for i := range q {
				q[i] += 1e-3 * math.Sin(float64(i))
			}
			gr, gf := make([]float64, nc), make([]float64, nc)
			sr.Constraint(gr, 0, q)
			sf.Constraint(gf, 0, q)
			if !slices.Equal(gr, gf) {
				t.Errorf("constraint rows differ:\n  %v\n  %v", gr, gf)
			}
			Gr, Gf := mat.NewDense(nc, nq, nil), mat.NewDense(nc, nq, nil)
			sr.ConstraintJacobian(Gr, 0, q)
			sf.ConstraintJacobian(Gf, 0, q)
			if !mat.Equal(Gr, Gf) {
				t.Error("constraint Jacobians differ")
			}
			rr, rf := runExample(t, rep, RunOptions{}), runExample(t, full, RunOptions{})
			fr, ff := rr.Solution.Final, rf.Solution.Final
			if rr.Solution.Stats.Steps < 3 || rr.Solution.Stats != rf.Solution.Stats || !slices.Equal(fr.Q, ff.Q) || !slices.Equal(fr.V, ff.V) {
				t.Errorf("runs differ: %+v\n  q %v\nand %+v\n  q %v", rr.Solution.Stats, fr.Q, rf.Solution.Stats, ff.Q)
			}
		})
	}
}

func buildText(t *testing.T, file, src string) *Built {
	t.Helper()
	doc, err := Parse(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// names lists the coordinate and constraint names of sys.
func names(sys dae.System, nq, nc int) string {
	n, ok := sys.(dae.Namer)
	if !ok {
		return "no names"
	}
	var b strings.Builder
	for i := range nq {
		b.WriteString(n.CoordinateName(i) + " ")
	}
	for i := range nc {
		b.WriteString(n.ConstraintName(i) + " ")
	}
	return b.String()
}
