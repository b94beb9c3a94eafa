package integrate

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/joint"
)

// TestGCPStiffnessSolvesKKT: the K_g preconditioner of gcp's Newton-Krylov corrector
// (gcpStiffness.apply, x − d_ind with d from the stiff solve of βh²K_g Z x) is the
// independent part of the solution of
//
//	[M + βh²K_g  Gᵀ; G  0](y, μ) = (M Z x, 0),
//
// assembled densely here (M and K_g column by column from MassMul and
// AddGeometricStiffnessMul, G and H from the recovery), at a state of a run on the
// joint-route chains and the cut-joint loops, to 1e-9 relative; and on the 3D chains it
// differs from the identity by more than 1 % at h = 50 ms (K_g's loads are not zero; on
// the planar models it moves x by 1e-4 and 3e-8).
func TestGCPStiffnessSolvesKKT(t *testing.T) {
	cases := append(jointMassCases[:len(jointMassCases):len(jointMassCases)], struct {
		name string
		make func(*testing.T) (*joint.System, State)
	}{"closed-chain3d:5", func(t *testing.T) (*joint.System, State) { return jointClosedChain3D(t, 5) }})
	const h = 0.05
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sys, s := c.make(t)
			m := GCP{Variant: GCPFisetteVaneghem, Newton: NewtonSettings{Jacobian: JacobianEveryIteration}}
			gcpRun(t, &m, sys, s, StepControl{FixedH: 1e-3, RTol: 1e-6, ATol: 1e-6}, 5)
			w := m.w
			g := &w.kry.kg
			if g.s == nil {
				t.Fatal("no K_g preconditioner on a dae.StiffMassSolver system")
			}
			g.due = true
			g.factor(w.cs, &w.it, w.kry.a, h, &w.stats)
			if !g.on {
				t.Fatal("K_g's factorization failed")
			}
			cs := w.cs
			nq, nc, nd := cs.nq, cs.nc, cs.nd
			x := make([]float64, nd)
			for i := range x {
				x[i] = math.Sin(float64(3*i + 1))
			}
			px := append([]float64(nil), x...)
			g.apply(cs, px)

			// Z x, M and K_g at the factorization's point
			zx := make([]float64, nq)
			for j, i := range cs.ind {
				zx[i] = x[j]
			}
			for k, i := range cs.dep {
				for j := range nd {
					zx[i] += g.H[k*nd+j] * x[j]
				}
			}
			mm := sys // M and K_g products
			n := nq + nc
			A := mat.NewDense(n, n, nil)
			e, col := make([]float64, nq), make([]float64, nq)
			for j := range nq {
				e[j] = 1
				mm.MassMul(col, g.s.t, g.s.q, e)
				for i := range nq {
					A.Set(i, j, col[i])
				}
				clear(col)
				mm.AddGeometricStiffnessMul(col, g.s.t, g.s.q, e, g.s.kg, gcpBeta*h*h)
				for i := range nq {
					A.Set(i, j, A.At(i, j)+col[i])
				}
				e[j] = 0
			}
			for r := range nc {
				for j := range nq {
					A.Set(nq+r, j, g.G.At(r, j))
					A.Set(j, nq+r, g.G.At(r, j))
				}
			}
			rhs := mat.NewVecDense(n, nil)
			mz := make([]float64, nq)
			mm.MassMul(mz, g.s.t, g.s.q, zx)
			for i := range nq {
				rhs.SetVec(i, mz[i])
			}
			var y mat.VecDense
			if err := y.SolveVec(A, rhs); err != nil {
				t.Fatal(err)
			}
			var diff, size, moved float64
			for j, i := range cs.ind {
				diff = math.Max(diff, math.Abs(px[j]-y.AtVec(i)))
				size = math.Max(size, math.Abs(y.AtVec(i)))
				moved = math.Max(moved, math.Abs(px[j]-x[j]))
			}
			t.Logf("|apply − dense| %.1e of %.1e; |apply − x| %.1e", diff, size, moved)
			if !(diff <= 1e-9*size) {
				t.Errorf("|apply − dense KKT| = %.2g, want ≤ 1e-9 × %.2g", diff, size)
			}
			if strings.Contains(c.name, "3d") && !(moved > 1e-2*size) {
				t.Errorf("|apply − x| = %.2g: K_g left the preconditioner the identity", moved)
			}
		})
	}
}
