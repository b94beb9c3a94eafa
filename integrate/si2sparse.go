package integrate

import (
	"slices"

	"linkage/dae"
)

// si2Sparse holds the stabilized index-2 blocks of generalized-α's Newton matrix (after
// seed 002 eq. 94) on the sparse evaluation path, with unknowns (Δq, hλ, μ):
//
//	J13 = (C M − h(γ/β) f_v) G(q_n)ᵀ,   J31 = (γ/β) G(q₁),   J33 = (γ/β) G(q₁) G(q_n)ᵀ,
//
// as lists of products over the patterns, planned once, each (row, column) sum taken in
// the dense loops' order (ascending inner index).
type si2Sparse struct {
	sp *sparseEval
	g0 []float64 // G(q_n) as values on G's pattern

	colPos [][]int // per column j of G, the positions of its entries, by ascending row
	colRow [][]int // and their rows

	// J13: for each term, the positions in M's values (−1: none) and in the coupling's
	// (−1: none) of A_ij, in G's of G0_kj, and in the LU's of (i, nq+nc+k).
	t13m, t13c, t13g, t13k []int
	// J33: positions in G's values of G1_ki and G0_li, and in the LU's of (nq+nc+k,
	// nq+nc+l); j33 lists the distinct LU positions, scaled by γ/β once summed.
	t33a, t33b, t33k, j33 []int
	j31                   []int // G(q₁) at (nq+nc+k, i)
}

func newSI2Sparse(sp *sparseEval, k *dae.CSR) *si2Sparse {
	nq, nc := sp.nq, sp.nc
	x := &si2Sparse{sp: sp, g0: make([]float64, sp.con.NNZ()), colPos: make([][]int, nq), colRow: make([][]int, nq)}
	con := &sp.con
	for r := range con.NRows {
		for t, j := range con.Row(r) {
			x.colPos[j] = append(x.colPos[j], con.RowStart[r]+t)
			x.colRow[j] = append(x.colRow[j], r)
		}
	}
	rowOf := make([]int, con.NNZ())
	for r := range con.NRows {
		for t := con.RowStart[r]; t < con.RowStart[r+1]; t++ {
			rowOf[t] = r
		}
	}
	find := func(r, c int) int {
		p := k.Find(r, c)
		if p < 0 {
			panic("integrate: genalpha-si2: Newton matrix pattern misses a J13 or J33 entry")
		}
		return p
	}
	for i := range nq {
		cols := slices.Concat(sp.mass.Row(i), sp.coup.Row(i))
		slices.Sort(cols)
		cols = slices.Compact(cols)
		for _, j := range cols {
			mp, cp := sp.mass.Find(i, j), sp.coup.Find(i, j)
			for _, gp := range x.colPos[j] {
				x.t13m = append(x.t13m, mp)
				x.t13c = append(x.t13c, cp)
				x.t13g = append(x.t13g, gp)
				x.t13k = append(x.t13k, find(i, nq+nc+rowOf[gp]))
			}
		}
	}
	seen := make([]bool, k.NNZ())
	for r := range con.NRows {
		for t, i := range con.Row(r) {
			for _, gp := range x.colPos[i] {
				p := find(nq+nc+r, nq+nc+rowOf[gp])
				x.t33a = append(x.t33a, con.RowStart[r]+t)
				x.t33b = append(x.t33b, gp)
				x.t33k = append(x.t33k, p)
				if !seen[p] {
					seen[p] = true
					x.j33 = append(x.j33, p)
				}
			}
		}
	}
	x.j31 = scatterMap(k, con, nq+nc, 0, false)
	return x
}

// addG0TColumn returns s + Σ_k G(q_n)_ki μ_k, summed by ascending k.
func (x *si2Sparse) addG0TColumn(s float64, i int, mu []float64) float64 {
	for t, p := range x.colPos[i] {
		s += x.g0[p] * mu[x.colRow[i][t]]
	}
	return s
}

// blocks adds J13, J31 and J33 to the LU's values K, with cM = C, hgb = h γ/β, gb = γ/β
// and sp.C holding f_v.
func (x *si2Sparse) blocks(K []float64, cM, hgb, gb float64) {
	sp := x.sp
	for t, p := range x.t13k {
		var m, f float64
		if x.t13m[t] >= 0 {
			m = sp.M[x.t13m[t]]
		}
		if x.t13c[t] >= 0 {
			f = sp.C[x.t13c[t]]
		}
		K[p] += (cM*m - hgb*f) * x.g0[x.t13g[t]]
	}
	scatterAdd(K, x.j31, sp.G, gb)
	for t, p := range x.t33k {
		K[p] += sp.G[x.t33a[t]] * x.g0[x.t33b[t]]
	}
	for _, p := range x.j33 {
		K[p] *= gb
	}
}
