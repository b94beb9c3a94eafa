package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mechanism is the pattern of a planar multibody KKT system: bodies with 3 coordinates
// each and joints whose rows cover the coordinates of the bodies they join.
type mechanism struct {
	nq, nc     int
	aPat, gPat [][]int
}

// joint ties bodies a and b (−1 for the ground) with rows constraint equations: 2 for a
// revolute joint, 1 for a distance constraint (a massless rod).
type joint struct{ a, b, rows int }

// newMechanism returns the pattern of nb bodies and the joints. With couple, A also
// couples the two bodies of every joint between bodies (stiffness or damping of a
// bushing); otherwise A is block diagonal (3×3 per body).
func newMechanism(nb int, joints []joint, couple bool) mechanism {
	m := mechanism{nq: 3 * nb}
	nbr := make([][]int, nb) // bodies coupled in A
	for b := range nb {
		nbr[b] = []int{b}
	}
	for _, j := range joints {
		cols := []int{}
		for _, b := range []int{j.a, j.b} {
			if b >= 0 {
				cols = append(cols, 3*b, 3*b+1, 3*b+2)
			}
		}
		slices.Sort(cols)
		for range j.rows {
			m.gPat = append(m.gPat, cols)
		}
		if couple && j.a >= 0 && j.b >= 0 {
			nbr[j.a] = append(nbr[j.a], j.b)
			nbr[j.b] = append(nbr[j.b], j.a)
		}
	}
	m.nc = len(m.gPat)
	m.aPat = make([][]int, m.nq)
	for b := range nb {
		var cols []int
		for _, c := range nbr[b] {
			cols = append(cols, 3*c, 3*c+1, 3*c+2)
		}
		slices.Sort(cols)
		cols = slices.Compact(cols)
		for i := range 3 {
			m.aPat[3*b+i] = cols
		}
	}
	return m
}

// chainJoints: revolute joints ground–body 0 and body i–body i+1 (n DOF).
func chainJoints(nb int) []joint {
	j := []joint{{-1, 0, 2}}
	for b := 0; b+1 < nb; b++ {
		j = append(j, joint{b, b + 1, 2})
	}
	return j
}

// treeJoints: a binary tree of revolute joints, body b hangs from body (b−1)/2, the
// root from the ground.
func treeJoints(nb int) []joint {
	j := []joint{{-1, 0, 2}}
	for b := 1; b < nb; b++ {
		j = append(j, joint{(b - 1) / 2, b, 2})
	}
	return j
}

// ladderJoints: two rails of n bodies (bodies 2i and 2i+1 at rung i), each a chain of
// revolute joints hanging from the ground, and a rod (distance constraint) as rung at
// every i: n−1 closed loops, n degrees of freedom.
func ladderJoints(n int) []joint {
	j := []joint{{-1, 0, 2}, {-1, 1, 2}}
	for i := range n {
		j = append(j, joint{2 * i, 2*i + 1, 1})
		if i+1 < n {
			j = append(j, joint{2 * i, 2*i + 2, 2}, joint{2*i + 1, 2*i + 3, 2})
		}
	}
	return j
}

// gridJoints: k×k bodies; each column is a chain of revolute joints hanging from the
// ground and neighbours in a row are joined by rods: (k−1)² closed loops, k degrees of
// freedom.
func gridJoints(k int) []joint {
	var j []joint
	for r := range k {
		for c := range k {
			b := r*k + c
			if r == 0 {
				j = append(j, joint{-1, b, 2})
			} else {
				j = append(j, joint{b - k, b, 2})
			}
			if c+1 < k {
				j = append(j, joint{b, b + 1, 1})
			}
		}
	}
	return j
}

// fillOf returns nnz(L) of the mechanism's KKT matrix in the elimination order perm.
func fillOf(m mechanism, perm []int) int {
	n := m.nq + m.nc
	rows, cols := newKKTEntries(m.nq, m.nc, m.aPat, m.gPat).upperPairs(m.nq, m.nc)
	pinv := make([]int, n)
	for k, p := range perm {
		pinv[p] = k
	}
	cp, ci, _ := permutedUpper(n, pinv, rows, cols)
	// factorCount counts the row subtrees without storing them: the natural orderings
	// fill up to 3.6e7 entries.
	return factorCount(cp, ci, eliminationTree(cp, ci))
}

// amdFill returns nnz(L) with the ordering of NewSparseKKT.
func amdFill(t *testing.T, m mechanism) int {
	t.Helper()
	k, err := NewSparseKKT(m.nq, m.nc, m.aPat, m.gPat)
	if err != nil {
		t.Fatal(err)
	}
	if f := fillOf(m, k.Perm()); f != k.NNZ() {
		t.Fatalf("NNZ() = %d, fill of Perm() = %d", k.NNZ(), f)
	}
	return k.NNZ()
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// bodyOrder eliminates body by body in the given body order, each body's coordinates
// followed (or, with rowsFirst, preceded) by the rows of the joints listed for it: the
// natural hand ordering of a tree-structured mechanism, leaves first.
func bodyOrder(m mechanism, joints []joint, bodies []int, jointOf [][]int, rowsFirst bool) []int {
	first := make([]int, len(joints)) // first row of each joint
	for i := 1; i < len(joints); i++ {
		first[i] = first[i-1] + joints[i-1].rows
	}
	var p []int
	for _, b := range bodies {
		var rows []int
		for _, j := range jointOf[b] {
			for r := range joints[j].rows {
				rows = append(rows, m.nq+first[j]+r)
			}
		}
		q := []int{3 * b, 3*b + 1, 3*b + 2}
		if rowsFirst {
			p = append(append(p, rows...), q...)
		} else {
			p = append(append(p, q...), rows...)
		}
	}
	return p
}

// TestSparseFillChain: on a chain, nnz(L) grows linearly with the number of bodies, the
// ordering is within 10% of the best hand ordering (tip body first, each body's
// coordinates then the rows of the joint to its parent), and with stiffness couplings
// the natural ordering (all coordinates, then all constraints) fills quadratically while
// the minimum-degree ordering stays linear.
func TestSparseFillChain(t *testing.T) {
	for _, couple := range []bool{false, true} {
		var fill [2]int
		for s, nb := range []int{100, 1000} {
			joints := chainJoints(nb)
			m := newMechanism(nb, joints, couple)
			fill[s] = amdFill(t, m)
			bodies := make([]int, nb)
			jointOf := make([][]int, nb)
			for b := range nb {
				bodies[b] = nb - 1 - b
				jointOf[b] = []int{b} // joint b ties body b to body b−1 (or the ground)
			}
			hand := min(fillOf(m, bodyOrder(m, joints, bodies, jointOf, false)), fillOf(m, bodyOrder(m, joints, bodies, jointOf, true)))
			natural := fillOf(m, identity(m.nq+m.nc))
			t.Logf("chain N=%d couple=%v: nnz(L) %d (%.1f per body), hand ordering %d, natural %d",
				nb, couple, fill[s], float64(fill[s])/float64(nb), hand, natural)
			if float64(fill[s]) > 1.1*float64(hand) {
				t.Errorf("chain N=%d couple=%v: nnz(L) = %d, more than 1.1 × the hand ordering's %d", nb, couple, fill[s], hand)
			}
			// Measured natural/minimum degree: 1.25 (N = 100 and 1000) without couplings,
			// where all coordinates first is nearly right; 21 and 201 with them, where
			// every eliminated body joins all earlier joints' rows into one clique.
			if couple && natural < 10*fill[s] {
				t.Errorf("coupled chain N=%d: natural ordering fill %d, want ≥ 10 × %d", nb, natural, fill[s])
			}
		}
		// Linear growth: ratio 10 for ten times the bodies (brief: ≤ 12).
		if r := float64(fill[1]) / float64(fill[0]); r > 12 {
			t.Errorf("chain couple=%v: nnz(L) ratio N=1000/N=100 = %.2f, want ≤ 12", couple, r)
		}
	}
}

// TestSparseFillTree: a binary tree of bodies factorizes with the fill of the leaves-
// first hand ordering (within 10%), which is linear in the number of bodies.
func TestSparseFillTree(t *testing.T) {
	for _, couple := range []bool{false, true} {
		var fill [2]int
		for s, nb := range []int{127, 1023} {
			joints := treeJoints(nb)
			m := newMechanism(nb, joints, couple)
			fill[s] = amdFill(t, m)
			bodies := make([]int, nb)
			jointOf := make([][]int, nb)
			for b := range nb {
				bodies[b] = nb - 1 - b // children have larger numbers than parents
				jointOf[b] = []int{b}
			}
			hand := min(fillOf(m, bodyOrder(m, joints, bodies, jointOf, false)), fillOf(m, bodyOrder(m, joints, bodies, jointOf, true)))
			natural := fillOf(m, identity(m.nq+m.nc))
			t.Logf("tree N=%d couple=%v: nnz(L) %d (%.1f per body), hand ordering %d, natural %d",
				nb, couple, fill[s], float64(fill[s])/float64(nb), hand, natural)
			if float64(fill[s]) > 1.1*float64(hand) {
				t.Errorf("tree N=%d couple=%v: nnz(L) = %d, more than 1.1 × the hand ordering's %d", nb, couple, fill[s], hand)
			}
			// Measured natural/minimum degree: 9.1 and 65 (N = 127, 1023), coupled 45
			// and 359: the root's joints come first in the natural numbering.
			if natural < 5*fill[s] {
				t.Errorf("tree N=%d couple=%v: natural ordering fill %d, want ≥ 5 × %d", nb, couple, natural, fill[s])
			}
		}
		if r := float64(fill[1]) / float64(fill[0]); r > 1.2*1023/127 {
			t.Errorf("tree couple=%v: nnz(L) ratio %.2f for %.2f times the bodies", couple, r, 1023.0/127)
		}
	}
}

// TestSparseFillLoops: closed loops. A ladder (two rails and rungs) keeps a bounded
// front, so nnz(L) stays linear and far below the natural ordering's; on a k×k grid of
// bodies, which has no linear-fill ordering, minimum degree still beats the natural one.
func TestSparseFillLoops(t *testing.T) {
	var fill [2]int
	for s, n := range []int{100, 1000} {
		m := newMechanism(2*n, ladderJoints(n), true)
		fill[s] = amdFill(t, m)
		natural := fillOf(m, identity(m.nq+m.nc))
		t.Logf("ladder of %d rungs: nnz(L) %d (%.1f per body), natural %d", n, fill[s],
			float64(fill[s])/float64(2*n), natural)
		// Measured natural/minimum degree: 39 and 383.
		if natural < 10*fill[s] {
			t.Errorf("ladder of %d rungs: natural ordering fill %d, want ≥ 10 × %d", n, natural, fill[s])
		}
	}
	if r := float64(fill[1]) / float64(fill[0]); r > 12 {
		t.Errorf("ladder: nnz(L) ratio 1000/100 rungs = %.2f, want ≤ 12", r)
	}
	m := newMechanism(400, gridJoints(20), false)
	f, natural := amdFill(t, m), fillOf(m, identity(m.nq+m.nc))
	t.Logf("20×20 grid: nnz(L) %d (%.1f per body), natural %d", f, float64(f)/400, natural)
	// Measured ratio 1.75: all coordinates first leaves G M⁻¹ Gᵀ in the joints' natural
	// order, a band of about two grid rows, not far from what a 2-D mesh needs anyway.
	if 2*natural < 3*f {
		t.Errorf("20×20 grid: natural ordering fill %d, want ≥ 1.5 × minimum degree's %d", natural, f)
	}
}

// TestSparseOrderingVsExactMinimumDegree compares the approximate minimum degree
// ordering with exact minimum degree on the explicit elimination graph (the classic
// greedy algorithm, Tinney & Walker 1967), on mechanisms with loops where the two can
// differ: AMD's degree bounds and aggressive absorption must not cost more than 10%.
func TestSparseOrderingVsExactMinimumDegree(t *testing.T) {
	cases := []struct {
		name string
		m    mechanism
	}{
		{"grid 10×10", newMechanism(100, gridJoints(10), false)},
		{"grid 8×8 coupled", newMechanism(64, gridJoints(8), true)},
		{"ladder 40 coupled", newMechanism(80, ladderJoints(40), true)},
		{"tree 63 coupled", newMechanism(63, treeJoints(63), true)},
	}
	for _, c := range cases {
		n := c.m.nq + c.m.nc
		rows, cols := newKKTEntries(c.m.nq, c.m.nc, c.m.aPat, c.m.gPat).upperPairs(c.m.nq, c.m.nc)
		exact := fillOf(c.m, exactMinimumDegree(adjacency(n, rows, cols)))
		approx := amdFill(t, c.m)
		t.Logf("%s: nnz(L) %d, exact minimum degree %d", c.name, approx, exact)
		if float64(approx) > 1.1*float64(exact) {
			t.Errorf("%s: nnz(L) = %d, more than 1.1 × exact minimum degree's %d", c.name, approx, exact)
		}
	}
}

// exactMinimumDegree eliminates, on the explicit elimination graph, a node of least
// current degree (the lowest index on ties) and joins its neighbours into a clique.
func exactMinimumDegree(adj [][]int) []int {
	n := len(adj)
	nb := make([]map[int]bool, n)
	for i := range n {
		nb[i] = map[int]bool{}
		for _, j := range adj[i] {
			nb[i][j] = true
		}
	}
	done := make([]bool, n)
	order := make([]int, 0, n)
	for range n {
		p := -1
		for i := range n {
			if !done[i] && (p < 0 || len(nb[i]) < len(nb[p])) {
				p = i
			}
		}
		done[p] = true
		order = append(order, p)
		for i := range nb[p] {
			delete(nb[i], p)
			for j := range nb[p] {
				if i != j {
					nb[i][j] = true
				}
			}
		}
	}
	return order
}

// TestSparseSymbolicBruteForce checks the elimination tree, row patterns and fill
// against dense symbolic elimination (the graph of L is that of the filled matrix) on
// random symmetric patterns and orderings, including hubs above the dense-row threshold.
func TestSparseSymbolicBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	for trial := range 10 {
		n := 1 + rng.IntN(60)
		density := rng.Float64() * 0.15
		var rows, cols []int
		for j := range n {
			for i := range j {
				if rng.Float64() < density || (trial%5 == 0 && i == 0) { // node 0 a hub
					rows, cols = append(rows, i), append(cols, j)
				}
			}
			rows, cols = append(rows, j), append(cols, j)
		}
		adj := adjacency(n, rows, cols)
		for _, perm := range [][]int{minimumDegree(adj), rng.Perm(n)} {
			checkPermutation(t, perm, n)
			pinv := make([]int, n)
			for k, p := range perm {
				pinv[p] = k
			}
			cp, ci, pos := permutedUpper(n, pinv, rows, cols)
			for t2, i := range rows {
				a, b := pinv[i], pinv[cols[t2]]
				if p := pos[t2]; ci[p] != min(a, b) || p < cp[max(a, b)] || p >= cp[max(a, b)+1] {
					t.Fatalf("trial %d: entry (%d, %d) stored at %d, wrong place", trial, i, cols[t2], p)
				}
			}
			for k := range n { // rows increase within a column, the diagonal last
				if c := ci[cp[k]:cp[k+1]]; len(c) == 0 || c[len(c)-1] != k || !slices.IsSorted(c) || len(slices.Compact(slices.Clone(c))) != len(c) {
					t.Fatalf("trial %d: column %d of C holds rows %v, want increasing up to %d", trial, k, c, k)
				}
			}
			parent := eliminationTree(cp, ci)
			rp, ri := rowPatterns(cp, ci, parent)
			if c := factorCount(cp, ci, parent); c != len(ri) {
				t.Fatalf("trial %d: factorCount = %d, rowPatterns hold %d", trial, c, len(ri))
			}
			filled := denseFill(n, cp, ci)
			for k := range n {
				row := slices.Clone(ri[rp[k]:rp[k+1]])
				pos := make(map[int]int, len(row))
				for q, j := range row {
					pos[j] = q
				}
				for _, j := range row { // every node before its parent, if that is in the row
					if pj, ok := pos[parent[j]]; ok && pj < pos[j] {
						t.Fatalf("trial %d row %d: %d after its parent %d", trial, k, j, parent[j])
					}
				}
				slices.Sort(row)
				if !slices.Equal(row, filled[k]) {
					t.Fatalf("trial %d: row %d of L has pattern %v, dense elimination %v", trial, k, row, filled[k])
				}
			}
			for j := range n { // parent[j] = first off-diagonal row of column j of L
				first := -1
				for k := j + 1; k < n && first < 0; k++ {
					if slices.Contains(filled[k], j) {
						first = k
					}
				}
				if parent[j] != first {
					t.Fatalf("trial %d: parent[%d] = %d, first row of column = %d", trial, j, parent[j], first)
				}
			}
		}
	}
}

// TestSparseOrderingDenseNode: a node adjacent to every other one (a constraint on all
// bodies) exceeds AMD's dense threshold max(16, 10√n) and is ordered last, where it adds
// one dense row to L instead of a dense front at every step.
func TestSparseOrderingDenseNode(t *testing.T) {
	const n = 500
	adj := make([][]int, n)
	for i := 1; i < n; i++ {
		adj[0] = append(adj[0], i) // node 0: the hub
		adj[i] = append(adj[i], 0)
		if i+1 < n {
			adj[i] = append(adj[i], i+1)
			adj[i+1] = append(adj[i+1], i)
		}
	}
	order := minimumDegree(adj)
	checkPermutation(t, order, n)
	if order[n-1] != 0 {
		t.Errorf("hub ordered at %d, want last (%d)", slices.Index(order, 0), n-1)
	}
}

// denseFill eliminates the symmetric pattern (upper triangle by columns) in order and
// returns, for each row k, the sorted columns j < k that are nonzero in L.
func denseFill(n int, cp, ci []int) [][]int {
	nz := make([][]bool, n)
	for i := range nz {
		nz[i] = make([]bool, n)
	}
	for j := range n {
		for p := cp[j]; p < cp[j+1]; p++ {
			nz[ci[p]][j], nz[j][ci[p]] = true, true
		}
	}
	for k := range n {
		for i := k + 1; i < n; i++ {
			for j := k + 1; j < n; j++ {
				if nz[i][k] && nz[k][j] {
					nz[i][j] = true
				}
			}
		}
	}
	out := make([][]int, n)
	for k := range n {
		for j := range k {
			if nz[k][j] {
				out[k] = append(out[k], j)
			}
		}
	}
	return out
}

func checkPermutation(t *testing.T, perm []int, n int) {
	t.Helper()
	s := slices.Sorted(slices.Values(perm))
	if len(s) != n {
		t.Fatalf("ordering has %d entries, want %d", len(s), n)
	}
	for i, v := range s {
		if v != i {
			t.Fatalf("ordering is not a permutation of 0..%d", n-1)
		}
	}
}

// TestSparseKKTDeltaFallback: the first factorization uses δ̃ = 2^-34 on regular
// systems; an indefinite A (not quasi-definite, pivots of both signs among the
// coordinates) triggers the second attempt with 2^-26, whose factorization is accepted
// and refined to rounding level because K itself is well conditioned.
func TestSparseKKTDeltaFallback(t *testing.T) {
	// K = [1 0 1; 0 −1 2; 1 2 0]: det = −a g2² − b g1² = −3 with A = diag(1, −1).
	A := mat.NewDiagDense(2, []float64{1, -1})
	G := mat.NewDense(1, 2, []float64{1, 2})
	k, err := NewSparseKKT(2, 1, nil, [][]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Factorize(A, G, 0); err != nil {
		t.Fatal(err)
	}
	if k.delta != sparseDeltaSafe {
		t.Errorf("indefinite A: δ̃ = %g, want the fallback %g", k.delta, sparseDeltaSafe)
	}
	x, y := []float64{1, 2}, []float64{3}
	k.Solve(x, y)
	// Exact solution of K z = (1, 2, 3): z = (−1, 2, 2).
	want := []float64{-1, 2, 2}
	for i, v := range append(x, y...) {
		// Backward error ≤ 4ε (refinement target) times κ∞(K) = 7.
		if math.Abs(v-want[i]) > 1e-14 {
			t.Errorf("solution %v, want %v", append(x, y...), want)
			break
		}
	}
	M := mat.NewDiagDense(2, []float64{1, 3})
	if err := k.Factorize(M, G, 0); err != nil {
		t.Fatal(err)
	}
	if k.delta != sparseDelta {
		t.Errorf("positive definite A: δ̃ = %g, want %g (no fallback)", k.delta, sparseDelta)
	}
}

// randomValues draws A and G on the mechanism's pattern: per body a random SPD 3×3 block
// scaled by 10^U(−span, span), with couple a rank-one spring of such a stiffness over
// the 6 coordinates of every joint between two bodies, and G uniform in [−1, 1].
func randomValues(rng *rand.Rand, m mechanism, joints []joint, couple bool, span float64) (A, G *mat.Dense) {
	scale := func() float64 { return math.Pow(10, span*(2*rng.Float64()-1)) }
	A = mat.NewDense(m.nq, m.nq, nil)
	for b := range m.nq / 3 {
		R := mat.NewDense(3, 3, nil)
		for i := range 3 {
			for j := range 3 {
				R.Set(i, j, 2*rng.Float64()-1)
			}
		}
		var blk mat.Dense
		blk.Mul(R.T(), R)
		sc := scale()
		for i := range 3 {
			blk.Set(i, i, blk.At(i, i)+1)
			for j := range 3 {
				A.Set(3*b+i, 3*b+j, sc*blk.At(i, j))
			}
		}
	}
	if couple {
		for _, j := range joints {
			if j.a < 0 {
				continue
			}
			cols := []int{3 * j.a, 3*j.a + 1, 3*j.a + 2, 3 * j.b, 3*j.b + 1, 3*j.b + 2}
			u := make([]float64, 6)
			for i := range u {
				u[i] = 2*rng.Float64() - 1
			}
			kb := scale()
			for a, ca := range cols {
				for b, cb := range cols {
					A.Set(ca, cb, A.At(ca, cb)+kb*u[a]*u[b])
				}
			}
		}
	}
	G = mat.NewDense(m.nc, m.nq, nil)
	for r, row := range m.gPat {
		for _, c := range row {
			G.Set(r, c, 2*rng.Float64()-1)
		}
	}
	return A, G
}

// kktBackwardError returns ‖K z − b‖∞ / (‖K‖∞‖z‖∞ + ‖b‖∞) for K = [A Gᵀ; G −d·I],
// computed densely, independently of SparseKKT.
func kktBackwardError(A, G *mat.Dense, d float64, z, b []float64) float64 {
	nq, _ := A.Dims()
	nc, _ := G.Dims()
	K := mat.NewDense(nq+nc, nq+nc, nil)
	K.Slice(0, nq, 0, nq).(*mat.Dense).Copy(A)
	K.Slice(0, nq, nq, nq+nc).(*mat.Dense).Copy(G.T())
	K.Slice(nq, nq+nc, 0, nq).(*mat.Dense).Copy(G)
	for i := range nc {
		K.Set(nq+i, nq+i, -d)
	}
	var r mat.VecDense
	r.MulVec(K, mat.NewVecDense(len(z), z))
	r.SubVec(&r, mat.NewVecDense(len(b), b))
	bn, zn := 0.0, 0.0
	for i := range b {
		bn, zn = max(bn, math.Abs(b[i])), max(zn, math.Abs(z[i]))
	}
	return mat.Norm(&r, math.Inf(1)) / (mat.Norm(K, math.Inf(1))*zn + bn)
}

// TestSparseKKTMechanisms solves on trees, ladders and grids (the orderings differ from
// a chain's: constraints of loops meet several bodies' coordinates), well scaled and
// with masses, inertias and springs spanning 1e-6..1e6 (brief item 3: ≤ 1e-13 and
// ≤ 1e-10 after refinement).
func TestSparseKKTMechanisms(t *testing.T) {
	rng := rand.New(rand.NewPCG(101, 102))
	shapes := []struct {
		name   string
		nb     int
		joints []joint
	}{
		{"tree 31", 31, treeJoints(31)},
		{"ladder 12", 24, ladderJoints(12)},
		{"grid 6×6", 36, gridJoints(6)},
	}
	for _, sh := range shapes {
		for _, couple := range []bool{false, true} {
			m := newMechanism(sh.nb, sh.joints, couple)
			k, err := NewSparseKKT(m.nq, m.nc, m.aPat, m.gPat)
			if err != nil {
				t.Fatal(err)
			}
			for trial := range 10 {
				for _, c := range []struct{ span, d, tol float64 }{{0, 0, 1e-13}, {0, 0.1, 1e-13}, {6, 0, 1e-10}, {6, 1e-6, 1e-10}} {
					A, G := randomValues(rng, m, sh.joints, couple, c.span)
					if err := k.Factorize(A, G, c.d); err != nil {
						t.Fatalf("%s couple=%v: %v", sh.name, couple, err)
					}
					z := make([]float64, m.nq+m.nc)
					for i := range z {
						z[i] = 2*rng.Float64() - 1
					}
					b := slices.Clone(z)
					k.Solve(z[:m.nq], z[m.nq:])
					if be := kktBackwardError(A, G, c.d, z, b); be > c.tol {
						t.Errorf("%s couple=%v trial %d span %g d %g: backward error %.3g after %d refinements, want ≤ %g",
							sh.name, couple, trial, c.span, c.d, be, k.Refinements(), c.tol)
					}
				}
			}
		}
	}
}

// TestSymmetricAdjacency checks the graph of A + Aᵀ built by merges against the sorted
// union of each row's columns and column's rows, and that the upper-triangle pairs
// SparseLU's ordering takes from it are those of the per-column appends and sorts it
// replaced, in the same order, with adjacency giving back the same lists: random
// patterns, unsymmetric and symmetric, rows with and without their diagonal, empty rows.
func TestSymmetricAdjacency(t *testing.T) {
	rng := rand.New(rand.NewPCG(83, 84))
	for trial := range 40 {
		n := 1 + rng.IntN(50)
		density := rng.Float64() * 0.2
		pattern := make([][]int, n)
		for i := range n {
			for j := range n {
				if rng.Float64() < density || (i == j && rng.IntN(3) > 0) {
					pattern[i] = append(pattern[i], j)
				}
			}
		}
		if trial%2 == 1 { // symmetric, as KKT and hht's Newton patterns (mergeInto's shortcut)
			for i := range n {
				for _, j := range pattern[i] {
					if !slices.Contains(pattern[j], i) {
						pattern[j] = append(pattern[j], i)
					}
				}
			}
			for i := range n {
				slices.Sort(pattern[i])
			}
		}
		arp := make([]int, n+1)
		for i, row := range pattern {
			arp[i+1] = arp[i] + len(row)
		}
		acol := slices.Concat(pattern...)
		adj := symmetricAdjacency(n, arp, acol)
		upper := make([][]int, n) // as order built it before
		for i, row := range pattern {
			for _, j := range row {
				if i != j {
					upper[max(i, j)] = append(upper[max(i, j)], min(i, j))
				}
			}
		}
		var rows, cols []int
		for j, col := range upper {
			slices.Sort(col)
			for _, i := range slices.Compact(col) {
				rows, cols = append(rows, i), append(cols, j)
			}
			rows, cols = append(rows, j), append(cols, j)
		}
		want := adjacency(n, rows, cols)
		for i := range n {
			union := slices.Clone(pattern[i])
			for r := range n {
				if slices.Contains(pattern[r], i) {
					union = append(union, r)
				}
			}
			slices.Sort(union)
			union = slices.DeleteFunc(slices.Compact(union), func(j int) bool { return j == i })
			if !slices.Equal(adj[i], union) || !slices.Equal(want[i], union) {
				t.Fatalf("trial %d: node %d: merged %v, adjacency %v, want %v", trial, i, adj[i], want[i], union)
			}
			if len(adj[i]) != cap(adj[i]) {
				t.Fatalf("trial %d: node %d: list of %d with capacity %d", trial, i, len(adj[i]), cap(adj[i]))
			}
		}
		var r2, c2 []int
		for j, l := range adj {
			for _, i := range l[:lowerCount(l, j)] {
				r2, c2 = append(r2, i), append(c2, j)
			}
			r2, c2 = append(r2, j), append(c2, j)
		}
		if !slices.Equal(rows, r2) || !slices.Equal(cols, c2) {
			t.Fatalf("trial %d: upper pairs differ", trial)
		}
	}
}
