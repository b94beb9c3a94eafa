package linalg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// gglLU returns the regularized real Newton matrix c K − J of Radau5's singular mode on
// the first-order GGL form y = (q, v, a, λ, μ) of a mechanism (integrate/radaureg.go):
// rows q: c I, −I (v), Gᵀ (μ); rows v: c I, −I (a); rows a: K (q), M̂ (a), Gᵀ (λ); rows
// λ: G_q (q), G (v); rows μ: G (q); and on the diagonals of the λ and μ rows, which the
// Newton pattern lacks, the regularization −reg. weak marks those rows.
func gglLU(rng *rand.Rand, nb int, joints []joint, c, reg float64) (luSystem, []bool) {
	nq := 3 * nb
	g := constraintJacobian(rng, joints)
	nc := 0
	for _, j := range joints {
		nc += j.rows
	}
	iv, ia, il, im := nq, 2*nq, 3*nq, 3*nq+nc
	n := im + nc
	b := newLUBuilder(n)
	for i := range nq {
		b.add(i, i, c)
		b.add(i, iv+i, -1)
		b.add(iv+i, iv+i, c)
		b.add(iv+i, ia+i, -1)
	}
	b.coupled(rng, nb, joints, ia, 0, 0, 3) // K: ∂(f − Gᵀλ)/∂q
	for body := range nb {
		cols := bodyCols(body, ia)
		b.block(rng, cols, cols, 1, 3) // M̂
	}
	for _, e := range g {
		b.add(e.c, im+e.r, e.v)     // q rows: Gᵀμ
		b.add(ia+e.c, il+e.r, e.v)  // a rows: Gᵀλ
		b.add(il+e.r, iv+e.c, e.v)  // λ rows: G v
		b.add(il+e.r, e.c, 0.1*e.v) // λ rows: ∂(G v)/∂q
		b.add(im+e.r, e.c, e.v)     // μ rows: g
	}
	weak := make([]bool, n)
	for i := il; i < n; i++ {
		b.add(i, i, -reg)
		weak[i] = true
	}
	return b.system(), weak
}

// TestSparseLURegularizedFill: the weak diagonals of NewSparseLURegularized keep the
// ordering of the pattern without them (the rows without diagonal paired with partners),
// so that regularizing the constraint rows of a GGL Newton matrix does not change its
// fill; listed as ordinary diagonals they let minimum degree order the μ rows first on a
// chain, each pivoting on a coordinate row far down it (measured 5× the fill on the
// IFToMM four-bar N = 40 in radau5's singular mode). The solution's backward error is
// that of the unregularized factorizations.
func TestSparseLURegularizedFill(t *testing.T) {
	const nb = 100
	sys, weak := gglLU(rand.New(rand.NewPCG(17, 18)), nb, chainJoints(nb), 37.5, 1e-12)
	fact := func(f *SparseLU, err error) *SparseLU {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Factorize(sys.A); err != nil {
			t.Fatal(err)
		}
		return f
	}
	bare := make([][]int, sys.n) // the Newton pattern: no diagonal in the weak rows
	for i, row := range sys.pattern {
		bare[i] = slices.DeleteFunc(slices.Clone(row), func(j int) bool { return j == i && weak[i] })
	}
	plain := fact(NewSparseLU(sys.n, sys.pattern))
	reg := fact(NewSparseLURegularized(sys.n, sys.pattern, weak))
	ref, err := NewSparseLU(sys.n, bare)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reg.perm, ref.perm) {
		t.Errorf("weak diagonals change the ordering of the pattern without them")
	}
	t.Logf("GGL chain N = %d: nnz(L+U) %d with weak diagonals, %d with ordinary ones", nb, reg.NNZ(), plain.NNZ())
	if float64(reg.NNZ()) > 1.2*float64(2*ref.lEstimate+sys.n) {
		t.Errorf("nnz(L+U) = %d with weak diagonals, more than 1.2 × %d (Cholesky of the pattern without them)", reg.NNZ(), 2*ref.lEstimate+sys.n)
	}
	rng := rand.New(rand.NewPCG(19, 20))
	b := luRandVec(rng, sys.n)
	x := slices.Clone(b)
	reg.Solve(x)
	if e := luBackwardError(sys.A, x, b); e > 1e-14 {
		t.Errorf("backward error %.2g with weak diagonals, want ≤ 1e-14", e)
	}
	cx, err := NewComplexSparseLURegularized(sys.n, sys.pattern, weak)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cx.perm, ref.perm) {
		t.Errorf("complex: weak diagonals change the ordering of the pattern without them")
	}
}
